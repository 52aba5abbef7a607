//! The Rust names of generated items, module by module, and the fixed
//! order in which they are taken.
//!
//! Every generated module (a package's, or a message's module of nested
//! types) has one [`NameTable`] entry for its type namespace, where
//! structs, enums, traits and modules live. Names are taken in this order,
//! over the whole descriptor set (imports and extern types included) in
//! descriptor-set order, each message before the messages nested in it:
//!
//! 1. messages and enums, and the modules of nested types, which also
//!    keep off the modules of child packages (`input/schema.rs`);
//! 2. the enum of each oneof, in its message's module (`KindOneof` where
//!    `Kind` is taken);
//! 3. the view of each message, `FooView`, beside it;
//! 4. the view enum of each oneof with a member that borrows (string,
//!    bytes, message), `KindView`, beside the oneof's enum;
//! 5. the `foo_server` and `foo_client` modules of each service, in its
//!    package's module.
//!
//! A name that is taken gets underscores appended until it is free (a
//! oneof enum gets `Oneof` instead, and a service `Service`, which keeps
//! the modules tonic-build derives from its name snake case), so a later
//! item yields to an earlier one: proto types never change name because
//! of a view or a oneof, and a view never because of a oneof's view.
//! Every step runs whatever the options, so `views()`, `tonic()` and the
//! rest never change a name; an item claimed and not generated (a view
//! without `views()`) only keeps its name reserved.
//!
//! Extern types (`extern_path`) take part like the others, so a view of
//! an extern message is named as the crate that generated it named it,
//! provided that crate saw the same files of the package: a package whose
//! files clash with each other can resolve differently in a run that sees
//! only some of them (which holds for the proto types' own names too).
//!
//! The value namespace holds the extension constants (SCREAMING_SNAKE,
//! made unique per module in `analysis/extensions.rs`, where
//! [`PACKAGE_VALUE_NAMES`] are taken first) and, in package modules,
//! `descriptor_pool` and `register_types` (lower case, so no constant
//! takes them; `pipeline.rs` numbers `register_types_2`, ... for packages that
//! share a module). The runtime alias `__buffa` that modules import
//! clashes with nothing: case conversion never yields a leading `__`
//! followed by a letter.

use std::collections::{HashMap, HashSet};

use buffa_types::google::protobuf::DescriptorProto;

/// Constants a package module may hold besides extension constants:
/// `FILE_DESCRIPTOR_SET` (with `reflection`). An extension of that name
/// takes `FILE_DESCRIPTOR_SET_`, with or without reflection.
pub const PACKAGE_VALUE_NAMES: &[&str] = &["FILE_DESCRIPTOR_SET"];

/// The Rust names taken in each generated module's type namespace, by
/// module path.
#[derive(Debug, Default)]
pub struct NameTable {
    modules: HashMap<Vec<String>, HashSet<String>>,
}

impl NameTable {
    /// Whether `name` is taken in `module`.
    pub fn is_taken(&self, module: &[String], name: &str) -> bool {
        self.modules
            .get(module)
            .is_some_and(|taken| taken.contains(name))
    }

    /// Takes `base` in `module`, with underscores appended while it is
    /// taken (`foo_bar` and `FooBar` are both `FooBar`: the second is
    /// `FooBar_`).
    pub fn claim(&mut self, module: &[String], base: String) -> String {
        self.claim_with(module, base, "_")
    }

    /// Takes `base` in `module`, with `suffix` appended while it is taken.
    pub fn claim_with(&mut self, module: &[String], base: String, suffix: &str) -> String {
        let taken = self.modules.entry(module.to_vec()).or_default();
        let mut name = base;
        while !taken.insert(name.clone()) {
            name.push_str(suffix);
        }
        name
    }
}

/// Whether a package of `packages` has the module `parent::name`, which a
/// generated module of the same name would clash with (`include_file`
/// mounts child packages in their parent package's module).
pub fn is_package_module(packages: &[Vec<String>], parent: &[String], name: &str) -> bool {
    packages.iter().any(|package| {
        package.len() > parent.len() && package.starts_with(parent) && package[parent.len()] == name
    })
}

/// The Rust names of a oneof's enums.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneofNames {
    /// The enum of the owned message's oneof.
    pub owned: String,
    /// The enum of the view's oneof; `None` when no member borrows
    /// (numbers, bools and enums only), where the owned enum serves.
    pub view: Option<String>,
}

/// The name of the view of type `owned`: `FooView` for `Foo`. Underscores
/// that uniqueness or keyword escaping appended stay at the end
/// (`Self_` → `SelfView_`), where they keep the name upper camel case.
pub fn view_name(owned: &str) -> String {
    let owned = owned.trim_start_matches("r#");
    let base = owned.trim_end_matches('_');
    format!("{base}View{}", &owned[base.len()..])
}

/// Whether oneof `index` of `message` is a real one (not proto3
/// `optional`'s synthetic oneof, which has no enum).
pub fn is_real_oneof(message: &DescriptorProto, index: usize) -> bool {
    message
        .field
        .iter()
        .any(|f| f.oneof_index == Some(index as i32) && !f.proto3_optional())
}

/// tonic-build's snake case for a service's module names
/// (`naive_snake_case`): a `_` before every upper-case letter that follows
/// another character, then lower case.
fn tonic_snake_case(name: &str) -> String {
    let mut out = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c.to_ascii_lowercase());
        if chars.peek().is_some_and(|next| next.is_uppercase()) {
            out.push('_');
        }
    }
    out
}

/// The modules tonic-build generates for the service named `rust_name`:
/// the server's and the client's.
pub fn service_modules(rust_name: &str) -> [String; 2] {
    let snake = tonic_snake_case(rust_name);
    [format!("{snake}_server"), format!("{snake}_client")]
}

#[cfg(test)]
mod tests {
    use buffa::Message as _;
    use buffa_types::google::protobuf::field_descriptor_proto::Label;
    use buffa_types::google::protobuf::{
        EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
        FileDescriptorSet, MethodDescriptorProto, OneofDescriptorProto, ServiceDescriptorProto,
    };

    use buffa_types::google::protobuf::field_descriptor_proto::Type;

    use super::*;
    use crate::input::schema::RustPath;
    use crate::options::{Options, TonicOptions};

    fn message(name: &str) -> DescriptorProto {
        DescriptorProto {
            name: Some(name.into()),
            ..Default::default()
        }
    }

    fn member(
        name: &str,
        number: i32,
        oneof: i32,
        ty: Type,
        type_name: &str,
    ) -> FieldDescriptorProto {
        FieldDescriptorProto {
            name: Some(name.into()),
            number: Some(number),
            label: Some(Label::Optional),
            r#type: Some(ty),
            type_name: (!type_name.is_empty()).then(|| type_name.into()),
            oneof_index: Some(oneof),
            ..Default::default()
        }
    }

    fn service(name: &str) -> ServiceDescriptorProto {
        ServiceDescriptorProto {
            name: Some(name.into()),
            method: vec![MethodDescriptorProto {
                name: Some("Get".into()),
                input_type: Some(".p.Book".into()),
                output_type: Some(".p.Book".into()),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    /// `p.proto`: AIP-157's `Book` beside `enum BookView`; in `Book`, a
    /// nested `Chapter`, a oneof `chapter_view` (whose enum wants the
    /// name of `Chapter`'s view) and a oneof `chapter` (whose enum wants
    /// `Chapter`'s name); a message `LibraryServer` whose module a service
    /// `Library` wants, and a service `Arc`, a name tonic's server module
    /// uses. Services yield with `Service`, which keeps their modules
    /// snake case (`library_service_server`, not `library__server`).
    fn descriptor_set() -> Vec<u8> {
        let mut book = message("Book");
        book.nested_type = vec![message("Chapter")];
        book.oneof_decl = vec![
            OneofDescriptorProto {
                name: Some("chapter_view".into()),
                ..Default::default()
            },
            OneofDescriptorProto {
                name: Some("chapter".into()),
                ..Default::default()
            },
        ];
        book.field = vec![
            member("title", 1, 0, Type::String, ""),
            member("count", 2, 0, Type::Int32, ""),
            member("first", 3, 1, Type::Message, ".p.Book.Chapter"),
        ];
        let mut library = message("LibraryServer");
        library.nested_type = vec![message("Shelf")];
        let file = FileDescriptorProto {
            name: Some("p.proto".into()),
            package: Some("p".into()),
            syntax: Some("proto3".into()),
            message_type: vec![book, library],
            enum_type: vec![EnumDescriptorProto {
                name: Some("BookView".into()),
                value: vec![EnumValueDescriptorProto {
                    name: Some("BOOK_VIEW_UNSPECIFIED".into()),
                    number: Some(0),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            service: vec![service("Library"), service("Arc")],
            ..Default::default()
        };
        FileDescriptorSet {
            file: vec![file],
            ..Default::default()
        }
        .encode_to_vec()
    }

    fn local(modules: &[&str], name: &str) -> RustPath {
        RustPath::Local {
            modules: modules.iter().map(|m| m.to_string()).collect(),
            name: name.into(),
        }
    }

    /// Proto types keep their names; oneof enums, then views, then oneof
    /// view enums, then service modules yield, whatever the options.
    #[test]
    fn derived_names_yield_to_proto_names_in_a_fixed_order() {
        let set = descriptor_set();
        let options = [
            Options::default(),
            Options {
                views: true,
                json: true,
                reflection: true,
                tonic: cfg!(feature = "tonic").then(TonicOptions::default),
                ..Default::default()
            },
        ];
        for options in &options {
            let input = crate::run::Input::parse(&set, options).unwrap();
            let selection = input.select(&["p.proto"]).unwrap();
            let schema = &selection.context().schema;
            assert_eq!(schema.enums[".p.BookView"].rust, local(&["p"], "BookView"));
            let book = &schema.messages[".p.Book"];
            assert_eq!(book.rust, local(&["p"], "Book"));
            assert_eq!(book.view, local(&["p"], "BookView_"));
            assert_eq!(
                book.oneofs,
                [
                    Some(OneofNames {
                        owned: "ChapterView".into(),
                        view: Some("ChapterViewView".into()),
                    }),
                    Some(OneofNames {
                        owned: "ChapterOneof".into(),
                        view: Some("ChapterOneofView".into()),
                    }),
                ]
            );
            let chapter = &schema.messages[".p.Book.Chapter"];
            assert_eq!(chapter.rust, local(&["p", "book"], "Chapter"));
            assert_eq!(chapter.view, local(&["p", "book"], "ChapterView_"));
            assert_eq!(schema.services[".p.Library"], "LibraryService");
            assert_eq!(schema.services[".p.Arc"], "ArcService");
        }
    }

    #[test]
    fn derived_names_are_generated() {
        let options = Options {
            views: true,
            tonic: cfg!(feature = "tonic").then(TonicOptions::default),
            ..Default::default()
        };
        let files = crate::generate(&descriptor_set(), &["p.proto".into()], &options).unwrap();
        let code = &files[0].content;
        let mut items = vec![
            "pub enum BookView {",
            "pub struct BookView_<'a> {",
            "pub struct ChapterView_<'a> {",
            "pub enum ChapterView {",
            "pub enum ChapterViewView<'a> {",
            "pub enum ChapterOneof {",
            "pub enum ChapterOneofView<'a> {",
            "pub mod library_server {",
        ];
        if cfg!(feature = "tonic") {
            items.extend([
                "pub mod library_service_server {",
                "pub mod library_service_client {",
                "pub trait LibraryService:",
                "pub struct LibraryServiceClient<T> {",
                "pub mod arc_service_server {",
                "pub trait ArcService:",
            ]);
        }
        for item in items {
            assert!(code.contains(item), "{item} in\n{code}");
        }
    }

    #[test]
    fn view_names_keep_escaping_underscores_last() {
        assert_eq!(view_name("Foo"), "FooView");
        assert_eq!(view_name("Self_"), "SelfView_");
        assert_eq!(view_name("FooBar__"), "FooBarView__");
        assert_eq!(view_name("r#Match"), "MatchView");
    }

    #[test]
    fn claims_append_until_free() {
        let mut table = NameTable::default();
        let module = vec!["p".to_owned()];
        assert_eq!(table.claim(&module, "Foo".into()), "Foo");
        assert_eq!(table.claim(&module, "Foo".into()), "Foo_");
        assert_eq!(table.claim(&module, "Foo".into()), "Foo__");
        assert_eq!(table.claim_with(&module, "Foo".into(), "Oneof"), "FooOneof");
        // Modules are separate.
        assert_eq!(table.claim(&[], "Foo".into()), "Foo");
        assert!(table.is_taken(&module, "Foo__"));
        assert!(!table.is_taken(&module, "Bar"));
    }

    #[test]
    fn service_modules_follow_tonic() {
        assert_eq!(
            service_modules("Greeter"),
            ["greeter_server", "greeter_client"]
        );
        assert_eq!(
            service_modules("HttpServiceService"),
            ["http_service_service_server", "http_service_service_client"]
        );
        assert_eq!(tonic_snake_case("A1B"), "a1_b");
    }
}
