//! The no_std library's `config` messages (proto2) against protoc's own
//! encoder: explicit defaults read through the accessors, the presence
//! that tells a value set to its default from an unset one, and groups.

mod common;

use buffa::{Message, MessageView};
use buffa_no_std_test::config::{Mode, Settings, SettingsView};
use buffa_no_std_test::sample_settings;

fn protoc_encode(text: &str) -> Vec<u8> {
    common::protoc_encode(
        &common::local_protos(),
        "config.proto",
        "config.Settings",
        text,
    )
}

/// `sample_settings()` in text format: groups are written by their type
/// name.
const SAMPLE_TEXT: &str = r#"
    name: "probe"
    mode: MODE_SLOW
    Window { start: -5 }
    Stage { label: "warm-up" }
    Stage { }
"#;

#[test]
fn unset_fields_read_as_the_protos_defaults() {
    let settings = Settings::decode_from_slice(&[]).unwrap();
    assert_eq!(settings.name(), "sensor-ü");
    assert_eq!(settings.key(), [0x01, 0xFF]);
    assert_eq!(settings.offset(), -40);
    assert_eq!(settings.gain(), 1.5);
    assert_eq!(settings.mode(), Mode::Fast);
    // Through the group's default instance.
    assert_eq!(settings.window.end(), 100);
    let view = SettingsView::decode_view(&[]).unwrap();
    assert_eq!((view.name(), view.offset()), ("sensor-ü", -40));
}

#[test]
fn a_value_equal_to_the_default_is_still_present() {
    let bytes = protoc_encode(r#"name: "" offset: -40 mode: MODE_FAST"#);
    let settings = Settings::decode_from_slice(&bytes).unwrap();
    assert_eq!(settings.name, Some(String::new()));
    assert_eq!(settings.name(), "");
    assert_eq!(
        (settings.offset, settings.mode),
        (Some(-40), Some(Mode::Fast))
    );
    assert_eq!(settings.encode_to_vec(), bytes);
}

#[test]
fn groups_encode_like_protoc() {
    let expected = protoc_encode(SAMPLE_TEXT);
    assert_eq!(sample_settings().encode_to_vec(), expected);
    // Start group (field 6, wire type 3) ... end group (wire type 4).
    assert_eq!(expected[9], 6 << 3 | 3);
}

#[test]
fn protocs_groups_decode_owned_and_viewed() {
    let bytes = protoc_encode(SAMPLE_TEXT);
    let decoded = Settings::decode_from_slice(&bytes).unwrap();
    assert_eq!(decoded, sample_settings());
    assert_eq!((decoded.window.start(), decoded.window.end()), (-5, 100));
    let view = SettingsView::decode_view(&bytes).unwrap();
    assert_eq!(view.stage.get(0).unwrap().label(), "warm-up");
    assert_eq!(view.encode_to_vec(), bytes);
    assert_eq!(view.to_owned_message().unwrap(), sample_settings());
}
