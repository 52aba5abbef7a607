//! The generated archive types, and a document to read.

#[allow(missing_docs, clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/mod.rs"));
}

pub use generated::archive;

use buffa::Message;

/// An encoded document whose body holds `sections` sections of about 1 KB.
pub fn document_bytes(sections: usize) -> Vec<u8> {
    let body = archive::Body {
        sections: (0..sections)
            .map(|i| archive::Section {
                heading: format!("Section {i}"),
                text: "lorem ipsum ".repeat(85),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    archive::Document {
        title: "Annual report".to_owned(),
        revision: 7,
        body: body.into(),
        ..Default::default()
    }
    .encode_to_vec()
}
