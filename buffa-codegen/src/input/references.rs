//! The names and references inside a descriptor set, checked once when the
//! schema is built, so that generation can trust them: every declared name
//! is a protobuf identifier (the package a dotted one), and each field's
//! `oneof_index` and type, each extension's extendee, each method's input
//! and output types resolve. protoc never writes a set that breaks them,
//! but descriptor sets
//! also come from users (`descriptor_set` in buffa-build) and from plugin
//! requests, and a broken one must be an error naming the file and the
//! element, not a panic.

use buffa_descriptor::rules::{is_identifier, is_package_name};
use prost_types::field_descriptor_proto::Type;
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
};

use crate::error::Error;
use crate::input::schema::Schema;
use crate::path::package_prefix;

/// Checks the references of every file of `schema`.
pub fn check(schema: &Schema<'_>) -> Result<(), Error> {
    for file in &schema.files {
        let file = file.proto;
        let prefix = package_prefix(file.package());
        let check = Check { schema, file };
        if !is_package_name(file.package()) {
            return Err(check.error(format!(
                "package {:?} is not a dotted protobuf identifier",
                file.package()
            )));
        }
        for extension in &file.extension {
            check.extension(&prefix, extension)?;
        }
        for message in &file.message_type {
            check.message(&prefix, message)?;
        }
        for enumeration in &file.enum_type {
            check.enumeration(&prefix, enumeration)?;
        }
        for service in &file.service {
            check.name("service", &prefix, service.name())?;
            let service_name = format!("{prefix}.{}", service.name());
            for method in &service.method {
                check.name("method", &service_name, method.name())?;
                let name = format!("{service_name}.{}", method.name());
                for (kind, type_name) in [
                    ("input", method.input_type()),
                    ("output", method.output_type()),
                ] {
                    if !schema.messages.contains_key(type_name) {
                        return Err(check.error(format!(
                            "method {name}: {kind} type {type_name:?} is not a message type in \
                             the descriptor set"
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The checks of one file.
struct Check<'s> {
    schema: &'s Schema<'s>,
    file: &'s FileDescriptorProto,
}

impl Check<'_> {
    fn error(&self, message: String) -> Error {
        Error::new(format!(
            "invalid descriptor set: {}: {message}",
            self.file.name()
        ))
    }

    /// Checks that `name`, declared in `scope`, is a protobuf identifier:
    /// an ASCII letter or `_`, then letters, digits and `_`. Generated
    /// Rust names derive from it.
    fn name(&self, kind: &str, scope: &str, name: &str) -> Result<(), Error> {
        if is_identifier(name) {
            Ok(())
        } else {
            Err(self.error(format!(
                "{kind} {name:?} in {scope}: not a protobuf identifier"
            )))
        }
    }

    /// Checks `message` (named under `prefix`) and what it nests.
    fn message(&self, prefix: &str, message: &DescriptorProto) -> Result<(), Error> {
        self.name("message", prefix, message.name())?;
        let full_name = format!("{prefix}.{}", message.name());
        for oneof in &message.oneof_decl {
            self.name("oneof", &full_name, oneof.name())?;
        }
        for field in &message.field {
            self.name("field", &full_name, field.name())?;
            let name = format!("{full_name}.{}", field.name());
            if let Some(index) = field.oneof_index {
                let count = message.oneof_decl.len();
                if usize::try_from(index).map_or(true, |index| index >= count) {
                    return Err(self.error(format!(
                        "field {name}: oneof_index {index} is out of range ({full_name} \
                         declares {count} oneofs)"
                    )));
                }
            }
            self.field_type(&name, field)?;
        }
        for extension in &message.extension {
            self.extension(&full_name, extension)?;
        }
        for nested in &message.nested_type {
            self.message(&full_name, nested)?;
        }
        for enumeration in &message.enum_type {
            self.enumeration(&full_name, enumeration)?;
        }
        Ok(())
    }

    /// Checks the names of `enumeration` (declared in `scope`) and its
    /// values.
    fn enumeration(&self, scope: &str, enumeration: &EnumDescriptorProto) -> Result<(), Error> {
        self.name("enum", scope, enumeration.name())?;
        let full_name = format!("{scope}.{}", enumeration.name());
        for value in &enumeration.value {
            self.name("enum value", &full_name, value.name())?;
        }
        Ok(())
    }

    /// Checks an extension declared in `scope` (a package prefix or a
    /// message).
    fn extension(&self, scope: &str, extension: &FieldDescriptorProto) -> Result<(), Error> {
        self.name("extension", scope, extension.name())?;
        let name = format!("{scope}.{}", extension.name());
        let extendee = extension.extendee();
        if !self.schema.messages.contains_key(extendee) {
            return Err(self.error(format!(
                "extension {name}: extendee {extendee:?} is not a message type in the \
                 descriptor set"
            )));
        }
        self.field_type(&name, extension)
    }

    /// Checks that field `name` has a type, and that a message, group or
    /// enum type names one of the set.
    fn field_type(&self, name: &str, field: &FieldDescriptorProto) -> Result<(), Error> {
        let field_type = field.r#type.and_then(|t| Type::try_from(t).ok());
        let type_name = field.type_name();
        let (found, kind) = match field_type {
            None => {
                return Err(self.error(format!(
                    "field {name}: no valid type (buffa-codegen reads resolved descriptors, \
                     as protoc writes them)"
                )));
            }
            Some(Type::Message | Type::Group) => {
                (self.schema.messages.contains_key(type_name), "message")
            }
            Some(Type::Enum) => (self.schema.enums.contains_key(type_name), "enum"),
            Some(_) => return Ok(()),
        };
        if found {
            Ok(())
        } else {
            Err(self.error(format!(
                "field {name}: type {type_name:?} is not {} {kind} type in the descriptor set",
                if kind == "enum" { "an" } else { "a" }
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use prost::Message as _;
    use prost_types::{
        EnumDescriptorProto, FileDescriptorSet, MethodDescriptorProto, OneofDescriptorProto,
        ServiceDescriptorProto,
    };

    use super::*;
    use crate::options::Options;

    fn field(name: &str, field_type: Type, type_name: Option<&str>) -> FieldDescriptorProto {
        FieldDescriptorProto {
            name: Some(name.into()),
            number: Some(1),
            label: Some(1),
            r#type: Some(field_type as i32),
            type_name: type_name.map(str::to_owned),
            json_name: Some(name.into()),
            ..Default::default()
        }
    }

    /// a.proto (package `a`): enum `E`, message `M` with `field`, and
    /// `file` changed by `edit`; the error of generating it, if any.
    fn generate_err(
        field: FieldDescriptorProto,
        edit: impl FnOnce(&mut FileDescriptorProto),
    ) -> Option<String> {
        let mut file = FileDescriptorProto {
            name: Some("a.proto".into()),
            package: Some("a".into()),
            syntax: Some("proto3".into()),
            message_type: vec![DescriptorProto {
                name: Some("M".into()),
                field: vec![field],
                ..Default::default()
            }],
            enum_type: vec![EnumDescriptorProto {
                name: Some("E".into()),
                value: vec![prost_types::EnumValueDescriptorProto {
                    name: Some("E_ZERO".into()),
                    number: Some(0),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        edit(&mut file);
        let set = FileDescriptorSet { file: vec![file] }.encode_to_vec();
        crate::generate(&set, &["a.proto".into()], &Options::default())
            .err()
            .map(|e| e.to_string())
    }

    fn with_oneof_index(index: i32, oneofs: usize) -> Option<String> {
        let mut x = field("x", Type::Int32, None);
        x.oneof_index = Some(index);
        generate_err(x, |file| {
            file.message_type[0].oneof_decl = (0..oneofs)
                .map(|i| OneofDescriptorProto {
                    name: Some(format!("o{i}")),
                    ..Default::default()
                })
                .collect();
        })
    }

    #[test]
    fn oneof_index_must_name_a_oneof_of_the_message() {
        assert_eq!(with_oneof_index(0, 1), None);
        assert_eq!(
            with_oneof_index(3, 0).as_deref(),
            Some(
                "invalid descriptor set: a.proto: field .a.M.x: oneof_index 3 is out of range \
                 (.a.M declares 0 oneofs)"
            )
        );
        assert_eq!(
            with_oneof_index(1, 1).as_deref(),
            Some(
                "invalid descriptor set: a.proto: field .a.M.x: oneof_index 1 is out of range \
                 (.a.M declares 1 oneofs)"
            )
        );
        assert!(
            with_oneof_index(-1, 1)
                .unwrap()
                .contains("oneof_index -1 is out of range")
        );
    }

    #[test]
    fn field_types_must_be_in_the_set_and_of_their_kind() {
        let ok = |t, name| generate_err(field("f", t, name), |_| {});
        assert_eq!(ok(Type::Message, Some(".a.M")), None);
        assert_eq!(ok(Type::Enum, Some(".a.E")), None);
        assert_eq!(
            ok(Type::Message, Some(".a.Nope")).as_deref(),
            Some(
                "invalid descriptor set: a.proto: field .a.M.f: type \".a.Nope\" is not a \
                 message type in the descriptor set"
            )
        );
        assert_eq!(
            ok(Type::Enum, Some(".a.M")).as_deref(),
            Some(
                "invalid descriptor set: a.proto: field .a.M.f: type \".a.M\" is not an enum \
                 type in the descriptor set"
            )
        );
        assert!(
            ok(Type::Group, Some(".a.E"))
                .unwrap()
                .contains("is not a message type")
        );
        let mut untyped = field("f", Type::Int32, Some(".a.M"));
        untyped.r#type = None;
        assert_eq!(
            generate_err(untyped, |_| {}).as_deref(),
            Some(
                "invalid descriptor set: a.proto: field .a.M.f: no valid type (buffa-codegen \
                 reads resolved descriptors, as protoc writes them)"
            )
        );
    }

    #[test]
    fn extensions_must_extend_a_message_of_the_set() {
        let extension = |extendee: &str| {
            let mut extension = field("ext", Type::Int32, None);
            extension.extendee = Some(extendee.into());
            extension
        };
        let nested = extension(".a.Nope");
        let error = generate_err(field("f", Type::Int32, None), |file| {
            file.message_type[0].extension.push(nested);
        });
        assert_eq!(
            error.as_deref(),
            Some(
                "invalid descriptor set: a.proto: extension .a.M.ext: extendee \".a.Nope\" is \
                 not a message type in the descriptor set"
            )
        );
        let top = extension(".a.E");
        let error = generate_err(field("f", Type::Int32, None), |file| {
            file.extension.push(top);
        });
        assert!(
            error
                .unwrap()
                .contains("extension .a.ext: extendee \".a.E\"")
        );
    }

    #[test]
    fn methods_must_take_and_return_messages_of_the_set() {
        let with_method = |input: &str, output: &str| {
            let method = MethodDescriptorProto {
                name: Some("Do".into()),
                input_type: Some(input.into()),
                output_type: Some(output.into()),
                ..Default::default()
            };
            generate_err(field("f", Type::Int32, None), |file| {
                file.service.push(ServiceDescriptorProto {
                    name: Some("S".into()),
                    method: vec![method],
                    ..Default::default()
                });
            })
        };
        assert_eq!(with_method(".a.M", ".a.M"), None);
        assert_eq!(
            with_method(".a.Nope", ".a.M").as_deref(),
            Some(
                "invalid descriptor set: a.proto: method .a.S.Do: input type \".a.Nope\" is not \
                 a message type in the descriptor set"
            )
        );
        assert_eq!(
            with_method(".a.M", ".a.E").as_deref(),
            Some(
                "invalid descriptor set: a.proto: method .a.S.Do: output type \".a.E\" is not \
                 a message type in the descriptor set"
            )
        );
    }

    #[test]
    fn declared_names_must_be_protobuf_identifiers() {
        let named =
            |edit: fn(&mut FileDescriptorProto)| generate_err(field("f", Type::Int32, None), edit);
        assert_eq!(named(|_| {}), None);
        assert_eq!(
            named(|file| file.message_type[0].field[0].name = Some("f\u{5}".into())).as_deref(),
            Some(
                "invalid descriptor set: a.proto: field \"f\\u{5}\" in .a.M: not a protobuf identifier"
            )
        );
        assert!(
            named(|file| file.package = Some("a..b".into()))
                .unwrap()
                .contains("package \"a..b\" is not a dotted protobuf identifier")
        );
        assert!(
            named(|file| file.message_type[0].name = Some("1M".into()))
                .unwrap()
                .contains("message \"1M\" in .a: not a protobuf identifier")
        );
        assert!(
            named(|file| file.enum_type[0].value[0].name = Some("E-ZERO".into()))
                .unwrap()
                .contains("enum value \"E-ZERO\" in .a.E: not a protobuf identifier")
        );
        assert!(
            named(|file| {
                file.service.push(ServiceDescriptorProto {
                    name: Some("S".into()),
                    method: vec![MethodDescriptorProto {
                        name: Some("Rese\u{5}".into()),
                        input_type: Some(".a.M".into()),
                        output_type: Some(".a.M".into()),
                        ..Default::default()
                    }],
                    ..Default::default()
                })
            })
            .unwrap()
            .contains("method \"Rese\\u{5}\" in .a.S: not a protobuf identifier")
        );
    }
}
