//! DescriptorPool over the fixture protos compiled by the vendored protoc:
//! lookups, proto2/proto3/editions semantics, extensions, services,
//! comments, and adding files.

#[path = "proto/descriptor/fixtures.rs"]
mod fixtures;

use buffa::{Message, WireType};
use buffa_descriptor::{
    Cardinality, DefaultValue, DescriptorPool, FieldDescriptor, Kind, MessageDescriptor, Syntax,
};
use buffa_types::google::protobuf::{Edition, FileDescriptorSet};
use fixtures::{FILES, field, message, names, pool, set_bytes};

#[test]
fn files_and_lookup() {
    let pool = pool();
    let files = names(pool.files(), |f| f.name().to_owned());
    assert_eq!(files, FILES);
    let p3 = pool.get_file_by_name("proto3.proto").unwrap();
    assert_eq!(p3.package_name(), "desc.p3");
    assert_eq!(p3.syntax(), Syntax::Proto3);
    assert_eq!(p3.edition(), Edition::Proto3);
    assert_eq!(
        names(p3.dependencies(), |f| f.name().to_owned()),
        ["proto2.proto"]
    );
    assert_eq!(
        names(p3.services(), |s| s.full_name().to_owned()),
        ["desc.p3.ItemService"]
    );
    assert_eq!(
        pool.get_file_by_name("proto2.proto").unwrap().syntax(),
        Syntax::Proto2
    );
    assert_eq!(
        pool.get_file_by_name("editions.proto").unwrap().syntax(),
        Syntax::Edition(Edition::Edition2023)
    );
    assert_eq!(
        pool.get_file_by_name("edition2024.proto")
            .unwrap()
            .edition(),
        Edition::Edition2024
    );

    let inner = pool
        .get_message_by_name(".desc.p2.Outer.Result.Inner")
        .unwrap();
    assert_eq!(inner.name(), "Inner");
    assert_eq!(inner.full_name(), "desc.p2.Outer.Result.Inner");
    assert_eq!(inner.package_name(), "desc.p2");
    assert_eq!(inner.parent_file().name(), "proto2.proto");
    assert_eq!(
        inner.parent_message().unwrap().full_name(),
        "desc.p2.Outer.Result"
    );
    assert_eq!(
        format!("{inner:?}"),
        r#"MessageDescriptor("desc.p2.Outer.Result.Inner")"#
    );
    // Names of the wrong kind are not found.
    assert!(pool.get_message_by_name("desc.p2.Color").is_none());
    assert!(pool.get_enum_by_name("desc.p2.Outer").is_none());
    assert!(pool.get_message_by_name("desc.p2").is_none());
    assert!(pool.get_extension_by_name("desc.p2.Outer.id").is_none());
    assert!(
        pool.get_enum_by_name("desc.p2.Outer.Nested.Level")
            .is_some()
    );
    assert!(pool.get_service_by_name("desc.p3.ItemService").is_some());

    // Top-level messages (group types declared in a top-level extend
    // block are top-level), and every message in the pool.
    let p2 = pool.get_file_by_name("proto2.proto").unwrap();
    assert_eq!(
        names(p2.messages(), |m| m.name().to_owned()),
        ["Outer", "ExtGroup", "MessageSet"]
    );
    assert_eq!(names(p2.enums(), |e| e.name().to_owned()), ["Color"]);
    let all = names(pool.all_messages(), |m| m.full_name().to_owned());
    assert!(all.contains(&"desc.p3.Item.CountsEntry".to_owned()));
    assert_eq!(all.len(), pool.all_messages().len());
    assert_eq!(
        all.iter().filter(|n| n.starts_with("desc.p2.")).count(),
        6,
        "{all:?}"
    );
    assert!(pool.all_enums().any(|e| e.full_name() == "desc.ed.Closed"));
    assert_eq!(pool.services().len(), 1);

    // The descriptor set comes back as it went in.
    let set = FileDescriptorSet::decode_from_slice(set_bytes()).unwrap();
    assert_eq!(pool.file_descriptor_set(), set);
    assert_eq!(p2.file_descriptor_proto(), &set.file[0]);
}

#[test]
fn handles_are_cheap_shared_values() {
    fn assert_traits<T: Clone + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync>() {}
    assert_traits::<buffa_descriptor::FileDescriptor>();
    assert_traits::<MessageDescriptor>();
    assert_traits::<FieldDescriptor>();
    assert_traits::<buffa_descriptor::OneofDescriptor>();
    assert_traits::<buffa_descriptor::EnumDescriptor>();
    assert_traits::<buffa_descriptor::EnumValueDescriptor>();
    assert_traits::<buffa_descriptor::ServiceDescriptor>();
    assert_traits::<buffa_descriptor::MethodDescriptor>();
    assert_traits::<Kind>();

    let pool = pool();
    let a = message(&pool, "desc.p3.Item");
    let b = field(&message(&pool, "desc.p3.Item"), "inner").containing_message();
    assert_eq!(a, b);
    let set: std::collections::HashSet<_> = [a.clone(), b].into_iter().collect();
    assert_eq!(set.len(), 1);
    // The same schema in another pool is another descriptor.
    let other = DescriptorPool::decode(set_bytes()).unwrap();
    assert_ne!(a, message(&other, "desc.p3.Item"));
    assert_ne!(a, message(&pool, "desc.p3.Item.Inner"));
}

#[test]
fn proto2_fields_and_defaults() {
    let pool = pool();
    let outer = message(&pool, "desc.p2.Outer");
    let declared = names(outer.fields(), |f| f.name().to_owned());
    assert_eq!(
        declared,
        [
            "id",
            "name",
            "blob",
            "ratio",
            "scale",
            "big",
            "negative",
            "color",
            "plain_color",
            "flag",
            "unpacked",
            "packed",
            "names",
            "result",
            "nested",
            "with_json",
            "snake_case_field",
            "choice_int",
            "choice_str"
        ]
    );
    assert_eq!(outer.fields().len(), 19);
    for (i, f) in outer.fields().enumerate() {
        assert_eq!(f.index(), i);
        assert_eq!(outer.get_field(f.number()).unwrap(), f);
        assert_eq!(outer.get_field_by_json_name(f.json_name()).unwrap(), f);
        assert_eq!(f.containing_message(), outer);
        assert!(!f.is_extension() && f.extension_scope().is_none());
    }
    assert!(outer.get_field(17).is_none() && outer.get_field(0).is_none());

    let id = field(&outer, "id");
    assert_eq!(
        (id.cardinality(), id.kind()),
        (Cardinality::Required, Kind::Int32)
    );
    assert!(id.has_presence());
    assert_eq!(id.full_name(), "desc.p2.Outer.id");

    let default = |name: &str| field(&outer, name).default_value();
    assert_eq!(default("id"), DefaultValue::I32(0));
    assert_eq!(
        default("name"),
        DefaultValue::String("café \"quoted\"".into())
    );
    assert_eq!(
        default("blob"),
        DefaultValue::Bytes(vec![1, 0xff, b'\n', b'\\', b'\'', b'"', b'A'])
    );
    assert_eq!(default("ratio"), DefaultValue::F64(f64::NEG_INFINITY));
    assert!(matches!(default("scale"), DefaultValue::F32(v) if v.is_nan()));
    assert_eq!(default("big"), DefaultValue::U64(u64::MAX));
    assert_eq!(default("negative"), DefaultValue::I32(-42));
    assert_eq!(default("color"), DefaultValue::EnumNumber(2));
    // No explicit default: the enum's first value (RED = 1), not zero.
    assert_eq!(default("plain_color"), DefaultValue::EnumNumber(1));
    assert!(!field(&outer, "plain_color").has_default_value());
    assert!(field(&outer, "color").has_default_value());
    assert_eq!(default("flag"), DefaultValue::Bool(true));
    assert_eq!(default("names"), DefaultValue::String(String::new()));
    assert_eq!(default("nested"), DefaultValue::Message);
    assert_eq!(default("result"), DefaultValue::Message);

    let unpacked = field(&outer, "unpacked");
    assert!(unpacked.is_list() && !unpacked.is_packed() && !unpacked.has_presence());
    assert_eq!(unpacked.wire_type(), WireType::Varint);
    let packed = field(&outer, "packed");
    assert!(packed.is_packed());
    assert_eq!(packed.wire_type(), WireType::LengthDelimited);
    assert!(!field(&outer, "names").validates_utf8());
    assert!(field(&outer, "plain_color").has_presence());

    // Groups: a lower-cased field of the group's message type.
    let result = field(&outer, "result");
    assert!(result.is_group());
    assert_eq!(result.wire_type(), WireType::StartGroup);
    let Kind::Message(result_type) = result.kind() else {
        panic!("group kind")
    };
    assert_eq!(result_type.full_name(), "desc.p2.Outer.Result");
    let inner = field(&result_type, "inner");
    assert!(inner.is_group() && inner.is_list());
    assert!(!field(&outer, "nested").is_group());

    assert_eq!(field(&outer, "with_json").json_name(), "customJson");
    assert_eq!(
        field(&outer, "snake_case_field").json_name(),
        "snakeCaseField"
    );
    assert!(outer.get_field_by_json_name("with_json").is_none());

    // The oneof.
    let choice: Vec<_> = outer.oneofs().collect();
    assert_eq!(choice.len(), 1);
    assert_eq!(choice[0].full_name(), "desc.p2.Outer.choice");
    assert!(!choice[0].is_synthetic());
    assert_eq!(
        names(choice[0].fields(), |f| f.name().to_owned()),
        ["choice_int", "choice_str"]
    );
    assert_eq!(
        field(&outer, "choice_str").real_oneof(),
        Some(choice[0].clone())
    );
    assert_eq!(choice[0].parent_message(), outer);

    // Children, ranges, reserved.
    assert_eq!(
        names(outer.child_messages(), |m| m.name().to_owned()),
        ["Result", "Nested"]
    );
    let nested = message(&pool, "desc.p2.Outer.Nested");
    assert_eq!(
        names(nested.child_enums(), |e| e.full_name().to_owned()),
        ["desc.p2.Outer.Nested.Level"]
    );
    assert_eq!(
        outer.extension_ranges().collect::<Vec<_>>(),
        [1000..2000, 5000..536_870_912]
    );
    assert!(outer.is_extension_number(1000) && outer.is_extension_number(1999));
    assert!(!outer.is_extension_number(2000) && !outer.is_extension_number(999));
    assert!(outer.is_extension_number(536_870_911) && !outer.is_extension_number(4999));
    assert_eq!(
        outer.reserved_ranges().collect::<Vec<_>>(),
        [30..40, 50..51]
    );
    assert_eq!(outer.reserved_names().collect::<Vec<_>>(), ["old_name"]);
    assert!(!outer.is_map_entry());
    assert_eq!(outer.options(), &*outer.descriptor_proto().options);
}

#[test]
fn enums_closed_open_and_aliases() {
    let pool = pool();
    let color = pool.get_enum_by_name("desc.p2.Color").unwrap();
    assert!(color.is_closed());
    assert_eq!(
        names(color.values(), |v| v.name().to_owned()),
        ["RED", "CRIMSON", "GREEN", "BLUE"]
    );
    // Aliases: the first declared value of a number.
    assert_eq!(color.get_value(1).unwrap().name(), "RED");
    assert_eq!(color.get_value_by_name("CRIMSON").unwrap().number(), 1);
    assert_eq!(color.get_value(-3).unwrap().name(), "BLUE");
    assert!(color.get_value(0).is_none() && color.get_value_by_name("PINK").is_none());
    assert_eq!(color.default_value().name(), "RED");
    assert!(color.options().allow_alias());
    // Values are scoped as siblings of their enum.
    assert_eq!(color.get_value(2).unwrap().full_name(), "desc.p2.GREEN");
    let level = pool.get_enum_by_name("desc.p2.Outer.Nested.Level").unwrap();
    assert_eq!(
        level.values().next().unwrap().full_name(),
        "desc.p2.Outer.Nested.LOW"
    );
    assert_eq!(
        level.parent_message().unwrap().full_name(),
        "desc.p2.Outer.Nested"
    );
    assert_eq!(level.get_value(1).unwrap().parent_enum(), level);
    assert!(level.is_closed());

    let status = pool.get_enum_by_name("desc.p3.Status").unwrap();
    assert!(!status.is_closed());
    assert!(status.parent_message().is_none());
    assert_eq!(status.parent_file().name(), "proto3.proto");
    assert!(!pool.get_enum_by_name("desc.ed.Open").unwrap().is_closed());
    assert!(pool.get_enum_by_name("desc.ed.Closed").unwrap().is_closed());
    assert!(pool.get_enum_by_name("desc.ff.Kind").unwrap().is_closed());
    assert!(
        !pool
            .get_enum_by_name("desc.ff.Implicit.Nested.Open2")
            .unwrap()
            .is_closed()
    );
}

#[test]
fn proto3_presence_maps_and_packing() {
    let pool = pool();
    let item = message(&pool, "desc.p3.Item");
    let f = |name| field(&item, name);

    assert!(!f("sku").has_presence() && !f("count").has_presence());
    assert!(f("sku").validates_utf8());
    assert!(!f("data").validates_utf8());
    assert!(!f("status").has_presence());
    assert_eq!(f("status").default_value(), DefaultValue::EnumNumber(0));

    // proto3 optional: a synthetic oneof each, after the real ones.
    let oneofs = names(item.oneofs(), |o| o.name().to_owned());
    assert_eq!(oneofs, ["kind", "_maybe", "_maybe_item"]);
    let maybe = f("maybe");
    assert!(maybe.has_presence());
    assert_eq!(maybe.cardinality(), Cardinality::Optional);
    let synthetic = maybe.containing_oneof().unwrap();
    assert!(synthetic.is_synthetic());
    assert_eq!(
        names(synthetic.fields(), |f| f.name().to_owned()),
        ["maybe"]
    );
    assert!(maybe.real_oneof().is_none());
    assert!(f("maybe_item").containing_oneof().unwrap().is_synthetic());
    let text = f("text");
    assert!(text.has_presence());
    assert_eq!(text.real_oneof().unwrap().name(), "kind");

    assert!(f("inner").has_presence() && f("legacy").has_presence());
    assert_eq!(
        f("legacy").kind(),
        Kind::Message(message(&pool, "desc.p2.Outer"))
    );

    assert!(f("packed_by_default").is_packed());
    assert!(!f("not_packed").is_packed());
    assert!(f("statuses").is_packed());
    assert!(!f("tags").is_packed() && f("tags").is_list());

    let counts = f("counts");
    assert!(counts.is_map() && !counts.is_list());
    assert_eq!(counts.cardinality(), Cardinality::Repeated);
    assert!(!counts.has_presence() && !counts.is_packed() && !counts.is_group());
    let Kind::Message(entry) = counts.kind() else {
        panic!("map kind")
    };
    assert!(entry.is_map_entry());
    assert_eq!(entry.full_name(), "desc.p3.Item.CountsEntry");
    assert_eq!(entry.map_entry_key_field().kind(), Kind::String);
    assert!(entry.map_entry_key_field().validates_utf8());
    assert_eq!(entry.map_entry_value_field().kind(), Kind::Int32);
    assert_eq!(entry.map_entry_value_field().number(), 2);
    let children = f("children").kind();
    let entry = children.as_message().unwrap();
    assert_eq!(entry.map_entry_key_field().kind(), Kind::Int64);
    assert_eq!(
        entry.map_entry_value_field().kind(),
        Kind::Message(item.clone())
    );
    let by_flag = f("by_flag").kind();
    let value = by_flag.as_message().unwrap().map_entry_value_field();
    assert_eq!(
        value.kind().as_enum().unwrap().full_name(),
        "desc.p3.Status"
    );

    assert_eq!(f("foo_bar_baz").json_name(), "fooBarBaz");
    let more = field(&message(&pool, "desc.p3.Item.Inner"), "more");
    assert!(more.is_list());
}

#[test]
fn editions_features() {
    let pool = pool();
    let d = message(&pool, "desc.ed.Defaults");
    let f = |name| field(&d, name);

    assert!(f("explicit").has_presence());
    assert_eq!(f("explicit").default_value(), DefaultValue::I32(0));
    assert_eq!(f("with_default").default_value(), DefaultValue::I32(7));
    assert!(!f("implicit").has_presence());
    let required = f("required");
    assert_eq!(required.cardinality(), Cardinality::Required);
    assert!(required.has_presence());
    assert!(f("packed").is_packed());
    assert!(!f("expanded").is_packed());
    let delimited = f("delimited");
    assert!(delimited.is_group());
    assert_eq!(delimited.kind(), Kind::Message(d.clone()));
    assert_eq!(delimited.wire_type(), WireType::StartGroup);
    assert!(!f("prefixed").is_group());
    assert!(f("delimited_list").is_group() && f("delimited_list").is_list());
    assert!(!f("unchecked").validates_utf8());
    assert!(f("checked").validates_utf8());
    assert_eq!(f("closed").default_value(), DefaultValue::EnumNumber(1));
    assert_eq!(
        f("closed_default").default_value(),
        DefaultValue::EnumNumber(2)
    );
    assert!(f("closed").kind().as_enum().unwrap().is_closed());
    assert!(!f("open").kind().as_enum().unwrap().is_closed());
    let map = f("map");
    assert!(map.is_map() && !map.is_group());
    let entry = map.kind().as_message().unwrap().clone();
    // protoc copies the map field's features onto the entry's fields.
    assert!(entry.map_entry_key_field().validates_utf8());
    assert!(f("pick_int").has_presence() && f("pick_message").real_oneof().is_some());

    let ext = pool.get_extension_by_name("desc.ed.ed_ext").unwrap();
    assert!(ext.has_presence());
    assert!(
        pool.get_extension_by_name("desc.ed.ed_repeated_ext")
            .unwrap()
            .is_packed()
    );

    // File-level features, and overrides on fields.
    let i = message(&pool, "desc.ff.Implicit");
    let f = |name| field(&i, name);
    assert!(!f("value").has_presence());
    assert!(!f("values").is_packed());
    assert!(f("child").has_presence() && f("child").is_group());
    assert!(f("explicit_again").has_presence());
    assert!(f("packed_again").is_packed());
    assert!(!f("prefixed").is_group());
    let map = f("map");
    assert!(map.is_map() && !map.is_group());
    // Map values are length-prefixed whatever the file's message encoding.
    let value = map.kind().as_message().unwrap().map_entry_value_field();
    assert!(!value.is_group());
    assert_eq!(value.wire_type(), WireType::LengthDelimited);
    assert!(f("kind").has_presence());
    let nested = message(&pool, "desc.ff.Implicit.Nested");
    assert!(!field(&nested, "inherits").has_presence());

    let e24 = message(&pool, "desc.e24.Item");
    assert!(field(&e24, "id").has_presence());
    assert!(field(&e24, "name").validates_utf8());
}

#[test]
fn extensions_by_scope_and_number() {
    let pool = pool();
    let outer = message(&pool, "desc.p2.Outer");
    let p2 = pool.get_file_by_name("proto2.proto").unwrap();
    assert_eq!(
        names(p2.extensions(), |e| e.full_name().to_owned()),
        [
            "desc.p2.file_ext",
            "desc.p2.file_repeated_ext",
            "desc.p2.extgroup",
            "desc.p2.set_item"
        ]
    );
    let of_outer = names(pool.extensions_of(&outer), |e| {
        format!("{}={}", e.name(), e.number())
    });
    assert_eq!(
        of_outer,
        [
            "file_ext=1000",
            "nested_ext=1001",
            "extgroup=1002",
            "file_repeated_ext=5000"
        ]
    );

    let file_ext = pool.get_extension_by_number(&outer, 1000).unwrap();
    assert_eq!(file_ext.full_name(), "desc.p2.file_ext");
    assert!(file_ext.is_extension() && file_ext.has_presence());
    assert_eq!(file_ext.containing_message(), outer);
    assert!(file_ext.extension_scope().is_none());
    assert_eq!(file_ext.parent_file(), p2);

    let nested_ext = pool.get_extension_by_number(&outer, 1001).unwrap();
    assert_eq!(nested_ext.full_name(), "desc.p2.Outer.Nested.nested_ext");
    assert_eq!(
        nested_ext.extension_scope().unwrap().full_name(),
        "desc.p2.Outer.Nested"
    );
    assert_eq!(nested_ext.containing_message(), outer);
    let nested = message(&pool, "desc.p2.Outer.Nested");
    assert_eq!(
        nested.child_extensions().collect::<Vec<_>>(),
        std::slice::from_ref(&nested_ext)
    );
    assert_eq!(
        pool.get_extension_by_name(".desc.p2.Outer.Nested.nested_ext"),
        Some(nested_ext)
    );

    let repeated = pool.get_extension_by_number(&outer, 5000).unwrap();
    assert!(repeated.is_packed() && !repeated.has_presence());
    let group = pool.get_extension_by_number(&outer, 1002).unwrap();
    assert!(group.is_group());
    assert_eq!(
        group.kind().as_message().unwrap().full_name(),
        "desc.p2.ExtGroup"
    );
    assert!(pool.get_extension_by_number(&outer, 1003).is_none());
    assert!(pool.get_extension_by_number(&nested, 1001).is_none());

    // MessageSet extensions may use numbers up to 2^31 - 1.
    let set = message(&pool, "desc.p2.MessageSet");
    let item = pool.get_extension_by_number(&set, 2_147_483_646).unwrap();
    assert_eq!(item.name(), "set_item");

    let extendable = message(&pool, "desc.ed.Extendable");
    assert_eq!(pool.extensions_of(&extendable).count(), 2);
    assert_eq!(pool.all_extensions().count(), 7);
    // A descriptor from another pool is matched by name.
    let other = DescriptorPool::decode(set_bytes()).unwrap();
    let outer_elsewhere = message(&other, "desc.p2.Outer");
    assert_eq!(pool.extensions_of(&outer_elsewhere).count(), 4);
}

#[test]
fn services_and_methods() {
    let pool = pool();
    let service = pool.get_service_by_name("desc.p3.ItemService").unwrap();
    assert_eq!(service.name(), "ItemService");
    assert_eq!(service.parent_file().name(), "proto3.proto");
    let streaming: Vec<_> = service
        .methods()
        .map(|m| {
            (
                m.name().to_owned(),
                m.is_client_streaming(),
                m.is_server_streaming(),
            )
        })
        .collect();
    assert_eq!(
        streaming,
        [
            ("Get".to_owned(), false, false),
            ("Upload".to_owned(), true, false),
            ("Watch".to_owned(), false, true),
            ("Chat".to_owned(), true, true)
        ]
    );
    let chat = service.methods().last().unwrap();
    assert_eq!(chat.full_name(), "desc.p3.ItemService.Chat");
    assert_eq!(chat.input().full_name(), "desc.p3.Item");
    assert_eq!(chat.output().full_name(), "desc.p2.Outer");
    assert_eq!(chat.parent_service(), service);
    assert_eq!(chat.options().deprecated, None);
}

#[test]
fn comments_from_source_info() {
    let pool = pool();
    let outer = message(&pool, "desc.p2.Outer");
    let comments = outer.comments();
    assert_eq!(
        comments.leading.as_deref(),
        Some(" Leading comment of Outer,\n on two lines.\n")
    );
    assert_eq!(
        comments.trailing.as_deref(),
        Some(" Trailing comment of Outer.\n")
    );
    assert!(comments.leading_detached.is_empty());

    let item = message(&pool, "desc.p3.Item");
    let sku = field(&item, "sku").comments();
    assert_eq!(sku.leading.as_deref(), Some(" Leading comment of sku.\n"));
    assert_eq!(sku.trailing.as_deref(), Some(" Trailing comment of sku.\n"));
    let count = field(&item, "count").comments();
    assert_eq!(
        count.leading_detached,
        [" Detached one.\n", " Detached two.\n"]
    );
    assert_eq!(
        count.leading.as_deref(),
        Some(" Leading comment of count.\n")
    );
    assert!(field(&item, "maybe").comments().is_empty());

    let color = pool.get_enum_by_name("desc.p2.Color").unwrap();
    assert_eq!(
        color.comments().leading.as_deref(),
        Some(" A closed enum with aliases.\n")
    );
    let service = pool.get_service_by_name("desc.p3.ItemService").unwrap();
    assert_eq!(
        service.comments().leading.as_deref(),
        Some(" The item service.\n")
    );
    assert_eq!(
        service
            .methods()
            .next()
            .unwrap()
            .comments()
            .leading
            .as_deref(),
        Some(" Unary.\n")
    );
    let status = pool.get_enum_by_name("desc.p3.Status").unwrap();
    assert_eq!(
        status.comments().leading.as_deref(),
        Some(" An open enum.\n")
    );

    // Without source info, no comments.
    let mut set = FileDescriptorSet::decode_from_slice(set_bytes()).unwrap();
    for file in &mut set.file {
        file.source_code_info.clear();
    }
    let bare = DescriptorPool::from_file_descriptor_set(set).unwrap();
    assert!(message(&bare, "desc.p2.Outer").comments().is_empty());
}

#[test]
fn adding_files() {
    let set = FileDescriptorSet::decode_from_slice(set_bytes()).unwrap();
    // Any order: dependencies are added first.
    let mut reversed = set.clone();
    reversed.file.reverse();
    let pool = DescriptorPool::from_file_descriptor_set(reversed).unwrap();
    let order = names(pool.files(), |f| f.name().to_owned());
    let p2 = order.iter().position(|n| n == "proto2.proto").unwrap();
    let p3 = order.iter().position(|n| n == "proto3.proto").unwrap();
    assert!(p2 < p3, "{order:?}");

    // Adding identical files again is a no-op; handles stay valid.
    let mut pool = DescriptorPool::new();
    assert_eq!(pool.files().len(), 0);
    pool.add_file_descriptor_proto(set.file[0].clone()).unwrap();
    let outer = message(&pool, "desc.p2.Outer");
    pool.add_file_descriptor_set(set.clone()).unwrap();
    assert_eq!(pool.files().len(), FILES.len());
    assert_eq!(outer.fields().len(), 19);
    assert_eq!(message(&pool, "desc.p3.Item").fields().len(), 18);

    // A different file under a taken name is refused, leaving the pool as
    // it was.
    let mut changed = set.file[1].clone();
    changed.message_type.pop();
    let err = pool.add_file_descriptor_proto(changed).unwrap_err();
    assert_eq!(err.file_name(), Some("proto3.proto"));
    assert!(err.to_string().contains("already in the pool"), "{err}");
    assert_eq!(pool.file_descriptor_set(), set);

    // A failing set adds none of its files.
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_proto(set.file[0].clone()).unwrap();
    let before = pool.file_descriptor_set();
    let mut bad = set.clone();
    bad.file[4].message_type[0].field[0].type_name = Some(".nowhere.Type".into());
    bad.file[4].message_type[0].field[0].r#type = None;
    let err = pool.add_file_descriptor_set(bad).unwrap_err();
    assert_eq!(err.file_name(), Some("edition2024.proto"));
    assert_eq!(pool.file_descriptor_set(), before);
    assert!(pool.get_message_by_name("desc.p3.Item").is_none());
    assert!(pool.get_file_by_name("proto3.proto").is_none());
    let outer = message(&pool, "desc.p2.Outer");
    assert_eq!(pool.extensions_of(&outer).count(), 4);
    // ... and the same set without the fault then goes in.
    pool.add_file_descriptor_set(set.clone()).unwrap();
    assert_eq!(pool.file_descriptor_set(), set);

    // A pool shared with a clone grows a copy; the clone is unchanged.
    let mut first = DescriptorPool::new();
    first
        .add_file_descriptor_proto(set.file[0].clone())
        .unwrap();
    let snapshot = first.clone();
    first
        .add_file_descriptor_proto(set.file[1].clone())
        .unwrap();
    assert_eq!((snapshot.files().len(), first.files().len()), (1, 2));
    assert!(format!("{first:?}").contains("proto3.proto"));
}

#[test]
fn a_file_added_for_a_while_is_taken_out_again() {
    let full = pool();
    let set = full.file_descriptor_set();
    let (last, first) = set.file.split_last().unwrap();
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_set(FileDescriptorSet {
        file: first.to_vec(),
        ..Default::default()
    })
    .unwrap();
    let before = pool.all_messages().len();
    // A handle taken inside outlives the call and keeps describing the
    // pool with the file.
    let (kept, messages) = pool
        .with_file(last.clone(), |p| (p.clone(), p.all_messages().len()))
        .unwrap();
    assert!(messages > before);
    assert_eq!(kept.files().len(), first.len() + 1);
    assert_eq!(pool.files().len(), first.len());
    assert_eq!(pool.all_messages().len(), before);
    assert!(pool.get_file_by_name(last.name()).is_none());
    // And the file can then be added for good.
    pool.add_file_descriptor_proto(last.clone()).unwrap();
    assert_eq!(pool.file_descriptor_set(), set);
}

#[test]
fn the_naming_style_is_resolved_per_element() {
    use buffa_types::google::protobuf::feature_set::EnforceNamingStyle;
    use buffa_types::google::protobuf::{
        DescriptorProto, FeatureSet, FieldDescriptorProto, FieldOptions, FileDescriptorProto,
        MessageOptions, OneofDescriptorProto, OneofOptions,
    };

    let style = |style| FeatureSet {
        enforce_naming_style: Some(style),
        ..FeatureSet::default()
    };
    let int32 = |name: &str, number, oneof: Option<i32>, options: Option<FieldOptions>| {
        FieldDescriptorProto {
            name: Some(name.into()),
            number: Some(number),
            r#type: Some(buffa_types::google::protobuf::field_descriptor_proto::Type::Int32),
            oneof_index: oneof,
            options: options.into(),
            ..Default::default()
        }
    };
    // edition = "2024"; message Checked { int32 a = 1; int32 b = 2
    // [features.enforce_naming_style = STYLE_LEGACY]; oneof o { option
    // features.enforce_naming_style = STYLE_LEGACY; int32 c = 3; } }
    // message Legacy { option features.enforce_naming_style =
    // STYLE_LEGACY; int32 d = 1; }
    let file = FileDescriptorProto {
        name: Some("naming.proto".into()),
        syntax: Some("editions".into()),
        edition: Some(Edition::Edition2024),
        message_type: vec![
            DescriptorProto {
                name: Some("Checked".into()),
                field: vec![
                    int32("a", 1, None, None),
                    int32(
                        "b",
                        2,
                        None,
                        Some(FieldOptions {
                            features: style(EnforceNamingStyle::StyleLegacy).into(),
                            ..Default::default()
                        }),
                    ),
                    int32("c", 3, Some(0), None),
                ],
                oneof_decl: vec![OneofDescriptorProto {
                    name: Some("o".into()),
                    options: OneofOptions {
                        features: style(EnforceNamingStyle::StyleLegacy).into(),
                        ..Default::default()
                    }
                    .into(),
                    ..Default::default()
                }],
                ..Default::default()
            },
            DescriptorProto {
                name: Some("Legacy".into()),
                field: vec![int32("d", 1, None, None)],
                options: MessageOptions {
                    features: style(EnforceNamingStyle::StyleLegacy).into(),
                    ..Default::default()
                }
                .into(),
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_proto(file).unwrap();
    let checked = message(&pool, "Checked");
    assert!(checked.features().checks_naming_style());
    assert!(field(&checked, "a").features().checks_naming_style());
    assert!(!field(&checked, "b").features().checks_naming_style());
    // A field in a oneof inherits the oneof's features.
    assert!(!field(&checked, "c").features().checks_naming_style());
    let legacy = message(&pool, "Legacy");
    assert_eq!(
        legacy.features().enforce_naming_style,
        EnforceNamingStyle::StyleLegacy
    );
    assert!(!field(&legacy, "d").features().checks_naming_style());
}
