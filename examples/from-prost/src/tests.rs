//! The two versions agree byte for byte and read each other's output; and
//! the guide's quotes of `lib.rs` are still in it.

use std::time::{Duration, SystemTime};

use crate::{buffa_version, prost_version};

fn later() -> SystemTime {
    crate::sample_time() + Duration::from_secs(60)
}

#[test]
fn both_write_the_same_bytes() {
    let bytes = prost_version::encode(&prost_version::new_item());
    assert_eq!(buffa_version::encode(&buffa_version::new_item()), bytes);

    let mut old = prost_version::new_item();
    prost_version::restock(&mut old, 2, later());
    let mut new = buffa_version::new_item();
    buffa_version::restock(&mut new, 2, later());
    assert_eq!(buffa_version::encode(&new), prost_version::encode(&old));
}

#[test]
fn each_reads_the_others_bytes() {
    use buffa::Message as _;
    use prost::Message as _;

    let from_prost = prost_version::encode(&prost_version::new_item());
    let read = buffa_version::inventory::Item::decode_from_slice(&from_prost).unwrap();
    assert_eq!(read, buffa_version::new_item());
    assert!(read.unknown_fields.is_empty());

    let from_buffa = buffa_version::encode(&buffa_version::new_item());
    let read = prost_version::inventory::Item::decode(&from_buffa[..]).unwrap();
    assert_eq!(read, prost_version::new_item());
}

#[test]
fn both_describe_the_item_alike() {
    let expected = "A-100 x3 STATUS_BACKORDERED 12.99 at sale < clothes (updated 1700000000)";
    let bytes = prost_version::encode(&prost_version::new_item());
    assert_eq!(prost_version::describe(&bytes).unwrap(), expected);
    assert_eq!(buffa_version::describe(&bytes).unwrap(), expected);

    let mut item = buffa_version::new_item();
    buffa_version::restock(&mut item, 2, later());
    let bytes = buffa_version::encode(&item);
    let expected = "A-100 x5 STATUS_IN_STOCK 12.99 at sale < clothes (updated 1700000060)";
    assert_eq!(prost_version::describe(&bytes).unwrap(), expected);
    assert_eq!(buffa_version::describe(&bytes).unwrap(), expected);

    // Truncated input is an error for both.
    let cut = &bytes[..bytes.len() - 1];
    assert!(prost_version::describe(cut).is_err());
    assert!(buffa_version::describe(cut).is_err());
}

#[test]
fn unknown_fields_survive_in_buffa_only() {
    use buffa::Message as _;
    use prost::Message as _;

    // A field a newer schema added: number 99, varint 5.
    let mut bytes = prost_version::encode(&prost_version::new_item());
    let extra = [0x98, 0x06, 5];
    bytes.extend_from_slice(&extra);

    let old = prost_version::inventory::Item::decode(&bytes[..]).unwrap();
    assert!(!old.encode_to_vec().ends_with(&extra));
    let new = buffa_version::inventory::Item::decode_from_slice(&bytes).unwrap();
    assert_eq!(new.unknown_fields.iter().count(), 1);
    assert_eq!(new.encode_to_vec(), bytes);
}

#[test]
fn unknown_enum_numbers_are_kept_by_both() {
    use buffa::Message as _;
    use prost::Message as _;

    // status = 7, a number the schema does not declare.
    let bytes = [0x20, 7];
    let old = prost_version::inventory::Item::decode(&bytes[..]).unwrap();
    assert_eq!(old.status, 7);
    assert_eq!(old.status(), prost_version::inventory::Status::Unspecified);
    let new = buffa_version::inventory::Item::decode_from_slice(&bytes).unwrap();
    assert_eq!(new.status, buffa::EnumValue::Unknown(7));
    assert_eq!(new.encode_to_vec(), old.encode_to_vec());
}

/// Every Rust block of the guide that follows the marker line is a
/// verbatim (indentation aside) excerpt of `lib.rs` or `build.rs`.
#[test]
fn the_guide_quotes_this_crate() {
    let root = env!("CARGO_MANIFEST_DIR");
    let guide = std::fs::read_to_string(format!("{root}/../../docs/migrating-from-prost.md"))
        .expect("docs/migrating-from-prost.md");
    let normalize = |text: &str| -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let mut quotes = 0;
    for (marker, file) in [
        (
            "<!-- quoted from examples/from-prost/src/lib.rs -->",
            "src/lib.rs",
        ),
        (
            "<!-- quoted from examples/from-prost/build.rs -->",
            "build.rs",
        ),
    ] {
        let source = normalize(&std::fs::read_to_string(format!("{root}/{file}")).unwrap());
        for block in guide.split(marker).skip(1) {
            let code = block
                .split_once("```rust\n")
                .and_then(|(_, rest)| rest.split_once("```"))
                .map(|(code, _)| code)
                .expect("a rust block after the marker");
            let lines = normalize(code);
            assert!(
                source.windows(lines.len()).any(|window| window == lines),
                "the guide quotes lines that {file} does not hold in that order:\n{code}"
            );
            quotes += 1;
        }
    }
    assert!(quotes >= 4, "only {quotes} quotes found");
}
