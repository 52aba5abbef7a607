//! `MessageField`: presence, default-instance reads, the whole API (the
//! panics of `unwrap` and `expect` included), and the
//! same behaviour over `Box<T>`, `Inline<T>` and a user-defined `ProtoBox`.
//! Also the size of small messages.

// The fixtures in `common/` hold a map field as a `HashMap`.
#![cfg(feature = "std")]

mod common;

use std::cell::{Cell, RefCell};
use std::mem::size_of;
use std::panic::{self, UnwindSafe};
use std::ptr;
use std::sync::Once;

use buffa::__private::message;
use buffa::wire::{Decoder, Encoder, SizeCache};
use buffa::{DecodeOptions, Inline, Message, MessageField, ProtoBox, UnknownFields};
use common::{Holder, Inner, Kitchen, Vector3, ld, vfield};

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static CREATED: Cell<usize> = const { Cell::new(0) };
}

fn live() -> isize {
    LIVE.with(Cell::get)
}

fn created() -> usize {
    CREATED.with(Cell::get)
}

/// A user-defined pointer: a heap box that counts how many are alive and
/// how many were ever created (on the current thread).
#[derive(Debug)]
struct CountedBox<T> {
    value: Option<Box<T>>,
}

impl<T> CountedBox<T> {
    fn new(value: T) -> Self {
        LIVE.with(|c| c.set(c.get() + 1));
        CREATED.with(|c| c.set(c.get() + 1));
        CountedBox {
            value: Some(Box::new(value)),
        }
    }
}

impl<T> Drop for CountedBox<T> {
    fn drop(&mut self) {
        LIVE.with(|c| c.set(c.get() - 1));
    }
}

impl<T: Clone> Clone for CountedBox<T> {
    fn clone(&self) -> Self {
        CountedBox::new(ProtoBox::get(self).clone())
    }
}

impl<T> ProtoBox<T> for CountedBox<T> {
    fn from_value(value: T) -> Self {
        CountedBox::new(value)
    }
    fn get(&self) -> &T {
        self.value.as_deref().unwrap()
    }
    fn get_mut(&mut self) -> &mut T {
        self.value.as_deref_mut().unwrap()
    }
    fn into_value(mut self) -> T {
        *self.value.take().unwrap()
    }
}

/// The message of the panic `f` raises, and the file the panic reports as
/// its location (the caller's, for a `#[track_caller]` function).
fn panic_of(f: impl FnOnce() + UnwindSafe) -> (String, String) {
    thread_local! {
        static FILE: RefCell<String> = const { RefCell::new(String::new()) };
    }
    // One hook for the whole binary, installed once: it notes where each
    // panic happened on its thread, then prints it as the default does.
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let file = info.location().map_or("", |at| at.file()).to_owned();
            FILE.with(|cell| *cell.borrow_mut() = file);
            default(info);
        }));
    });
    let payload = panic::catch_unwind(f).expect_err("f panics");
    let message = match (
        payload.downcast_ref::<&str>(),
        payload.downcast_ref::<String>(),
    ) {
        (Some(message), _) => (*message).to_owned(),
        (_, Some(message)) => message.clone(),
        _ => panic!("a panic without a message"),
    };
    (message, FILE.with(|cell| cell.borrow().clone()))
}

fn inner(a: i32, b: &str) -> Inner {
    Inner {
        a,
        b: b.into(),
        ..Inner::default()
    }
}

/// Runs the whole `MessageField` API over pointer type `P`.
fn exercise<P: ProtoBox<Inner> + Clone>() {
    // Unset: reads as the shared default instance.
    let mut field: MessageField<Inner, P> = MessageField::default();
    assert!(!field.is_set());
    assert!(field.as_option().is_none());
    assert!(field.as_option_mut().is_none());
    assert!(field.as_pointer().is_none());
    assert!(ptr::eq(&*field, Inner::default_instance()));
    assert_eq!(field.a, 0);
    assert_eq!(field.b, "");
    assert_eq!(format!("{field:?}"), "None");
    assert_eq!(field, MessageField::none());

    // get_or_insert_default sets the field once, then hands out the value.
    field.get_or_insert_default().a = 5;
    assert!(field.is_set());
    assert!(!ptr::eq(&*field, Inner::default_instance()));
    field.get_or_insert_default().b.push('x');
    assert_eq!(*field, inner(5, "x"));
    assert_eq!(field.as_option(), Some(&inner(5, "x")));
    assert!(field.as_pointer().is_some());
    assert_eq!(format!("{field:?}"), format!("Some({:?})", inner(5, "x")));

    // Presence is part of equality: set-to-default differs from unset.
    let unset = MessageField::<Inner, P>::none();
    let set_default = MessageField::<Inner, P>::some(Inner::default());
    assert_ne!(unset, set_default);
    assert_eq!(*unset, *set_default);
    assert_eq!(set_default, MessageField::some(Inner::default()));

    field.as_option_mut().unwrap().a = 6;
    assert_eq!(field.a, 6);

    // set replaces the whole value.
    field.set(inner(1, ""));
    assert_eq!(*field, inner(1, ""));

    // clone is deep.
    let copy = field.clone();
    field.get_or_insert_default().a = 2;
    assert_eq!(copy.a, 1);
    assert_eq!(field.a, 2);

    // take unsets and returns the value.
    assert_eq!(field.take(), Some(inner(2, "")));
    assert!(!field.is_set());
    assert_eq!(field.take(), None);
    assert!(ptr::eq(&*field, Inner::default_instance()));

    // Conversions.
    let from_value: MessageField<Inner, P> = inner(3, "v").into();
    assert_eq!(from_value.as_option(), Some(&inner(3, "v")));
    assert_eq!(from_value.into_option(), Some(inner(3, "v")));
    let from_none: MessageField<Inner, P> = None.into();
    assert!(!from_none.is_set());
    let from_some: MessageField<Inner, P> = Some(inner(4, "")).into();
    assert_eq!(from_some.into_option(), Some(inner(4, "")));
    assert_eq!(MessageField::<Inner, P>::none().into_option(), None);

    // unwrap and expect hand out a set field's value.
    let set: MessageField<Inner, P> = MessageField::some(inner(5, "u"));
    assert_eq!(set.clone().unwrap(), inner(5, "u"));
    assert_eq!(set.expect("set above"), inner(5, "u"));
    let unset = || MessageField::<Inner, P>::none();
    assert_eq!(
        panic_of(move || drop(unset().unwrap())),
        (
            "called `MessageField::unwrap()` on an unset field".to_owned(),
            file!().to_owned()
        )
    );
    assert_eq!(
        panic_of(move || drop(unset().expect("the request names a user"))),
        ("the request names a user".to_owned(), file!().to_owned())
    );

    // clear unsets.
    let mut field: MessageField<Inner, P> = MessageField::some(inner(9, ""));
    field.clear();
    assert!(!field.is_set());
    assert_eq!(field.a, 0);

    // Encoding and decoding through the field helpers.
    let mut cache = SizeCache::new();
    assert_eq!(message::size_field(1, &field, &mut cache), 0);
    field.set(inner(150, ""));
    let len = message::size_field(1, &field, &mut cache);
    let mut buf = vec![0u8; len];
    let mut encoder = Encoder::from_slice(&mut buf);
    message::write_field(1, &field, &mut cache, &mut encoder);
    assert_eq!(encoder.position(), len);
    assert_eq!(buf, ld(1, &vfield(1, 150)));

    // Decoding merges into an existing value.
    let mut decoded: MessageField<Inner, P> = MessageField::some(inner(0, "kept"));
    let options = DecodeOptions::default();
    let mut decoder = Decoder::new(&buf, &options).unwrap();
    let tag = decoder.read_tag().unwrap().unwrap();
    message::merge_field(tag, &mut decoded, &mut decoder).unwrap();
    assert!(decoder.is_empty());
    assert_eq!(decoded.into_option(), Some(inner(150, "kept")));
}

#[test]
fn api_with_box() {
    exercise::<Box<Inner>>();
}

#[test]
fn api_with_inline() {
    exercise::<Inline<Inner>>();
}

#[test]
fn api_with_a_user_defined_pointer() {
    let created_before = created();
    exercise::<CountedBox<Inner>>();
    // Every value went through the user's pointer, and none leaked.
    assert!(created() > created_before);
    assert_eq!(live(), 0);

    let mut field: MessageField<Inner, CountedBox<Inner>> = MessageField::none();
    assert_eq!(live(), 0);
    field.get_or_insert_default();
    field.get_or_insert_default();
    assert_eq!(live(), 1);
    field.set(inner(1, ""));
    assert_eq!(live(), 1);
    assert_eq!(field.take(), Some(inner(1, "")));
    assert_eq!(live(), 0);
    field.set(inner(2, ""));
    drop(field);
    assert_eq!(live(), 0);
}

#[test]
fn inline_and_boxed_fields_encode_identically() {
    let child = inner(-1, "same");
    let boxed = Kitchen {
        child: MessageField::some(child.clone()),
        ..Kitchen::default()
    };
    let inline = Kitchen {
        inline_child: MessageField::some(child.clone()),
        ..Kitchen::default()
    };
    let boxed_bytes = boxed.encode_to_vec();
    let inline_bytes = inline.encode_to_vec();
    // Same payload, different field number (8 vs 16).
    assert_eq!(boxed_bytes[1..], inline_bytes[2..]);
    assert_eq!(Kitchen::decode_from_slice(&inline_bytes).unwrap(), inline);

    let holder = Holder {
        position: MessageField::some(Vector3 {
            x: 1.0,
            y: 2.0,
            z: -0.0,
            ..Vector3::default()
        }),
        velocity: MessageField::none(),
        unknown_fields: UnknownFields::new(),
    };
    let bytes = holder.encode_to_vec();
    assert_eq!(
        bytes,
        [
            0x0a, 15, 0x0d, 0, 0, 0x80, 0x3f, 0x15, 0, 0, 0, 0x40, 0x1d, 0, 0, 0, 0x80
        ]
    );
    let back = Holder::decode_from_slice(&bytes).unwrap();
    assert_eq!(back, holder);
    assert!(!back.velocity.is_set());
    assert_eq!(back.velocity.x, 0.0);
}

#[test]
fn small_messages_stay_small() {
    let vector3 = size_of::<Vector3>();
    println!("size_of::<Vector3>() = {vector3}");
    println!(
        "size_of::<MessageField<Vector3, Inline<Vector3>>>() = {}",
        size_of::<MessageField<Vector3, Inline<Vector3>>>()
    );
    println!("size_of::<Holder>() = {}", size_of::<Holder>());
    assert!(vector3 <= 24, "Vector3 is {vector3} bytes");
    assert_eq!(size_of::<UnknownFields>(), size_of::<usize>());
    // A boxed field is one (nullable) pointer; an inline one is an Option.
    assert_eq!(size_of::<MessageField<Vector3>>(), size_of::<usize>());
    assert_eq!(
        size_of::<MessageField<Vector3, Inline<Vector3>>>(),
        size_of::<Option<Vector3>>()
    );
}
