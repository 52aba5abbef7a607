//! DescriptorPool refusing invalid schemas: each case a small hand-built
//! file, and an error naming the file and the element at fault. Also name
//! resolution, hostile sizes and undecodable bytes.

use buffa_descriptor::{DescriptorError, DescriptorPool, Kind};
use buffa_types::google::protobuf::descriptor_proto::{ExtensionRange, ReservedRange};
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{
    DescriptorProto, Edition, EnumDescriptorProto, EnumOptions, EnumValueDescriptorProto,
    FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet, MessageOptions,
    MethodDescriptorProto, OneofDescriptorProto, ServiceDescriptorProto,
};

fn file(name: &str, package: &str, syntax: &str) -> FileDescriptorProto {
    FileDescriptorProto {
        name: Some(name.into()),
        package: Some(package.into()),
        syntax: Some(syntax.into()),
        ..Default::default()
    }
}

fn message(name: &str, fields: Vec<FieldDescriptorProto>) -> DescriptorProto {
    DescriptorProto {
        name: Some(name.into()),
        field: fields,
        ..Default::default()
    }
}

fn scalar(name: &str, number: i32, ty: Type) -> FieldDescriptorProto {
    FieldDescriptorProto {
        name: Some(name.into()),
        number: Some(number),
        label: Some(Label::Optional),
        r#type: Some(ty),
        ..Default::default()
    }
}

/// A field of a named type, with `type` unset as some tools write it.
fn typed(name: &str, number: i32, type_name: &str) -> FieldDescriptorProto {
    FieldDescriptorProto {
        name: Some(name.into()),
        number: Some(number),
        label: Some(Label::Optional),
        type_name: Some(type_name.into()),
        ..Default::default()
    }
}

fn enumeration(name: &str, values: &[(&str, i32)]) -> EnumDescriptorProto {
    EnumDescriptorProto {
        name: Some(name.into()),
        value: values
            .iter()
            .map(|&(name, number)| EnumValueDescriptorProto {
                name: Some(name.into()),
                number: Some(number),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn build(files: Vec<FileDescriptorProto>) -> Result<DescriptorPool, DescriptorError> {
    DescriptorPool::from_file_descriptor_set(FileDescriptorSet {
        file: files,
        ..Default::default()
    })
}

/// The error of building `files`, checked to name `file` and `element`
/// and to contain `message`.
#[track_caller]
fn assert_error(files: Vec<FileDescriptorProto>, file: &str, element: Option<&str>, message: &str) {
    let error = match build(files) {
        Ok(_) => panic!("expected an error containing {message:?}"),
        Err(error) => error,
    };
    let text = error.to_string();
    assert_eq!(error.file_name(), Some(file), "{text}");
    assert_eq!(error.element_name(), element, "{text}");
    assert!(text.starts_with(&format!("{file}: ")), "{text}");
    if let Some(element) = element {
        assert!(text.contains(&format!(" {element}: ")), "{text}");
    }
    assert!(text.contains(message), "{text:?} lacks {message:?}");
}

fn shop() -> FileDescriptorProto {
    let mut shop = file("shop.proto", "shop", "proto2");
    shop.message_type = vec![
        message("Item", vec![scalar("sku", 1, Type::String)]),
        message(
            "Order",
            vec![
                typed("item", 1, ".shop.Item"),
                typed("color", 2, ".shop.Color"),
            ],
        ),
    ];
    shop.enum_type = vec![enumeration("Color", &[("RED", 1), ("GREEN", 2)])];
    shop
}

#[test]
fn valid_base_and_inferred_types() {
    let pool = build(vec![shop()]).unwrap();
    let order = pool.get_message_by_name("shop.Order").unwrap();
    let item = order.get_field_by_name("item").unwrap();
    assert_eq!(
        item.kind(),
        Kind::Message(pool.get_message_by_name("shop.Item").unwrap())
    );
    let color = order.get_field_by_name("color").unwrap();
    assert!(matches!(color.kind(), Kind::Enum(e) if e.full_name() == "shop.Color"));
    // JSON names are computed when the descriptor has none.
    assert_eq!(
        pool.get_message_by_name("shop.Item")
            .unwrap()
            .fields()
            .next()
            .unwrap()
            .json_name(),
        "sku"
    );
}

#[test]
fn unresolved_and_mistyped_names() {
    let mut f = shop();
    f.message_type.remove(0);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.item"),
        "type .shop.Item is not defined",
    );
    // The exact form of a message.
    let mut f = shop();
    f.message_type.remove(0);
    let error = build(vec![f]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "shop.proto: field shop.Order.item: type .shop.Item is not defined"
    );
    assert_eq!(error.message(), "type .shop.Item is not defined");

    let mut f = shop();
    f.message_type[1].field[0].r#type = Some(Type::Message);
    f.message_type[1].field[0].type_name = Some(".shop.Color".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.item"),
        "type .shop.Color is not a message",
    );

    let mut f = shop();
    f.message_type[1].field[1].r#type = Some(Type::Enum);
    f.message_type[1].field[1].type_name = Some(".shop.Item".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.color"),
        "type .shop.Item is not an enum",
    );

    let mut f = shop();
    f.message_type[1].field[0].type_name = Some(".shop.Order.item".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.item"),
        "is not a type",
    );

    let mut f = shop();
    f.message_type[1].field[0].type_name = None;
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.item"),
        "has no type",
    );

    let mut f = shop();
    f.message_type[1].field[0].r#type = Some(Type::Int32);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.item"),
        "scalar field cannot have a type_name",
    );
}

#[test]
fn relative_names_resolve_like_protoc() {
    let mut f = shop();
    let mut order = message(
        "Order",
        vec![
            typed("item", 1, "Item"),
            typed("inner", 2, "Inner"),
            typed("qualified", 3, "shop.Order.Inner"),
            typed("outer", 4, "Order.Inner"),
        ],
    );
    order.nested_type = vec![message("Inner", vec![]), message("Item", vec![])];
    f.message_type[1] = order;
    let pool = build(vec![f]).unwrap();
    let order = pool.get_message_by_name("shop.Order").unwrap();
    let kind = |name: &str| order.get_field_by_name(name).unwrap().kind();
    // The innermost scope wins: Order.Item shadows shop.Item.
    assert_eq!(
        kind("item").as_message().unwrap().full_name(),
        "shop.Order.Item"
    );
    assert_eq!(
        kind("inner").as_message().unwrap().full_name(),
        "shop.Order.Inner"
    );
    assert_eq!(
        kind("qualified").as_message().unwrap().full_name(),
        "shop.Order.Inner"
    );
    assert_eq!(
        kind("outer").as_message().unwrap().full_name(),
        "shop.Order.Inner"
    );

    // `Item.sku` finds `Item` in Order first, and stops there.
    let mut f = shop();
    let mut order = message("Order", vec![typed("x", 1, "Item.Missing")]);
    order.nested_type = vec![message("Item", vec![])];
    f.message_type[1] = order;
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.x"),
        "type Item.Missing resolves to shop.Order.Item.Missing, which is not defined",
    );
}

#[test]
fn dependencies_and_imports() {
    let mut orders = file("orders.proto", "orders", "proto2");
    orders.dependency = vec!["shop.proto".into()];
    orders.message_type = vec![message("Cart", vec![typed("item", 1, ".shop.Item")])];
    assert_error(
        vec![orders.clone()],
        "orders.proto",
        None,
        "imports shop.proto, which is not in the pool",
    );
    let mut pool = DescriptorPool::new();
    let error = pool.add_file_descriptor_proto(orders.clone()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "orders.proto: imports shop.proto, which is not in the pool"
    );
    assert_eq!(pool.files().len(), 0);
    assert!(build(vec![orders.clone(), shop()]).is_ok());

    // Types must come from a file that is imported (or re-exported by an
    // `import public` of an imported file).
    let mut middle = file("middle.proto", "middle", "proto2");
    middle.dependency = vec!["shop.proto".into()];
    let mut top = file("top.proto", "top", "proto2");
    top.dependency = vec!["middle.proto".into()];
    top.message_type = vec![message("Top", vec![typed("item", 1, ".shop.Item")])];
    assert_error(
        vec![shop(), middle.clone(), top.clone()],
        "top.proto",
        Some("top.Top.item"),
        "type shop.Item is defined in shop.proto, which top.proto does not import",
    );
    middle.public_dependency = vec![0];
    let pool = build(vec![shop(), middle.clone(), top]).unwrap();
    assert_eq!(
        pool.get_file_by_name("middle.proto")
            .unwrap()
            .public_dependencies()
            .count(),
        1
    );

    middle.public_dependency = vec![3];
    assert_error(
        vec![shop(), middle],
        "middle.proto",
        None,
        "import index 3 is out of range",
    );

    let mut a = file("a.proto", "", "proto2");
    let mut b = file("b.proto", "", "proto2");
    a.dependency = vec!["b.proto".into()];
    b.dependency = vec!["a.proto".into()];
    let error = build(vec![a, b]).unwrap_err();
    assert!(
        error.to_string().contains("imports form a cycle"),
        "{error}"
    );

    assert_error(
        vec![file("x.proto", "", "proto4")],
        "x.proto",
        None,
        "unknown syntax \"proto4\"",
    );
    let mut unstable = file("x.proto", "", "editions");
    unstable.edition = Some(Edition::Unstable);
    assert_error(
        vec![unstable],
        "x.proto",
        None,
        "edition UNSTABLE is not supported (supported: proto2, proto3 and editions 2023, 2024 and 2026)",
    );
    assert_error(
        vec![file("x.proto", "a..b", "proto2")],
        "x.proto",
        None,
        "invalid package name",
    );
    let error = build(vec![file("", "", "proto2")]).unwrap_err();
    assert_eq!(
        (error.file_name(), error.to_string().as_str()),
        (None, "a file has no name")
    );
}

#[test]
fn duplicate_names() {
    let mut other = file("other.proto", "shop", "proto2");
    other.message_type = vec![message("Item", vec![])];
    assert_error(
        vec![shop(), other],
        "other.proto",
        Some("shop.Item"),
        "shop.Item is already defined as a message in shop.proto",
    );
    // A message named like a package.
    let mut clash = file("clash.proto", "", "proto2");
    clash.message_type = vec![message("shop", vec![])];
    assert_error(
        vec![shop(), clash],
        "clash.proto",
        Some("shop"),
        "already defined as a package",
    );
    // Enum values are siblings of their enum.
    let mut f = shop();
    f.enum_type.push(enumeration("Shade", &[("RED", 1)]));
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.RED"),
        "shop.RED is already defined as an enum value",
    );
    // A field and a nested type of the same name.
    let mut f = shop();
    f.message_type[0].nested_type = vec![message("sku", vec![])];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "already defined as a field",
    );
}

#[test]
fn bad_field_numbers_and_names() {
    for (number, message) in [
        (0, "number 0 is out of range"),
        (-5, "number -5 is out of range"),
        (19_000, "number 19000 is out of range"),
        (19_999, "number 19999 is out of range"),
        (536_870_912, "number 536870912 is out of range"),
    ] {
        let mut f = shop();
        f.message_type[0].field[0].number = Some(number);
        assert_error(vec![f], "shop.proto", Some("shop.Item.sku"), message);
    }
    let mut f = shop();
    f.message_type[0]
        .field
        .push(scalar("other", 1, Type::Int32));
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item"),
        "fields sku and other both have number 1",
    );

    let mut f = shop();
    f.message_type[0].field[0].number = None;
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "has no number",
    );
    let mut f = shop();
    f.message_type[0].field[0].name = Some("bad name".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.bad name"),
        "invalid name \"bad name\"",
    );
    let mut f = shop();
    f.message_type[0].name = None;
    assert_error(vec![f], "shop.proto", Some("shop."), "has no name");

    let mut f = shop();
    f.message_type[0].reserved_range = vec![ReservedRange {
        start: Some(1),
        end: Some(2),
        ..Default::default()
    }];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "number 1 is reserved",
    );
    let mut f = shop();
    f.message_type[0].reserved_name = vec!["sku".into()];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "name sku is reserved",
    );

    // proto3 JSON names must be unique.
    let mut f = file("p3.proto", "p3", "proto3");
    f.message_type = vec![message(
        "M",
        vec![
            scalar("foo_bar", 1, Type::Int32),
            scalar("fooBar", 2, Type::Int32),
        ],
    )];
    assert_error(
        vec![f],
        "p3.proto",
        Some("p3.M"),
        "the same JSON name \"fooBar\"",
    );
}

fn extendable() -> FileDescriptorProto {
    let mut f = shop();
    f.message_type[0].extension_range = vec![ExtensionRange {
        start: Some(100),
        end: Some(200),
        ..Default::default()
    }];
    f
}

fn extension(name: &str, number: i32, extendee: &str) -> FieldDescriptorProto {
    FieldDescriptorProto {
        extendee: Some(extendee.into()),
        ..scalar(name, number, Type::Int32)
    }
}

#[test]
fn bad_extensions() {
    let mut f = extendable();
    f.extension = vec![extension("ext", 150, ".shop.Item")];
    let pool = build(vec![f]).unwrap();
    let item = pool.get_message_by_name("shop.Item").unwrap();
    assert_eq!(
        pool.get_extension_by_number(&item, 150)
            .unwrap()
            .full_name(),
        "shop.ext"
    );

    let mut f = extendable();
    f.extension = vec![extension("ext", 200, ".shop.Item")];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.ext"),
        "number 200 is not in an extension range of shop.Item",
    );
    let mut f = extendable();
    f.extension = vec![extension("ext", 100, ".shop.Color")];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.ext"),
        "extendee .shop.Color is not a message",
    );
    let mut f = extendable();
    f.extension = vec![extension("ext", 100, "")];
    assert_error(vec![f], "shop.proto", Some("shop.ext"), "has no extendee");

    let mut f = extendable();
    f.extension = vec![
        extension("ext", 100, ".shop.Item"),
        extension("again", 100, ".shop.Item"),
    ];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.again"),
        "number 100 of shop.Item is already used by extension shop.ext in shop.proto",
    );

    // In different files protoc only warns: the first keeps the number.
    let mut f = extendable();
    f.extension = vec![extension("ext", 100, ".shop.Item")];
    let mut other = file("other.proto", "other", "proto2");
    other.dependency = vec!["shop.proto".into()];
    other.extension = vec![extension("ext", 100, ".shop.Item")];
    let pool = build(vec![f, other]).unwrap();
    let item = pool.get_message_by_name("shop.Item").unwrap();
    assert_eq!(
        pool.get_extension_by_number(&item, 100)
            .unwrap()
            .full_name(),
        "shop.ext"
    );
    assert!(pool.get_extension_by_name("other.ext").is_some());

    let mut f = extendable();
    f.extension = vec![FieldDescriptorProto {
        label: Some(Label::Required),
        ..extension("ext", 100, ".shop.Item")
    }];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.ext"),
        "extensions cannot be required",
    );

    let mut f = extendable();
    f.message_type[0].extension_range.push(ExtensionRange {
        start: Some(150),
        end: Some(300),
        ..Default::default()
    });
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item"),
        "extension ranges 100 to 199 and 150 to 299 overlap",
    );
    let mut f = extendable();
    f.message_type[0].extension_range[0].start = Some(1);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "number 1 is in an extension range",
    );
    let mut f = extendable();
    f.message_type[0].extension_range[0].end = Some(100);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item"),
        "invalid extension range 100 to 100",
    );
}

fn map_file() -> FileDescriptorProto {
    let mut f = file("map.proto", "m", "proto3");
    let mut holder = message(
        "Holder",
        vec![FieldDescriptorProto {
            label: Some(Label::Repeated),
            r#type: Some(Type::Message),
            ..typed("counts", 1, ".m.Holder.CountsEntry")
        }],
    );
    holder.nested_type = vec![DescriptorProto {
        options: buffa::MessageField::some(MessageOptions {
            map_entry: Some(true),
            ..Default::default()
        }),
        ..message(
            "CountsEntry",
            vec![
                scalar("key", 1, Type::String),
                scalar("value", 2, Type::Int32),
            ],
        )
    }];
    f.message_type = vec![holder];
    f
}

#[test]
fn bad_map_entries() {
    let pool = build(vec![map_file()]).unwrap();
    assert!(
        pool.get_message_by_name("m.Holder")
            .unwrap()
            .fields()
            .next()
            .unwrap()
            .is_map()
    );

    let mut f = map_file();
    f.message_type[0].nested_type[0]
        .field
        .push(scalar("extra", 3, Type::Int32));
    assert_error(
        vec![f],
        "map.proto",
        Some("m.Holder.CountsEntry"),
        "exactly two fields",
    );
    let mut f = map_file();
    f.message_type[0].nested_type[0].field[0].r#type = Some(Type::Double);
    assert_error(
        vec![f],
        "map.proto",
        Some("m.Holder.CountsEntry"),
        "a map key must be",
    );
    let mut f = map_file();
    f.message_type[0].nested_type[0].field[1].number = Some(3);
    assert_error(
        vec![f],
        "map.proto",
        Some("m.Holder.CountsEntry"),
        "`optional value = 2`",
    );
    let mut f = map_file();
    f.message_type[0].field[0].label = Some(Label::Optional);
    assert_error(
        vec![f],
        "map.proto",
        Some("m.Holder.counts"),
        "map entry m.Holder.CountsEntry can only be the type of a repeated field",
    );
}

#[test]
fn bad_defaults() {
    let cases = [
        (Type::Int32, "abc", "invalid default value \"abc\""),
        (Type::Int32, "2147483648", "invalid default value"),
        (Type::Uint32, "-1", "invalid default value"),
        (Type::Bool, "yes", "invalid default value \"yes\""),
        (Type::Float, "1.5x", "invalid default value"),
        (Type::Bytes, "\\q", "invalid escape sequence \\q"),
        (Type::Bytes, "\\400", "over \\377"),
    ];
    for (ty, text, message) in cases {
        let mut f = shop();
        f.message_type[0].field[0].r#type = Some(ty);
        f.message_type[0].field[0].default_value = Some(text.into());
        assert_error(vec![f], "shop.proto", Some("shop.Item.sku"), message);
    }
    let mut f = shop();
    f.message_type[1].field[1].default_value = Some("BLUE".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.color"),
        "default value BLUE is not a value of the enum",
    );
    let mut f = shop();
    f.message_type[1].field[1].default_value = Some("GREEN".into());
    let pool = build(vec![f]).unwrap();
    let color = pool
        .get_message_by_name("shop.Order")
        .unwrap()
        .get_field(2)
        .unwrap();
    assert_eq!(
        color.default_value(),
        buffa_descriptor::DefaultValue::EnumNumber(2)
    );

    let mut f = shop();
    f.message_type[1].field[0].default_value = Some("x".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Order.item"),
        "message fields cannot have default values",
    );
    let mut f = shop();
    f.message_type[0].field[0].label = Some(Label::Repeated);
    f.message_type[0].field[0].default_value = Some("x".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "repeated fields cannot have default values",
    );
    let mut f = shop();
    f.syntax = Some("proto3".into());
    f.enum_type[0].value.insert(
        0,
        EnumValueDescriptorProto {
            name: Some("NONE".into()),
            number: Some(0),
            ..Default::default()
        },
    );
    f.message_type[0].field[0].default_value = Some("x".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "implicit presence (proto3) cannot have default values",
    );
}

#[test]
fn bad_enums_and_oneofs() {
    let mut f = shop();
    f.enum_type[0].value.clear();
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Color"),
        "at least one value",
    );
    let mut f = shop();
    f.syntax = Some("proto3".into());
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Color"),
        "the first value of an open enum must be zero, not 1 (RED)",
    );
    let mut f = shop();
    f.enum_type[0].value[1].number = Some(1);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Color"),
        "values RED and GREEN both have number 1",
    );
    let mut f = shop();
    f.enum_type[0].value[1].number = Some(1);
    f.enum_type[0].options = buffa::MessageField::some(EnumOptions {
        allow_alias: Some(true),
        ..Default::default()
    });
    let pool = build(vec![f]).unwrap();
    let color = pool.get_enum_by_name("shop.Color").unwrap();
    assert_eq!(color.get_value(1).unwrap().name(), "RED");

    let mut f = shop();
    f.message_type[0].field[0].oneof_index = Some(0);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "oneof index 0 is out of range",
    );
    let mut f = shop();
    f.message_type[0].oneof_decl = vec![OneofDescriptorProto {
        name: Some("choice".into()),
        ..Default::default()
    }];
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.choice"),
        "has no fields",
    );
    let mut f = shop();
    f.message_type[0].oneof_decl = vec![OneofDescriptorProto {
        name: Some("choice".into()),
        ..Default::default()
    }];
    f.message_type[0].field[0].oneof_index = Some(0);
    f.message_type[0].field[0].label = Some(Label::Repeated);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "oneof members cannot be repeated",
    );
    let mut f = shop();
    f.syntax = Some("proto3".into());
    f.enum_type.clear();
    f.message_type[1].field.pop();
    f.message_type[0].field[0].proto3_optional = Some(true);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Item.sku"),
        "proto3 optional field is not in a oneof",
    );
}

#[test]
fn bad_methods() {
    let mut f = shop();
    f.service = vec![ServiceDescriptorProto {
        name: Some("Shop".into()),
        method: vec![MethodDescriptorProto {
            name: Some("Buy".into()),
            input_type: Some(".shop.Order".into()),
            output_type: Some(".shop.Color".into()),
            ..Default::default()
        }],
        ..Default::default()
    }];
    assert_error(
        vec![f.clone()],
        "shop.proto",
        Some("shop.Shop.Buy"),
        "output type .shop.Color is not a message",
    );
    f.service[0].method[0].output_type = Some("Item".into());
    let pool = build(vec![f.clone()]).unwrap();
    let buy = pool
        .get_service_by_name("shop.Shop")
        .unwrap()
        .methods()
        .next()
        .unwrap();
    assert_eq!(buy.output().full_name(), "shop.Item");
    let buy = f.service[0].method[0].clone();
    f.service[0].method.push(buy);
    assert_error(
        vec![f],
        "shop.proto",
        Some("shop.Shop.Buy"),
        "already defined as a method",
    );
}

#[test]
fn garbage_bytes_are_errors() {
    for bytes in [
        &[0xff][..],
        &[0x0a, 0x05, 0x0a],
        &[
            0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
        ],
        &[0x0b],
        b"not a descriptor",
    ] {
        let error = DescriptorPool::decode(bytes).unwrap_err();
        assert!(
            error.to_string().starts_with("invalid FileDescriptorSet: "),
            "{error}"
        );
        assert!(std::error::Error::source(&error).is_some());
        assert_eq!(error.file_name(), None);
    }
    // Bytes that decode, to a file that is not valid.
    let error = DescriptorPool::decode(&[0x0a, 0x02, 0x12, 0x00]).unwrap_err();
    assert_eq!(error.to_string(), "a file has no name");
    assert!(
        DescriptorPool::decode(&[])
            .unwrap()
            .files()
            .next()
            .is_none()
    );
}

/// A long package repeated in many full names would take far more memory
/// than the input; the pool refuses it instead.
#[test]
fn names_are_bounded_by_input_size() {
    let package = "p".repeat(100_000);
    let mut f = file("big.proto", &package, "proto2");
    f.message_type = (0..5_000)
        .map(|i| message(&format!("M{i}"), vec![]))
        .collect();
    let error = build(vec![f]).unwrap_err();
    assert_eq!(error.file_name(), Some("big.proto"));
    assert!(
        error.to_string().contains("too long for its size"),
        "{error}"
    );

    // Realistic files are far from the bound.
    let mut f = file("fine.proto", "a.reasonably.long.package.name.v1", "proto2");
    f.message_type = (0..2_000)
        .map(|i| message(&format!("Message{i}"), vec![]))
        .collect();
    assert_eq!(build(vec![f]).unwrap().all_messages().len(), 2_000);
}

#[test]
fn malformed_extension_declarations() {
    use buffa_types::google::protobuf::ExtensionRangeOptions;
    use buffa_types::google::protobuf::extension_range_options::Declaration;

    let declared = |number: i32, full_name: &str| {
        let mut f = extendable();
        f.message_type[0].extension_range[0].options = ExtensionRangeOptions {
            declaration: vec![Declaration {
                number: Some(number),
                full_name: Some(full_name.into()),
                r#type: Some("int32".into()),
                ..Default::default()
            }],
            ..Default::default()
        }
        .into();
        f
    };
    build(vec![declared(100, ".shop.ext")]).unwrap();
    assert_error(
        vec![declared(0, ".shop.ext")],
        "shop.proto",
        Some("shop.Item"),
        "extension range 100 to 199: Extension declaration number 0 is not in the extension \
         range.",
    );
    assert_error(
        vec![declared(100, "shop.ext")],
        "shop.proto",
        Some("shop.Item"),
        "\"shop.ext\" must have a leading dot to indicate the fully-qualified scope.",
    );
}

#[test]
fn features_set_to_unknown_values() {
    use buffa_types::google::protobuf::FeatureSet;
    use buffa_types::google::protobuf::feature_set::FieldPresence;

    let with_presence = |presence: FieldPresence| {
        let mut f = shop();
        f.syntax = Some("editions".into());
        f.edition = Some(Edition::Edition2023);
        // An open enum must start at zero.
        f.enum_type.clear();
        f.message_type[1].field.truncate(1);
        f.message_type[0].field[0]
            .options
            .get_or_insert_default()
            .features = FeatureSet {
            field_presence: Some(presence),
            ..Default::default()
        }
        .into();
        f
    };
    build(vec![with_presence(FieldPresence::Implicit)]).unwrap();
    assert_error(
        vec![with_presence(FieldPresence::Unknown)],
        "shop.proto",
        Some("shop.Item.sku"),
        "Feature field `field_presence` must resolve to a known value, found \
         FIELD_PRESENCE_UNKNOWN",
    );
}
