//! [`Any`]: packing a message with its type URL, and unpacking it.

use buffa::{DecodeError, Message};

use crate::Any;

impl Any {
    /// The prefix [`Any::pack`] puts before the message's full name.
    pub const TYPE_URL_PREFIX: &'static str = "type.googleapis.com/";

    /// Packs `message`: its encoding, under the type URL
    /// `type.googleapis.com/<full name>` (e.g.
    /// `type.googleapis.com/google.protobuf.Timestamp`).
    ///
    /// # Panics
    ///
    /// When `message` cannot be encoded, as [`Message::encode_to_vec`]
    /// does: it is longer than 2 GiB or nested deeper than the default
    /// recursion limit.
    pub fn pack<M: Message>(message: &M) -> Any {
        Any {
            type_url: format!("{}{}", Self::TYPE_URL_PREFIX, M::NAME),
            value: message.encode_to_vec(),
            ..Default::default()
        }
    }

    /// The full name of the packed message's type: the part of the type URL
    /// after its last `/` (all of it when there is none), e.g.
    /// `google.protobuf.Timestamp`.
    pub fn type_name(&self) -> &str {
        self.type_url
            .rsplit_once('/')
            .map_or(self.type_url.as_str(), |(_, name)| name)
    }

    /// Whether the packed message is an `M`: [`Any::type_name`] is `M`'s
    /// full name, whatever the URL's prefix.
    pub fn is<M: Message>(&self) -> bool {
        self.type_name() == M::NAME
    }

    /// Decodes the packed message as an `M`: `Ok(None)` when it is of
    /// another type (see [`Any::is`]), an error when its bytes are not a
    /// valid `M`.
    pub fn unpack<M: Message>(&self) -> Result<Option<M>, DecodeError> {
        if !self.is::<M>() {
            return Ok(None);
        }
        M::decode_from_slice(&self.value).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Duration, Timestamp};

    fn timestamp() -> Timestamp {
        Timestamp {
            seconds: 1_700_000_000,
            nanos: 5,
            ..Default::default()
        }
    }

    #[test]
    fn pack_and_unpack_round_trip() {
        let any = Any::pack(&timestamp());
        assert_eq!(
            any.type_url,
            "type.googleapis.com/google.protobuf.Timestamp"
        );
        assert_eq!(any.value, timestamp().encode_to_vec());
        assert_eq!(any.type_name(), "google.protobuf.Timestamp");
        assert!(any.is::<Timestamp>());
        assert_eq!(any.unpack::<Timestamp>().unwrap(), Some(timestamp()));
    }

    #[test]
    fn another_type_unpacks_to_none() {
        let any = Any::pack(&timestamp());
        assert!(!any.is::<Duration>());
        assert_eq!(any.unpack::<Duration>().unwrap(), None);
    }

    #[test]
    fn only_the_name_after_the_last_slash_counts() {
        let mut any = Any::pack(&timestamp());
        any.type_url = "example.com/types/google.protobuf.Timestamp".into();
        assert_eq!(any.type_name(), "google.protobuf.Timestamp");
        assert_eq!(any.unpack::<Timestamp>().unwrap(), Some(timestamp()));
        any.type_url = "google.protobuf.Timestamp".into();
        assert!(any.is::<Timestamp>());
        // A name that merely ends like the type's is another type.
        any.type_url = "type.googleapis.com/x.google.protobuf.Timestamp".into();
        assert!(!any.is::<Timestamp>());
    }

    #[test]
    fn bad_bytes_of_the_right_type_are_an_error() {
        let mut any = Any::pack(&timestamp());
        // A length-delimited field 1 whose length runs past the end.
        any.value = vec![0x0a, 0x05, 0x01];
        assert!(any.unpack::<Timestamp>().is_err());
    }
}
