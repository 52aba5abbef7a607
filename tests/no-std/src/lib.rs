//! Generated code in a `#![no_std]` crate: `proto/telemetry.proto`
//! (proto3), `proto/config.proto` (proto2: defaults, a closed enum,
//! groups) and buffa-build's golden `no_std.proto` (edition 2023: explicit
//! presence, a recursive map, an extension) generated with buffa-build's
//! `no_std()` (and views) against `buffa` without its `std` feature. This
//! library is always `no_std`; the tests in `tests/` (which run on the std
//! test harness) call its functions and compare the bytes they produce
//! with protoc's, and `.ci/no-std.sh` builds it for
//! `thumbv7em-none-eabihf`, which has no `std` to link.

#![no_std]

extern crate alloc;

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use buffa::{DecodeError, ExtendableMessage, Message, MessageField, MessageView};

/// The generated package `telemetry`.
#[allow(clippy::all)]
pub mod telemetry {
    buffa::include_proto!("telemetry");
}

/// The generated package `config`.
#[allow(clippy::all)]
pub mod config {
    buffa::include_proto!("config");
}

/// buffa-build's golden packages.
pub mod golden {
    /// The generated package `golden.nostd`.
    #[allow(clippy::all)]
    pub mod nostd {
        buffa::include_proto!("golden.nostd");
    }
}

use telemetry::{Reading, ReadingView, Sample, Unit, reading};

/// A reading with every field set: scalars, a string, bytes, repeated
/// scalars, strings and messages, a map, a sub-message, the oneof's
/// message variant, an explicit-presence field and enums.
pub fn sample_reading() -> Reading {
    Reading {
        id: 42,
        timestamp: -1_700_000_000,
        scale: 0.5,
        calibrated: true,
        checksum: 0xDEAD_BEEF,
        sensor: "thermo-1".to_owned(),
        raw: vec![0x00, 0xFF, 0x10],
        history: vec![1.5, -2.0],
        tags: vec!["lab".to_owned(), "ünïcode".to_owned()],
        counters: BTreeMap::from([("errors".to_owned(), -1), ("reads".to_owned(), 300)]),
        latest: MessageField::some(Sample {
            value: -3,
            unit: Unit::Celsius.into(),
        }),
        samples: vec![
            Sample {
                value: 7,
                unit: Unit::Pascal.into(),
            },
            Sample::default(),
        ],
        source: Some(reading::Source::Previous(
            Sample {
                value: 100,
                ..Default::default()
            }
            .into(),
        )),
        sequence: Some(0),
        unit: Unit::Pascal.into(),
        ..Default::default()
    }
}

/// `reading` encoded.
pub fn encode(reading: &Reading) -> Vec<u8> {
    reading.encode_to_vec()
}

/// A `Reading` decoded from `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Reading, DecodeError> {
    Reading::decode_from_slice(bytes)
}

/// A `Reading` decoded from `bytes` through its borrowed view, which is
/// also re-encoded: the view's encoding and the owned message.
pub fn decode_through_view(bytes: &[u8]) -> Result<(Vec<u8>, Reading), DecodeError> {
    let view = ReadingView::decode_view(bytes)?;
    Ok((view.encode_to_vec(), view.to_owned_message()?))
}

/// The value of `reading.latest`, read through the default instance when
/// the field is unset (the `OnceBox` that no_std code holds it in).
pub fn latest_value(reading: &Reading) -> i32 {
    reading.latest.value
}

/// Settings with a few fields set, the group `Window` with its `end` left
/// to its default, and two of the repeated group `Stage`.
pub fn sample_settings() -> config::Settings {
    use config::{Mode, Settings, settings};
    Settings {
        name: Some("probe".to_owned()),
        mode: Some(Mode::Slow),
        window: MessageField::some(settings::Window {
            start: Some(-5),
            ..Default::default()
        }),
        stage: vec![
            settings::Stage {
                label: Some("warm-up".to_owned()),
                ..Default::default()
            },
            settings::Stage::default(),
        ],
        ..Default::default()
    }
}

/// A `golden.nostd.Reading` with an empty (but present) `sensor`, packed
/// samples, a child in the recursive map, the oneof's boxed message
/// variant, and the extension `tags`.
pub fn tagged_reading() -> golden::nostd::Reading {
    use golden::nostd::{Reading, TAGS, Unit, reading};
    let child = Reading {
        unit: Some(Unit::Celsius.into()),
        ..Default::default()
    };
    let mut reading = Reading {
        sensor: Some(String::new()),
        samples: vec![-1, 64],
        children: BTreeMap::from([("left".to_owned(), child)]),
        source: Some(reading::Source::Previous(
            Reading {
                raw: Some(vec![0xAB]),
                ..Default::default()
            }
            .into(),
        )),
        ..Default::default()
    };
    reading.set_extension(&TAGS, vec!["a".to_owned(), "b".to_owned()]);
    reading
}

/// The extension `golden.nostd.tags` of `reading`.
pub fn reading_tags(reading: &golden::nostd::Reading) -> Result<Vec<String>, DecodeError> {
    reading.extension(&golden::nostd::TAGS)
}
