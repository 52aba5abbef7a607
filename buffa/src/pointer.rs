//! How a singular sub-message is stored: the [`ProtoBox`] abstraction, the
//! default `Box<T>`, and [`Inline<T>`].

use alloc::boxed::Box;
use core::fmt;
use core::ops::{Deref, DerefMut};

/// A pointer-like owner of a sub-message value.
///
/// [`MessageField<T, P>`](crate::MessageField) stores its value through a
/// `P: ProtoBox<T>`. The runtime only ever builds, borrows and unwraps the
/// value through these four operations, so `P` may be a heap pointer
/// (`Box<T>`, the default), the value itself ([`Inline<T>`]), or a user's own
/// type: an arena or pool handle, a small-box, a reference-counted copy-on-
/// write pointer. Code generation picks `P` per field (see `buffa-build`).
pub trait ProtoBox<T>: Sized {
    /// Whether [`ProtoBox::from_value`] allocates on the heap. Decoding
    /// charges `size_of::<T>()` to the allocation budget of
    /// [`DecodeOptions`](crate::DecodeOptions) for every value it stores
    /// through a pointer that does; the conservative default suits most
    /// pointer types.
    const ALLOCATES: bool = true;

    /// Takes ownership of `value`.
    fn from_value(value: T) -> Self;

    /// Borrows the value.
    fn get(&self) -> &T;

    /// Borrows the value mutably.
    fn get_mut(&mut self) -> &mut T;

    /// Gives the value back.
    fn into_value(self) -> T;
}

impl<T> ProtoBox<T> for Box<T> {
    #[inline]
    fn from_value(value: T) -> Self {
        Box::new(value)
    }

    #[inline]
    fn get(&self) -> &T {
        self
    }

    #[inline]
    fn get_mut(&mut self) -> &mut T {
        self
    }

    #[inline]
    fn into_value(self) -> T {
        *self
    }
}

/// A [`ProtoBox`] that stores the value in place: no heap allocation, at the
/// price of making the containing struct as large as `T` even when the field
/// is unset.
///
/// It is a `repr(transparent)` newtype rather than `T` itself so that it can
/// implement [`ProtoBox`] without conflicting with user types, and so that
/// `MessageField<T, Inline<T>>` has exactly the layout of `Option<T>`.
/// A field may only be inline when its message type does not contain itself
/// through singular fields, which code generation checks.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Inline<T>(pub T);

impl<T> ProtoBox<T> for Inline<T> {
    const ALLOCATES: bool = false;

    #[inline]
    fn from_value(value: T) -> Self {
        Inline(value)
    }

    #[inline]
    fn get(&self) -> &T {
        &self.0
    }

    #[inline]
    fn get_mut(&mut self) -> &mut T {
        &mut self.0
    }

    #[inline]
    fn into_value(self) -> T {
        self.0
    }
}

impl<T> Deref for Inline<T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Inline<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for Inline<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2024::*;

    use super::*;

    #[test]
    fn inline_is_transparent() {
        assert_eq!(core::mem::size_of::<Inline<[u64; 3]>>(), 24);
        assert_eq!(core::mem::size_of::<Option<Inline<Box<u8>>>>(), 8);
        let mut inline = Inline::from_value(5);
        *ProtoBox::get_mut(&mut inline) += 1;
        assert_eq!(*ProtoBox::get(&inline), 6);
        assert_eq!(ProtoBox::into_value(inline), 6);
    }

    #[test]
    fn box_round_trips() {
        let mut boxed: Box<String> = ProtoBox::from_value("a".to_owned());
        ProtoBox::get_mut(&mut boxed).push('b');
        assert_eq!(ProtoBox::into_value(boxed), "ab");
    }
}
