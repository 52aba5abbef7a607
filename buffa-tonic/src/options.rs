//! The buffa limits a codec runs under, chosen by a type parameter.

use buffa::{DecodeOptions, EncodeOptions};

/// The [`DecodeOptions`] and [`EncodeOptions`] a
/// [`BuffaCodec`](crate::BuffaCodec) uses, as constants of a type.
///
/// Generated services and clients build their codec with `Default`, so a
/// codec cannot carry options as values; its third type parameter names a
/// type implementing this trait instead. [`DefaultOptions`] keeps buffa's
/// defaults, the limits [`Message::decode`](buffa::Message::decode) and
/// [`Message::encode`](buffa::Message::encode) use. To decode with a
/// tighter recursion limit and an allocation budget:
///
/// ```
/// use buffa::DecodeOptions;
/// use buffa_tonic::{BuffaCodec, CodecOptions};
///
/// /// Limits for requests from untrusted clients.
/// pub struct Strict;
///
/// impl CodecOptions for Strict {
///     const DECODE: DecodeOptions = DecodeOptions::new()
///         .with_recursion_limit(16)
///         .with_allocation_limit(Some(16 << 20));
/// }
///
/// /// The codec generated code names with `Config::tonic_codec_path("crate::StrictCodec")`.
/// pub type StrictCodec<T, U> = BuffaCodec<T, U, Strict>;
/// ```
///
/// The size of each message is bounded by tonic, not here: servers and
/// clients refuse messages over `max_decoding_message_size` (4 MiB by
/// default) before the codec sees them.
pub trait CodecOptions: Send + Sync + 'static {
    /// The limits of decoding: [`DecodeOptions::new`] unless overridden.
    const DECODE: DecodeOptions = DecodeOptions::new();
    /// The limits and switches of encoding: [`EncodeOptions::new`] unless
    /// overridden (set `with_deterministic(true)` for map entries in key
    /// order).
    const ENCODE: EncodeOptions = EncodeOptions::new();
}

/// buffa's default options in both directions: a recursion limit of
/// [`buffa::DEFAULT_RECURSION_LIMIT`], no allocation budget beyond the
/// message's length, maps in iteration order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultOptions;

impl CodecOptions for DefaultOptions {}
