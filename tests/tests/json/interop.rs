//! The generated `Serialize` and `Deserialize` impls, used through
//! `serde_json` directly: the same JSON as `buffa::json` under the default
//! options.

use super::*;

#[test]
fn serde_json_and_buffa_json_agree() {
    let full = full_scalars();
    assert_eq!(serde_json::to_string(&full).unwrap(), print(&full));
    let repeated = full_repeated();
    assert_eq!(serde_json::to_string(&repeated).unwrap(), print(&repeated));
    for choice in choices() {
        assert_eq!(serde_json::to_string(&choice).unwrap(), print(&choice));
    }
    let well_known = well_known::full_well_known();
    assert_eq!(
        serde_json::to_value(&well_known).unwrap(),
        printed(&well_known)
    );
    let back: Scalars = serde_json::from_str(&print(&full)).unwrap();
    assert_eq!(back, full);
    let back: Maps = serde_json::from_str(&print(&full_maps())).unwrap();
    assert_eq!(back, full_maps());
    // Through serde_json::Value and back, too.
    let value = serde_json::to_value(&repeated).unwrap();
    let back: Repeated = serde_json::from_value(value).unwrap();
    assert_eq!(back, repeated);
    // serde_json reads under the default options: unknown fields fail.
    let err = serde_json::from_str::<Scalars>(r#"{"bogus": 1}"#).unwrap_err();
    assert!(err.to_string().contains("unknown field"), "{err}");
    // Messages nest in other serde types.
    let list: Vec<Nested> = serde_json::from_str(r#"[{"id": 1}, {"label": "x"}]"#).unwrap();
    assert_eq!(list, [nested(1, ""), nested(0, "x")]);
    assert_eq!(
        serde_json::to_string(&list).unwrap(),
        r#"[{"id":1},{"label":"x"}]"#
    );
}

#[test]
fn generated_enums_serialize_as_their_names() {
    assert_eq!(
        serde_json::to_string(&Mood::Happy).unwrap(),
        r#""MOOD_HAPPY""#
    );
    assert_eq!(
        serde_json::to_string(&Mood::Negative).unwrap(),
        r#""MOOD_NEGATIVE""#
    );
    assert_eq!(
        serde_json::to_string(&json2::Color::Blue).unwrap(),
        r#""BLUE""#
    );
    assert_eq!(
        serde_json::from_str::<Mood>(r#""MOOD_SAD""#).unwrap(),
        Mood::Sad
    );
    assert_eq!(serde_json::from_str::<Mood>("-1").unwrap(), Mood::Negative);
    assert!(serde_json::from_str::<Mood>("5").is_err());
    assert!(serde_json::from_str::<Mood>(r#""SAD""#).is_err());
    // EnumValue: unknown numbers as numbers.
    let values = vec![mood(Mood::Sad), EnumValue::Unknown(9)];
    assert_eq!(serde_json::to_string(&values).unwrap(), r#"["MOOD_SAD",9]"#);
    let back: Vec<EnumValue<Mood>> = serde_json::from_str(r#"["MOOD_SAD", 9]"#).unwrap();
    assert_eq!(back, values);
}
