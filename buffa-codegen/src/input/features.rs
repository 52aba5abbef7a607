//! Edition features: per-field behaviour resolved from the file, message,
//! field and enum feature sets, with proto2 and proto3 as presets.
//!
//! `utf8_validation` is not read: strings are Rust `String`s, which are
//! always validated (see DESIGN.md). Nor are the features that only
//! protoc enforces (`enforce_naming_style`, `default_symbol_visibility`).
//!
//! The defaults of each edition are those protoc 36.2 reports
//! (`protoc --edition_defaults_out`); an edition missing from
//! [`Features::for_edition`] is an error, not a guess.
//!
//! `prost-types` predates editions and drops the `edition` field, every
//! `features` option and the option imports when it decodes a descriptor.
//! The same bytes are therefore decoded a second time into the small
//! overlay below, which keeps exactly those fields and the nesting needed to line them up with
//! the `prost-types` tree (same element order).

use prost::Message as _;
use prost_types::FieldDescriptorProto;
use prost_types::field_descriptor_proto::{Label, Type};

/// The feature values that change generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// `field_presence`.
    pub presence: Presence,
    /// `enum_type`: whether enums are closed.
    pub closed_enums: bool,
    /// `repeated_field_encoding`: whether repeated scalars are packed.
    pub packed: bool,
    /// `message_encoding`: whether messages are group-encoded (DELIMITED).
    pub delimited: bool,
}

/// `field_presence` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Set or unset is observable.
    Explicit,
    /// The default value means unset.
    Implicit,
    /// proto2 `required`.
    LegacyRequired,
}

/// Edition numbers as in `descriptor.proto`.
pub mod edition {
    /// proto2 files.
    pub const PROTO2: i32 = 998;
    /// proto3 files.
    pub const PROTO3: i32 = 999;
    /// Edition 2023.
    pub const EDITION_2023: i32 = 1000;
    /// Edition 2024.
    pub const EDITION_2024: i32 = 1001;
}

impl Features {
    /// The defaults of `edition`, or `None` for an edition whose defaults
    /// are not known here.
    pub fn for_edition(edition: i32) -> Option<Features> {
        Some(match edition {
            edition::PROTO2 => Features {
                presence: Presence::Explicit,
                closed_enums: true,
                packed: false,
                delimited: false,
            },
            edition::PROTO3 => Features {
                presence: Presence::Implicit,
                closed_enums: false,
                packed: true,
                delimited: false,
            },
            // 2024 changed only features that protoc enforces (naming
            // style, symbol visibility).
            edition::EDITION_2023 | edition::EDITION_2024 => Features {
                presence: Presence::Explicit,
                closed_enums: false,
                packed: true,
                delimited: false,
            },
            _ => return None,
        })
    }

    /// These features with the values `set` declares overriding them.
    pub fn merge(self, set: Option<&FeatureSet>) -> Features {
        let Some(set) = set else { return self };
        let mut out = self;
        match set.field_presence {
            Some(1) => out.presence = Presence::Explicit,
            Some(2) => out.presence = Presence::Implicit,
            Some(3) => out.presence = Presence::LegacyRequired,
            _ => {}
        }
        match set.enum_type {
            Some(1) => out.closed_enums = false,
            Some(2) => out.closed_enums = true,
            _ => {}
        }
        match set.repeated_field_encoding {
            Some(1) => out.packed = true,
            Some(2) => out.packed = false,
            _ => {}
        }
        match set.message_encoding {
            Some(1) => out.delimited = false,
            Some(2) => out.delimited = true,
            _ => {}
        }
        out
    }
}

/// How an edition reads in messages: its name in `edition = "..."` where
/// protoc 36 knows one, else its number in `descriptor.proto`'s `Edition`.
pub fn edition_name(edition: i32) -> String {
    match edition {
        edition::PROTO2 => "proto2".into(),
        edition::PROTO3 => "proto3".into(),
        edition::EDITION_2023 => "2023".into(),
        edition::EDITION_2024 => "2024".into(),
        1002 => "2026".into(),
        9999 => "UNSTABLE".into(),
        n => format!("number {n}"),
    }
}

/// The edition of a file from its `syntax` string and `edition` field.
pub fn file_edition(syntax: &str, overlay_edition: Option<i32>) -> i32 {
    match syntax {
        "proto3" => edition::PROTO3,
        "editions" => overlay_edition.unwrap_or(edition::EDITION_2023),
        _ => edition::PROTO2,
    }
}

/// `google.protobuf.FeatureSet`, the fields codegen reads.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FeatureSet {
    /// `field_presence`.
    #[prost(int32, optional, tag = "1")]
    pub field_presence: Option<i32>,
    /// `enum_type`.
    #[prost(int32, optional, tag = "2")]
    pub enum_type: Option<i32>,
    /// `repeated_field_encoding`.
    #[prost(int32, optional, tag = "3")]
    pub repeated_field_encoding: Option<i32>,
    /// `message_encoding`.
    #[prost(int32, optional, tag = "5")]
    pub message_encoding: Option<i32>,
}

/// Declares an `*Options` overlay holding only the `features` field, whose
/// number differs per options message.
macro_rules! options_overlay {
    ($(#[$doc:meta])* $name:ident, $tag:literal) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, prost::Message)]
        pub struct $name {
            /// `features`.
            #[prost(message, optional, tag = $tag)]
            pub features: Option<FeatureSet>,
        }

        impl DeclaredFeatures for $name {
            fn features(&self) -> Option<&FeatureSet> {
                self.features.as_ref()
            }
        }
    };
}

/// An options overlay: the feature set it declares.
pub trait DeclaredFeatures {
    /// The declared features, if any.
    fn features(&self) -> Option<&FeatureSet>;
}

options_overlay!(
    /// `FileOptions`: features are field 50.
    FileOptions, "50"
);
options_overlay!(
    /// `MessageOptions`: features are field 12.
    MessageOptions, "12"
);
options_overlay!(
    /// `FieldOptions`: features are field 21.
    FieldOptions, "21"
);
options_overlay!(
    /// `EnumOptions`: features are field 7.
    EnumOptions, "7"
);

/// `FileDescriptorSet` with only the editions data.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FileSetOverlay {
    /// `file`.
    #[prost(message, repeated, tag = "1")]
    pub file: Vec<FileOverlay>,
}

/// `FileDescriptorProto` with only the editions data.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FileOverlay {
    /// `message_type`.
    #[prost(message, repeated, tag = "4")]
    pub message_type: Vec<MessageOverlay>,
    /// `enum_type`.
    #[prost(message, repeated, tag = "5")]
    pub enum_type: Vec<EnumOverlay>,
    /// `extension`.
    #[prost(message, repeated, tag = "7")]
    pub extension: Vec<FieldOverlay>,
    /// `options`.
    #[prost(message, optional, tag = "8")]
    pub options: Option<FileOptions>,
    /// `edition`.
    #[prost(int32, optional, tag = "14")]
    pub edition: Option<i32>,
    /// `option_dependency`: the files of `import option` (edition 2024).
    #[prost(string, repeated, tag = "15")]
    pub option_dependency: Vec<String>,
}

/// `DescriptorProto` with only the editions data.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MessageOverlay {
    /// `field`.
    #[prost(message, repeated, tag = "2")]
    pub field: Vec<FieldOverlay>,
    /// `nested_type`.
    #[prost(message, repeated, tag = "3")]
    pub nested_type: Vec<MessageOverlay>,
    /// `enum_type`.
    #[prost(message, repeated, tag = "4")]
    pub enum_type: Vec<EnumOverlay>,
    /// `extension`.
    #[prost(message, repeated, tag = "6")]
    pub extension: Vec<FieldOverlay>,
    /// `options`.
    #[prost(message, optional, tag = "7")]
    pub options: Option<MessageOptions>,
}

/// `FieldDescriptorProto` with only the editions data.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FieldOverlay {
    /// `options`.
    #[prost(message, optional, tag = "8")]
    pub options: Option<FieldOptions>,
}

/// `EnumDescriptorProto` with only the editions data.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EnumOverlay {
    /// `options`.
    #[prost(message, optional, tag = "3")]
    pub options: Option<EnumOptions>,
}

/// Decodes the editions overlay of an encoded `FileDescriptorSet`.
pub fn decode_overlay(bytes: &[u8]) -> Result<FileSetOverlay, prost::DecodeError> {
    FileSetOverlay::decode(bytes)
}

/// The feature set an options overlay declares.
pub fn declared<O: DeclaredFeatures>(options: &Option<O>) -> Option<&FeatureSet> {
    options.as_ref().and_then(DeclaredFeatures::features)
}

/// Resolves a field's features and presence.
pub fn field_features(
    proto: &FieldDescriptorProto,
    message: Features,
    declared: Option<&FeatureSet>,
) -> Features {
    let mut features = message.merge(declared);
    // proto2 and proto3 syntax expressed as features.
    if proto.label() == Label::Required {
        features.presence = Presence::LegacyRequired;
    }
    if proto.proto3_optional() {
        features.presence = Presence::Explicit;
    }
    if let Some(packed) = proto.options.as_ref().and_then(|o| o.packed) {
        features.packed = packed;
    }
    if proto.r#type() == Type::Group {
        features.delimited = true;
    }
    features
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_overrides() {
        let proto2 = Features::for_edition(edition::PROTO2).unwrap();
        assert!(proto2.closed_enums && !proto2.packed);
        let proto3 = Features::for_edition(edition::PROTO3).unwrap();
        assert_eq!(proto3.presence, Presence::Implicit);
        let e2023 = Features::for_edition(edition::EDITION_2023).unwrap();
        let set = FeatureSet {
            field_presence: Some(2),
            message_encoding: Some(2),
            repeated_field_encoding: Some(2),
            ..Default::default()
        };
        let merged = e2023.merge(Some(&set));
        assert_eq!(merged.presence, Presence::Implicit);
        assert!(merged.delimited && !merged.packed && !merged.closed_enums);
    }

    #[test]
    fn edition_2024_defaults_and_unknown_editions() {
        // protoc 36.2's `--edition_defaults_out` gives 2024 the values of
        // 2023 for every feature read here.
        assert_eq!(
            Features::for_edition(edition::EDITION_2024),
            Features::for_edition(edition::EDITION_2023)
        );
        // 2026 (which protoc 36.2 accepts) and UNSTABLE are refused.
        for edition in [0, 1002, 9999, i32::MAX] {
            assert_eq!(Features::for_edition(edition), None, "{edition}");
        }
        assert_eq!(edition_name(1002), "2026");
        assert_eq!(edition_name(7), "number 7");
    }
}
