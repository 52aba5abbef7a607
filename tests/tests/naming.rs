//! The naming protos (`proto/naming`): schemas whose derived items (views,
//! oneof enums and their views, nested-type modules, services' modules and
//! traits, extension constants) would share a Rust name with another item.
//! Proto types keep their names and derived items yield, in the order of
//! buffa-codegen's `names.rs`, whatever the options: the three runs below
//! (plain; views and JSON; lazy views, JSON, reflection and tonic) all
//! generate and compile, and name everything alike. Messages go through
//! their views against protoc's encoder and decoder, and
//! `reader/reader.proto` holds `naming`'s views as an extern package's.

mod common;

use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use buffa::{ExtendableMessage, HasView, Message, MessageView};
use common::{protoc_decode_in, protoc_encode_in};
use tonic::{Request, Response, Status};

#[allow(dead_code, clippy::all)]
mod naming_plain {
    include!(concat!(env!("OUT_DIR"), "/naming_plain/include.rs"));
}

#[allow(dead_code, clippy::all)]
mod naming_views {
    include!(concat!(env!("OUT_DIR"), "/naming_views/include.rs"));
}

#[allow(dead_code, clippy::all)]
mod naming_all {
    include!(concat!(env!("OUT_DIR"), "/naming_all/include.rs"));
}

#[allow(dead_code, clippy::all)]
mod naming_reader {
    include!(concat!(env!("OUT_DIR"), "/naming_reader/include.rs"));
}

use naming_views::naming as v;

fn naming_protos() -> PathBuf {
    common::local_protos().join("naming")
}

/// `text` encoded by protoc as `message_type` of `file`.
fn encode(file: &str, message_type: &str, text: &str) -> Vec<u8> {
    protoc_encode_in(&naming_protos(), file, message_type, text)
}

/// The view of `bytes` converts to the owned decode and encodes back to
/// `bytes` (protoc's encoding, in field-number order). Returns the owned
/// message.
fn through_view<M: HasView + PartialEq + std::fmt::Debug>(bytes: &[u8]) -> M {
    let owned = M::decode_from_slice(bytes).unwrap();
    let view = buffa::view_of::<M>(bytes).unwrap();
    assert_eq!(view.to_owned_message().unwrap(), owned);
    assert_eq!(view.encode_to_vec(), bytes);
    owned
}

/// The owned types, oneof enums, modules and extension constants of every
/// run, by the same names: proto types keep theirs (`BookView`,
/// `ChoiceView`, `FooBar` for `foo_bar`), derived items yield.
macro_rules! same_names_in {
    ($($run:ident),*) => {$({
        use $run::naming as n;
        let _ = n::Book { view: n::BookView::Full.into(), ..Default::default() };
        let _ = n::FooBar::default().a;
        let mut upper = n::FooBar_::default();
        upper.other.set(n::FooBar::default());
        let _ = n::PageView::default().number;
        let _ = n::volume::ChapterView::default().words;
        let _ = n::novel::ChapterView::Summary(String::new());
        let _ = n::anthology::StoryOneof::Title(String::new());
        let _ = n::anthology::Count::Stories(1);
        let _ = n::anthology::StoryOneofView::Id(1);
        let _ = n::catalog::Choice::Name(String::new());
        let _ = n::catalog::ChoiceView::default().n;
        let _ = n::shelf_::Slot::default().index;
        let _ = n::shelf::Card::default().label;
        let _ = n::library_client::Card::default().label;
        let _ = n::shelves_server::Rack::default().id;
        // Extension constants that share a name take underscores, and
        // `FILE_DESCRIPTOR_SET` is left to reflection in every run.
        let constants = [
            (n::BOOK_MARK.number(), n::BOOK_MARK.full_name()),
            (n::BOOK_MARK_.number(), n::BOOK_MARK_.full_name()),
            (n::FILE_DESCRIPTOR_SET_.number(), n::FILE_DESCRIPTOR_SET_.full_name()),
            (n::scope::BOOK_MARK.number(), n::scope::BOOK_MARK.full_name()),
            (n::scope::BOOK_MARK_.number(), n::scope::BOOK_MARK_.full_name()),
        ];
        assert_eq!(
            constants,
            [
                (100, "naming.book_mark"),
                (101, "naming.BookMark"),
                (102, "naming.file_descriptor_set"),
                (110, "naming.Scope.book_mark"),
                (111, "naming.Scope.BookMark"),
            ]
        );
    })*};
}

#[test]
fn every_run_names_alike() {
    same_names_in!(naming_plain, naming_views, naming_all);
}

#[test]
fn a_message_beside_its_aip_157_view_enum_has_the_view_bookview_() {
    let bytes = encode(
        "books.proto",
        "naming.Book",
        r#"title: "Dune" view: BOOK_VIEW_FULL authors: "Frank Herbert""#,
    );
    let view = v::BookView_::decode_view(&bytes).unwrap();
    assert_eq!(view.title, "Dune");
    assert_eq!(view.view, v::BookView::Full);
    assert_eq!(view.authors, ["Frank Herbert"]);
    let owned = through_view::<v::Book>(&bytes);
    assert_eq!(
        through_view::<naming_all::naming::Book>(&bytes).title,
        owned.title
    );

    // Messages named like views: `Page`'s view is `PageView_`, and
    // `PageView`'s `PageViewView`.
    let bytes = encode("books.proto", "naming.Page", r#"text: "one""#);
    assert_eq!(v::PageView_::decode_view(&bytes).unwrap().text, "one");
    let bytes = encode("books.proto", "naming.PageView", "number: 7");
    assert_eq!(v::PageViewView::decode_view(&bytes).unwrap().number, 7);
}

#[test]
fn nested_views_and_oneof_views_take_the_yielded_names() {
    // `Volume`: nested `ChapterView` beside nested `Chapter`.
    let bytes = encode(
        "books.proto",
        "naming.Volume",
        r#"chapter { text: "c" } chapter_view { words: 3 } page { text: "p" }"#,
    );
    let view = v::VolumeView::decode_view(&bytes).unwrap();
    let chapter: &v::volume::ChapterView_<'_> = &view.chapter;
    let chapter_view: &v::volume::ChapterViewView<'_> = &view.chapter_view;
    let page: &v::PageView_<'_> = &view.page;
    assert_eq!((chapter.text, chapter_view.words, page.text), ("c", 3, "p"));
    through_view::<v::Volume>(&bytes);
    through_view::<naming_all::naming::Volume>(&bytes);

    // `Novel`: oneof `chapter_view` beside nested `Chapter`.
    let bytes = encode("books.proto", "naming.Novel", r#"first { text: "It was" }"#);
    let view = v::NovelView::decode_view(&bytes).unwrap();
    let Some(v::novel::ChapterViewView::First(v::novel::ChapterView_ { text, .. })) =
        view.chapter_view
    else {
        panic!("{view:?}");
    };
    assert_eq!(text, "It was");
    through_view::<v::Novel>(&bytes);
    through_view::<naming_all::naming::Novel>(&bytes);

    // `Anthology`: oneof `story` beside nested `Story`, a oneof of numbers
    // and a oneof whose enum took `StoryOneofView` first.
    let bytes = encode(
        "books.proto",
        "naming.Anthology",
        r#"title: "Tales" stories: 3 id: 9"#,
    );
    let view = v::AnthologyView::decode_view(&bytes).unwrap();
    assert_eq!(
        view.story,
        Some(v::anthology::StoryOneofView_::Title("Tales"))
    );
    assert_eq!(view.count, Some(v::anthology::Count::Stories(3)));
    assert_eq!(
        view.story_oneof_view,
        Some(v::anthology::StoryOneofView::Id(9))
    );
    through_view::<v::Anthology>(&bytes);
    through_view::<naming_all::naming::Anthology>(&bytes);

    // `Catalog`: nested `ChoiceView` beside oneof `choice`.
    let bytes = encode("books.proto", "naming.Catalog", "picked { n: 4 }");
    let view = v::CatalogView::decode_view(&bytes).unwrap();
    let Some(v::catalog::ChoiceView_::Picked(picked)) = &view.choice else {
        panic!("{view:?}");
    };
    let picked: &v::catalog::ChoiceViewView<'_> = picked;
    assert_eq!(picked.n, 4);
    through_view::<v::Catalog>(&bytes);
    through_view::<naming_all::naming::Catalog>(&bytes);

    // `foo_bar` and `FooBar`: `FooBar` and `FooBar_`, viewed by `FooBarView`
    // and `FooBarView_`; `Shelf`'s module is `shelf_`, beside package
    // `naming.shelf`.
    let bytes = encode(
        "books.proto",
        "naming.FooBar",
        r#"b: "upper" other { a: "lower" }"#,
    );
    let view = v::FooBarView_::decode_view(&bytes).unwrap();
    let other: &v::FooBarView<'_> = &view.other;
    assert_eq!((view.b, other.a), ("upper", "lower"));
    through_view::<v::FooBar_>(&bytes);
    let bytes = encode(
        "books.proto",
        "naming.Shelf",
        r#"slots { index: 2 } books { key: "k" value { title: "t" } }"#,
    );
    let view = v::ShelfView::decode_view(&bytes).unwrap();
    let slot: v::shelf_::SlotView<'_> = view.slots.get(0).unwrap();
    assert_eq!(slot.index, 2);
    through_view::<v::Shelf>(&bytes);
    through_view::<naming_all::naming::Shelf>(&bytes);
}

#[test]
fn extensions_that_share_a_name_stay_apart() {
    let mut host = v::Host::default();
    host.set_extension(&v::BOOK_MARK, 5);
    host.set_extension(&v::BOOK_MARK_, "mark".to_owned());
    host.set_extension(&v::FILE_DESCRIPTOR_SET_, b"set".to_vec());
    host.set_extension(&v::scope::BOOK_MARK, 6);
    host.set_extension(&v::scope::BOOK_MARK_, 7);
    let text = protoc_decode_in(
        &naming_protos(),
        "extensions.proto",
        "naming.Host",
        &host.encode_to_vec(),
    );
    for line in [
        "[naming.book_mark]: 5",
        "[naming.BookMark]: \"mark\"",
        "[naming.file_descriptor_set]: \"set\"",
        "[naming.Scope.book_mark]: 6",
        "[naming.Scope.BookMark]: 7",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    assert_eq!(
        host.extension(&v::BOOK_MARK_).unwrap().as_deref(),
        Some("mark")
    );
    assert_eq!(host.extension(&v::scope::BOOK_MARK).unwrap(), Some(6));
}

/// With reflection, `FILE_DESCRIPTOR_SET` is the run's descriptors, beside
/// the extension constant `FILE_DESCRIPTOR_SET_`.
#[test]
fn reflection_keeps_file_descriptor_set() {
    use buffa_types::google::protobuf::FileDescriptorSet;

    let set =
        FileDescriptorSet::decode_from_slice(naming_all::naming::FILE_DESCRIPTOR_SET).unwrap();
    let files: Vec<&str> = set
        .file
        .iter()
        .map(|f| f.name.as_deref().unwrap())
        .collect();
    assert!(files.contains(&"extensions.proto"), "{files:?}");
    assert_eq!(naming_all::naming::FILE_DESCRIPTOR_SET_.number(), 102);
}

/// `reader.Reading` holds `naming`'s types, extern here: its view holds
/// their views under the names the `naming_views` run resolved.
#[test]
fn extern_views_are_named_as_their_run_named_them() {
    let bytes = encode(
        "reader/reader.proto",
        "reader.Reading",
        r#"book { title: "Dune" } chapter { text: "c" } upper { b: "B" }
           lower { a: "A" } view: BOOK_VIEW_BASIC novels { first { text: "n" } }"#,
    );
    let view = naming_reader::reader::ReadingView::decode_view(&bytes).unwrap();
    let book: &v::BookView_<'_> = &view.book;
    let chapter: &v::volume::ChapterView_<'_> = &view.chapter;
    let upper: &v::FooBarView_<'_> = &view.upper;
    let lower: &v::FooBarView<'_> = &view.lower;
    assert_eq!(
        (book.title, chapter.text, upper.b, lower.a),
        ("Dune", "c", "B", "A")
    );
    assert_eq!(view.view, v::BookView::Basic);
    through_view::<naming_reader::reader::Reading>(&bytes);
}

/// `future`, failed after five seconds so that a test cannot hang.
async fn within<F: Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(5), future)
        .await
        .expect("timed out after 5 s")
}

mod services {
    pub use super::naming_all::naming::context_service_server::ContextService;
    pub use super::naming_all::naming::library_service_client::LibraryServiceClient;
    pub use super::naming_all::naming::library_service_server::{
        LibraryService, LibraryServiceServer,
    };
    pub use super::naming_all::naming::shelves_service_server::ShelvesService;
    pub use super::naming_all::naming::{Book, Page, PageView, Shelf};
}

/// Replies to each rpc with a book titled by the Rust method that served
/// it.
struct Librarian;

fn titled(title: &str) -> services::Book {
    services::Book {
        title: title.to_owned(),
        ..Default::default()
    }
}

#[tonic::async_trait]
impl services::LibraryService for Librarian {
    async fn get_book(
        &self,
        _: Request<services::Book>,
    ) -> Result<Response<services::Book>, Status> {
        Ok(Response::new(titled("get_book")))
    }

    async fn get_book_(
        &self,
        _: Request<services::Book>,
    ) -> Result<Response<services::Book>, Status> {
        Ok(Response::new(titled("get_book_")))
    }

    async fn connect_(
        &self,
        _: Request<services::Book>,
    ) -> Result<Response<services::Book>, Status> {
        Ok(Response::new(titled("connect_")))
    }
}

// Services named like a module already taken (`ShelvesService`) and like a
// name tonic's server module uses (`ContextService`).
#[tonic::async_trait]
impl services::ShelvesService for Librarian {
    async fn get(
        &self,
        request: Request<services::Shelf>,
    ) -> Result<Response<services::Shelf>, Status> {
        Ok(Response::new(request.into_inner()))
    }
}

#[tonic::async_trait]
impl services::ContextService for Librarian {
    async fn describe(
        &self,
        _: Request<services::Page>,
    ) -> Result<Response<services::PageView>, Status> {
        Ok(Response::new(services::PageView::default()))
    }
}

/// `rpc GetBook` and `rpc get_book` are `get_book` and `get_book_`, each
/// on its own route.
#[tokio::test]
async fn rpcs_that_share_a_rust_name_keep_their_routes() {
    within(async {
        let mut client =
            services::LibraryServiceClient::new(services::LibraryServiceServer::new(Librarian));
        for (reply, expected) in [
            (client.get_book(titled("")).await, "get_book"),
            (client.get_book_(titled("")).await, "get_book_"),
            (client.connect_(titled("")).await, "connect_"),
        ] {
            assert_eq!(reply.unwrap().into_inner().title, expected);
        }
    })
    .await;
}
