//! [`MessageField`]: an optional singular sub-message.

use alloc::boxed::Box;
use core::fmt;
use core::marker::PhantomData;
use core::ops::Deref;

use crate::message::Message;
use crate::pointer::ProtoBox;

/// An optional singular sub-message field, stored through the pointer `P`.
///
/// Reading an unset field gives the message's default instance, as in every
/// other protobuf implementation, so `outer.inner.value` works without
/// unwrapping; presence is still observable through
/// [`MessageField::is_set`] and [`MessageField::as_option`]. Writing goes
/// through [`MessageField::get_or_insert_default`] or [`MessageField::set`].
///
/// `P` decides where the value lives: `Box<T>` (the default) on the heap,
/// [`Inline<T>`](crate::Inline) in place, or any other [`ProtoBox`].
pub struct MessageField<T, P: ProtoBox<T> = Box<T>> {
    value: Option<P>,
    marker: PhantomData<fn() -> T>,
}

impl<T, P: ProtoBox<T>> MessageField<T, P> {
    /// An unset field.
    #[inline]
    pub const fn none() -> Self {
        MessageField {
            value: None,
            marker: PhantomData,
        }
    }

    /// A set field holding `value`.
    #[inline]
    pub fn some(value: T) -> Self {
        MessageField {
            value: Some(P::from_value(value)),
            marker: PhantomData,
        }
    }

    /// Whether the field is set.
    #[inline]
    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }

    /// The value if the field is set.
    #[inline]
    pub fn as_option(&self) -> Option<&T> {
        self.value.as_ref().map(P::get)
    }

    /// The value, mutably, if the field is set.
    #[inline]
    pub fn as_option_mut(&mut self) -> Option<&mut T> {
        self.value.as_mut().map(P::get_mut)
    }

    /// Sets the field to `value`, replacing any previous value.
    #[inline]
    pub fn set(&mut self, value: T) {
        self.value = Some(P::from_value(value));
    }

    /// Unsets the field and returns its value, if it was set.
    #[inline]
    pub fn take(&mut self) -> Option<T> {
        self.value.take().map(P::into_value)
    }

    /// Unsets the field.
    #[inline]
    pub fn clear(&mut self) {
        self.value = None;
    }

    /// Consumes the field, returning its value if it was set.
    #[inline]
    pub fn into_option(self) -> Option<T> {
        self.value.map(P::into_value)
    }

    /// Consumes the field, returning its value: for code that knows the
    /// field is set (a test, or a message just built or validated).
    ///
    /// ```
    /// # use buffa::MessageField;
    /// # #[derive(Debug, PartialEq)] struct Point { x: i32 }
    /// let field: MessageField<Point> = MessageField::some(Point { x: 1 });
    /// assert_eq!(field.unwrap(), Point { x: 1 });
    /// ```
    ///
    /// # Panics
    ///
    /// If the field is unset. Reading through the field (`field.x`) gives
    /// the default instance instead, and [`MessageField::into_option`]
    /// gives `None`.
    #[inline]
    #[track_caller]
    pub fn unwrap(self) -> T {
        match self.value {
            Some(pointer) => pointer.into_value(),
            None => panic!("called `MessageField::unwrap()` on an unset field"),
        }
    }

    /// Consumes the field, returning its value; as
    /// [`MessageField::unwrap`], with `message` as the panic message.
    ///
    /// # Panics
    ///
    /// If the field is unset, with `message`.
    #[inline]
    #[track_caller]
    pub fn expect(self, message: &str) -> T {
        match self.value {
            Some(pointer) => pointer.into_value(),
            None => panic!("{message}"),
        }
    }

    /// The pointer holding the value, if the field is set.
    #[inline]
    pub fn as_pointer(&self) -> Option<&P> {
        self.value.as_ref()
    }
}

impl<T: Default, P: ProtoBox<T>> MessageField<T, P> {
    /// The value, mutably, first setting the field to the default instance
    /// if it is unset.
    #[inline]
    pub fn get_or_insert_default(&mut self) -> &mut T {
        self.value
            .get_or_insert_with(|| P::from_value(T::default()))
            .get_mut()
    }
}

/// A type whose shared default value unset fields read as: every
/// [`Message`] (its [`Message::default_instance`]) and every generated
/// view. **Support API**: generated views implement it.
#[doc(hidden)]
pub trait DefaultRef {
    /// The shared default value.
    fn default_ref<'r>() -> &'r Self
    where
        Self: 'r;
}

impl<M: Message> DefaultRef for M {
    #[inline]
    fn default_ref<'r>() -> &'r M
    where
        M: 'r,
    {
        M::default_instance()
    }
}

impl<T: DefaultRef, P: ProtoBox<T>> Deref for MessageField<T, P> {
    type Target = T;

    /// The value, or the default instance when unset.
    #[inline]
    fn deref(&self) -> &T {
        match &self.value {
            Some(pointer) => pointer.get(),
            None => T::default_ref(),
        }
    }
}

impl<T, P: ProtoBox<T>> Default for MessageField<T, P> {
    #[inline]
    fn default() -> Self {
        MessageField::none()
    }
}

impl<T, P: ProtoBox<T>> From<T> for MessageField<T, P> {
    #[inline]
    fn from(value: T) -> Self {
        MessageField::some(value)
    }
}

impl<T, P: ProtoBox<T>> From<Option<T>> for MessageField<T, P> {
    #[inline]
    fn from(value: Option<T>) -> Self {
        MessageField {
            value: value.map(P::from_value),
            marker: PhantomData,
        }
    }
}

impl<T, P: ProtoBox<T> + Clone> Clone for MessageField<T, P> {
    fn clone(&self) -> Self {
        MessageField {
            value: self.value.clone(),
            marker: PhantomData,
        }
    }
}

/// Two fields are equal when both are unset, or both are set to equal
/// values: presence is part of a message's value.
impl<T: PartialEq, P: ProtoBox<T>> PartialEq for MessageField<T, P> {
    fn eq(&self, other: &Self) -> bool {
        self.as_option() == other.as_option()
    }
}

impl<T: Eq, P: ProtoBox<T>> Eq for MessageField<T, P> {}

impl<T: core::hash::Hash, P: ProtoBox<T>> core::hash::Hash for MessageField<T, P> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_option().hash(state);
    }
}

impl<T: fmt::Debug, P: ProtoBox<T>> fmt::Debug for MessageField<T, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_option() {
            Some(value) => f.debug_tuple("Some").field(value).finish(),
            None => f.write_str("None"),
        }
    }
}
