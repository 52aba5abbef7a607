//! Prints the size of the generated structs in each pointer layout and
//! round-trips a mesh, a bounding volume hierarchy and a scene graph
//! through both. `cargo run -p pointers`.

use std::mem::size_of;

use buffa::Message;
use pointers::small_box::SmallBox;
use pointers::{boxed, bvh_bytes, inline, mesh_bytes, scene_bytes};

fn main() -> Result<(), buffa::DecodeError> {
    println!("size_of, in bytes       boxed   inline");
    let row = |name: &str, boxed: usize, inline: usize| {
        println!("{name:<22} {boxed:>6}   {inline:>6}");
    };
    row(
        "geometry.Vector3",
        size_of::<boxed::geometry::Vector3>(),
        size_of::<inline::geometry::Vector3>(),
    );
    row(
        "geometry.Triangle",
        size_of::<boxed::geometry::Triangle>(),
        size_of::<inline::geometry::Triangle>(),
    );
    row(
        "geometry.Bounds",
        size_of::<boxed::geometry::Bounds>(),
        size_of::<inline::geometry::Bounds>(),
    );
    row(
        "geometry.Bvh",
        size_of::<boxed::geometry::Bvh>(),
        size_of::<inline::geometry::Bvh>(),
    );
    row(
        "geometry.Mesh",
        size_of::<boxed::geometry::Mesh>(),
        size_of::<inline::geometry::Mesh>(),
    );
    row(
        "scene.Transform",
        size_of::<boxed::scene::Transform>(),
        size_of::<inline::scene::Transform>(),
    );
    row(
        "scene.Attachment",
        size_of::<boxed::scene::Attachment>(),
        size_of::<inline::scene::Attachment>(),
    );
    row(
        "scene.Node",
        size_of::<boxed::scene::Node>(),
        size_of::<inline::scene::Node>(),
    );
    println!();

    // A mesh: every triangle's vertices are in place in the inline layout.
    let bytes = mesh_bytes(1_000);
    let boxed_mesh = boxed::geometry::Mesh::decode_from_slice(&bytes)?;
    let inline_mesh = inline::geometry::Mesh::decode_from_slice(&bytes)?;
    assert_eq!(boxed_mesh.encode_to_vec(), bytes);
    assert_eq!(inline_mesh.encode_to_vec(), bytes);
    println!(
        "mesh: {} triangles, {} bytes; triangle 10 v2 = ({}, {}, {}) in both layouts",
        inline_mesh.triangles.len(),
        bytes.len(),
        inline_mesh.triangles[10].v2.x,
        inline_mesh.triangles[10].v2.y,
        boxed_mesh.triangles[10].v2.z,
    );

    // A recursive tree: `Bvh.left`/`right` stay boxed even in the inline
    // layout, `Bvh.bounds` is inline there.
    let bytes = bvh_bytes(8);
    let tree = inline::geometry::Bvh::decode_from_slice(&bytes)?;
    assert_eq!(tree.encode_to_vec(), bytes);
    let mut depth = 0;
    let mut node = &tree;
    while let Some(left) = node.left.as_option() {
        depth += 1;
        node = left;
    }
    println!(
        "bvh: {} bytes, {} levels, leftmost leaf holds triangle {}",
        bytes.len(),
        depth + 1,
        node.triangles[0]
    );

    // A scene graph whose links and attachments use the custom SmallBox.
    let bytes = scene_bytes(30);
    let before = SmallBox::<()>::live();
    let scene = inline::scene::Node::decode_from_slice(&bytes)?;
    assert_eq!(scene.encode_to_vec(), bytes);
    println!(
        "scene: {} bytes decode into {} SmallBoxes (30 children, 30 grandchildren, 10 attachments)",
        bytes.len(),
        SmallBox::<()>::live() - before
    );
    drop(scene);
    println!(
        "scene dropped: {} SmallBoxes left",
        SmallBox::<()>::live() - before
    );
    Ok(())
}
