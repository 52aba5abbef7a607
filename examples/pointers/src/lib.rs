//! The same protos (`proto/geometry.proto`, `proto/scene.proto`) compiled
//! in two pointer layouts, to compare them:
//!
//! - [`boxed`]: the default; every singular sub-message is a
//!   `MessageField<T>`, i.e. behind a `Box<T>`.
//! - [`inline`]: built with `unbox_message_fields()`; sub-messages are
//!   `MessageField<T, Inline<T>>`, stored in place, except recursive fields
//!   (`Bvh.left`, `Bvh.right`), which stay boxed, and the scene graph's
//!   links and attachment, which use the custom [`small_box::SmallBox`].
//!
//! See `build.rs` for the configuration and `docs/pointer-layout.md` in the
//! repository for the trade-offs.

pub mod small_box;

/// Default layout: every sub-message boxed.
pub mod boxed {
    include!(concat!(env!("OUT_DIR"), "/boxed/mod.rs"));
}

/// `unbox_message_fields()` layout, with `SmallBox` for the scene links.
pub mod inline {
    include!(concat!(env!("OUT_DIR"), "/inline/mod.rs"));
}

use buffa::Message;

/// An encoded mesh of `triangles` triangles (with every vertex and normal
/// set), identical in both layouts.
pub fn mesh_bytes(triangles: usize) -> Vec<u8> {
    use inline::geometry::{Mesh, Triangle, Vector3};
    let vector = |i: usize, k: f32| Vector3 {
        x: i as f32 + k,
        y: k,
        z: -(i as f32),
        ..Default::default()
    };
    let mesh = Mesh {
        name: "grid".into(),
        triangles: (0..triangles)
            .map(|i| Triangle {
                v0: vector(i, 0.0).into(),
                v1: vector(i, 1.0).into(),
                v2: vector(i, 2.0).into(),
                normal: vector(0, 1.0).into(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    mesh.encode_to_vec()
}

/// An encoded bounding volume hierarchy: a complete binary tree of
/// `depth` levels whose leaves list one triangle each.
pub fn bvh_bytes(depth: u32) -> Vec<u8> {
    use inline::geometry::{Bounds, Bvh, Vector3};
    fn build(depth: u32, first: u32) -> Bvh {
        let width = 1u32 << depth;
        let mut node = Bvh {
            bounds: Bounds {
                min: Vector3 {
                    x: first as f32,
                    ..Default::default()
                }
                .into(),
                max: Vector3 {
                    x: (first + width) as f32,
                    y: 1.0,
                    z: 1.0,
                    ..Default::default()
                }
                .into(),
                ..Default::default()
            }
            .into(),
            ..Default::default()
        };
        if depth == 0 {
            node.triangles.push(first);
        } else {
            node.left.set(build(depth - 1, first));
            node.right.set(build(depth - 1, first + width / 2));
        }
        node
    }
    build(depth, 0).encode_to_vec()
}

/// An encoded scene graph: a root with `children` children, each with one
/// grandchild; every third child carries a mesh attachment.
pub fn scene_bytes(children: usize) -> Vec<u8> {
    use inline::scene::{Attachment, Node, attachment::Kind};
    let mut root = Node {
        name: "root".into(),
        ..Default::default()
    };
    // Build the sibling chain back to front.
    let mut next: Option<Node> = None;
    for i in (0..children).rev() {
        let mut child = Node {
            name: format!("child {i}"),
            ..Default::default()
        };
        child
            .transform
            .get_or_insert_default()
            .scale
            .get_or_insert_default()
            .x = 2.0;
        child.first_child.set(Node {
            name: format!("grandchild {i}"),
            ..Default::default()
        });
        if i % 3 == 0 {
            let mesh = buffa::Message::decode_from_slice(&mesh_bytes(2)).expect("valid mesh");
            child.attachment.set(Attachment {
                kind: Some(Kind::Mesh(Box::new(mesh))),
                ..Default::default()
            });
        }
        if let Some(next) = next.take() {
            child.next_sibling.set(next);
        }
        next = Some(child);
    }
    if let Some(first) = next {
        root.first_child.set(first);
    }
    root.encode_to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use buffa::{Inline, MessageField};

    #[test]
    fn inline_round_trip() {
        use inline::geometry::{Mesh, Vector3};
        let bytes = mesh_bytes(100);
        let mesh = Mesh::decode_from_slice(&bytes).unwrap();
        // The fields really are inline.
        let v0: &MessageField<Vector3, Inline<Vector3>> = &mesh.triangles[7].v0;
        assert_eq!(v0.x, 7.0);
        assert_eq!(mesh.triangles[7].v2.y, 2.0);
        assert!(mesh.triangles[7].normal.is_set());
        assert!(!mesh.bounds.is_set());
        assert_eq!(mesh.encode_to_vec(), bytes);

        // Both layouts read and write the same bytes.
        let boxed = boxed::geometry::Mesh::decode_from_slice(&bytes).unwrap();
        let v0: &MessageField<boxed::geometry::Vector3> = &boxed.triangles[7].v0;
        assert_eq!(v0.x, 7.0);
        assert_eq!(boxed.encode_to_vec(), bytes);
    }

    #[test]
    fn recursive_tree_round_trip() {
        let bytes = bvh_bytes(6);
        for_both_layouts(&bytes);

        fn for_both_layouts(bytes: &[u8]) {
            let tree = inline::geometry::Bvh::decode_from_slice(bytes).unwrap();
            // Recursive links stay boxed under unbox_message_fields(); the
            // non-recursive bounds are inline.
            let left: &MessageField<inline::geometry::Bvh> = &tree.left;
            let _: &MessageField<inline::geometry::Bounds, Inline<inline::geometry::Bounds>> =
                &tree.bounds;
            assert_eq!(depth_inline(left) + 1, 7);
            assert_eq!(leftmost_leaf(&tree.right), 32);
            assert_eq!(tree.encode_to_vec(), bytes);

            let tree = boxed::geometry::Bvh::decode_from_slice(bytes).unwrap();
            assert_eq!(tree.right.right.right.bounds.max.x, 64.0);
            assert_eq!(tree.encode_to_vec(), bytes);
        }

        fn depth_inline(node: &MessageField<inline::geometry::Bvh>) -> usize {
            match node.as_option() {
                None => 0,
                Some(node) => 1 + depth_inline(&node.left).max(depth_inline(&node.right)),
            }
        }

        fn leftmost_leaf(node: &inline::geometry::Bvh) -> u32 {
            match node.left.as_option() {
                Some(left) => leftmost_leaf(left),
                None => node.triangles[0],
            }
        }
    }

    /// The only test in this binary that creates `SmallBox`es, so that the
    /// global live count is its own.
    #[test]
    fn custom_pointer_round_trip() {
        use inline::scene::{Node, attachment::Kind};
        use small_box::SmallBox;

        let before = SmallBox::<()>::live();
        let bytes = scene_bytes(9);
        assert_eq!(SmallBox::<()>::live(), before, "temporaries are gone");

        let scene = Node::decode_from_slice(&bytes).unwrap();
        let first: &MessageField<Node, SmallBox<Node>> = &scene.first_child;
        // 9 children (1 first_child + 8 next_sibling), 9 grandchildren and
        // 3 attachments.
        assert_eq!(SmallBox::<()>::live() - before, 9 + 9 + 3);
        assert_eq!(first.name, "child 0");
        assert_eq!(first.first_child.name, "grandchild 0");
        assert_eq!(first.transform.scale.x, 2.0);
        let Some(Kind::Mesh(mesh)) = &first.attachment.kind else {
            panic!("child 0 has a mesh");
        };
        assert_eq!(mesh.triangles.len(), 2);
        let mut count = 0;
        let mut child = scene.first_child.as_option();
        while let Some(node) = child {
            count += 1;
            child = node.next_sibling.as_option();
        }
        assert_eq!(count, 9);
        assert_eq!(scene.encode_to_vec(), bytes);

        let copy = scene.clone();
        assert_eq!(SmallBox::<()>::live() - before, 2 * 21);
        assert_eq!(copy, scene);
        drop((copy, scene));
        assert_eq!(SmallBox::<()>::live(), before);

        // The same bytes in the boxed layout.
        let scene = boxed::scene::Node::decode_from_slice(&bytes).unwrap();
        assert_eq!(scene.first_child.next_sibling.name, "child 1");
        assert_eq!(scene.encode_to_vec(), bytes);
    }
}
