//! Reading messages from JSON: the recursion limit, the field loop and one
//! reader per field shape, which generated `merge_json_field` calls.

use alloc::{borrow::ToOwned, format, string::String, vec::Vec};
use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;
use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::kind::{JsonKind, JsonMapKey};
use super::{DeserializeOptions, JsonMessage};
use crate::encoding::map::MapContainer;
use crate::message_field::MessageField;
use crate::pointer::ProtoBox;

/// The state of one JSON read: its options, how many more levels of
/// message nesting the recursion limit allows, and what is left of the
/// allocation budget.
#[derive(Clone, Copy, Debug)]
pub struct DeserializeCx<'a> {
    options: &'a DeserializeOptions,
    depth_left: u32,
    budget: &'a Cell<usize>,
}

impl<'a> DeserializeCx<'a> {
    /// The state at the start of a read whose allocation budget is kept in
    /// `budget` (see [`DeserializeCx::budget`]).
    pub fn new(options: &'a DeserializeOptions, budget: &'a Cell<usize>) -> DeserializeCx<'a> {
        DeserializeCx {
            options,
            depth_left: options.recursion_limit(),
            budget,
        }
    }

    /// The allocation budget a read under `options` starts with.
    pub fn budget(options: &DeserializeOptions) -> Cell<usize> {
        Cell::new(options.allocation_limit().unwrap_or(usize::MAX))
    }

    /// The options of the read.
    pub fn options(&self) -> &'a DeserializeOptions {
        self.options
    }

    /// Reads a message one level deeper, failing beyond the recursion limit.
    pub fn message<'de, M: JsonMessage, D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<M, D::Error> {
        let inner = self.enter::<D::Error>()?;
        M::deserialize_json(deserializer, inner)
    }

    /// The state one level of nesting deeper, or an error past the limit.
    /// Hand-written JSON forms that nest (`Struct`, `Value`, `ListValue`)
    /// call it for each level.
    pub fn enter<E: de::Error>(self) -> Result<DeserializeCx<'a>, E> {
        match self.depth_left.checked_sub(1) {
            Some(depth_left) => Ok(DeserializeCx { depth_left, ..self }),
            None => Err(E::custom(format_args!(
                "messages nested more than {} levels deep (the recursion limit)",
                self.options.recursion_limit()
            ))),
        }
    }

    /// Charges `bytes` of allocation to the budget, failing once it is
    /// spent.
    #[inline]
    pub fn charge<E: de::Error>(self, bytes: usize) -> Result<(), E> {
        match self.budget.get().checked_sub(bytes) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(E::custom(format_args!(
                "the decoded message would allocate more than the allocation limit of {} bytes",
                self.options.allocation_limit().unwrap_or(usize::MAX)
            ))),
        }
    }
}

/// Input text quoted in an error message, cut short after 64 characters
/// so that a hostile key does not make a huge message.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 64;
        match self.0.char_indices().nth(SHOWN) {
            Some((end, _)) => write!(f, "{:?}...", &self.0[..end]),
            None => write!(f, "{:?}", self.0),
        }
    }
}

/// A JSON object key, borrowed from the input when it has no escapes.
#[derive(Debug)]
pub struct Key<'de>(Cow<'de, str>);

impl core::ops::Deref for Key<'_> {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key<'de>, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }

        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Generated messages: find a field by JSON key, read one into the
/// message.
pub trait JsonFields: JsonMessage {
    /// The index of the field named `key` (its `json_name` or its .proto
    /// name; extensions as `[pkg.name]`), or `None` if it has none.
    fn json_field_index(key: &str) -> Option<u32>;

    /// Reads the value of field `index` (found by
    /// [`JsonFields::json_field_index`] under `key`) from `input` into
    /// `self`.
    fn merge_json_field<'de, A: MapAccess<'de>>(
        &mut self,
        index: u32,
        key: &str,
        input: &mut FieldReader<'_, 'de, A>,
    ) -> Result<(), A::Error>;
}

/// `JsonMessage::deserialize_json` of a generated message: a JSON object
/// whose fields are read by [`JsonFields::merge_json_field`].
pub fn deserialize_fields<'de, M: JsonFields, D: Deserializer<'de>>(
    deserializer: D,
    cx: DeserializeCx<'_>,
) -> Result<M, D::Error> {
    deserializer.deserialize_map(FieldsVisitor::<M> {
        cx,
        message: PhantomData,
    })
}

struct FieldsVisitor<'c, M> {
    cx: DeserializeCx<'c>,
    message: PhantomData<M>,
}

impl<'de, M: JsonFields> Visitor<'de> for FieldsVisitor<'_, M> {
    type Value = M;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a JSON object for message {}", M::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<M, A::Error> {
        let mut message = M::default();
        read_object(map, &mut GeneratedObject(&mut message), self.cx)?;
        Ok(message)
    }
}

/// A generated message as a [`JsonObject`]: fields by their generated
/// index.
struct GeneratedObject<'m, M>(&'m mut M);

impl<'de, M: JsonFields> JsonObject<'de> for GeneratedObject<'_, M> {
    type Field = u32;

    fn message_name(&self) -> &str {
        M::NAME
    }

    #[inline]
    fn find_field(&self, key: &str) -> Option<(u32, u32)> {
        M::json_field_index(key).map(|index| (index, index))
    }

    #[inline]
    fn read_field<A: MapAccess<'de>>(
        &mut self,
        index: u32,
        key: &str,
        map: &mut A,
        cx: DeserializeCx<'_>,
    ) -> Result<(), A::Error> {
        let mut input = FieldReader {
            map,
            cx,
            message: M::NAME,
            de: PhantomData,
        };
        self.0.merge_json_field(index, key, &mut input)
    }
}

/// One message's JSON object, as [`read_object`] reads it: how its keys
/// name fields, and how a field's value is read. Generated messages and
/// `buffa-reflect`'s reflected messages both implement it, so that both
/// read an object by the same rules.
pub trait JsonObject<'de> {
    /// A field, as [`JsonObject::find_field`] names it.
    type Field;

    /// The message's full protobuf name, for errors.
    fn message_name(&self) -> &str;

    /// The field `key` names (by its `json_name`, its .proto name, or
    /// `"[full.name]"` for an extension), with its slot: a small number
    /// unique to it among the message's fields and extensions, by which a
    /// field given twice (under either name) is refused. Slots should be
    /// dense from 0 (the set of read slots is a bitset); `None` if `key`
    /// names no field.
    fn find_field(&self, key: &str) -> Option<(Self::Field, u32)>;

    /// Reads the value of `field`, given under `key`, from `map` (whose
    /// next call must be `next_value` or `next_value_seed`).
    fn read_field<A: MapAccess<'de>>(
        &mut self,
        field: Self::Field,
        key: &str,
        map: &mut A,
        cx: DeserializeCx<'_>,
    ) -> Result<(), A::Error>;
}

/// Reads a message's JSON object into `object`, key by key: a key that
/// names no field is an error (or is skipped with its value under
/// [`ignore_unknown_fields`]), as is a field given twice (under either of
/// its names); both are raised while serde reads the key, so that the
/// error points at it. Every other value goes to
/// [`JsonObject::read_field`].
///
/// [`ignore_unknown_fields`]: super::DeserializeOptions::ignore_unknown_fields
#[inline]
pub fn read_object<'de, O: JsonObject<'de>, A: MapAccess<'de>>(
    mut map: A,
    object: &mut O,
    cx: DeserializeCx<'_>,
) -> Result<(), A::Error> {
    let mut seen = Seen::default();
    loop {
        let seed = FieldKey {
            object: &*object,
            seen: &mut seen,
            ignore_unknown: cx.options().ignore_unknown_fields(),
        };
        match map.next_key_seed(seed)? {
            Some((Some(field), key)) => object.read_field(field, &key, &mut map, cx)?,
            Some((None, _)) => {
                map.next_value::<IgnoredAny>()?;
            }
            None => return Ok(()),
        }
    }
}

/// The error for a value of a oneof member read after another member of
/// the same oneof: both forms of a message (generated and reflected)
/// refuse it with these words.
pub fn oneof_conflict(key: &str, message: &str, oneof: &str) -> String {
    format!("field {key:?} of {message} sets oneof {oneof:?}, which another field already set")
}

/// Reads a key of an object: its field (`None` for an unknown key skipped
/// under `ignore_unknown_fields`) and the key itself. Unknown keys
/// (otherwise) and keys of a field already read are errors, raised while
/// serde reads the key so that they point at it.
struct FieldKey<'s, O> {
    object: &'s O,
    seen: &'s mut Seen,
    ignore_unknown: bool,
}

impl<'de, O: JsonObject<'de>> DeserializeSeed<'de> for FieldKey<'_, O> {
    type Value = (Option<O::Field>, Key<'de>);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, O: JsonObject<'de>> FieldKey<'_, O> {
    fn resolve<E: de::Error>(self, key: Key<'de>) -> Result<(Option<O::Field>, Key<'de>), E> {
        match self.object.find_field(&key) {
            Some((field, slot)) if self.seen.mark(slot) => Ok((Some(field), key)),
            Some(_) => Err(E::custom(format_args!(
                "field {} of {} is given more than once",
                Quoted(&key),
                self.object.message_name()
            ))),
            None if self.ignore_unknown => Ok((None, key)),
            None => Err(E::custom(format_args!(
                "unknown field {} in message {}",
                Quoted(&key),
                self.object.message_name()
            ))),
        }
    }
}

impl<'de, O: JsonObject<'de>> Visitor<'de> for FieldKey<'_, O> {
    type Value = (Option<O::Field>, Key<'de>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a field name of message {}", self.object.message_name())
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        self.resolve(Key(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.resolve(Key(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        self.resolve(Key(Cow::Owned(v)))
    }
}

/// Which fields of a message have been read, to reject duplicates: a bit
/// per slot, inline for the first 128 (every field of almost every
/// message), so that reading most objects allocates nothing.
#[derive(Default)]
struct Seen {
    first: u128,
    more: Vec<u64>,
}

impl Seen {
    /// Marks `slot`; `false` if it was already marked.
    fn mark(&mut self, slot: u32) -> bool {
        let (word, bit) = match slot.checked_sub(128) {
            None => (&mut self.first, 1u128 << slot),
            Some(rest) => {
                let (word, bit) = ((rest / 64) as usize, 1u64 << (rest % 64));
                if self.more.len() <= word {
                    self.more.resize(word + 1, 0);
                }
                let before = self.more[word];
                self.more[word] |= bit;
                return before & bit == 0;
            }
        };
        let before = *word;
        *word |= bit;
        before & bit == 0
    }
}

/// The object of one message being read: hands each field's value to the
/// reader for its shape. Every reader takes the field's index in its
/// message (to reject a field given twice, also under its other name) and
/// the key it was given under (for errors).
pub struct FieldReader<'c, 'de, A> {
    map: A,
    cx: DeserializeCx<'c>,
    message: &'static str,
    de: PhantomData<&'de ()>,
}

/// A value read where `null` is allowed.
enum Read<T> {
    Null,
    /// To be skipped: an undeclared enum name under `ignore_unknown_fields`.
    Skip,
    Value(T),
}

/// Where a value that may be `null` is read, which decides what `null`
/// means and which values are errors. Errors are raised while serde reads
/// the value, so that they point at it.
#[derive(Clone, Copy)]
enum Place<'e> {
    /// A field: `null` means "not set" (or the type's null value).
    Field,
    /// A list element or map value of a type with a null value.
    Element,
    /// A oneof member after another member was set: any value (including
    /// a null that is a value) is the error given.
    Conflict(&'e str),
}

struct Nullable<'c, 'e, K> {
    cx: DeserializeCx<'c>,
    place: Place<'e>,
    kind: PhantomData<K>,
}

impl<'c, 'e, K> Nullable<'c, 'e, K> {
    fn new(cx: DeserializeCx<'c>, place: Place<'e>) -> Nullable<'c, 'e, K> {
        Nullable {
            cx,
            place,
            kind: PhantomData,
        }
    }
}

impl<'de, K: JsonKind> DeserializeSeed<'de> for Nullable<'_, '_, K> {
    type Value = Read<K::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, K: JsonKind> Visitor<'de> for Nullable<'_, '_, K> {
    type Value = Read<K::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        match (self.place, K::null()) {
            (Place::Conflict(error), Some(_)) => Err(E::custom(error)),
            _ => Ok(Read::Null),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        if let Place::Conflict(error) = self.place {
            return Err(de::Error::custom(error));
        }
        Ok(match K::deserialize(deserializer, self.cx)? {
            Some(value) => Read::Value(value),
            None => Read::Skip,
        })
    }
}

/// Reads a list element or map value: `None` to skip it. `null` is
/// read as the type's null value where it has one, and is otherwise left
/// to the type's reader, which refuses it where it stands.
fn element<'de, K: JsonKind, D: Deserializer<'de>>(
    deserializer: D,
    cx: DeserializeCx<'_>,
) -> Result<Option<K::Value>, D::Error> {
    if K::null().is_none() {
        return K::deserialize(deserializer, cx);
    }
    Ok(
        match Nullable::<K>::new(cx, Place::Element).deserialize(deserializer)? {
            Read::Value(value) => Some(value),
            Read::Skip => None,
            Read::Null => K::null(),
        },
    )
}

/// Reads one list element or map value through [`element`].
struct Element<'c, K>(DeserializeCx<'c>, PhantomData<K>);

impl<'de, K: JsonKind> DeserializeSeed<'de> for Element<'_, K> {
    type Value = Option<K::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        element::<K, D>(deserializer, self.0)
    }
}

impl<'de, A: MapAccess<'de>> FieldReader<'_, 'de, A> {
    fn value<K: JsonKind>(&mut self) -> Result<Read<K::Value>, A::Error> {
        self.map
            .next_value_seed(Nullable::<K>::new(self.cx, Place::Field))
    }

    /// A field without presence: `null` leaves the default.
    pub fn implicit<K: JsonKind>(&mut self, field: &mut K::Value) -> Result<(), A::Error> {
        match self.value::<K>()? {
            Read::Value(value) => *field = value,
            Read::Null => {
                if let Some(null) = K::null() {
                    *field = null;
                }
            }
            Read::Skip => {}
        }
        Ok(())
    }

    /// A scalar or enum with explicit presence: `null` leaves it unset.
    pub fn optional<K: JsonKind>(&mut self, field: &mut Option<K::Value>) -> Result<(), A::Error> {
        *field = match self.value::<K>()? {
            Read::Value(value) => Some(value),
            Read::Null => K::null(),
            Read::Skip => None,
        };
        Ok(())
    }

    /// A singular message field: `null` leaves it unset (except for
    /// `google.protobuf.Value`, where `null` is a value).
    pub fn message<T: JsonMessage, P: ProtoBox<T>>(
        &mut self,
        field: &mut MessageField<T, P>,
    ) -> Result<(), A::Error> {
        let value = match self.value::<super::kind::MessageKind<T>>()? {
            Read::Value(value) => value,
            Read::Null => match T::json_null() {
                Some(null) => null,
                None => return Ok(()),
            },
            Read::Skip => return Ok(()),
        };
        if P::ALLOCATES {
            self.cx.charge(size_of::<T>())?;
        }
        field.set(value);
        Ok(())
    }

    /// A oneof member: `Some` when it holds a value, which the caller
    /// stores. `set` says whether another member was already read, which
    /// makes a second value an error; `null` sets nothing.
    pub fn member<K: JsonKind>(
        &mut self,
        key: &str,
        oneof: &str,
        set: bool,
    ) -> Result<Option<K::Value>, A::Error> {
        let conflict;
        let place = if set {
            conflict = oneof_conflict(key, self.message, oneof);
            Place::Conflict(&conflict)
        } else {
            Place::Field
        };
        let value = match self
            .map
            .next_value_seed(Nullable::<K>::new(self.cx, place))?
        {
            Read::Value(value) => value,
            Read::Null => match K::null() {
                Some(null) => null,
                None => return Ok(None),
            },
            Read::Skip => return Ok(None),
        };
        // A message member may be boxed, which the runtime cannot tell.
        if K::IS_MESSAGE {
            self.cx.charge(size_of::<K::Value>())?;
        }
        Ok(Some(value))
    }

    /// A repeated field: a JSON array, or `null` for none.
    pub fn repeated<K: JsonKind>(&mut self, field: &mut Vec<K::Value>) -> Result<(), A::Error> {
        self.map.next_value_seed(ListSeed::<K> {
            cx: self.cx,
            list: field,
        })
    }

    /// A map field: a JSON object with stringified keys, or `null` for
    /// none.
    pub fn map<KK: JsonMapKey, VK: JsonKind, C: MapContainer<KK::Value, VK::Value>>(
        &mut self,
        field: &mut C,
    ) -> Result<(), A::Error> {
        self.map.next_value_seed(MapSeed::<KK, VK, C> {
            cx: self.cx,
            map: field,
            types: PhantomData,
        })
    }
}

struct ListSeed<'c, 'f, K: JsonKind> {
    cx: DeserializeCx<'c>,
    list: &'f mut Vec<K::Value>,
}

impl<'de, K: JsonKind> DeserializeSeed<'de> for ListSeed<'_, '_, K> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, K: JsonKind> Visitor<'de> for ListSeed<'_, '_, K> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array for a repeated field")
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        while let Some(read) = seq.next_element_seed(Element::<K>(self.cx, PhantomData))? {
            if let Some(value) = read {
                self.cx.charge(size_of::<K::Value>())?;
                self.list.push(value);
            }
        }
        Ok(())
    }
}

struct MapSeed<'c, 'f, KK, VK, C> {
    cx: DeserializeCx<'c>,
    map: &'f mut C,
    types: PhantomData<(KK, VK)>,
}

impl<'de, KK: JsonMapKey, VK: JsonKind, C: MapContainer<KK::Value, VK::Value>> DeserializeSeed<'de>
    for MapSeed<'_, '_, KK, VK, C>
{
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, KK: JsonMapKey, VK: JsonKind, C: MapContainer<KK::Value, VK::Value>> Visitor<'de>
    for MapSeed<'_, '_, KK, VK, C>
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object for a map field")
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        loop {
            let seed = MapKey::<KK, VK, C> {
                cx: self.cx,
                map: &*self.map,
                types: PhantomData,
            };
            let Some(key) = map.next_key_seed(seed)? else {
                return Ok(());
            };
            let read = map.next_value_seed(Element::<VK>(self.cx, PhantomData))?;
            if let Some(value) = read {
                self.cx.charge(size_of::<(KK::Value, VK::Value)>())?;
                self.map.insert_entry(key, value);
            }
        }
    }
}

/// Reads a map key: its string form parsed, refused if the map has it
/// already, while serde reads it so that errors point at it.
struct MapKey<'c, 'f, KK, VK, C> {
    cx: DeserializeCx<'c>,
    map: &'f C,
    types: PhantomData<(KK, VK)>,
}

impl<'de, KK: JsonMapKey, VK: JsonKind, C: MapContainer<KK::Value, VK::Value>> DeserializeSeed<'de>
    for MapKey<'_, '_, KK, VK, C>
{
    type Value = KK::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<KK::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, KK: JsonMapKey, VK: JsonKind, C: MapContainer<KK::Value, VK::Value>> Visitor<'de>
    for MapKey<'_, '_, KK, VK, C>
{
    type Value = KK::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<KK::Value, E> {
        let key = KK::parse_key(v).map_err(E::custom)?;
        // String keys allocate their text (charged for every key type).
        self.cx.charge(v.len())?;
        if self.map.contains(&key) {
            return Err(E::custom(format_args!(
                "map key {} is given more than once",
                Quoted(v)
            )));
        }
        Ok(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::{format, string::ToString};

    #[test]
    fn quoted_text_is_cut_short() {
        assert_eq!(Quoted("ab").to_string(), "\"ab\"");
        let long = "x".repeat(1000);
        assert_eq!(
            Quoted(&long).to_string(),
            format!("{:?}...", "x".repeat(64))
        );
    }

    #[test]
    fn seen_marks_each_index_once() {
        let mut seen = Seen::default();
        for index in [0, 5, 127, 128, 200, 1000] {
            assert!(seen.mark(index), "{index}");
            assert!(!seen.mark(index), "{index}");
        }
        assert!(seen.mark(1));
    }
}
