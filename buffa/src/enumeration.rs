//! Generated enums and the open-enum wrapper [`EnumValue`].

use core::fmt;
use core::hash::Hash;

/// Implemented by every generated Rust enum for a protobuf enum.
pub trait Enumeration: Copy + Eq + Hash + fmt::Debug + Default + Send + Sync + 'static {
    /// The variant with this number, if the schema declares one.
    fn from_i32(value: i32) -> Option<Self>;

    /// The variant's number.
    fn to_i32(self) -> i32;

    /// The value's name as written in the .proto file.
    fn proto_name(self) -> &'static str;

    /// The variant with this .proto name, if any.
    fn from_proto_name(name: &str) -> Option<Self>;
}

/// The value of an open enum field: a declared variant, or a number the
/// schema does not (yet) declare.
///
/// Open enums (proto3, and editions with `enum_type = OPEN`) must keep
/// unrecognised numbers so that they survive a round trip; closed enums
/// (proto2) are stored as the plain enum and route unknown numbers to the
/// message's unknown fields instead.
///
/// Equality and hashing compare wire numbers, so `Unknown(n)` built by hand
/// for a declared `n` equals the corresponding `Known` variant.
#[derive(Clone, Copy)]
pub enum EnumValue<E> {
    /// A number the schema declares.
    Known(E),
    /// A number the schema does not declare.
    Unknown(i32),
}

impl<E: Enumeration> EnumValue<E> {
    /// Wraps a wire number, recognising declared variants.
    #[inline]
    pub fn from_i32(value: i32) -> EnumValue<E> {
        match E::from_i32(value) {
            Some(known) => EnumValue::Known(known),
            None => EnumValue::Unknown(value),
        }
    }

    /// The wire number.
    #[inline]
    pub fn to_i32(self) -> i32 {
        match self {
            EnumValue::Known(known) => known.to_i32(),
            EnumValue::Unknown(value) => value,
        }
    }

    /// The declared variant, or `None` for an unknown number.
    #[inline]
    pub fn known(self) -> Option<E> {
        match self {
            EnumValue::Known(known) => Some(known),
            EnumValue::Unknown(_) => None,
        }
    }

    /// Whether the number is one the schema declares.
    #[inline]
    pub fn is_known(self) -> bool {
        matches!(self, EnumValue::Known(_))
    }
}

impl<E: Enumeration> PartialEq for EnumValue<E> {
    fn eq(&self, other: &Self) -> bool {
        self.to_i32() == other.to_i32()
    }
}

impl<E: Enumeration> Eq for EnumValue<E> {}

impl<E: Enumeration> core::hash::Hash for EnumValue<E> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.to_i32().hash(state);
    }
}

impl<E: Enumeration> Default for EnumValue<E> {
    fn default() -> Self {
        EnumValue::Known(E::default())
    }
}

impl<E: Enumeration> From<E> for EnumValue<E> {
    fn from(value: E) -> Self {
        EnumValue::Known(value)
    }
}

impl<E: Enumeration> From<i32> for EnumValue<E> {
    fn from(value: i32) -> Self {
        EnumValue::from_i32(value)
    }
}

impl<E: Enumeration> PartialEq<E> for EnumValue<E> {
    fn eq(&self, other: &E) -> bool {
        *self == EnumValue::Known(*other)
    }
}

impl<E: Enumeration> fmt::Debug for EnumValue<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnumValue::Known(known) => fmt::Debug::fmt(known, f),
            EnumValue::Unknown(value) => write!(f, "Unknown({value})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::format;
    use std::prelude::rust_2024::*;

    use super::*;

    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    enum Color {
        #[default]
        Red = 0,
        Blue = 2,
    }

    impl Enumeration for Color {
        fn from_i32(value: i32) -> Option<Self> {
            match value {
                0 => Some(Color::Red),
                2 => Some(Color::Blue),
                _ => None,
            }
        }
        fn to_i32(self) -> i32 {
            self as i32
        }
        fn proto_name(self) -> &'static str {
            match self {
                Color::Red => "COLOR_RED",
                Color::Blue => "COLOR_BLUE",
            }
        }
        fn from_proto_name(name: &str) -> Option<Self> {
            match name {
                "COLOR_RED" => Some(Color::Red),
                "COLOR_BLUE" => Some(Color::Blue),
                _ => None,
            }
        }
    }

    #[test]
    fn keeps_unknown_numbers() {
        assert_eq!(EnumValue::<Color>::from_i32(2), Color::Blue);
        let unknown = EnumValue::<Color>::from_i32(7);
        assert_eq!(unknown, EnumValue::Unknown(7));
        assert_eq!(unknown.to_i32(), 7);
        assert_eq!(unknown.known(), None);
        assert_eq!(format!("{unknown:?}"), "Unknown(7)");
        assert_eq!(EnumValue::<Color>::default(), Color::Red);
        assert_eq!(EnumValue::<Color>::from(-3).to_i32(), -3);
        // Equality is by number, however the value was built.
        assert_eq!(
            EnumValue::<Color>::Unknown(2),
            EnumValue::Known(Color::Blue)
        );
    }
}
