//! Extensions in edition 2023: packed by default, `DELIMITED` messages,
//! open and closed enums, and an editions file extending a proto2 message.

use super::*;

fn leaf(value: i32, label: Option<&str>) -> Leaf {
    Leaf {
        value: Some(value),
        label: label.map(str::to_owned),
        ..Default::default()
    }
}

const EDITIONS_TEXT: &str = r#"
    id: 9
    [test.ext.ed.packed_ints]: [1, -2, 3]
    [test.ext.ed.expanded_ints]: [4, 5]
    [test.ext.ed.mood]: MOOD_HAPPY
    [test.ext.ed.strict]: STRICT_TWO
    [test.ext.ed.moods]: [MOOD_HAPPY, MOOD_UNSPECIFIED]
    [test.ext.ed.leaf] { value: 1 label: "l" }
    [test.ext.ed.delimited_leaf] { value: 2 }
    [test.ext.ed.delimited_leaves] { value: 3 }
    [test.ext.ed.delimited_leaves] { label: "four" }
    [test.ext.ed.text]: "t"
"#;

#[test]
fn edition_2023_extensions_match_protoc() {
    let reference = encode(EDITIONS, "test.ext.ed.Target", EDITIONS_TEXT);
    // Packed by default, and DELIMITED messages as groups: what protoc
    // wrote, read schema-less.
    let raw = common::protoc_decode_raw(&reference);
    assert!(raw.contains("16 {\n  1: 2\n}"), "{raw}");
    assert!(raw.contains("11: 4\n11: 5"), "{raw}");

    let message = Target::decode_from_slice(&reference).unwrap();
    assert_eq!(message.id, Some(9));
    assert_eq!(message.extension(&ed::PACKED_INTS).unwrap(), [1, -2, 3]);
    assert_eq!(message.extension(&ed::EXPANDED_INTS).unwrap(), [4, 5]);
    assert_eq!(
        message.extension(&ed::MOOD).unwrap(),
        Some(EnumValue::Known(Mood::Happy))
    );
    assert_eq!(message.extension(&ed::STRICT).unwrap(), Some(Strict::Two));
    assert_eq!(
        message.extension(&ed::MOODS).unwrap(),
        [
            EnumValue::Known(Mood::Happy),
            EnumValue::Known(Mood::Unspecified)
        ]
    );
    assert_eq!(
        message.extension(&ed::LEAF).unwrap(),
        Some(leaf(1, Some("l")))
    );
    assert_eq!(
        message.extension(&ed::DELIMITED_LEAF).unwrap(),
        Some(leaf(2, None))
    );
    let leaves = message.extension(&ed::DELIMITED_LEAVES).unwrap();
    assert_eq!(leaves[0], leaf(3, None));
    assert_eq!(leaves[1].label.as_deref(), Some("four"));
    assert_eq!(message.extension(&ed::TEXT).unwrap().as_deref(), Some("t"));

    let mut by_buffa = Target {
        id: Some(9),
        ..Default::default()
    };
    by_buffa.set_extension(&ed::PACKED_INTS, vec![1, -2, 3]);
    by_buffa.set_extension(&ed::EXPANDED_INTS, vec![4, 5]);
    by_buffa.set_extension(&ed::MOOD, EnumValue::Known(Mood::Happy));
    by_buffa.set_extension(&ed::STRICT, Strict::Two);
    by_buffa.set_extension(
        &ed::MOODS,
        vec![Mood::Happy.into(), Mood::Unspecified.into()],
    );
    by_buffa.set_extension(&ed::LEAF, leaf(1, Some("l")));
    by_buffa.set_extension(&ed::DELIMITED_LEAF, leaf(2, None));
    by_buffa.set_extension(&ed::DELIMITED_LEAVES, leaves);
    by_buffa.set_extension(&ed::TEXT, "t".into());
    assert_eq!(by_buffa.encode_to_vec(), reference);
    assert_eq!(
        decode(EDITIONS, "test.ext.ed.Target", &by_buffa.encode_to_vec()),
        decode(EDITIONS, "test.ext.ed.Target", &reference)
    );
}

#[test]
fn open_enum_extensions_keep_numbers_the_enum_does_not_declare() {
    let mut message = Target::default();
    message.set_extension(&ed::MOOD, EnumValue::Unknown(42));
    message.set_extension(&ed::MOODS, vec![EnumValue::Unknown(-3)]);
    let text = decode(EDITIONS, "test.ext.ed.Target", &message.encode_to_vec());
    assert_eq!(text, "[test.ext.ed.mood]: 42\n[test.ext.ed.moods]: -3\n");
    let back = Target::decode_from_slice(&message.encode_to_vec()).unwrap();
    assert_eq!(
        back.extension(&ed::MOOD).unwrap(),
        Some(EnumValue::Unknown(42))
    );
}

#[test]
fn an_editions_file_extends_a_proto2_message() {
    let text = r#"
        [test.ext.ed.editions_leaf] { value: 5 }
        [test.ext.ed.editions_sints]: [-1, 1]
        [test.ext.e_int32]: 3
    "#;
    let reference = encode(EDITIONS, "test.ext.Extendee", text);
    let message = Extendee::decode_from_slice(&reference).unwrap();
    assert_eq!(
        message.extension(&ed::EDITIONS_LEAF).unwrap(),
        Some(leaf(5, None))
    );
    assert_eq!(message.extension(&ed::EDITIONS_SINTS).unwrap(), [-1, 1]);
    assert_eq!(message.extension(&ext::E_INT32).unwrap(), Some(3));

    let mut by_buffa = Extendee::default();
    by_buffa.set_extension(&ext::E_INT32, 3);
    by_buffa.set_extension(&ed::EDITIONS_LEAF, leaf(5, None));
    by_buffa.set_extension(&ed::EDITIONS_SINTS, vec![-1, 1]);
    assert_eq!(by_buffa.encode_to_vec(), reference);
}
