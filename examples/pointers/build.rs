//! Compiles the same protos twice, into two module trees under `OUT_DIR`:
//!
//! - `boxed/`: the default layout, every sub-message behind a `Box`;
//! - `inline/`: `unbox_message_fields()`, so sub-messages live in place
//!   (recursive fields such as `Bvh.left` stay boxed on their own), plus a
//!   custom pointer, `crate::small_box::SmallBox`, for the scene graph's
//!   links and its rarely set, comparatively large attachment.

use std::path::PathBuf;

const FILES: &[&str] = &["proto/geometry.proto", "proto/scene.proto"];

fn main() {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set"));

    buffa_build::Config::new()
        .files(FILES)
        .includes(&["proto"])
        .out_dir(out_dir.join("boxed"))
        .include_file("mod.rs")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));

    buffa_build::Config::new()
        .files(FILES)
        .includes(&["proto"])
        .out_dir(out_dir.join("inline"))
        .include_file("mod.rs")
        // Everything in place that can be...
        .unbox_message_fields()
        // ...except these, added later and therefore winning: the recursive
        // links (which could not be inline anyway) and the attachment.
        .box_type_custom_in(
            "crate::small_box::SmallBox<*>",
            &[
                ".scene.Node.first_child",
                ".scene.Node.next_sibling",
                ".scene.Node.attachment",
            ],
        )
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
}
