//! Reads the title of a 1 MB document three ways: the owned message, an
//! eager view and the lazy view, and then the body through the lazy view.
//! `cargo run -p lazy`.

use std::time::Instant;

use buffa::{Message, MessageView};
use lazy::archive::{Document, DocumentView};
use lazy::document_bytes;

fn main() -> Result<(), buffa::DecodeError> {
    let bytes = document_bytes(1000);
    println!("document: {} bytes", bytes.len());

    let start = Instant::now();
    let owned = Document::decode_from_slice(&bytes)?;
    println!(
        "owned decode:   title {:?} in {:?}",
        owned.title,
        start.elapsed()
    );

    // The view copies nothing: the title is a slice of `bytes`, and the
    // body is a slice too, decoded only when read.
    let start = Instant::now();
    let view = DocumentView::decode_view(&bytes)?;
    println!(
        "lazy view:      title {:?} in {:?}",
        view.title,
        start.elapsed()
    );
    assert!(bytes.as_ptr_range().contains(&view.title.as_ptr()));

    let start = Instant::now();
    let body = view.body.get()?;
    let first = body.sections.first().map(|section| section.heading);
    println!(
        "body on demand: {} sections, the first {:?}, in {:?}",
        body.sections.len(),
        first,
        start.elapsed()
    );

    // The view converts to the owned message and encodes to its bytes.
    assert_eq!(view.to_owned_message()?, owned);
    assert_eq!(view.encode_to_vec(), bytes);
    println!("the view converts to the owned message and re-encodes byte for byte");
    Ok(())
}
