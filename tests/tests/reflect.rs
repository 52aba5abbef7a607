//! Reflection on generated messages (`Config::reflection()`), on the
//! schema in `proto/reflect` (proto3, proto2 and edition 2023 packages, a
//! well-known type, every pointer, map and string representation): reads
//! agree with the struct, writes land in the struct, a `DynamicMessage`
//! copied through reflection encodes to the struct's bytes, `set_fields`
//! follows presence, reading a scalar allocates nothing, and all packages
//! of the run share one descriptor pool with the .proto comments.

use std::collections::{BTreeMap, HashMap};

use buffa::bytes::Bytes;
use buffa::{BytesStr, EncodeOptions, EnumValue, Inline, Message, MessageField};
use buffa_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MapKey, MapKeyRef, MessageDescriptor,
    ReflectMessage, Value, ValueMut, ValueRef,
};
use buffa_types::google::protobuf::Timestamp;

#[allow(dead_code, clippy::all)]
mod schema {
    include!(concat!(env!("OUT_DIR"), "/reflect/include.rs"));
}

use schema::reflect::{common, ed, v2, v3};
use v3::rich::{Choice, Nested};
use v3::{Mood, Rich};

#[global_allocator]
static GLOBAL: alloc_count::Counting = alloc_count::Counting;

use alloc_count::counted;

/// The field `name` of `message`'s type.
fn field(message: &dyn ReflectMessage, name: &str) -> FieldDescriptor {
    let descriptor = message.descriptor();
    descriptor
        .get_field_by_name(name)
        .unwrap_or_else(|| panic!("{} has no field {name}", descriptor.full_name()))
}

fn nested(id: i32, tags: &[&str]) -> Nested {
    Nested {
        id,
        tags: tags.iter().map(|t| t.to_string()).collect(),
        ..Default::default()
    }
}

/// A `Rich` with every field set.
fn rich() -> Rich {
    Rich {
        f_double: -0.0,
        f_float: 1.5,
        f_int32: -3,
        f_int64: -4_000_000_000,
        f_uint32: 5,
        f_uint64: u64::MAX,
        f_sint32: -7,
        f_sint64: i64::MIN,
        f_fixed32: 9,
        f_fixed64: 10,
        f_sfixed32: -11,
        f_sfixed64: -12,
        f_bool: true,
        f_string: "fourteen".into(),
        f_bytes: vec![0, 15, 255],
        mood: EnumValue::Known(Mood::Happy),
        opt_int32: Some(0),
        opt_string: Some(String::new()),
        opt_mood: Some(EnumValue::Unknown(42)),
        child: MessageField::some(nested(30, &["a"])),
        inline_child: MessageField::<Nested, Inline<Nested>>::some(nested(31, &[])),
        point: MessageField::some(common::Point {
            x: -1,
            y: 2,
            ..Default::default()
        }),
        when: MessageField::some(Timestamp {
            seconds: 1_700_000_000,
            nanos: 5,
            ..Default::default()
        }),
        r_int32: vec![1, -2, 3],
        r_double: vec![0.5, -0.0],
        r_string: vec!["x".into(), String::new()],
        r_bytes: vec![vec![1], vec![]],
        r_mood: vec![EnumValue::Known(Mood::Sad), EnumValue::Unknown(-1)],
        r_nested: vec![nested(1, &["one"]), Nested::default()],
        m_string_int32: HashMap::from([("a".into(), 1), ("b".into(), 0)]),
        m_int32_nested: HashMap::from([(7, nested(7, &["seven"])), (-1, Nested::default())]),
        m_bool_mood: HashMap::from([(true, EnumValue::Known(Mood::Sad))]),
        m_uint64_bytes: HashMap::from([(u64::MAX, vec![9, 9])]),
        m_sorted: BTreeMap::from([(-5, "minus five".into()), (5, "five".into())]),
        choice: Some(Choice::CNested(Box::new(nested(61, &["choice"])))),
        shared_text: BytesStr::from("shared"),
        shared_blob: Bytes::from_static(b"blob"),
        shared_map: HashMap::from([(BytesStr::from("k"), BytesStr::from("v"))]),
        ..Default::default()
    }
}

/// A scalar value read through reflection, owned (`None` for messages,
/// lists and maps).
fn scalar(value: ValueRef<'_>) -> Option<Value> {
    Some(match value {
        ValueRef::Bool(v) => Value::Bool(v),
        ValueRef::I32(v) => Value::I32(v),
        ValueRef::I64(v) => Value::I64(v),
        ValueRef::U32(v) => Value::U32(v),
        ValueRef::U64(v) => Value::U64(v),
        ValueRef::F32(v) => Value::F32(v),
        ValueRef::F64(v) => Value::F64(v),
        ValueRef::String(v) => Value::String(v.to_owned()),
        ValueRef::Bytes(v) => Value::Bytes(v.to_vec()),
        ValueRef::EnumNumber(v) => Value::EnumNumber(v),
        ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_) => return None,
    })
}

/// The value of `name`, a scalar field of `message` that is set.
fn read(message: &dyn ReflectMessage, name: &str) -> Value {
    let value = message
        .field(&field(message, name))
        .unwrap_or_else(|| panic!("{name} is not set"));
    scalar(value).unwrap_or_else(|| panic!("{name} is not a scalar"))
}

/// The message field `name` of `message`, downcast to `T`.
fn read_message<'m, T: 'static>(message: &'m dyn ReflectMessage, name: &str) -> &'m T {
    match message.field(&field(message, name)) {
        Some(ValueRef::Message(m)) => m.as_any().downcast_ref().expect("the generated type"),
        other => panic!("{name}: {other:?}"),
    }
}

/// `value` owned, messages as dynamic messages of the types `kind` (a
/// field's kind: the element's for a list, the entry's for a map) names.
fn owned(value: ValueRef<'_>, kind: &Kind) -> Value {
    if let Some(value) = scalar(value) {
        return value;
    }
    match value {
        ValueRef::Message(m) => Value::Message(to_dynamic(m, kind.as_message().unwrap().clone())),
        ValueRef::List(list) => Value::List(
            (0..list.len())
                .map(|i| owned(list.get(i).unwrap(), kind))
                .collect(),
        ),
        ValueRef::Map(map) => {
            let value_kind = kind.as_message().unwrap().map_entry_value_field().kind();
            Value::Map(
                map.entries()
                    .map(|(key, value)| (key.to_owned_key(), owned(value, &value_kind)))
                    .collect(),
            )
        }
        _ => unreachable!("scalars are handled above"),
    }
}

/// A dynamic message of type `descriptor` with the fields of `source`,
/// copied through reflection alone (by field number: `source` may be
/// described by another pool).
fn to_dynamic(source: &dyn ReflectMessage, descriptor: MessageDescriptor) -> DynamicMessage {
    let mut out = DynamicMessage::new(descriptor.clone());
    for (source_field, value) in source.set_fields() {
        let target = descriptor.get_field(source_field.number()).unwrap();
        let value = owned(value, &target.kind());
        out.set_field(&target, value)
            .unwrap_or_else(|e| panic!("{}: {e}", target.full_name()));
    }
    out
}

fn deterministic(message: &impl Message) -> Vec<u8> {
    message
        .encode_to_vec_with_options(&EncodeOptions::new().with_deterministic(true))
        .unwrap()
}

#[test]
fn reads_agree_with_the_struct() {
    let message = rich();
    let m: &dyn ReflectMessage = &message;
    assert_eq!(read(m, "f_double"), Value::F64(-0.0));
    assert!(matches!(read(m, "f_double"), Value::F64(v) if v.is_sign_negative()));
    assert_eq!(read(m, "f_float"), Value::F32(1.5));
    assert_eq!(read(m, "f_int32"), Value::I32(-3));
    assert_eq!(read(m, "f_int64"), Value::I64(-4_000_000_000));
    assert_eq!(read(m, "f_uint32"), Value::U32(5));
    assert_eq!(read(m, "f_uint64"), Value::U64(u64::MAX));
    assert_eq!(read(m, "f_sint32"), Value::I32(-7));
    assert_eq!(read(m, "f_sint64"), Value::I64(i64::MIN));
    assert_eq!(read(m, "f_fixed32"), Value::U32(9));
    assert_eq!(read(m, "f_fixed64"), Value::U64(10));
    assert_eq!(read(m, "f_sfixed32"), Value::I32(-11));
    assert_eq!(read(m, "f_sfixed64"), Value::I64(-12));
    assert_eq!(read(m, "f_bool"), Value::Bool(true));
    assert_eq!(read(m, "f_string"), Value::String("fourteen".into()));
    assert_eq!(read(m, "f_bytes"), Value::Bytes(vec![0, 15, 255]));
    assert_eq!(read(m, "mood"), Value::EnumNumber(1));
    // Explicit presence: set at the default still counts.
    assert_eq!(read(m, "opt_int32"), Value::I32(0));
    assert_eq!(read(m, "opt_string"), Value::String(String::new()));
    assert_eq!(read(m, "opt_mood"), Value::EnumNumber(42));
    assert_eq!(read(m, "shared_text"), Value::String("shared".into()));
    assert_eq!(read(m, "shared_blob"), Value::Bytes(b"blob".to_vec()));

    // Sub-messages are the generated structs themselves, whatever the
    // pointer, in this crate or another package or buffa-types.
    assert_eq!(read_message::<Nested>(m, "child"), &*message.child);
    assert_eq!(
        read_message::<Nested>(m, "inline_child"),
        &*message.inline_child
    );
    assert_eq!(read_message::<common::Point>(m, "point"), &*message.point);
    let when = read_message::<Timestamp>(m, "when");
    assert_eq!(when, &*message.when);
    assert_eq!(when.descriptor().full_name(), "google.protobuf.Timestamp");
    assert_eq!(read(when, "seconds"), Value::I64(1_700_000_000));
    assert_eq!(read(when, "nanos"), Value::I32(5));

    // Lists.
    let Some(ValueRef::List(list)) = m.field(&field(m, "r_int32")) else {
        panic!("r_int32 is a list");
    };
    let values: Vec<Value> = (0..list.len())
        .map(|i| scalar(list.get(i).unwrap()).unwrap())
        .collect();
    assert_eq!(values, [Value::I32(1), Value::I32(-2), Value::I32(3)]);
    assert!(list.get(3).is_none());
    let Some(ValueRef::List(moods)) = m.field(&field(m, "r_mood")) else {
        panic!("r_mood is a list");
    };
    assert!(matches!(moods.get(1), Some(ValueRef::EnumNumber(-1))));
    let Some(ValueRef::List(nested_list)) = m.field(&field(m, "r_nested")) else {
        panic!("r_nested is a list");
    };
    let Some(ValueRef::Message(first)) = nested_list.get(0) else {
        panic!("r_nested holds messages");
    };
    assert_eq!(
        first.as_any().downcast_ref::<Nested>(),
        Some(&message.r_nested[0])
    );

    // Maps, looked up by borrowed keys.
    let Some(ValueRef::Map(map)) = m.field(&field(m, "m_string_int32")) else {
        panic!("m_string_int32 is a map");
    };
    assert_eq!(map.len(), 2);
    assert!(matches!(
        map.get(MapKeyRef::String("b")),
        Some(ValueRef::I32(0))
    ));
    assert!(map.get(MapKeyRef::String("c")).is_none());
    assert!(
        map.get(MapKeyRef::I32(1)).is_none(),
        "a key of another type"
    );
    let Some(ValueRef::Map(map)) = m.field(&field(m, "m_int32_nested")) else {
        panic!("m_int32_nested is a map");
    };
    let Some(ValueRef::Message(seven)) = map.get(MapKeyRef::I32(7)) else {
        panic!("m_int32_nested holds messages");
    };
    assert_eq!(seven.as_any().downcast_ref(), Some(&nested(7, &["seven"])));
    let Some(ValueRef::Map(sorted)) = m.field(&field(m, "m_sorted")) else {
        panic!("m_sorted is a map");
    };
    let keys: Vec<MapKeyRef<'_>> = sorted.entries().map(|(key, _)| key).collect();
    assert_eq!(keys, [MapKeyRef::I64(-5), MapKeyRef::I64(5)]);
    let Some(ValueRef::Map(shared)) = m.field(&field(m, "shared_map")) else {
        panic!("shared_map is a map");
    };
    assert!(matches!(
        shared.get(MapKeyRef::String("k")),
        Some(ValueRef::String("v"))
    ));

    // The oneof: the member that is set, and no other.
    assert_eq!(
        read_message::<Nested>(m, "c_nested"),
        &nested(61, &["choice"])
    );
    assert!(m.field(&field(m, "c_string")).is_none());
    assert!(m.field(&field(m, "c_unboxed")).is_none());
}

#[test]
fn unset_fields_read_as_unset() {
    let empty = Rich::default();
    let descriptor = empty.descriptor();
    for field in descriptor.fields() {
        assert!(!empty.has_field(&field), "{}", field.name());
    }
    assert!(empty.set_fields().is_empty());
    // Implicit presence: the default is not set, -0.0 is.
    let negative_zero = Rich {
        f_float: -0.0,
        ..Default::default()
    };
    let names: Vec<String> = negative_zero
        .set_fields()
        .iter()
        .map(|(f, _)| f.name().to_owned())
        .collect();
    assert_eq!(names, ["f_float"]);
}

/// Sets every field of a default `Rich` through reflection (values, lists
/// and maps whole, and in place through `field_mut`).
fn rich_through_reflection() -> Rich {
    let mut message = Rich::default();
    let m: &mut dyn ReflectMessage = &mut message;
    let set = |m: &mut dyn ReflectMessage, name: &str, value: Value| {
        let f = field(m, name);
        m.set_field(&f, value)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    };
    set(m, "f_double", Value::F64(-0.0));
    set(m, "f_float", Value::F32(1.5));
    set(m, "f_int32", Value::I32(-3));
    set(m, "f_int64", Value::I64(-4_000_000_000));
    set(m, "f_uint32", Value::U32(5));
    set(m, "f_uint64", Value::U64(u64::MAX));
    set(m, "f_sint32", Value::I32(-7));
    set(m, "f_sint64", Value::I64(i64::MIN));
    set(m, "f_fixed32", Value::U32(9));
    set(m, "f_fixed64", Value::U64(10));
    set(m, "f_sfixed32", Value::I32(-11));
    set(m, "f_sfixed64", Value::I64(-12));
    set(m, "f_bool", Value::Bool(true));
    set(m, "f_string", Value::String("fourteen".into()));
    set(m, "f_bytes", Value::Bytes(vec![0, 15, 255]));
    set(m, "mood", Value::EnumNumber(1));
    set(m, "opt_int32", Value::I32(0));
    set(m, "opt_string", Value::String(String::new()));
    set(m, "opt_mood", Value::EnumNumber(42));
    set(m, "shared_text", Value::String("shared".into()));
    set(m, "shared_blob", Value::Bytes(b"blob".to_vec()));

    // A dynamic message converts by a binary round trip.
    let nested_descriptor = field(m, "child").kind().as_message().unwrap().clone();
    let mut child = DynamicMessage::new(nested_descriptor.clone());
    set(&mut child, "id", Value::I32(30));
    set(
        &mut child,
        "tags",
        Value::List(vec![Value::String("a".into())]),
    );
    set(m, "child", Value::Message(child));
    // In place: the generated sub-message itself.
    let f = field(m, "inline_child");
    let Ok(ValueMut::Message(inline)) = m.field_mut(&f) else {
        panic!("inline_child is a message");
    };
    assert!(inline.as_any().is::<Nested>());
    set(inline, "id", Value::I32(31));
    let f = field(m, "point");
    let Ok(ValueMut::Message(point)) = m.field_mut(&f) else {
        panic!("point is a message");
    };
    set(point, "x", Value::I32(-1));
    set(point, "y", Value::I32(2));
    let f = field(m, "when");
    let Ok(ValueMut::Message(when)) = m.field_mut(&f) else {
        panic!("when is a message");
    };
    set(when, "seconds", Value::I64(1_700_000_000));
    set(when, "nanos", Value::I32(5));

    set(
        m,
        "r_int32",
        Value::List(vec![Value::I32(1), Value::I32(-2), Value::I32(3)]),
    );
    set(
        m,
        "r_double",
        Value::List(vec![Value::F64(0.5), Value::F64(-0.0)]),
    );
    let f = field(m, "r_string");
    let Ok(ValueMut::List(mut strings)) = m.field_mut(&f) else {
        panic!("r_string is a list");
    };
    strings.push(Value::String("x".into())).unwrap();
    strings.push(Value::String(String::new())).unwrap();
    assert!(strings.push(Value::I32(1)).is_err());
    assert!(strings.push_message().is_err());
    drop(strings);
    set(
        m,
        "r_bytes",
        Value::List(vec![Value::Bytes(vec![1]), Value::Bytes(vec![])]),
    );
    set(
        m,
        "r_mood",
        Value::List(vec![Value::EnumNumber(2), Value::EnumNumber(-1)]),
    );
    let f = field(m, "r_nested");
    let Ok(ValueMut::List(mut list)) = m.field_mut(&f) else {
        panic!("r_nested is a list");
    };
    let one = list.push_message().unwrap();
    set(one, "id", Value::I32(1));
    set(one, "tags", Value::List(vec![Value::String("one".into())]));
    list.push(Value::Message(DynamicMessage::new(
        nested_descriptor.clone(),
    )))
    .unwrap();
    drop(list);

    set(
        m,
        "m_string_int32",
        Value::Map(BTreeMap::from([
            (MapKey::String("a".into()), Value::I32(1)),
            (MapKey::String("b".into()), Value::I32(0)),
        ])),
    );
    let f = field(m, "m_int32_nested");
    let Ok(ValueMut::Map(mut map)) = m.field_mut(&f) else {
        panic!("m_int32_nested is a map");
    };
    let seven = map.entry_message(MapKey::I32(7)).unwrap();
    set(seven, "id", Value::I32(7));
    set(
        seven,
        "tags",
        Value::List(vec![Value::String("seven".into())]),
    );
    map.insert(
        MapKey::I32(-1),
        Value::Message(DynamicMessage::new(nested_descriptor.clone())),
    )
    .unwrap();
    assert!(
        map.insert(MapKey::String("x".into()), Value::I32(1))
            .is_err()
    );
    drop(map);
    set(
        m,
        "m_bool_mood",
        Value::Map(BTreeMap::from([(MapKey::Bool(true), Value::EnumNumber(2))])),
    );
    set(
        m,
        "m_uint64_bytes",
        Value::Map(BTreeMap::from([(
            MapKey::U64(u64::MAX),
            Value::Bytes(vec![9, 9]),
        )])),
    );
    let f = field(m, "m_sorted");
    let Ok(ValueMut::Map(mut sorted)) = m.field_mut(&f) else {
        panic!("m_sorted is a map");
    };
    sorted
        .insert(MapKey::I64(5), Value::String("five".into()))
        .unwrap();
    sorted
        .insert(MapKey::I64(-5), Value::String("minus five".into()))
        .unwrap();
    drop(sorted);
    set(
        m,
        "shared_map",
        Value::Map(BTreeMap::from([(
            MapKey::String("k".into()),
            Value::String("v".into()),
        )])),
    );

    // Oneof members replace each other.
    set(m, "c_string", Value::String("replaced".into()));
    let f = field(m, "c_nested");
    let Ok(ValueMut::Message(choice)) = m.field_mut(&f) else {
        panic!("c_nested is a message");
    };
    set(choice, "id", Value::I32(61));
    set(
        choice,
        "tags",
        Value::List(vec![Value::String("choice".into())]),
    );
    message
}

#[test]
fn writes_land_in_the_struct() {
    assert_eq!(rich_through_reflection(), rich());
}

#[test]
fn oneof_members_replace_each_other() {
    let mut message = Rich::default();
    let c_string = field(&message, "c_string");
    let c_unboxed = field(&message, "c_unboxed");
    let c_mood = field(&message, "c_mood");
    message
        .set_field(&c_string, Value::String("s".into()))
        .unwrap();
    assert_eq!(message.choice, Some(Choice::CString("s".into())));
    // Clearing another member leaves the oneof alone.
    message.clear_field(&c_mood);
    assert_eq!(message.choice, Some(Choice::CString("s".into())));
    let Ok(ValueMut::Message(unboxed)) = message.field_mut(&c_unboxed) else {
        panic!("c_unboxed is a message");
    };
    let id = field(unboxed, "id");
    unboxed.set_field(&id, Value::I32(63)).unwrap();
    assert_eq!(message.choice, Some(Choice::CUnboxed(nested(63, &[]))));
    assert!(message.field_mut(&c_mood).is_err(), "an enum member");
    message.set_field(&c_mood, Value::EnumNumber(2)).unwrap();
    assert_eq!(
        message.choice,
        Some(Choice::CMood(EnumValue::Known(Mood::Sad)))
    );
    message.clear_field(&c_mood);
    assert_eq!(message.choice, None);
}

#[test]
fn wrong_values_are_refused_and_change_nothing() {
    let mut message = rich();
    let before = message.clone();
    let cases = [
        ("f_int32", Value::I64(1)),
        ("f_int32", Value::U32(1)),
        ("f_string", Value::Bytes(vec![])),
        ("mood", Value::I32(1)),
        ("opt_int32", Value::String("1".into())),
        ("child", Value::I32(1)),
        ("r_int32", Value::I32(1)),
        ("r_int32", Value::List(vec![Value::I32(1), Value::I64(2)])),
        ("m_string_int32", Value::List(vec![])),
        (
            "m_string_int32",
            Value::Map(BTreeMap::from([(MapKey::I32(1), Value::I32(1))])),
        ),
        ("c_nested", Value::String("no".into())),
    ];
    for (name, value) in cases {
        let f = field(&message, name);
        assert!(
            message.set_field(&f, value.clone()).is_err(),
            "{name} = {value:?}"
        );
    }
    // A dynamic message of another type.
    let point = common::Point::default().descriptor();
    let child = field(&message, "child");
    assert!(
        message
            .set_field(&child, Value::Message(DynamicMessage::new(point)))
            .is_err()
    );
    assert!(message.field_mut(&field(&message, "f_int32")).is_err());
    assert_eq!(message, before);

    // A field of another message is never set and cannot be changed.
    let x = field(&common::Point::default(), "x");
    assert!(message.field(&x).is_none());
    assert!(message.set_field(&x, Value::I32(1)).is_err());
    assert!(message.field_mut(&x).is_err());
    message.clear_field(&x);
    assert_eq!(message, before);
}

#[test]
fn a_dynamic_copy_encodes_to_the_struct_bytes() {
    for message in [rich(), Rich::default(), rich_through_reflection()] {
        let dynamic = to_dynamic(&message, message.descriptor());
        assert_eq!(dynamic.encode_to_vec(), deterministic(&message));
        // And back: the generated decode of the dynamic bytes.
        assert_eq!(
            Rich::decode_from_slice(&dynamic.encode_to_vec()).unwrap(),
            message
        );
    }
    let mut legacy = legacy();
    legacy.next = MessageField::some(legacy.clone());
    let dynamic = to_dynamic(&legacy, legacy.descriptor());
    assert_eq!(dynamic.encode_to_vec(), deterministic(&legacy));
    let tuned = tuned();
    assert_eq!(
        to_dynamic(&tuned, tuned.descriptor()).encode_to_vec(),
        tuned.encode_to_vec()
    );
}

fn legacy() -> v2::Legacy {
    use v2::legacy::{Item, Line, Pick};
    v2::Legacy {
        id: Some(1),
        color: Some(v2::Color::Green),
        colors: vec![v2::Color::Blue, v2::Color::Red],
        packed: vec![3, 4],
        item: MessageField::some(Item {
            quantity: Some(7),
            ..Default::default()
        }),
        line: vec![Line {
            text: Some("first".into()),
            ..Default::default()
        }],
        by_id: HashMap::from([(1, v2::Color::Red), (2, v2::Color::Blue)]),
        pick: Some(Pick::PickColor(v2::Color::Blue)),
        ..Default::default()
    }
}

#[test]
fn proto2_presence_closed_enums_and_groups() {
    let message = legacy();
    let m: &dyn ReflectMessage = &message;
    assert_eq!(read(m, "id"), Value::I32(1));
    // Unset, though it has a declared default.
    assert!(m.field(&field(m, "name")).is_none());
    assert_eq!(read(m, "color"), Value::EnumNumber(2));
    assert_eq!(read(m, "pick_color"), Value::EnumNumber(3));
    let item = read_message::<v2::legacy::Item>(m, "item");
    assert_eq!(read(item, "quantity"), Value::I32(7));
    let Some(ValueRef::Map(by_id)) = m.field(&field(m, "by_id")) else {
        panic!("by_id is a map");
    };
    assert!(matches!(
        by_id.get(MapKeyRef::I32(2)),
        Some(ValueRef::EnumNumber(3))
    ));

    let mut message = message;
    let color = field(&message, "color");
    // A closed enum takes only the numbers it declares.
    assert!(message.set_field(&color, Value::EnumNumber(9)).is_err());
    message.set_field(&color, Value::EnumNumber(1)).unwrap();
    assert_eq!(message.color, Some(v2::Color::Red));
    let colors = field(&message, "colors");
    assert!(
        message
            .set_field(&colors, Value::List(vec![Value::EnumNumber(4)]))
            .is_err()
    );
    assert_eq!(message.colors, [v2::Color::Blue, v2::Color::Red]);
    let line = field(&message, "line");
    let Ok(ValueMut::List(mut lines)) = message.field_mut(&line) else {
        panic!("line is a list");
    };
    let second = lines.push_message().unwrap();
    let text = field(second, "text");
    second
        .set_field(&text, Value::String("second".into()))
        .unwrap();
    drop(lines);
    assert_eq!(message.line[1].text.as_deref(), Some("second"));
    let pick_number = field(&message, "pick_number");
    message.set_field(&pick_number, Value::I64(-9)).unwrap();
    assert_eq!(message.pick, Some(v2::legacy::Pick::PickNumber(-9)));
    message.clear_field(&field(&message, "id"));
    assert_eq!(message.id, None);
}

fn tuned() -> ed::Tuned {
    ed::Tuned {
        explicit: Some(0),
        implicit: 3,
        level: Some(ed::Level::High),
        delimited: MessageField::some(common::Point {
            x: 4,
            ..Default::default()
        }),
        expanded: vec![5, 6],
        ..Default::default()
    }
}

#[test]
fn edition_2023_presence_and_closed_enums() {
    let mut message = tuned();
    let m: &dyn ReflectMessage = &message;
    assert_eq!(read(m, "explicit"), Value::I32(0));
    assert_eq!(read(m, "implicit"), Value::I32(3));
    assert_eq!(read(m, "level"), Value::EnumNumber(2));
    assert!(m.field(&field(m, "with_default")).is_none());
    let names: Vec<String> = m
        .set_fields()
        .iter()
        .map(|(f, _)| f.name().to_owned())
        .collect();
    assert_eq!(
        names,
        ["explicit", "implicit", "level", "delimited", "expanded"]
    );
    let implicit = field(&message, "implicit");
    message.set_field(&implicit, Value::I32(0)).unwrap();
    assert!(!message.has_field(&implicit));
    let level = field(&message, "level");
    assert!(message.set_field(&level, Value::EnumNumber(0)).is_err());
}

#[test]
fn set_fields_follow_number_order_and_presence() {
    let mut message = Rich {
        f_int32: 0,
        f_string: "s".into(),
        opt_int32: Some(0),
        r_int32: vec![],
        r_string: vec!["r".into()],
        m_bool_mood: HashMap::from([(false, EnumValue::Known(Mood::Unspecified))]),
        choice: Some(Choice::CMood(EnumValue::Known(Mood::Unspecified))),
        child: MessageField::some(Nested::default()),
        ..Default::default()
    };
    let names = |m: &Rich| -> Vec<String> {
        m.set_fields()
            .iter()
            .map(|(f, _)| f.name().to_owned())
            .collect()
    };
    assert_eq!(
        names(&message),
        [
            "f_string",
            "opt_int32",
            "child",
            "r_string",
            "m_bool_mood",
            "c_mood"
        ]
    );
    for (descriptor, value) in message.set_fields() {
        assert_eq!(
            scalar(value),
            scalar(message.field(&descriptor).unwrap()),
            "{}",
            descriptor.name()
        );
    }
    message.clear_field(&field(&message, "f_string"));
    message.clear_field(&field(&message, "child"));
    message.clear_field(&field(&message, "m_bool_mood"));
    message.clear_field(&field(&message, "c_string"));
    assert_eq!(names(&message), ["opt_int32", "r_string", "c_mood"]);
    message.clear_field(&field(&message, "c_mood"));
    message.clear_field(&field(&message, "opt_int32"));
    assert_eq!(names(&message), ["r_string"]);
    ReflectMessage::clear(&mut message);
    assert_eq!(message, Rich::default());
}

#[test]
fn reading_a_scalar_allocates_nothing() {
    let (_, allocations) = counted(|| vec![1u8]);
    assert_eq!(allocations, 1, "the counter counts");
    let message = rich();
    let m: &dyn ReflectMessage = &message;
    let names = [
        "f_double",
        "f_float",
        "f_int32",
        "f_uint64",
        "f_sint64",
        "f_bool",
        "f_string",
        "f_bytes",
        "mood",
        "opt_int32",
        "opt_string",
        "opt_mood",
        "shared_text",
        "shared_blob",
    ];
    let fields: Vec<FieldDescriptor> = names.iter().map(|name| field(m, name)).collect();
    // The pool is decoded on first use, before this.
    for (name, f) in names.iter().zip(&fields) {
        let (value, allocations) = counted(|| m.field(f).and_then(scalar_bits));
        assert!(value.is_some(), "{name}");
        assert_eq!(allocations, 0, "reading {name} allocated");
    }
    let r_int32 = field(m, "r_int32");
    let (value, allocations) = counted(|| match m.field(&r_int32) {
        Some(ValueRef::List(list)) => list.get(1).and_then(scalar_bits),
        _ => None,
    });
    assert_eq!(value, Some(-2i32 as u64));
    assert_eq!(allocations, 0, "reading a list element allocated");
    let unset = field(m, "c_string");
    let (value, allocations) = counted(|| m.has_field(&unset));
    assert!(!value);
    assert_eq!(allocations, 0);
}

/// Something of a scalar to look at without allocating: its bits, a
/// string's or bytes' length.
fn scalar_bits(value: ValueRef<'_>) -> Option<u64> {
    Some(match value {
        ValueRef::Bool(v) => v as u64,
        ValueRef::I32(v) | ValueRef::EnumNumber(v) => v as u64,
        ValueRef::I64(v) => v as u64,
        ValueRef::U32(v) => v.into(),
        ValueRef::U64(v) => v,
        ValueRef::F32(v) => v.to_bits().into(),
        ValueRef::F64(v) => v.to_bits(),
        ValueRef::String(v) => v.len() as u64,
        ValueRef::Bytes(v) => v.len() as u64,
        ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_) => return None,
    })
}

#[test]
fn all_packages_of_a_run_share_one_pool_with_comments() {
    assert!(std::ptr::eq(
        v3::descriptor_pool(),
        common::descriptor_pool()
    ));
    assert!(std::ptr::eq(v2::descriptor_pool(), ed::descriptor_pool()));
    let rich = Rich::default().descriptor();
    let point = common::Point::default().descriptor();
    // The field's type in one package is the other package's descriptor.
    assert_eq!(
        field(&Rich::default(), "point").kind(),
        Kind::Message(point.clone())
    );
    assert_eq!(rich.parent_file().name(), "proto3.proto");
    assert_eq!(
        point.comments().leading.as_deref(),
        Some(" A point on the plane.\n")
    );
    assert_eq!(
        field(&common::Point::default(), "x")
            .comments()
            .leading
            .as_deref(),
        Some(" Distance from the left edge.\n")
    );
    // The embedded set holds the generated files and their imports.
    let pool = DescriptorPool::decode(common::FILE_DESCRIPTOR_SET).unwrap();
    let mut files: Vec<String> = pool.files().map(|f| f.name().to_owned()).collect();
    files.sort();
    assert_eq!(
        files,
        [
            "common.proto",
            "editions.proto",
            "google/protobuf/timestamp.proto",
            "proto2.proto",
            "proto3.proto"
        ]
    );
}

#[test]
fn descriptors_of_another_pool_of_the_schema_work() {
    let pool = DescriptorPool::decode(common::FILE_DESCRIPTOR_SET).unwrap();
    let descriptor = pool.get_message_by_name("reflect.v3.Rich").unwrap();
    assert_ne!(descriptor, Rich::default().descriptor(), "another pool");
    let mut message = rich();
    let f_int32 = descriptor.get_field_by_name("f_int32").unwrap();
    assert!(matches!(message.field(&f_int32), Some(ValueRef::I32(-3))));
    message.set_field(&f_int32, Value::I32(8)).unwrap();
    assert_eq!(message.f_int32, 8);
    // A dynamic message of that pool's type converts too.
    let child = descriptor.get_field_by_name("child").unwrap();
    let mut dynamic = DynamicMessage::new(child.kind().as_message().unwrap().clone());
    dynamic.set_field_by_name("id", Value::I32(99)).unwrap();
    message.set_field(&child, Value::Message(dynamic)).unwrap();
    assert_eq!(message.child.id, 99);
}

#[test]
fn binary_methods_and_new_instance() {
    let message = rich();
    let mut out = Vec::new();
    message.encode_binary(&mut out);
    assert_eq!(out, message.encode_to_vec());
    let mut copy = message.new_instance();
    assert!(copy.as_any().is::<Rich>());
    copy.merge_binary(&out, &buffa::DecodeOptions::new())
        .unwrap();
    assert_eq!(copy.as_any().downcast_ref::<Rich>(), Some(&message));
    // Unknown fields are the struct's.
    let mut with_unknown = Rich::default();
    with_unknown
        .merge_binary(&[0xf8, 0x06, 0x01], &buffa::DecodeOptions::new())
        .unwrap();
    assert!(!ReflectMessage::unknown_fields(&with_unknown).is_empty());
    ReflectMessage::unknown_fields_mut(&mut with_unknown)
        .unwrap()
        .clear();
    assert!(with_unknown.unknown_fields.is_empty());
}

#[test]
fn owned_values_copy_every_field() {
    // Every field read owned, messages (the `Timestamp` of another pool
    // too) as dynamic messages of the field's type, makes the message its
    // binary encoding decodes to.
    let message = rich();
    let descriptor = message.descriptor();
    let mut copy = DynamicMessage::new(descriptor.clone());
    for field in descriptor.fields() {
        if let Some(value) = message.field_owned(&field) {
            copy.set_field(&field, value)
                .unwrap_or_else(|e| panic!("{}: {e}", field.full_name()));
        }
    }
    assert_eq!(
        copy,
        DynamicMessage::decode(descriptor, &message.encode_to_vec()).unwrap()
    );
    let child = field(&message, "child");
    assert_eq!(Rich::default().field_owned(&child), None);
}
