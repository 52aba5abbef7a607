//! The well-known types and their default home, the `buffa-types` crate.
//!
//! The well-known types are the messages and enums of protobuf's
//! `google/protobuf/{any,api,duration,empty,field_mask,source_context,
//! struct,timestamp,type,wrappers}.proto`; buffa-types also holds
//! `descriptor.proto`'s types, which custom options extend and reflection
//! reads. Unless [`Options::compile_well_known_types`](crate::Options) is
//! set, generated code names them in `::buffa_types::google::protobuf`
//! instead of generating its own copies, as prost-build names them in
//! `prost-types`: every crate then shares one `Timestamp` and one
//! `MethodOptions`, with their conversions and extensions.
//!
//! The mapping is per type rather than for the whole `google.protobuf`
//! package, because the package has sub-packages buffa-types does not hold
//! (`google.protobuf.compiler`, `plugin.proto`), which are generated as
//! usual.
//!
//! Unlike other extern types, those of buffa-types are known: this
//! codegen generated them from the same descriptors with default options.
//! So a message holding one derives `Eq` and `Hash` when the well-known
//! type does (`eq_hash`), and need not share its input, since no string or
//! bytes field of buffa-types is `BytesStr` or `Bytes` (`field_model`).

use crate::ident;

/// The Rust module of buffa-types that holds the well-known types.
pub const RUST_MODULE: &str = "::buffa_types::google::protobuf";

/// The top-level messages and enums of the well-known type files, without
/// the `.google.protobuf.` prefix.
const TYPES: &[&str] = &[
    // any.proto
    "Any",
    // api.proto
    "Api",
    "Method",
    "Mixin",
    // duration.proto
    "Duration",
    // empty.proto
    "Empty",
    // field_mask.proto
    "FieldMask",
    // source_context.proto
    "SourceContext",
    // struct.proto
    "Struct",
    "Value",
    "ListValue",
    "NullValue",
    // timestamp.proto
    "Timestamp",
    // type.proto
    "Type",
    "Field",
    "Enum",
    "EnumValue",
    "Option",
    "Syntax",
    // wrappers.proto
    "DoubleValue",
    "FloatValue",
    "Int64Value",
    "UInt64Value",
    "Int32Value",
    "UInt32Value",
    "BoolValue",
    "StringValue",
    "BytesValue",
    // descriptor.proto
    "FileDescriptorSet",
    "Edition",
    "SymbolVisibility",
    "FileDescriptorProto",
    "DescriptorProto",
    "ExtensionRangeOptions",
    "FieldDescriptorProto",
    "OneofDescriptorProto",
    "EnumDescriptorProto",
    "EnumValueDescriptorProto",
    "ServiceDescriptorProto",
    "MethodDescriptorProto",
    "FileOptions",
    "MessageOptions",
    "FieldOptions",
    "OneofOptions",
    "EnumOptions",
    "EnumValueOptions",
    "ServiceOptions",
    "MethodOptions",
    "UninterpretedOption",
    "FeatureSet",
    "FeatureSetDefaults",
    "SourceCodeInfo",
    "GeneratedCodeInfo",
];

/// Nested types that other files can name. A rule for a message would put
/// them under the type (`Field::Kind`) rather than in its module
/// (`field::Kind`), so they get rules of their own, which win as longer
/// prefixes. (Map entries such as `Struct.FieldsEntry` are never named from
/// outside their message.)
const NESTED: &[&str] = &[
    // type.proto
    "Field.Kind",
    "Field.Cardinality",
    // descriptor.proto
    "DescriptorProto.ExtensionRange",
    "DescriptorProto.ReservedRange",
    "ExtensionRangeOptions.Declaration",
    "ExtensionRangeOptions.VerificationState",
    "FieldDescriptorProto.Type",
    "FieldDescriptorProto.Label",
    "EnumDescriptorProto.EnumReservedRange",
    "FileOptions.OptimizeMode",
    "FieldOptions.CType",
    "FieldOptions.JSType",
    "FieldOptions.OptionRetention",
    "FieldOptions.OptionTargetType",
    "FieldOptions.EditionDefault",
    "FieldOptions.FeatureSupport",
    "MethodOptions.IdempotencyLevel",
    "UninterpretedOption.NamePart",
    "FeatureSet.FieldPresence",
    "FeatureSet.EnumType",
    "FeatureSet.RepeatedFieldEncoding",
    "FeatureSet.Utf8Validation",
    "FeatureSet.MessageEncoding",
    "FeatureSet.JsonFormat",
    "FeatureSet.EnforceNamingStyle",
    "FeatureSet.VisibilityFeature",
    "FeatureSet.VisibilityFeature.DefaultSymbolVisibility",
    "FeatureSet.ProtoLimitsFeature",
    "FeatureSet.ProtoLimitsFeature.EnforceProtoLimits",
    "FeatureSetDefaults.FeatureSetEditionDefault",
    "SourceCodeInfo.Location",
    "GeneratedCodeInfo.Annotation",
    "GeneratedCodeInfo.Annotation.Semantic",
];

/// The implicit extern paths: every well-known type (proto full name with
/// its leading dot) and its Rust path in buffa-types.
pub fn extern_paths() -> impl Iterator<Item = (String, String)> {
    let top = TYPES.iter().map(|name| {
        (
            format!(".google.protobuf.{name}"),
            format!("{RUST_MODULE}::{name}"),
        )
    });
    let nested = NESTED.iter().map(|name| {
        let (outer, inner) = name.rsplit_once('.').expect("nested names have a dot");
        let modules: Vec<String> = outer.split('.').map(ident::module_name).collect();
        (
            format!(".google.protobuf.{name}"),
            format!(
                "{RUST_MODULE}::{}::{}",
                modules.join("::"),
                ident::type_name(inner)
            ),
        )
    });
    top.chain(nested)
}

#[cfg(test)]
mod tests {
    use buffa::Message as _;
    use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
    use buffa_types::google::protobuf::{
        DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet,
    };

    use crate::Options;

    fn field(name: &str, number: i32, ty: Type, type_name: &str) -> FieldDescriptorProto {
        FieldDescriptorProto {
            name: Some(name.into()),
            number: Some(number),
            r#type: Some(ty),
            label: Some(Label::Optional),
            type_name: (!type_name.is_empty()).then(|| type_name.into()),
            ..Default::default()
        }
    }

    fn file(name: &str, package: &str, messages: Vec<DescriptorProto>) -> FileDescriptorProto {
        FileDescriptorProto {
            name: Some(name.into()),
            package: Some(package.into()),
            syntax: Some("proto3".into()),
            message_type: messages,
            ..Default::default()
        }
    }

    /// The code generated for `p.proto`, whose `Holder` holds a
    /// `google.protobuf.Timestamp`, under `options`.
    fn holder(options: &Options) -> String {
        let timestamp = DescriptorProto {
            name: Some("Timestamp".into()),
            field: vec![
                field("seconds", 1, Type::Int64, ""),
                field("nanos", 2, Type::Int32, ""),
            ],
            ..Default::default()
        };
        let holder = DescriptorProto {
            name: Some("Holder".into()),
            field: vec![field("at", 1, Type::Message, ".google.protobuf.Timestamp")],
            ..Default::default()
        };
        let mut p = file("p.proto", "p", vec![holder]);
        p.dependency = vec!["google/protobuf/timestamp.proto".into()];
        let set = FileDescriptorSet {
            file: vec![
                file(
                    "google/protobuf/timestamp.proto",
                    "google.protobuf",
                    vec![timestamp],
                ),
                p,
            ],
            ..Default::default()
        };
        let files = crate::generate(&set.encode_to_vec(), &["p.proto".into()], options).unwrap();
        assert_eq!(files.len(), 1);
        files[0].content.clone()
    }

    #[test]
    fn buffa_types_messages_are_known_to_derive_and_not_share() {
        let code = holder(&Options::default());
        assert!(
            code.contains("::buffa::MessageField<::buffa_types::google::protobuf::Timestamp>"),
            "{code}"
        );
        assert!(code.contains("::core::hash::Hash"), "{code}");
        assert!(code.contains("const SHARES_INPUT: bool = false;"), "{code}");

        // Another crate's Timestamp is unknown: no `Eq`/`Hash`, and its
        // strings may share the input.
        let options = Options {
            extern_paths: vec![(".google.protobuf".into(), "::elsewhere".into())],
            ..Default::default()
        };
        let code = holder(&options);
        assert!(code.contains("::elsewhere::Timestamp"), "{code}");
        assert!(!code.contains("::core::hash::Hash"), "{code}");
        assert!(!code.contains("SHARES_INPUT"), "{code}");
    }
}
