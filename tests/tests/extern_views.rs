//! Views of messages whose fields are of another build's types
//! (`extern_path`): `ext.user.Shape` holds `ext.base.Point`s, generated in
//! a separate run with views. The encoding comes from protoc.

mod common;

use buffa::{HasView, Message, MessageView};
use buffa_tests::extern_base::ext::base::{Point, PointView};
use buffa_tests::extern_user::ext::user::{Shape, ShapeView, shape};
use common::{local_protos, protoc_encode_in};

const SHAPE: &str = r#"
origin { x: 7 label: "o" }
points { x: 1 label: "a" }
points { x: -2 }
picked { label: "p" }
by_name { key: "k" value { x: 3 } }
"#;

fn encoded() -> Vec<u8> {
    protoc_encode_in(
        &local_protos().join("extern"),
        "user.proto",
        "ext.user.Shape",
        SHAPE,
    )
}

#[test]
fn extern_sub_views_read_like_the_owned_message() {
    let bytes = encoded();
    let view = ShapeView::decode_view(&bytes).expect("view decodes");
    assert_eq!((view.origin.x, view.origin.label), (7, "o"));
    let points: Vec<(i32, &str)> = view.points.iter().map(|p| (p.x, p.label)).collect();
    assert_eq!(points, [(1, "a"), (-2, "")]);
    match &view.pick {
        Some(shape::PickView::Picked(point)) => assert_eq!(point.label, "p"),
        other => panic!("pick: {other:?}"),
    }
    assert_eq!(view.by_name.get(&"k").map(|p| p.x), Some(3));

    let owned = Shape::decode_from_slice(&bytes).expect("owned decodes");
    assert_eq!(view.to_owned_message().expect("converts"), owned);
    assert_eq!(view.encode_to_vec(), owned.encode_to_vec());
}

#[test]
fn an_unset_extern_sub_view_reads_as_the_default() {
    let view = ShapeView::decode_view(&[]).expect("empty decodes");
    assert!(!view.origin.is_set());
    assert_eq!((view.origin.x, view.origin.label), (0, ""));
    // The view type is the one generated beside the extern owned type.
    let _: &<Point as HasView>::View<'_> = &view.origin;
    let _: &PointView<'_> = &view.origin;
}
