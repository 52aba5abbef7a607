//! [`BytesStr`]: an immutable UTF-8 string that shares a [`Bytes`] buffer.

use alloc::borrow::ToOwned;
use alloc::string::String;
use core::borrow::Borrow;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Deref;
use core::str::Utf8Error;

use bytes::Bytes;

/// An immutable, cheaply cloned UTF-8 string backed by [`Bytes`].
///
/// This is to `&str` what [`Bytes`] is to `&[u8]`: an owned, `'static`,
/// `Send + Sync` handle that may point into a larger reference-counted
/// buffer. Cloning it, or slicing it out of that buffer, copies no text.
/// Generated code uses it for `string` fields chosen with buffa-build's
/// `string_type_in(StringRepr::BytesStr, ..)`: decoding such a message
/// with [`Message::decode_bytes`](crate::Message::decode_bytes) (or
/// [`Message::decode`](crate::Message::decode) from a `Bytes`) makes every
/// such string a slice of the input instead of a copy.
///
/// The text is checked to be UTF-8 when the value is built, never again:
/// every constructor either takes a `&str`/[`String`] or validates.
/// It dereferences to [`str`], so every `str` method works on it, and it
/// compares, orders and hashes exactly as the `str` it holds (so a
/// `HashMap<BytesStr, V>` can be searched with a `&str`).
///
/// ```
/// use buffa::BytesStr;
///
/// let greeting = BytesStr::from_static("hello, world");
/// assert_eq!(greeting, "hello, world");
/// assert_eq!(greeting.len(), 12);
/// assert!(greeting.starts_with("hello"));
///
/// let copy = greeting.clone(); // shares the text
/// assert_eq!(copy.as_ptr(), greeting.as_ptr());
/// ```
///
/// Keeping one string sliced from a decoded buffer keeps the whole buffer
/// alive; convert it (`String::from(s.as_str())`) when only a small part of
/// a large input should outlive it.
#[derive(Clone, Default)]
pub struct BytesStr {
    /// Always valid UTF-8.
    bytes: Bytes,
}

impl BytesStr {
    /// An empty string; allocates nothing.
    ///
    /// ```
    /// assert!(buffa::BytesStr::new().is_empty());
    /// ```
    #[inline]
    pub const fn new() -> BytesStr {
        BytesStr {
            bytes: Bytes::new(),
        }
    }

    /// A string pointing at static text, without copying or allocating.
    ///
    /// ```
    /// let s = buffa::BytesStr::from_static("fixed");
    /// assert_eq!(s.as_ptr(), "fixed".as_ptr());
    /// ```
    #[inline]
    pub const fn from_static(text: &'static str) -> BytesStr {
        BytesStr {
            bytes: Bytes::from_static(text.as_bytes()),
        }
    }

    /// The text as a string slice.
    ///
    /// ```
    /// let s = buffa::BytesStr::from("text");
    /// let slice: &str = s.as_str();
    /// assert_eq!(slice, "text");
    /// ```
    #[inline]
    pub fn as_str(&self) -> &str {
        // SAFETY: `bytes` is valid UTF-8: every constructor takes it from a
        // `str` (`from_static`, `From<&str>`, `From<String>`, `slice_of`,
        // the latter slicing exactly the bytes of a `str`) or checks it
        // (`TryFrom<Bytes>`), and nothing mutates it afterwards (`Bytes`
        // is immutable and the field is private).
        unsafe { core::str::from_utf8_unchecked(&self.bytes) }
    }

    /// The text as bytes.
    ///
    /// ```
    /// assert_eq!(buffa::BytesStr::from("ab").as_bytes(), b"ab");
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The underlying [`Bytes`], still sharing the buffer.
    ///
    /// ```
    /// let s = buffa::BytesStr::from_static("abc");
    /// let bytes = s.into_bytes();
    /// assert_eq!(bytes, &b"abc"[..]);
    /// ```
    #[inline]
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The part of `buffer` that `text` occupies, sharing `buffer`.
    ///
    /// Panics unless `text` lies within `buffer` (an empty `text` always
    /// does), as [`Bytes::slice_ref`] does.
    #[inline]
    pub(crate) fn slice_of(buffer: &Bytes, text: &str) -> BytesStr {
        // `slice_ref` returns the bytes at `text`'s own address and length,
        // that is, exactly `text`'s bytes: UTF-8.
        BytesStr {
            bytes: buffer.slice_ref(text.as_bytes()),
        }
    }
}

impl Deref for BytesStr {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for BytesStr {
    #[inline]
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for BytesStr {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for BytesStr {
    #[inline]
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<String> for BytesStr {
    /// Takes over the string's buffer without copying the text.
    ///
    /// ```
    /// let text = String::from("owned");
    /// let ptr = text.as_ptr();
    /// let shared = buffa::BytesStr::from(text);
    /// assert_eq!(shared.as_ptr(), ptr);
    /// ```
    #[inline]
    fn from(text: String) -> BytesStr {
        BytesStr {
            bytes: Bytes::from(text.into_bytes()),
        }
    }
}

impl From<&str> for BytesStr {
    /// Copies the text into a new buffer; use [`BytesStr::from_static`] for
    /// static text.
    ///
    /// ```
    /// let borrowed = String::from("borrowed");
    /// let copy = buffa::BytesStr::from(borrowed.as_str());
    /// assert_eq!(copy, borrowed);
    /// assert_ne!(copy.as_ptr(), borrowed.as_ptr());
    /// ```
    #[inline]
    fn from(text: &str) -> BytesStr {
        BytesStr {
            bytes: Bytes::copy_from_slice(text.as_bytes()),
        }
    }
}

impl From<BytesStr> for Bytes {
    #[inline]
    fn from(text: BytesStr) -> Bytes {
        text.into_bytes()
    }
}

impl From<BytesStr> for String {
    /// Copies the text.
    #[inline]
    fn from(text: BytesStr) -> String {
        text.as_str().to_owned()
    }
}

impl TryFrom<Bytes> for BytesStr {
    type Error = FromUtf8Error;

    /// Checks that `bytes` are UTF-8 and wraps them without copying.
    ///
    /// ```
    /// use buffa::BytesStr;
    /// use buffa::bytes::Bytes;
    ///
    /// let text = BytesStr::try_from(Bytes::from_static(b"ok")).unwrap();
    /// assert_eq!(text, "ok");
    ///
    /// let error = BytesStr::try_from(Bytes::from_static(b"a\xffb")).unwrap_err();
    /// assert_eq!(error.utf8_error().valid_up_to(), 1);
    /// assert_eq!(error.into_bytes(), &b"a\xffb"[..]);
    /// ```
    fn try_from(bytes: Bytes) -> Result<BytesStr, FromUtf8Error> {
        match core::str::from_utf8(&bytes) {
            Ok(_) => Ok(BytesStr { bytes }),
            Err(error) => Err(FromUtf8Error { bytes, error }),
        }
    }
}

impl fmt::Debug for BytesStr {
    /// Formats like `str`: quoted and escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for BytesStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl PartialEq for BytesStr {
    #[inline]
    fn eq(&self, other: &BytesStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for BytesStr {}

impl PartialOrd for BytesStr {
    #[inline]
    fn partial_cmp(&self, other: &BytesStr) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BytesStr {
    #[inline]
    fn cmp(&self, other: &BytesStr) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for BytesStr {
    /// Hashes like the `str` it holds, as [`Borrow<str>`] requires.
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

macro_rules! eq_with {
    ($($other:ty),*) => {$(
        impl PartialEq<$other> for BytesStr {
            #[inline]
            fn eq(&self, other: &$other) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }

        impl PartialEq<BytesStr> for $other {
            #[inline]
            fn eq(&self, other: &BytesStr) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}

eq_with!(str, &str, String);

/// The error of [`BytesStr::try_from`] a [`Bytes`] that is not UTF-8: the
/// bytes, given back, and where the UTF-8 check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromUtf8Error {
    bytes: Bytes,
    error: Utf8Error,
}

impl FromUtf8Error {
    /// Where the check failed ([`Utf8Error::valid_up_to`] is the length of
    /// the valid prefix).
    pub fn utf8_error(&self) -> Utf8Error {
        self.error
    }

    /// The bytes that were refused.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }
}

impl fmt::Display for FromUtf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bytes are not UTF-8: {}", self.error)
    }
}

impl core::error::Error for FromUtf8Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

#[cfg(test)]
mod tests {
    use std::format;
    use std::prelude::rust_2024::*;

    use std::collections::HashMap;
    use std::collections::hash_map::DefaultHasher;

    use super::*;

    fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
        let mut hasher = DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn constructors_keep_the_text() {
        let owned = String::from("héllo");
        let owned_ptr = owned.as_ptr();
        let from_string = BytesStr::from(owned);
        assert_eq!(from_string, "héllo");
        // `From<String>` takes the buffer over.
        assert_eq!(from_string.as_ptr(), owned_ptr);

        let borrowed = "wörld";
        let from_str = BytesStr::from(borrowed);
        assert_eq!(from_str, borrowed);
        assert_ne!(from_str.as_ptr(), borrowed.as_ptr(), "From<&str> copies");

        let from_static = BytesStr::from_static("static");
        assert_eq!(from_static.as_ptr(), "static".as_ptr());

        assert_eq!(BytesStr::default(), "");
        assert_eq!(BytesStr::new(), BytesStr::default());
        assert!(BytesStr::new().is_empty());
        assert_eq!(String::from(BytesStr::from_static("x")), "x");
        assert_eq!(Bytes::from(BytesStr::from_static("x")), &b"x"[..]);
    }

    #[test]
    fn try_from_bytes_validates() {
        // Valid: ASCII, multi-byte characters, empty, and a slice that
        // ends right after a four-byte character.
        for text in ["plain", "é€\u{10ffff}", "", "a\u{1F600}"] {
            let bytes = Bytes::copy_from_slice(text.as_bytes());
            let ptr = bytes.as_ptr();
            let value = BytesStr::try_from(bytes).unwrap();
            assert_eq!(value, text);
            assert_eq!(value.as_ptr(), ptr, "no copy");
        }
        // Invalid: a lone continuation byte, a truncated sequence at the
        // end, an overlong encoding, a surrogate.
        let cases: [(&[u8], usize); 4] = [
            (b"ab\x80", 2),
            (b"x\xe2\x82", 1),
            (b"\xc0\xaf", 0),
            (b"\xed\xa0\x80", 0),
        ];
        for (bytes, valid_up_to) in cases {
            let error = BytesStr::try_from(Bytes::from_static(bytes)).unwrap_err();
            assert_eq!(error.utf8_error().valid_up_to(), valid_up_to, "{bytes:?}");
            assert!(error.to_string().contains("not UTF-8"), "{error}");
            assert_eq!(error.into_bytes(), bytes);
        }
    }

    #[test]
    fn slices_share_the_buffer_and_read_as_their_text() {
        let buffer = Bytes::from("prefix é suffix".to_owned().into_bytes());
        let whole = core::str::from_utf8(&buffer).unwrap();
        // A slice through a multi-byte character's boundary is fine on the
        // `str` side; `slice_of` takes exactly those bytes.
        let middle = &whole[7..9];
        assert_eq!(middle, "é");
        let shared = BytesStr::slice_of(&buffer, middle);
        assert_eq!(shared, "é");
        assert_eq!(shared.as_ptr(), middle.as_ptr());
        // The last byte of the buffer, and an empty slice anywhere.
        let last = BytesStr::slice_of(&buffer, &whole[whole.len() - 1..]);
        assert_eq!(last, "x");
        let empty = BytesStr::slice_of(&buffer, &whole[3..3]);
        assert_eq!(empty, "");
        assert!(empty.is_empty());
        // The slices outlive the buffer handle they came from.
        drop(buffer);
        assert_eq!(shared.as_str(), "é");
        assert_eq!(last.len(), 1);
    }

    #[test]
    #[should_panic(expected = "subset")]
    fn slicing_text_outside_the_buffer_panics() {
        let buffer = Bytes::from_static(b"abc");
        let other = String::from("abcdef");
        BytesStr::slice_of(&buffer, &other[..2]);
    }

    #[test]
    fn compares_orders_and_hashes_like_str() {
        let words = ["", "a", "ab", "b", "é", "\u{0}", "Z"];
        for x in words {
            for y in words {
                let (bx, by) = (BytesStr::from(x), BytesStr::from(y));
                assert_eq!(bx == by, x == y);
                assert_eq!(bx.cmp(&by), x.cmp(y), "{x:?} {y:?}");
                assert_eq!(bx.partial_cmp(&by), x.partial_cmp(y));
            }
            let value = BytesStr::from(x);
            assert_eq!(hash_of(&value), hash_of(x));
            let string = x.to_owned();
            assert!(value == *x && value == x && value == string);
            assert!(*x == value && x == value && string == value);
        }
        let mut map = HashMap::new();
        map.insert(BytesStr::from_static("key"), 1);
        assert_eq!(map.get("key"), Some(&1));
    }

    #[test]
    fn formats_like_str() {
        let value = BytesStr::from("tab\there \"quoted\" é");
        assert_eq!(format!("{value:?}"), format!("{:?}", value.as_str()));
        assert_eq!(format!("{value}"), value.as_str());
        assert_eq!(format!("{value:>25}"), format!("{:>25}", value.as_str()));
    }

    #[test]
    fn is_send_sync_static_and_cheap_to_clone() {
        fn assert_traits<T: Send + Sync + Clone + 'static>() {}
        assert_traits::<BytesStr>();
        // No larger than `Bytes`, and `Option` uses its niche.
        assert_eq!(size_of::<BytesStr>(), size_of::<Bytes>());
        assert_eq!(size_of::<Option<BytesStr>>(), size_of::<BytesStr>());
        let value = BytesStr::from(String::from("shared"));
        let clone = value.clone();
        assert_eq!(clone.as_ptr(), value.as_ptr());
        let handle = std::thread::spawn(move || clone.to_uppercase());
        assert_eq!(handle.join().unwrap(), "SHARED");
        assert_eq!(value.into_bytes(), &b"shared"[..]);
    }
}
