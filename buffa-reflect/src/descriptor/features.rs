//! Edition features: the behaviour of each element, resolved from the
//! defaults of its file's edition and the `features` options of the file
//! and of every enclosing element.
//!
//! proto2 and proto3 files are expressed in the same terms: their syntax
//! fixes the defaults, and the few options that change behaviour
//! (`required`, `packed`, groups, proto3 `optional`) become feature values
//! on the field, so that the descriptor handles answer every question from
//! one resolved [`Features`].

use buffa_types::google::protobuf::feature_set::{
    EnumType, FieldPresence, JsonFormat, MessageEncoding, RepeatedFieldEncoding, Utf8Validation,
};
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{Edition, FeatureSet, FieldDescriptorProto};

use super::Syntax;

/// The resolved values of the features that change how a field or enum
/// behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Features {
    pub field_presence: FieldPresence,
    pub enum_type: EnumType,
    pub repeated_field_encoding: RepeatedFieldEncoding,
    pub utf8_validation: Utf8Validation,
    pub message_encoding: MessageEncoding,
    pub json_format: JsonFormat,
}

impl Features {
    /// The defaults of a file's syntax, or `None` for an edition whose
    /// defaults this crate does not know.
    pub fn defaults(syntax: Syntax) -> Option<Features> {
        Some(match syntax {
            Syntax::Proto2 => Features {
                field_presence: FieldPresence::Explicit,
                enum_type: EnumType::Closed,
                repeated_field_encoding: RepeatedFieldEncoding::Expanded,
                utf8_validation: Utf8Validation::None,
                message_encoding: MessageEncoding::LengthPrefixed,
                json_format: JsonFormat::LegacyBestEffort,
            },
            Syntax::Proto3 => Features {
                field_presence: FieldPresence::Implicit,
                enum_type: EnumType::Open,
                repeated_field_encoding: RepeatedFieldEncoding::Packed,
                utf8_validation: Utf8Validation::Verify,
                message_encoding: MessageEncoding::LengthPrefixed,
                json_format: JsonFormat::Allow,
            },
            // The two editions agree on every feature read here.
            Syntax::Edition(Edition::Edition2023 | Edition::Edition2024) => Features {
                field_presence: FieldPresence::Explicit,
                enum_type: EnumType::Open,
                repeated_field_encoding: RepeatedFieldEncoding::Packed,
                utf8_validation: Utf8Validation::Verify,
                message_encoding: MessageEncoding::LengthPrefixed,
                json_format: JsonFormat::Allow,
            },
            Syntax::Edition(_) => return None,
        })
    }

    /// These features overridden by the values `set` declares. A value of
    /// zero (`*_UNKNOWN`) declares nothing.
    pub fn merge(self, syntax: Syntax, set: Option<&FeatureSet>) -> Features {
        // Features are an editions concept: proto2 and proto3 files cannot
        // declare them (protoc refuses), so their behaviour stays that of
        // the syntax.
        let Some(set) = set.filter(|_| matches!(syntax, Syntax::Edition(_))) else {
            return self;
        };
        fn pick<T: Default + PartialEq>(declared: Option<T>, inherited: T) -> T {
            declared.filter(|v| *v != T::default()).unwrap_or(inherited)
        }
        Features {
            field_presence: pick(set.field_presence, self.field_presence),
            enum_type: pick(set.enum_type, self.enum_type),
            repeated_field_encoding: pick(
                set.repeated_field_encoding,
                self.repeated_field_encoding,
            ),
            utf8_validation: pick(set.utf8_validation, self.utf8_validation),
            message_encoding: pick(set.message_encoding, self.message_encoding),
            json_format: pick(set.json_format, self.json_format),
        }
    }

    /// A field's features: `self` (its message's, oneof's or extension
    /// scope's) overridden by the field's own, with proto2 and proto3
    /// syntax expressed as features: `required` is `LEGACY_REQUIRED`,
    /// proto3 `optional` is `EXPLICIT`, the `packed` option chooses the
    /// repeated encoding and a group is `DELIMITED`.
    pub fn for_field(self, syntax: Syntax, field: &FieldDescriptorProto) -> Features {
        let mut features = self.merge(syntax, field.options.features.as_option());
        if field.label == Some(Label::Required) {
            features.field_presence = FieldPresence::LegacyRequired;
        }
        if field.proto3_optional == Some(true) {
            features.field_presence = FieldPresence::Explicit;
        }
        if let Some(packed) = field.options.packed {
            features.repeated_field_encoding = if packed {
                RepeatedFieldEncoding::Packed
            } else {
                RepeatedFieldEncoding::Expanded
            };
        }
        if field.r#type == Some(Type::Group) {
            features.message_encoding = MessageEncoding::Delimited;
        }
        features
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_override_and_zero_is_unset() {
        let edition = Syntax::Edition(Edition::Edition2023);
        let base = Features::defaults(edition).unwrap();
        let set = FeatureSet {
            field_presence: Some(FieldPresence::Implicit),
            enum_type: Some(EnumType::Unknown),
            ..FeatureSet::default()
        };
        let merged = base.merge(edition, Some(&set));
        assert_eq!(merged.field_presence, FieldPresence::Implicit);
        assert_eq!(merged.enum_type, EnumType::Open);
        // proto3 files do not read features.
        let proto3 = Features::defaults(Syntax::Proto3).unwrap();
        assert_eq!(proto3.merge(Syntax::Proto3, Some(&set)), proto3);
        assert_eq!(Features::defaults(Syntax::Edition(Edition::Unstable)), None);
    }
}
