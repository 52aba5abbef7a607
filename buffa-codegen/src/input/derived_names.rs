//! The names derived from the proto types, claimed once every proto type
//! has its name: steps 2 to 5 of the naming order that `names.rs`
//! documents (oneof enums, views, oneof view enums, service modules).

use buffa_types::google::protobuf::DescriptorProto;
use buffa_types::google::protobuf::field_descriptor_proto::Type;

use crate::ident;
use crate::input::names::{
    OneofNames, is_package_module, is_real_oneof, service_modules, view_name,
};
use crate::input::schema::{self, RustPath, Schema};

/// Names a service's Rust name must not take (it gets `Service` appended,
/// `ArcService`): tonic-build declares the
/// server trait (the service's Rust name) in a module where it names these
/// without a path (from `tonic::codegen::*`, the prelude, and its own
/// generic parameters), which the trait would shadow. Read from
/// tonic-build 0.14's `server.rs`; the client module declares only
/// `{Name}Client`, which shadows nothing it names.
const SERVER_MODULE_NAMES: &[&str] = &[
    "Arc",
    "B",
    "Body",
    "Box",
    "BoxFuture",
    "BoxStream",
    "Clone",
    "CompressionEncoding",
    "Context",
    "Default",
    "EnabledCompressionEncodings",
    "F",
    "InterceptedService",
    "Into",
    "Option",
    "Poll",
    "StdError",
    "T",
];

/// Claims steps 2 to 5 of the naming order (see `names.rs`): oneof enums,
/// views, oneof view enums and service modules, after every proto type
/// has its name. `packages` holds the module path of every package,
/// `extern_paths` the extern paths in force.
pub fn claim(schema: &mut Schema<'_>, packages: &[Vec<String>], extern_paths: &[(String, String)]) {
    let mut order = Vec::new();
    for file in &schema.files {
        let prefix = crate::path::package_prefix(file.proto.package());
        depth_first(&prefix, &file.proto.message_type, &mut order);
    }
    for full_name in &order {
        let message = &schema.messages[full_name];
        let module = message.module.clone();
        let mut oneofs = Vec::new();
        for (index, oneof) in message.proto.oneof_decl.iter().enumerate() {
            oneofs.push(is_real_oneof(message.proto, index).then(|| {
                OneofNames {
                    owned: schema.names.claim_with(
                        &module,
                        ident::type_name(oneof.name()),
                        "Oneof",
                    ),
                    view: None,
                }
            }));
        }
        schema
            .messages
            .get_mut(full_name)
            .expect("ordered from the schema")
            .oneofs = oneofs;
    }
    for full_name in &order {
        let message = &schema.messages[full_name];
        if message
            .proto
            .options
            .as_option()
            .is_some_and(|o| o.map_entry())
        {
            continue;
        }
        let parent = message.module[..message.module.len() - 1].to_vec();
        let view = schema.names.claim(&parent, view_name(&message.name));
        let view = match &message.rust {
            RustPath::Local { modules, .. } => RustPath::Local {
                modules: modules.clone(),
                name: view,
            },
            RustPath::Extern(path) => {
                RustPath::Extern(extern_view(full_name, path, &view, extern_paths))
            }
        };
        schema
            .messages
            .get_mut(full_name)
            .expect("ordered from the schema")
            .view = view;
    }
    for full_name in &order {
        let message = &schema.messages[full_name];
        let module = message.module.clone();
        let mut oneofs = message.oneofs.clone();
        for (index, names) in oneofs.iter_mut().enumerate() {
            if let Some(names) = names
                && oneof_borrows(message.proto, index)
            {
                names.view = Some(schema.names.claim(&module, view_name(&names.owned)));
            }
        }
        schema
            .messages
            .get_mut(full_name)
            .expect("ordered from the schema")
            .oneofs = oneofs;
    }
    for file in &schema.files {
        let module = schema::package_modules(file.proto.package());
        let prefix = crate::path::package_prefix(file.proto.package());
        for service in &file.proto.service {
            let mut name = ident::type_name(service.name());
            while SERVER_MODULE_NAMES.contains(&name.as_str())
                || service_modules(&name).iter().any(|m| {
                    schema.names.is_taken(&module, m) || is_package_module(packages, &module, m)
                })
            {
                name.push_str("Service");
            }
            for m in service_modules(&name) {
                schema.names.claim(&module, m);
            }
            schema
                .services
                .insert(format!("{prefix}.{}", service.name()), name);
        }
    }
}

/// The full names of `messages` (under `prefix`) and of the messages nested
/// in them, each before its nested ones, in declaration order.
fn depth_first(prefix: &str, messages: &[DescriptorProto], out: &mut Vec<String>) {
    for message in messages {
        let full_name = format!("{prefix}.{}", message.name());
        out.push(full_name.clone());
        depth_first(&full_name, &message.nested_type, out);
    }
}

/// The path of the view of extern message `full_name`, whose owned type is
/// at `path`. Under a rule for the message itself (`.pkg.Foo` to
/// `::x::MyFoo`) its crate is unknown and the view is named by convention
/// (`::x::MyFooView`); under a rule for a package or an enclosing message,
/// its crate is assumed to be generated by buffa from the same files, so
/// the view is `view` as this run resolved it from the types it sees.
fn extern_view(
    full_name: &str,
    path: &str,
    view: &str,
    extern_paths: &[(String, String)],
) -> String {
    let (prefix, owned) = path.rsplit_once("::").unwrap_or(("", path));
    let exact = schema::extern_rule(full_name, extern_paths)
        .is_some_and(|(proto, _)| proto.trim_end_matches('.') == full_name);
    let name = if exact {
        view_name(owned)
    } else {
        view.to_owned()
    };
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}::{name}")
    }
}

/// Whether oneof `index` of `message` has a member that a view holds
/// borrowed: a string, bytes or message (group) member.
fn oneof_borrows(message: &DescriptorProto, index: usize) -> bool {
    message.field.iter().any(|field| {
        field.oneof_index == Some(index as i32)
            && matches!(
                field.r#type(),
                Type::String | Type::Bytes | Type::Message | Type::Group
            )
    })
}
