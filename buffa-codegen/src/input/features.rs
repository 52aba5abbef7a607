//! Edition features: per-field behaviour resolved from the file, message,
//! field and enum feature sets, with proto2 and proto3 as presets. The
//! rule (each edition's defaults, how declared sets override them, how
//! proto2/proto3 field syntax becomes features) is buffa-descriptor's
//! [`ResolvedFeatures`], which reflection resolves with too; this module
//! feeds it from `prost-types` descriptors.
//!
//! `utf8_validation` is not read: strings are Rust `String`s, which are
//! always validated (see DESIGN.md). An edition without known defaults
//! ([`for_edition`]) is an error, not a guess.
//!
//! `prost-types` predates editions and drops the `edition` field, every
//! `features` option and the option imports when it decodes a descriptor.
//! The same bytes are therefore decoded a second time into the small
//! overlay below, which keeps exactly those fields and the nesting needed to line them up with
//! the `prost-types` tree (same element order).

use buffa::Enumeration;
use buffa_descriptor::Syntax;
pub use buffa_descriptor::rules::ResolvedFeatures;
use buffa_descriptor::rules::{FieldSyntax, declared_features, file_syntax};
use buffa_types::google::protobuf as descriptor;
use buffa_types::google::protobuf::Edition;
use buffa_types::google::protobuf::feature_set::{
    EnumType, FieldPresence, JsonFormat, MessageEncoding, RepeatedFieldEncoding, Utf8Validation,
};
use buffa_types::google::protobuf::field_options::OptionTargetType;
use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};

use crate::error::Error;

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

/// The defaults of `edition` (a number of `descriptor.proto`'s `Edition`),
/// or `None` for an edition whose defaults are not known
/// ([`ResolvedFeatures::for_edition`]).
pub fn for_edition(edition: i32) -> Option<ResolvedFeatures> {
    Edition::from_i32(edition).and_then(ResolvedFeatures::for_edition)
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

/// The edition of a file (a number of `descriptor.proto`'s `Edition`)
/// from its `syntax` and the overlay's `edition`, as buffa-descriptor's
/// [`file_syntax`] reads them: an unknown `syntax`, or `"editions"`
/// without an edition, is an error naming `file`. An edition number that
/// `Edition` does not name is kept, for [`edition_name`] to report.
pub fn file_edition(file: &str, syntax: &str, overlay_edition: Option<i32>) -> Result<i32, Error> {
    let named = overlay_edition.map(|n| Edition::from_i32(n).unwrap_or(Edition::Unknown));
    let syntax = file_syntax(syntax, named).map_err(|e| Error::new(format!("{file}: {e}")))?;
    Ok(match (syntax, overlay_edition) {
        (Syntax::Edition(Edition::Unknown), Some(number)) => number,
        (syntax, _) => syntax.edition().to_i32(),
    })
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
    /// `utf8_validation`: not read (see the module documentation), but
    /// checked to be set only where protoc allows it.
    #[prost(int32, optional, tag = "4")]
    pub utf8_validation: Option<i32>,
    /// `message_encoding`.
    #[prost(int32, optional, tag = "5")]
    pub message_encoding: Option<i32>,
    /// `json_format`: not read, but checked like `utf8_validation`.
    #[prost(int32, optional, tag = "6")]
    pub json_format: Option<i32>,
}

impl FeatureSet {
    /// These values as `descriptor.proto`'s `FeatureSet`, which the shared
    /// resolver reads. A number the enum does not declare is left unset,
    /// as protoc's own parser leaves it (among the unknown fields).
    pub fn declared(&self) -> descriptor::FeatureSet {
        descriptor::FeatureSet {
            field_presence: self.field_presence.and_then(FieldPresence::from_i32),
            enum_type: self.enum_type.and_then(EnumType::from_i32),
            repeated_field_encoding: self
                .repeated_field_encoding
                .and_then(RepeatedFieldEncoding::from_i32),
            utf8_validation: self.utf8_validation.and_then(Utf8Validation::from_i32),
            message_encoding: self.message_encoding.and_then(MessageEncoding::from_i32),
            json_format: self.json_format.and_then(JsonFormat::from_i32),
            ..Default::default()
        }
    }
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
options_overlay!(
    /// `OneofOptions`: features are field 1.
    OneofOptions, "1"
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
    /// `oneof_decl`.
    #[prost(message, repeated, tag = "8")]
    pub oneof_decl: Vec<OneofOverlay>,
}

/// `OneofDescriptorProto` with only the editions data.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OneofOverlay {
    /// `options`.
    #[prost(message, optional, tag = "2")]
    pub options: Option<OneofOptions>,
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

/// The feature set an options overlay declares, as `descriptor.proto`'s
/// `FeatureSet`.
pub fn declared<O: DeclaredFeatures>(options: &Option<O>) -> Option<descriptor::FeatureSet> {
    options
        .as_ref()
        .and_then(DeclaredFeatures::features)
        .map(FeatureSet::declared)
}

/// Checks the `features` that every element of `file` (of `edition`)
/// declares with buffa-descriptor's [`declared_features`], the rule the
/// pool reads them with: none outside editions files, and each feature
/// only where its `targets` allow. The first refused names the file and
/// the element.
///
/// A oneof may declare none of the features resolved here, so that its
/// features, which C++ merges into those of its fields, change nothing:
/// fields resolve from their message's.
pub fn check_declared(
    file: &FileDescriptorProto,
    overlay: &FileOverlay,
    edition: i32,
) -> Result<(), Error> {
    let syntax = match edition {
        edition::PROTO2 => Syntax::Proto2,
        edition::PROTO3 => Syntax::Proto3,
        n => Syntax::Edition(Edition::from_i32(n).unwrap_or(Edition::Unknown)),
    };
    let check = |target, element: &str, declared: Option<descriptor::FeatureSet>| {
        declared_features(syntax, target, declared.as_ref())
            .map(drop)
            .map_err(|e| Error::new(format!("{}: {element}: {e}", file.name())))
    };
    let prefix = crate::path::package_prefix(file.package());
    check(
        OptionTargetType::TargetTypeFile,
        "file options",
        declared(&overlay.options),
    )?;
    check_fields(&check, &prefix, &file.extension, &overlay.extension)?;
    for (enumeration, enum_overlay) in file.enum_type.iter().zip(&overlay.enum_type) {
        let element = format!("enum {}.{}", prefix, enumeration.name());
        check(
            OptionTargetType::TargetTypeEnum,
            &element,
            declared(&enum_overlay.options),
        )?;
    }
    for (message, message_overlay) in file.message_type.iter().zip(&overlay.message_type) {
        check_message(&check, &prefix, message, message_overlay)?;
    }
    Ok(())
}

/// The check of one element: its target type, its name in messages and
/// its declared features.
type Check<'c> =
    dyn Fn(OptionTargetType, &str, Option<descriptor::FeatureSet>) -> Result<(), Error> + 'c;

fn check_message(
    check: &Check<'_>,
    prefix: &str,
    message: &DescriptorProto,
    overlay: &MessageOverlay,
) -> Result<(), Error> {
    let full_name = format!("{prefix}.{}", message.name());
    let element = format!("message {full_name}");
    check(
        OptionTargetType::TargetTypeMessage,
        &element,
        declared(&overlay.options),
    )?;
    check_fields(check, &full_name, &message.field, &overlay.field)?;
    check_fields(check, &full_name, &message.extension, &overlay.extension)?;
    for (oneof, oneof_overlay) in message.oneof_decl.iter().zip(&overlay.oneof_decl) {
        let element = format!("oneof {full_name}.{}", oneof.name());
        check(
            OptionTargetType::TargetTypeOneof,
            &element,
            declared(&oneof_overlay.options),
        )?;
    }
    for (enumeration, enum_overlay) in message.enum_type.iter().zip(&overlay.enum_type) {
        let element = format!("enum {full_name}.{}", enumeration.name());
        check(
            OptionTargetType::TargetTypeEnum,
            &element,
            declared(&enum_overlay.options),
        )?;
    }
    for (nested, nested_overlay) in message.nested_type.iter().zip(&overlay.nested_type) {
        check_message(check, &full_name, nested, nested_overlay)?;
    }
    Ok(())
}

fn check_fields(
    check: &Check<'_>,
    scope: &str,
    fields: &[FieldDescriptorProto],
    overlays: &[FieldOverlay],
) -> Result<(), Error> {
    for (field, overlay) in fields.iter().zip(overlays) {
        let element = format!("field {scope}.{}", field.name());
        check(
            OptionTargetType::TargetTypeField,
            &element,
            declared(&overlay.options),
        )?;
    }
    Ok(())
}

/// Resolves a field's features: `scope`'s (its message's or extension
/// scope's) with the field's `declared` features and its proto2/proto3
/// syntax applied.
pub fn field_features(
    proto: &FieldDescriptorProto,
    scope: ResolvedFeatures,
    declared: Option<&descriptor::FeatureSet>,
) -> ResolvedFeatures {
    scope.for_field(
        declared,
        FieldSyntax {
            required: proto.label() == Label::Required,
            proto3_optional: proto.proto3_optional(),
            packed: proto.options.as_ref().and_then(|o| o.packed),
            group: proto.r#type() == Type::Group,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The overlay's numbers reach the shared resolver as the enums they
    /// name; zero and numbers no enum value has set nothing.
    #[test]
    fn overlay_numbers_resolve() {
        let e2023 = for_edition(edition::EDITION_2023).unwrap();
        let set = FeatureSet {
            field_presence: Some(2),
            enum_type: Some(0),
            message_encoding: Some(2),
            repeated_field_encoding: Some(7),
            ..FeatureSet::default()
        };
        let merged = e2023.merge(Some(&set.declared()));
        assert_eq!(merged.field_presence, FieldPresence::Implicit);
        assert!(merged.is_delimited() && merged.is_packed() && !merged.is_closed_enum());
    }

    #[test]
    fn editions_codegen_refuses() {
        // 2026 (which protoc 36.2 accepts) and UNSTABLE are refused.
        for edition in [0, 1002, 9999, i32::MAX] {
            assert_eq!(for_edition(edition), None, "{edition}");
        }
        assert_eq!(edition_name(1002), "2026");
        assert_eq!(edition_name(7), "number 7");
    }

    /// The syntax rule of buffa-descriptor, as the pool reads it: unknown
    /// syntaxes and editions files without an edition are refused (they
    /// were read as proto2 and edition 2023), unknown numbers kept.
    #[test]
    fn file_edition_follows_the_shared_rule() {
        let edition = |syntax, overlay| file_edition("x.proto", syntax, overlay);
        assert_eq!(edition("", None), Ok(edition::PROTO2));
        assert_eq!(edition("proto2", Some(1000)), Ok(edition::PROTO2));
        assert_eq!(edition("proto3", None), Ok(edition::PROTO3));
        assert_eq!(edition("editions", Some(1001)), Ok(edition::EDITION_2024));
        assert_eq!(edition("editions", Some(7)), Ok(7));
        assert_eq!(
            edition("editions", None).unwrap_err().to_string(),
            "x.proto: syntax \"editions\" without an edition"
        );
        assert_eq!(
            edition("proto4", None).unwrap_err().to_string(),
            "x.proto: unknown syntax \"proto4\""
        );
    }

    #[test]
    fn field_syntax_from_prost_types() {
        let proto3 = for_edition(edition::PROTO3).unwrap();
        let field = FieldDescriptorProto {
            label: Some(Label::Repeated as i32),
            r#type: Some(Type::Int32 as i32),
            options: Some(prost_types::FieldOptions {
                packed: Some(false),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(!field_features(&field, proto3, None).is_packed());
        let group = FieldDescriptorProto {
            label: Some(Label::Required as i32),
            r#type: Some(Type::Group as i32),
            ..Default::default()
        };
        let proto2 = for_edition(edition::PROTO2).unwrap();
        let features = field_features(&group, proto2, None);
        assert_eq!(features.field_presence, FieldPresence::LegacyRequired);
        assert!(features.is_delimited());
    }
}
