//! The allocation budget of `DecodeOptions` against generated code: a boxed
//! oneof variant is charged its size, like any other heap allocation
//! decoding makes (`proto/limits/limits.proto`).

use std::mem::size_of;

use buffa::{DecodeErrorKind, DecodeOptions, Message};
use buffa_tests::limits::limits::{Big, Row, Rows, row};

const ROWS: usize = 1_000;

/// `ROWS` rows, each holding an empty `big`: `rows { big { } }` is
/// `0a 02 0a 00`, four bytes of input per `Row` and `Big`.
fn input() -> Vec<u8> {
    [0x0a, 0x02, 0x0a, 0x00].repeat(ROWS)
}

fn decode(limit: usize) -> Result<Rows, buffa::DecodeError> {
    Rows::decode_with_options(
        &input(),
        &DecodeOptions::new().with_allocation_limit(Some(limit)),
    )
}

#[test]
fn boxed_oneof_variants_are_charged() {
    // The point of the test: an empty `big` costs two bytes of input and a
    // whole `Big` on the heap.
    assert!(
        size_of::<Big>() >= 4 * size_of::<Row>(),
        "Big is {} bytes, Row {}",
        size_of::<Big>(),
        size_of::<Row>()
    );
    let rows = ROWS * size_of::<Row>();
    let boxes = ROWS * size_of::<Big>();

    // Enough for the rows, not for their boxes.
    for limit in [rows, rows + boxes / 2, rows + boxes - 1] {
        let Err(e) = decode(limit) else {
            panic!("limit {limit}: decoded, so the boxes were not charged");
        };
        assert_eq!(
            e.kind(),
            &DecodeErrorKind::AllocationLimitExceeded { limit },
            "limit {limit}: {e}"
        );
    }

    // Enough for both: every row holds its (empty) box.
    let decoded = decode(rows + boxes).unwrap();
    assert_eq!(decoded.rows.len(), ROWS);
    let empty = Row {
        kind: Some(row::Kind::Big(Box::default())),
        ..Default::default()
    };
    assert!(decoded.rows.iter().all(|r| *r == empty));
    assert_eq!(decoded.encode_to_vec(), input());
}

#[test]
fn unboxed_variants_cost_nothing_extra() {
    // `n` lives in the row itself: the rows alone fit the budget.
    let input = [0x0a, 0x02, 0x10, 0x05].repeat(ROWS);
    let decoded = Rows::decode_with_options(
        &input,
        &DecodeOptions::new().with_allocation_limit(Some(ROWS * size_of::<Row>())),
    )
    .unwrap();
    assert!(decoded.rows.iter().all(|r| r.kind == Some(row::Kind::N(5))));
}
