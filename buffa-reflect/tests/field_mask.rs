//! `buffa_reflect::field_mask` on dynamic messages of a schema protoc
//! compiles at test time (tests/proto/field_mask/field_mask_test.proto,
//! with the field names of protobuf's unittest messages) and on generated
//! messages (the well-known types, which reflect).
//!
//! The expected results are those protobuf's own implementations give for
//! the same inputs: Java `FieldMaskUtil`/`FieldMaskTree` tests (trim,
//! merge and its options), protobuf-go's `fieldmaskpb` `IsValid` cases,
//! and the examples of field_mask.proto's documentation. Messages are
//! written and compared in the text format, which shows presence: a field
//! set to its default prints, an unset one does not.

use std::path::PathBuf;
use std::sync::OnceLock;

use buffa_reflect::field_mask::{self, FieldMaskError, MergeOptions, PathProblem};
use buffa_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, ReflectMessage, text};
use buffa_types::{Api, FeatureSet, FieldMask, Struct, Type, Value};

/// The pool of field_mask_test.proto, as protoc compiles it.
fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/proto/field_mask");
        let set = protoc_runner::Protoc::new([dir])
            .include_imports(true)
            .descriptor_set(&["field_mask_test.proto"])
            .unwrap_or_else(|error| panic!("protoc: {error}"));
        DescriptorPool::decode(&set).expect("decode the descriptor set")
    })
}

fn descriptor(name: &str) -> MessageDescriptor {
    let full = format!("field_mask_test.{name}");
    pool()
        .get_message_by_name(&full)
        .unwrap_or_else(|| panic!("no message {full}"))
}

/// A message of type `name` (in field_mask_test) written in the text
/// format.
fn message(name: &str, text: &str) -> DynamicMessage {
    text::parse(&descriptor(name), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mask(paths: &[&str]) -> FieldMask {
    FieldMask::from_paths(paths.iter().copied())
}

/// Asserts that `actual` prints as the message `expected` (text of the
/// same type) does.
#[track_caller]
fn assert_message(actual: &dyn ReflectMessage, expected: &str) {
    let expected = text::parse(&actual.descriptor(), expected).expect("expected text");
    assert_eq!(text::to_string(actual), text::to_string(&expected));
}

/// Java's `FieldMaskTreeTest.testMerge` source: a `TestAllTypes` value as
/// `payload` and as `child.payload`.
const VALUE: &str = "optional_int32: 1234 optional_nested_message { bb: 5678 } \
                     repeated_int32: 4321 repeated_nested_message { bb: 8765 }";

fn java_source() -> DynamicMessage {
    message(
        "NestedTestAllTypes",
        &format!("payload {{ {VALUE} }} child {{ payload {{ {VALUE} }} }}"),
    )
}

fn options(message: bool, repeated: bool, primitive: bool) -> MergeOptions {
    MergeOptions {
        replace_message_fields: message,
        replace_repeated_fields: repeated,
        replace_primitive_fields: primitive,
    }
}

// --- validate -----------------------------------------------------------

/// protobuf-go's valid `IsValid` cases, on the fields this schema has.
#[test]
fn validate_accepts_paths_as_protobuf_go() {
    let all = descriptor("TestAllTypes");
    let nested = descriptor("NestedTestAllTypes");
    for paths in [
        &[][..],
        &[
            "optional_int32",
            "optional_int32",
            "optional_uint32",
            "optional_bool",
            "optional_string",
            "optional_nested_message",
            "repeated_int32",
            "repeated_nested_message",
            "map_string_int32",
            "oneof_uint32",
            "oneof_nested_message",
            "oneof_string",
            "default_int32",
        ][..],
        &[
            "optional_nested_message.bb",
            "oneof_nested_message.bb",
            // A group by its field name, as Java names it.
            "optionalgroup",
            "optionalgroup.a",
        ][..],
    ] {
        assert_eq!(
            field_mask::validate(&mask(paths), &all),
            Ok(()),
            "{paths:?}"
        );
    }
    let deep = mask(&[
        "child.child.payload.optional_nested_message.bb",
        "child",
        "payload.repeated_nested_message",
    ]);
    assert_eq!(field_mask::validate(&deep, &nested), Ok(()));
}

/// Invalid paths: protobuf-go's invalid `IsValid` cases and the rules of
/// field_mask.proto (no oneof names, no JSON names), each naming the path,
/// the segment and the message it was looked up in.
#[test]
fn validate_refuses_invalid_paths_naming_the_segment() {
    let all = descriptor("TestAllTypes");
    let cases = [
        (
            "no_such_field",
            "no_such_field",
            "TestAllTypes",
            PathProblem::UnknownField,
        ),
        ("", "", "TestAllTypes", PathProblem::EmptySegment),
        (
            ".optional_int32",
            "",
            "TestAllTypes",
            PathProblem::EmptySegment,
        ),
        (
            "optional_nested_message.",
            "",
            "NestedMessage",
            PathProblem::EmptySegment,
        ),
        (
            "optional_nested_message..bb",
            "",
            "NestedMessage",
            PathProblem::EmptySegment,
        ),
        (
            "repeated_nested_message.bb",
            "repeated_nested_message",
            "TestAllTypes",
            PathProblem::RepeatedNotLast,
        ),
        (
            "repeated_nested_message[0]",
            "repeated_nested_message[0]",
            "TestAllTypes",
            PathProblem::UnknownField,
        ),
        (
            "map_string_int32.key",
            "map_string_int32",
            "TestAllTypes",
            PathProblem::RepeatedNotLast,
        ),
        (
            "optional_int32.bb",
            "optional_int32",
            "TestAllTypes",
            PathProblem::NotAMessage,
        ),
        (
            "optional_nested_message.cc",
            "cc",
            "NestedMessage",
            PathProblem::UnknownField,
        ),
        (
            "oneof_field",
            "oneof_field",
            "TestAllTypes",
            PathProblem::UnknownField,
        ),
        (
            "optionalInt32",
            "optionalInt32",
            "TestAllTypes",
            PathProblem::UnknownField,
        ),
        (
            "OptionalGroup",
            "OptionalGroup",
            "TestAllTypes",
            PathProblem::UnknownField,
        ),
        (
            "extension_int32",
            "extension_int32",
            "TestAllTypes",
            PathProblem::UnknownField,
        ),
        ("*", "*", "TestAllTypes", PathProblem::UnknownField),
    ];
    for (path, segment, message, problem) in cases {
        // The first invalid path is reported, after valid ones.
        let result = field_mask::validate(&mask(&["optional_int32", path, "nope"]), &all);
        assert_eq!(
            result,
            Err(FieldMaskError::InvalidPath {
                path: path.to_owned(),
                segment: segment.to_owned(),
                message: format!("field_mask_test.{message}"),
                problem,
            }),
            "{path:?}"
        );
    }
}

#[test]
fn errors_say_what_and_where() {
    let all = descriptor("TestAllTypes");
    let error = |path| {
        field_mask::validate(&mask(&[path]), &all)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("optional_nested_message.cc"),
        "invalid field mask path \"optional_nested_message.cc\": \
         field_mask_test.NestedMessage has no field \"cc\""
    );
    assert_eq!(
        error("optional_int32.x"),
        "invalid field mask path \"optional_int32.x\": field \"optional_int32\" of \
         field_mask_test.TestAllTypes is not a message, so the path must end there"
    );
    assert_eq!(
        error("a..b"),
        "invalid field mask path \"a..b\": field_mask_test.TestAllTypes has no field \"a\""
    );
    assert_eq!(error(""), "invalid field mask path \"\": empty field name");
    let boxed: Box<dyn std::error::Error> =
        Box::new(field_mask::validate(&mask(&["x"]), &all).unwrap_err());
    assert!(boxed.source().is_none());
}

// --- trim ---------------------------------------------------------------

/// Java's `FieldMaskUtilTest.testTrim`.
#[test]
fn trim_keeps_the_masked_fields_as_java() {
    let mut source = message(
        "NestedTestAllTypes",
        r#"payload { optional_int32: 1234 optional_string: "1234" optional_bool: true }"#,
    );
    let paths = mask(&["payload.optional_int32", "payload.optional_string"]);
    field_mask::trim(&mut source, &paths).unwrap();
    assert_message(
        &source,
        r#"payload { optional_int32: 1234 optional_string: "1234" }"#,
    );
}

/// field_mask.proto's projection example: `f.a` and `f.b.d` applied to
/// `f { a: 22 b { d: 1 x: 2 } y: 13 } z: 8` leave `f { a: 22 b { d: 1 } }`.
#[test]
fn trim_as_field_mask_proto_projects() {
    let mut root = message("Root", "f { a: 22 b { d: 1 x: 2 } y: 13 } z: 8");
    field_mask::trim(&mut root, &mask(&["f.a", "f.b.d"])).unwrap();
    assert_message(&root, "f { a: 22 b { d: 1 } }");
}

#[test]
fn trim_clears_what_is_not_covered() {
    let full = format!(
        "{VALUE} optional_bool: true map_string_int32 {{ key: \"k\" value: 1 }} \
         oneof_string: \"s\" [field_mask_test.extension_int32]: 7 \
         OptionalGroup {{ a: 3 }}"
    );
    let mut all = message("TestAllTypes", &full);
    all.unknown_fields_mut().unwrap().push_varint(999, 5);
    // Fields named whole stay whole; an unset covered field stays unset;
    // an overlapping path changes nothing; extensions and unknown fields go.
    field_mask::trim(
        &mut all,
        &mask(&[
            "optional_nested_message",
            "optional_nested_message.bb",
            "repeated_int32",
            "map_string_int32",
            "optional_uint32",
            "optionalgroup",
        ]),
    )
    .unwrap();
    assert_message(
        &all,
        "OptionalGroup { a: 3 } optional_nested_message { bb: 5678 } repeated_int32: 4321 \
         map_string_int32 { key: \"k\" value: 1 }",
    );
    assert!(all.unknown_fields().is_empty());

    // A sub-message trimmed to nothing stays set, as in Java.
    let mut nested = java_source();
    field_mask::trim(&mut nested, &mask(&["payload.optional_uint32"])).unwrap();
    assert_message(&nested, "payload { }");

    // An empty mask clears the message.
    let mut nested = java_source();
    field_mask::trim(&mut nested, &FieldMask::default()).unwrap();
    assert_message(&nested, "");
}

#[test]
fn trim_refuses_an_invalid_mask_and_changes_nothing() {
    let mut nested = java_source();
    let error = field_mask::trim(&mut nested, &mask(&["payload", "child.nope"])).unwrap_err();
    assert!(matches!(
        error,
        FieldMaskError::InvalidPath { ref segment, .. } if segment == "nope"
    ));
    assert_eq!(nested, java_source());
}

// --- merge --------------------------------------------------------------

/// Java's `FieldMaskTreeTest.testMerge`, each field alone: a path copies
/// only the field it names (creating the messages above it).
#[test]
fn merge_each_field_as_java() {
    let source = java_source();
    for (path, expected) in [
        ("payload.optional_int32", "payload { optional_int32: 1234 }"),
        (
            "payload.optional_nested_message",
            "payload { optional_nested_message { bb: 5678 } }",
        ),
        ("payload.repeated_int32", "payload { repeated_int32: 4321 }"),
        (
            "payload.repeated_nested_message",
            "payload { repeated_nested_message { bb: 8765 } }",
        ),
        (
            "child.payload.optional_int32",
            "child { payload { optional_int32: 1234 } }",
        ),
        (
            "child.payload.optional_nested_message",
            "child { payload { optional_nested_message { bb: 5678 } } }",
        ),
        (
            "child.payload.repeated_int32",
            "child { payload { repeated_int32: 4321 } }",
        ),
        (
            "child.payload.repeated_nested_message",
            "child { payload { repeated_nested_message { bb: 8765 } } }",
        ),
    ] {
        let mut destination = DynamicMessage::new(descriptor("NestedTestAllTypes"));
        field_mask::merge(
            &source,
            &mut destination,
            &mask(&[path]),
            MergeOptions::default(),
        )
        .unwrap();
        assert_message(&destination, expected);
    }
    // Every field.
    let mut destination = DynamicMessage::new(descriptor("NestedTestAllTypes"));
    field_mask::merge(
        &source,
        &mut destination,
        &mask(&["child", "payload"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_eq!(destination, source);
}

/// Java's repeated-field options: append by default, replace on request;
/// maps insert entries (replacing equal keys) or replace.
#[test]
fn merge_repeated_fields_append_or_replace() {
    let source = java_source();
    let paths = mask(&["payload.repeated_int32"]);
    let mut destination = message("NestedTestAllTypes", "payload { repeated_int32: 1000 }");
    field_mask::merge(&source, &mut destination, &paths, MergeOptions::default()).unwrap();
    assert_message(&destination, "payload { repeated_int32: [1000, 4321] }");
    field_mask::merge(
        &source,
        &mut destination,
        &paths,
        options(false, true, false),
    )
    .unwrap();
    assert_message(&destination, "payload { repeated_int32: 4321 }");

    let source = message(
        "TestAllTypes",
        r#"map_string_int32 { key: "a" value: 10 } map_string_int32 { key: "c" value: 3 }"#,
    );
    let before = r#"map_string_int32 { key: "a" value: 1 } map_string_int32 { key: "b" value: 2 }"#;
    let paths = mask(&["map_string_int32"]);
    let mut destination = message("TestAllTypes", before);
    field_mask::merge(&source, &mut destination, &paths, MergeOptions::default()).unwrap();
    assert_message(
        &destination,
        r#"map_string_int32 { key: "a" value: 10 } map_string_int32 { key: "b" value: 2 }
           map_string_int32 { key: "c" value: 3 }"#,
    );
    let mut destination = message("TestAllTypes", before);
    field_mask::merge(
        &source,
        &mut destination,
        &paths,
        options(false, true, false),
    )
    .unwrap();
    assert_message(&destination, &text::to_string(&source));

    // Replacing with an unset field empties the destination's.
    let mut destination = message("TestAllTypes", before);
    let empty = DynamicMessage::new(descriptor("TestAllTypes"));
    field_mask::merge(
        &empty,
        &mut destination,
        &paths,
        options(false, true, false),
    )
    .unwrap();
    assert_message(&destination, "");
    let mut destination = message("TestAllTypes", before);
    field_mask::merge(&empty, &mut destination, &paths, MergeOptions::default()).unwrap();
    assert_message(&destination, before);
}

/// Java's message-field options: merge by default, replace on request,
/// and what an unset source message does under each.
#[test]
fn merge_message_fields_merge_or_replace() {
    let source = java_source();
    let paths = mask(&["payload"]);
    let before = "payload { optional_int32: 1000 optional_uint32: 2000 }";

    let mut destination = message("NestedTestAllTypes", before);
    field_mask::merge(&source, &mut destination, &paths, MergeOptions::default()).unwrap();
    assert_message(
        &destination,
        &format!("payload {{ {VALUE} optional_uint32: 2000 }}"),
    );

    let mut destination = message("NestedTestAllTypes", before);
    field_mask::merge(
        &source,
        &mut destination,
        &paths,
        options(true, false, false),
    )
    .unwrap();
    assert_message(&destination, &format!("payload {{ {VALUE} }}"));

    // An unset source message: merging adds nothing, replacing clears.
    let cleared = message(
        "NestedTestAllTypes",
        &format!("child {{ payload {{ {VALUE} }} }}"),
    );
    let mut destination = DynamicMessage::new(descriptor("NestedTestAllTypes"));
    field_mask::merge(&cleared, &mut destination, &paths, MergeOptions::default()).unwrap();
    assert_message(&destination, "");
    let mut destination = message("NestedTestAllTypes", before);
    field_mask::merge(&cleared, &mut destination, &paths, MergeOptions::default()).unwrap();
    assert_message(&destination, before);
    let mut destination = message("NestedTestAllTypes", before);
    field_mask::merge(
        &cleared,
        &mut destination,
        &paths,
        options(true, false, false),
    )
    .unwrap();
    assert_message(&destination, "");

    // A path below a message neither side has set creates nothing.
    let mut destination = DynamicMessage::new(descriptor("NestedTestAllTypes"));
    let below = mask(&["payload.optional_int32"]);
    for options in [MergeOptions::default(), options(true, true, true)] {
        field_mask::merge(&cleared, &mut destination, &below, options).unwrap();
        assert_message(&destination, "");
    }
}

/// Java's primitive-field options: an unset source field sets the
/// destination's to its default (present), or clears it on request.
#[test]
fn merge_unset_primitive_fields_set_the_default_or_clear() {
    let unset = message(
        "NestedTestAllTypes",
        &format!(
            "payload {{ optional_nested_message {{ bb: 5678 }} }} child {{ payload {{ {VALUE} }} }}"
        ),
    );
    let paths = mask(&["payload.optional_int32", "payload.default_int32"]);

    let mut destination = java_source();
    field_mask::merge(&unset, &mut destination, &paths, MergeOptions::default()).unwrap();
    let payload = destination.field_by_name("payload").unwrap();
    let buffa_reflect::Value::Message(payload) = payload else {
        panic!("payload is a message");
    };
    assert_eq!(
        payload.field_by_name("optional_int32"),
        Some(&buffa_reflect::Value::I32(0)),
        "set, to its default"
    );
    // The declared default, as Java's getField reads an unset field.
    assert_eq!(
        payload.field_by_name("default_int32"),
        Some(&buffa_reflect::Value::I32(41))
    );

    let mut destination = java_source();
    field_mask::merge(
        &unset,
        &mut destination,
        &paths,
        options(false, false, true),
    )
    .unwrap();
    assert_message(
        &destination,
        &format!(
            "payload {{ optional_nested_message {{ bb: 5678 }} repeated_int32: 4321 \
             repeated_nested_message {{ bb: 8765 }} }} child {{ payload {{ {VALUE} }} }}"
        ),
    );

    // Below a message only the destination has: the source reads as
    // empty.
    let empty = DynamicMessage::new(descriptor("NestedTestAllTypes"));
    let mut destination = message(
        "NestedTestAllTypes",
        "payload { optional_int32: 5 optional_uint32: 6 }",
    );
    field_mask::merge(&empty, &mut destination, &paths, MergeOptions::default()).unwrap();
    assert_message(
        &destination,
        "payload { optional_int32: 0 optional_uint32: 6 default_int32: 41 }",
    );
    field_mask::merge(
        &empty,
        &mut destination,
        &paths,
        options(false, false, true),
    )
    .unwrap();
    assert_message(&destination, "payload { optional_uint32: 6 }");
}

/// field_mask.proto's update example: `f.b` merged, `f.c` appended.
#[test]
fn merge_as_field_mask_proto_updates() {
    let mut target = message("Root", "f { b { d: 1 x: 2 } c: [1] }");
    let update = message("Root", "f { b { d: 10 } c: [2] } z: 5");
    field_mask::merge(
        &update,
        &mut target,
        &mask(&["f.b", "f.c"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_message(&target, "f { b { d: 10 x: 2 } c: [1, 2] }");
}

#[test]
fn merge_oneof_members_select_the_member() {
    let source = message("TestAllTypes", "oneof_uint32: 7");
    let mut destination = message("TestAllTypes", r#"oneof_string: "s""#);
    field_mask::merge(
        &source,
        &mut destination,
        &mask(&["oneof_uint32"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_message(&destination, "oneof_uint32: 7");

    // An unset member: set to its default by default, which selects it;
    // cleared on request, which leaves the other member.
    let mut destination = message("TestAllTypes", r#"oneof_string: "s""#);
    let empty = DynamicMessage::new(descriptor("TestAllTypes"));
    field_mask::merge(
        &empty,
        &mut destination,
        &mask(&["oneof_uint32"]),
        options(false, false, true),
    )
    .unwrap();
    assert_message(&destination, r#"oneof_string: "s""#);
    field_mask::merge(
        &empty,
        &mut destination,
        &mask(&["oneof_uint32"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_message(&destination, "oneof_uint32: 0");
}

#[test]
fn merge_refuses_bad_input_and_changes_nothing() {
    let source = java_source();
    let mut destination = message("NestedTestAllTypes", "payload { optional_int32: 1 }");
    let before = destination.clone();

    let error = field_mask::merge(
        &source,
        &mut destination,
        &mask(&["payload", "payload.repeated_int32.x"]),
        MergeOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(
        error,
        FieldMaskError::InvalidPath {
            problem: PathProblem::RepeatedNotLast,
            ..
        }
    ));
    assert_eq!(destination, before);

    let other = message("TestAllTypes", "optional_int32: 3");
    assert_eq!(
        field_mask::merge(
            &other,
            &mut destination,
            &mask(&["payload"]),
            MergeOptions::default()
        ),
        Err(FieldMaskError::DifferentTypes {
            source: "field_mask_test.TestAllTypes".to_owned(),
            destination: "field_mask_test.NestedTestAllTypes".to_owned(),
        })
    );
    assert_eq!(
        FieldMaskError::DifferentTypes {
            source: "a.A".to_owned(),
            destination: "b.B".to_owned()
        }
        .to_string(),
        "cannot merge a a.A into a b.B"
    );
    assert_eq!(destination, before);

    // An empty mask changes nothing, as Java documents.
    field_mask::merge(
        &source,
        &mut destination,
        &FieldMask::default(),
        options(true, true, true),
    )
    .unwrap();
    assert_eq!(destination, before);
}

// --- generated messages -------------------------------------------------

/// Generated messages (the well-known types reflect): sub-paths, repeated
/// and message options, trim.
#[test]
fn generated_messages_trim_and_merge() {
    let mut stored = Api::default();
    text::merge(
        &mut stored,
        r#"name: "library" version: "v1" methods { name: "GetBook" }
           source_context { file_name: "library.proto" } mixins { name: "m" }"#,
    )
    .unwrap();
    let mut update = Api::default();
    text::merge(
        &mut update,
        r#"name: "ignored" version: "v2" methods { name: "ListBooks" }
           source_context { file_name: "library_v2.proto" }"#,
    )
    .unwrap();

    let mut merged = stored.clone();
    field_mask::merge(
        &update,
        &mut merged,
        &mask(&["methods", "source_context.file_name", "mixins"]),
        MergeOptions::default(),
    )
    .unwrap();
    let names: Vec<&str> = merged.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["GetBook", "ListBooks"]);
    assert_eq!(merged.source_context.file_name, "library_v2.proto");
    assert_eq!(merged.name, "library");
    assert_eq!(merged.version, "v1");
    assert_eq!(
        merged.mixins.len(),
        1,
        "an empty source list appends nothing"
    );

    let mut replaced = stored.clone();
    field_mask::merge(
        &update,
        &mut replaced,
        &mask(&["methods", "mixins", "source_context"]),
        options(true, true, false),
    )
    .unwrap();
    let names: Vec<&str> = replaced.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["ListBooks"]);
    assert!(replaced.mixins.is_empty());
    assert_eq!(replaced.source_context.file_name, "library_v2.proto");

    let mut trimmed = stored.clone();
    field_mask::trim(&mut trimmed, &mask(&["name", "source_context"])).unwrap();
    let mut expected = Api::default();
    text::merge(
        &mut expected,
        r#"name: "library" source_context { file_name: "library.proto" }"#,
    )
    .unwrap();
    assert_eq!(trimmed, expected);

    // Paths are checked against the generated type's own descriptor.
    let error = field_mask::trim(&mut trimmed, &mask(&["methods.name"])).unwrap_err();
    assert!(matches!(
        error,
        FieldMaskError::InvalidPath { ref message, .. } if message == "google.protobuf.Api"
    ));
}

/// A generated map field, oneof and fields with presence.
#[test]
fn generated_maps_oneofs_and_presence() {
    let mut stored = Struct::default();
    text::merge(
        &mut stored,
        r#"fields { key: "a" value { number_value: 1 } }
           fields { key: "b" value { string_value: "x" } }"#,
    )
    .unwrap();
    let mut update = Struct::default();
    text::merge(
        &mut update,
        r#"fields { key: "a" value { bool_value: true } }"#,
    )
    .unwrap();
    field_mask::merge(
        &update,
        &mut stored,
        &mask(&["fields"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_eq!(stored.fields.len(), 2);
    let mut expected = Struct::default();
    text::merge(
        &mut expected,
        r#"fields { key: "a" value { bool_value: true } }
           fields { key: "b" value { string_value: "x" } }"#,
    )
    .unwrap();
    assert_eq!(stored, expected);

    // A oneof member of a generated message.
    let mut value = Value::default();
    text::merge(&mut value, r#"string_value: "s""#).unwrap();
    let mut number = Value::default();
    text::merge(&mut number, "number_value: 2.5").unwrap();
    field_mask::merge(
        &number,
        &mut value,
        &mask(&["number_value"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_eq!(value, number);

    // proto2-style presence on a generated message (`Option<T>` fields).
    let mut features = FeatureSet::default();
    text::merge(&mut features, "field_presence: IMPLICIT enum_type: OPEN").unwrap();
    let empty = FeatureSet::default();
    let mut defaulted = features.clone();
    field_mask::merge(
        &empty,
        &mut defaulted,
        &mask(&["field_presence"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_eq!(
        text::to_string(&defaulted),
        "field_presence: FIELD_PRESENCE_UNKNOWN\nenum_type: OPEN\n"
    );
    field_mask::merge(
        &empty,
        &mut features,
        &mask(&["field_presence"]),
        options(false, false, true),
    )
    .unwrap();
    assert_eq!(text::to_string(&features), "enum_type: OPEN\n");
}

/// A dynamic message merged into a generated one of the same type, and
/// the other way round.
#[test]
fn dynamic_and_generated_messages_mix() {
    let descriptor = Type::default().descriptor();
    let source = text::parse(
        &descriptor,
        r#"name: "Book" fields { name: "title" number: 1 } source_context { file_name: "b.proto" }"#,
    )
    .unwrap();
    let mut stored = Type::default();
    text::merge(
        &mut stored,
        r#"name: "Old" fields { name: "id" number: 2 }"#,
    )
    .unwrap();
    field_mask::merge(
        &source,
        &mut stored,
        &mask(&["fields", "source_context"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_eq!(stored.name, "Old");
    assert_eq!(stored.fields.len(), 2);
    assert_eq!(stored.fields[1].name, "title");
    assert_eq!(stored.source_context.file_name, "b.proto");

    let mut dynamic = DynamicMessage::new(descriptor);
    field_mask::merge(
        &stored,
        &mut dynamic,
        &mask(&["name", "fields"]),
        MergeOptions::default(),
    )
    .unwrap();
    assert_message(
        &dynamic,
        r#"name: "Old" fields { name: "id" number: 2 } fields { name: "title" number: 1 }"#,
    );
}
