//! Edition features: the behaviour of each element, resolved from the
//! defaults of its file's edition and the `features` options of the file
//! and of every enclosing element.
//!
//! proto2 and proto3 files are expressed in the same terms: their syntax
//! is an edition (`EDITION_PROTO2`, `EDITION_PROTO3`) that fixes the
//! defaults, and the few field options that change behaviour (`required`,
//! `packed`, groups, proto3 `optional`, [`FieldSyntax`]) become feature
//! values on the field, so that every question is answered from one
//! [`ResolvedFeatures`].
//!
//! The defaults of each edition are those protoc 36.2 reports
//! (`protoc --edition_defaults_out`, which `tests/rules_protoc.rs`
//! compares them with) for the features read here; an
//! edition missing from [`ResolvedFeatures::for_edition`] is refused, not
//! guessed. Of the features that only protoc enforces,
//! `enforce_naming_style` is resolved (for a compiler's naming checks) and
//! `default_symbol_visibility` is not.

use buffa_types::google::protobuf::feature_set::{
    EnforceNamingStyle, EnumType, FieldPresence, JsonFormat, MessageEncoding,
    RepeatedFieldEncoding, Utf8Validation,
};
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::field_options::OptionTargetType;
use buffa_types::google::protobuf::{Edition, FeatureSet, FieldDescriptorProto};

use crate::Syntax;

/// The resolved values of the features that change how a field, message
/// or enum behaves.
///
/// Resolution starts from [`for_edition`](ResolvedFeatures::for_edition)
/// of the file and [`merge`](ResolvedFeatures::merge)s the `features` each
/// enclosing element declares (file, then messages outwards in, then the
/// oneof), ending with [`for_field`](ResolvedFeatures::for_field):
///
/// ```
/// use buffa_descriptor::rules::{FieldSyntax, ResolvedFeatures};
/// use buffa_types::google::protobuf::feature_set::FieldPresence;
/// use buffa_types::google::protobuf::{Edition, FeatureSet};
///
/// let file = ResolvedFeatures::for_edition(Edition::Edition2023).unwrap();
/// let implicit = FeatureSet {
///     field_presence: Some(FieldPresence::Implicit),
///     ..Default::default()
/// };
/// let message = file.merge(Some(&implicit));
/// let field = message.for_field(None, FieldSyntax::default());
/// assert_eq!(field.field_presence, FieldPresence::Implicit);
/// assert!(field.is_packed() && !field.is_closed_enum());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResolvedFeatures {
    /// `field_presence`: whether a singular field tracks being set.
    pub field_presence: FieldPresence,
    /// `enum_type`: whether enums are open or closed.
    pub enum_type: EnumType,
    /// `repeated_field_encoding`: whether repeated scalars are packed.
    pub repeated_field_encoding: RepeatedFieldEncoding,
    /// `utf8_validation`: whether strings are checked to be UTF-8.
    pub utf8_validation: Utf8Validation,
    /// `message_encoding`: length-prefixed, or delimited (group encoding).
    pub message_encoding: MessageEncoding,
    /// `json_format`: whether the JSON mapping must be well defined.
    pub json_format: JsonFormat,
    /// `enforce_naming_style`: which naming rules a compiler enforces on
    /// the element's name ([`checks_naming_style`] and
    /// [`checks_name_collisions`] read it).
    ///
    /// [`checks_naming_style`]: ResolvedFeatures::checks_naming_style
    /// [`checks_name_collisions`]: ResolvedFeatures::checks_name_collisions
    pub enforce_naming_style: EnforceNamingStyle,
}

/// What a field's proto2 or proto3 syntax says that editions express as
/// features ([`ResolvedFeatures::for_field`] applies it). An editions
/// field has none of it but `packed` (which editions files cannot set
/// either: protoc refuses it, so it is `None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldSyntax {
    /// The field is `required` (`LEGACY_REQUIRED` presence).
    pub required: bool,
    /// The field is a proto3 `optional` field (`EXPLICIT` presence).
    pub proto3_optional: bool,
    /// The `packed` option, where set: the repeated encoding.
    pub packed: Option<bool>,
    /// The field is a group (`DELIMITED` message encoding).
    pub group: bool,
}

impl FieldSyntax {
    /// The syntax of `field`, as `descriptor.proto` records it.
    pub fn of(field: &FieldDescriptorProto) -> FieldSyntax {
        FieldSyntax {
            required: field.label == Some(Label::Required),
            proto3_optional: field.proto3_optional == Some(true),
            packed: field.options.packed,
            group: field.r#type == Some(Type::Group),
        }
    }
}

impl ResolvedFeatures {
    /// The defaults of `edition` (`Edition::Proto2` and `Edition::Proto3`
    /// for those syntaxes), or `None` for an edition whose defaults are not
    /// known here (UNSTABLE and the test editions among them).
    pub fn for_edition(edition: Edition) -> Option<ResolvedFeatures> {
        Some(match edition {
            Edition::Proto2 => ResolvedFeatures {
                field_presence: FieldPresence::Explicit,
                enum_type: EnumType::Closed,
                repeated_field_encoding: RepeatedFieldEncoding::Expanded,
                utf8_validation: Utf8Validation::None,
                message_encoding: MessageEncoding::LengthPrefixed,
                json_format: JsonFormat::LegacyBestEffort,
                enforce_naming_style: EnforceNamingStyle::StyleLegacy,
            },
            Edition::Proto3 => ResolvedFeatures {
                field_presence: FieldPresence::Implicit,
                enum_type: EnumType::Open,
                repeated_field_encoding: RepeatedFieldEncoding::Packed,
                utf8_validation: Utf8Validation::Verify,
                message_encoding: MessageEncoding::LengthPrefixed,
                json_format: JsonFormat::Allow,
                enforce_naming_style: EnforceNamingStyle::StyleLegacy,
            },
            // 2024 and 2026 changed only features that protoc enforces
            // (naming style, symbol visibility, 2026's limits): the three
            // agree on every other feature read here.
            Edition::Edition2023 | Edition::Edition2024 | Edition::Edition2026 => {
                ResolvedFeatures {
                    field_presence: FieldPresence::Explicit,
                    enum_type: EnumType::Open,
                    repeated_field_encoding: RepeatedFieldEncoding::Packed,
                    utf8_validation: Utf8Validation::Verify,
                    message_encoding: MessageEncoding::LengthPrefixed,
                    json_format: JsonFormat::Allow,
                    enforce_naming_style: match edition {
                        Edition::Edition2023 => EnforceNamingStyle::StyleLegacy,
                        Edition::Edition2024 => EnforceNamingStyle::Style2024,
                        _ => EnforceNamingStyle::Style2026,
                    },
                }
            }
            _ => return None,
        })
    }

    /// These features overridden by the values `declared` sets (an
    /// element's `features` option). A value of zero (`*_UNKNOWN`) sets
    /// nothing.
    pub fn merge(self, declared: Option<&FeatureSet>) -> ResolvedFeatures {
        let Some(set) = declared else {
            return self;
        };
        fn pick<T: Default + PartialEq>(declared: Option<T>, inherited: T) -> T {
            declared.filter(|v| *v != T::default()).unwrap_or(inherited)
        }
        ResolvedFeatures {
            field_presence: pick(set.field_presence, self.field_presence),
            enum_type: pick(set.enum_type, self.enum_type),
            repeated_field_encoding: pick(
                set.repeated_field_encoding,
                self.repeated_field_encoding,
            ),
            utf8_validation: pick(set.utf8_validation, self.utf8_validation),
            message_encoding: pick(set.message_encoding, self.message_encoding),
            json_format: pick(set.json_format, self.json_format),
            enforce_naming_style: pick(set.enforce_naming_style, self.enforce_naming_style),
        }
    }

    /// A field's features: `self` (those of its message, oneof or
    /// extension scope) overridden by the field's own `declared` features,
    /// then by what its proto2 or proto3 `syntax` says: `required` is
    /// `LEGACY_REQUIRED`, proto3 `optional` is `EXPLICIT`, the `packed`
    /// option chooses the repeated encoding and a group is `DELIMITED`.
    pub fn for_field(self, declared: Option<&FeatureSet>, syntax: FieldSyntax) -> ResolvedFeatures {
        let mut features = self.merge(declared);
        if syntax.required {
            features.field_presence = FieldPresence::LegacyRequired;
        }
        if syntax.proto3_optional {
            features.field_presence = FieldPresence::Explicit;
        }
        if let Some(packed) = syntax.packed {
            features.repeated_field_encoding = if packed {
                RepeatedFieldEncoding::Packed
            } else {
                RepeatedFieldEncoding::Expanded
            };
        }
        if syntax.group {
            features.message_encoding = MessageEncoding::Delimited;
        }
        features
    }

    /// Whether repeated scalar fields are packed (`PACKED` repeated field
    /// encoding).
    pub fn is_packed(&self) -> bool {
        self.repeated_field_encoding == RepeatedFieldEncoding::Packed
    }

    /// Whether message fields are delimited, that is group-encoded
    /// (`DELIMITED` message encoding).
    pub fn is_delimited(&self) -> bool {
        self.message_encoding == MessageEncoding::Delimited
    }

    /// Whether enums are closed (`CLOSED` enum type): a value they do not
    /// declare is kept among the unknown fields.
    pub fn is_closed_enum(&self) -> bool {
        self.enum_type == EnumType::Closed
    }

    /// Whether the element's name must follow edition 2024's naming style
    /// (`STYLE2024` or a later style, not `STYLE_LEGACY`): messages, enums,
    /// services and methods in TitleCase, fields, oneofs and the package in
    /// lower_snake_case, enum values in UPPER_SNAKE_CASE.
    pub fn checks_naming_style(&self) -> bool {
        matches!(
            self.enforce_naming_style,
            EnforceNamingStyle::Style2024 | EnforceNamingStyle::Style2026
        )
    }

    /// Whether a field's or oneof's name must also not collide with what
    /// generated code derives from its siblings (`STYLE2026`: no `has_x`,
    /// `get_x`, `set_x`, `clear_x` or `x_value` next to a field or oneof
    /// `x`, and no field named `descriptor`).
    pub fn checks_name_collisions(&self) -> bool {
        self.enforce_naming_style == EnforceNamingStyle::Style2026
    }
}

/// The `features` option an element of type `target` declares in a file
/// of `syntax`, checked as C++'s `DescriptorBuilder` checks it when it
/// builds a file (from a `.proto` or a descriptor set alike):
///
/// - `features` are only valid in editions files: proto2 and proto3 files
///   may not declare them at all, not even an empty set ("Features are
///   only valid under editions.");
/// - no feature may be set to its `*_UNKNOWN` value ([`known_features`]);
/// - each feature may only be set on the elements its `targets` name in
///   `descriptor.proto` (`json_format` on a message, not on a field; none
///   of these on a oneof).
///
/// Only the features resolved here are checked; those only protoc
/// enforces are not. An element's features are read through this
/// function, so that a descriptor set protoc would refuse is refused:
///
/// ```
/// use buffa_descriptor::Syntax;
/// use buffa_descriptor::rules::declared_features;
/// use buffa_types::google::protobuf::feature_set::Utf8Validation;
/// use buffa_types::google::protobuf::field_options::OptionTargetType;
/// use buffa_types::google::protobuf::{Edition, FeatureSet};
///
/// let none = FeatureSet {
///     utf8_validation: Some(Utf8Validation::None),
///     ..Default::default()
/// };
/// let editions = Syntax::Edition(Edition::Edition2023);
/// let field = OptionTargetType::TargetTypeField;
/// assert_eq!(declared_features(editions, field, Some(&none)), Ok(Some(&none)));
/// assert!(declared_features(Syntax::Proto3, field, Some(&none)).is_err());
/// let oneof = OptionTargetType::TargetTypeOneof;
/// assert!(declared_features(editions, oneof, Some(&none)).is_err());
/// ```
pub fn declared_features(
    syntax: Syntax,
    target: OptionTargetType,
    declared: Option<&FeatureSet>,
) -> Result<Option<&FeatureSet>, String> {
    let Some(set) = declared else {
        return Ok(None);
    };
    if !matches!(syntax, Syntax::Edition(_)) {
        return Err("features are only valid under editions".into());
    }
    known_features(set)?;
    use OptionTargetType::{
        TargetTypeEnum as ENUM, TargetTypeField as FIELD, TargetTypeFile as FILE,
        TargetTypeMessage as MESSAGE,
    };
    let features: [(&str, bool, &[OptionTargetType]); 6] = [
        (
            "field_presence",
            set.field_presence.is_some(),
            &[FIELD, FILE],
        ),
        ("enum_type", set.enum_type.is_some(), &[ENUM, FILE]),
        (
            "repeated_field_encoding",
            set.repeated_field_encoding.is_some(),
            &[FIELD, FILE],
        ),
        (
            "utf8_validation",
            set.utf8_validation.is_some(),
            &[FIELD, FILE],
        ),
        (
            "message_encoding",
            set.message_encoding.is_some(),
            &[FIELD, FILE],
        ),
        (
            "json_format",
            set.json_format.is_some(),
            &[MESSAGE, ENUM, FILE],
        ),
    ];
    for (name, is_set, targets) in features {
        if is_set && !targets.contains(&target) {
            return Err(format!(
                "feature {name} cannot be set on {}",
                target_name(target)
            ));
        }
    }
    Ok(Some(set))
}

/// Whether every feature of descriptor.proto that `set` sets has a known
/// value: C++ refuses a feature resolved to its `*_UNKNOWN` value (zero),
/// which only an element setting it explicitly can do, with protoc's
/// message for the first such feature in its order:
///
/// ```
/// use buffa_descriptor::rules::known_features;
/// use buffa_types::google::protobuf::FeatureSet;
/// use buffa_types::google::protobuf::feature_set::FieldPresence;
///
/// let unknown = FeatureSet {
///     field_presence: Some(FieldPresence::Unknown),
///     ..Default::default()
/// };
/// assert_eq!(
///     known_features(&unknown).unwrap_err(),
///     "Feature field `field_presence` must resolve to a known value, found \
///      FIELD_PRESENCE_UNKNOWN"
/// );
/// assert!(known_features(&FeatureSet::default()).is_ok());
/// ```
pub fn known_features(set: &FeatureSet) -> Result<(), String> {
    // Each feature's value, its name, and the name protoc gives its
    // unknown value.
    let features = [
        (
            set.field_presence.map(|v| v as i32),
            "field_presence",
            "FIELD_PRESENCE_UNKNOWN",
        ),
        (
            set.enum_type.map(|v| v as i32),
            "enum_type",
            "ENUM_TYPE_UNKNOWN",
        ),
        (
            set.repeated_field_encoding.map(|v| v as i32),
            "repeated_field_encoding",
            "REPEATED_FIELD_ENCODING_UNKNOWN",
        ),
        (
            set.utf8_validation.map(|v| v as i32),
            "utf8_validation",
            "UTF8_VALIDATION_UNKNOWN",
        ),
        (
            set.message_encoding.map(|v| v as i32),
            "message_encoding",
            "MESSAGE_ENCODING_UNKNOWN",
        ),
        (
            set.json_format.map(|v| v as i32),
            "json_format",
            "JSON_FORMAT_UNKNOWN",
        ),
        (
            set.enforce_naming_style.map(|v| v as i32),
            "enforce_naming_style",
            "ENFORCE_NAMING_STYLE_UNKNOWN",
        ),
        (
            set.default_symbol_visibility.map(|v| v as i32),
            "default_symbol_visibility",
            "VisibilityFeature::DEFAULT_SYMBOL_VISIBILITY_UNKNOWN",
        ),
        (
            set.enforce_proto_limits.map(|v| v as i32),
            "enforce_proto_limits",
            "ProtoLimitsFeature::PROTO_LIMITS_UNKNOWN",
        ),
    ];
    match features.into_iter().find(|(value, _, _)| *value == Some(0)) {
        Some((_, name, unknown)) => Err(format!(
            "Feature field `{name}` must resolve to a known value, found {unknown}"
        )),
        None => Ok(()),
    }
}

/// An element of type `target`, with its article, for messages.
fn target_name(target: OptionTargetType) -> &'static str {
    match target {
        OptionTargetType::TargetTypeFile => "a file",
        OptionTargetType::TargetTypeExtensionRange => "an extension range",
        OptionTargetType::TargetTypeMessage => "a message",
        OptionTargetType::TargetTypeField => "a field",
        OptionTargetType::TargetTypeOneof => "a oneof",
        OptionTargetType::TargetTypeEnum => "an enum",
        OptionTargetType::TargetTypeEnumEntry => "an enum value",
        OptionTargetType::TargetTypeService => "a service",
        OptionTargetType::TargetTypeMethod => "a method",
        OptionTargetType::TargetTypeUnknown => "an element",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_override_and_zero_is_unset() {
        let base = ResolvedFeatures::for_edition(Edition::Edition2023).unwrap();
        let set = FeatureSet {
            field_presence: Some(FieldPresence::Implicit),
            enum_type: Some(EnumType::Unknown),
            message_encoding: Some(MessageEncoding::Delimited),
            repeated_field_encoding: Some(RepeatedFieldEncoding::Expanded),
            ..FeatureSet::default()
        };
        let merged = base.merge(Some(&set));
        assert_eq!(merged.field_presence, FieldPresence::Implicit);
        assert_eq!(merged.enum_type, EnumType::Open);
        assert!(merged.is_delimited() && !merged.is_packed() && !merged.is_closed_enum());
        assert_eq!(base.merge(None), base);
    }

    #[test]
    fn syntax_presets() {
        let proto2 = ResolvedFeatures::for_edition(Edition::Proto2).unwrap();
        assert!(proto2.is_closed_enum() && !proto2.is_packed());
        let proto3 = ResolvedFeatures::for_edition(Edition::Proto3).unwrap();
        assert_eq!(proto3.field_presence, FieldPresence::Implicit);
        // protoc 36.2's `--edition_defaults_out` gives 2024 the values of
        // 2023 for every feature read here but the naming style.
        let edition2023 = ResolvedFeatures::for_edition(Edition::Edition2023).unwrap();
        let edition2024 = ResolvedFeatures::for_edition(Edition::Edition2024).unwrap();
        assert_eq!(
            ResolvedFeatures {
                enforce_naming_style: EnforceNamingStyle::Style2024,
                ..edition2023
            },
            edition2024
        );
        assert!(edition2024.checks_naming_style() && !edition2024.checks_name_collisions());
        assert!(!edition2023.checks_naming_style() && !proto3.checks_naming_style());
        // 2026 only makes STYLE2026 the default among the features read
        // here.
        let edition2026 = ResolvedFeatures::for_edition(Edition::Edition2026).unwrap();
        assert_eq!(
            ResolvedFeatures {
                enforce_naming_style: EnforceNamingStyle::Style2026,
                ..edition2024
            },
            edition2026
        );
        assert!(edition2026.checks_naming_style() && edition2026.checks_name_collisions());
        for edition in [
            Edition::Unknown,
            Edition::Unstable,
            Edition::Edition99999TestOnly,
        ] {
            assert_eq!(ResolvedFeatures::for_edition(edition), None, "{edition:?}");
        }
    }

    #[test]
    fn the_naming_style_is_inherited_and_opted_out_of() {
        let file = ResolvedFeatures::for_edition(Edition::Edition2024).unwrap();
        let style = |style| FeatureSet {
            enforce_naming_style: Some(style),
            ..FeatureSet::default()
        };
        let legacy = file.merge(Some(&style(EnforceNamingStyle::StyleLegacy)));
        assert!(!legacy.checks_naming_style());
        let field = legacy.for_field(None, FieldSyntax::default());
        assert!(!field.checks_naming_style());
        let back = legacy.for_field(
            Some(&style(EnforceNamingStyle::Style2024)),
            FieldSyntax::default(),
        );
        assert!(back.checks_naming_style() && !back.checks_name_collisions());
        let collisions = file.merge(Some(&style(EnforceNamingStyle::Style2026)));
        assert!(collisions.checks_naming_style() && collisions.checks_name_collisions());
        // `ENFORCE_NAMING_STYLE_UNKNOWN` sets nothing.
        assert_eq!(file.merge(Some(&style(EnforceNamingStyle::Unknown))), file);
    }

    #[test]
    fn field_syntax_becomes_features() {
        let proto2 = ResolvedFeatures::for_edition(Edition::Proto2).unwrap();
        let required = proto2.for_field(
            None,
            FieldSyntax {
                required: true,
                packed: Some(true),
                group: true,
                ..FieldSyntax::default()
            },
        );
        assert_eq!(required.field_presence, FieldPresence::LegacyRequired);
        assert!(required.is_packed() && required.is_delimited());
        let proto3 = ResolvedFeatures::for_edition(Edition::Proto3).unwrap();
        let optional = proto3.for_field(
            None,
            FieldSyntax {
                proto3_optional: true,
                packed: Some(false),
                ..FieldSyntax::default()
            },
        );
        assert_eq!(optional.field_presence, FieldPresence::Explicit);
        assert!(!optional.is_packed());
    }
}
