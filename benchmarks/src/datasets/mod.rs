//! Native data of the four protobuf datasets of rust_serialization_benchmark,
//! and its generation.
//!
//! Every dataset is generated from a fresh [`Rng`] created by [`rng`], with the
//! same seed for all four. The draws follow
//! `shared/datasets/rust_serialization_benchmark/GENERATION.md` exactly, so
//! the data (and thus its protobuf encoding) is identical to the original
//! benchmark's. Each draw is commented with its position in that description.

pub mod log;
pub mod mesh;
pub mod minecraft_savedata;
pub mod mk48;

use std::ops::Range;

use rand::Rng as _;
use rand_pcg::Lcg64Xsh32;

/// The random number generator used by the benchmark (PCG32).
pub type Rng = Lcg64Xsh32;

/// Initial state of the RNG (the original calls these the first 20 digits of pi).
pub const RNG_STATE: u64 = 3141592653;
/// Stream selector of the RNG.
pub const RNG_STREAM: u64 = 5897932384;

/// A fresh RNG in the state every dataset's generation starts from.
pub fn rng() -> Rng {
    Lcg64Xsh32::new(RNG_STATE, RNG_STREAM)
}

/// The original's `generate_vec`: draws the length from the `usize` range
/// (even when the range holds a single value), then generates that many
/// elements in order.
pub fn generate_vec<T>(
    rng: &mut Rng,
    range: Range<usize>,
    mut element: impl FnMut(&mut Rng) -> T,
) -> Vec<T> {
    let len = rng.gen_range(range);
    (0..len).map(|_| element(rng)).collect()
}

/// Picks an entry of a constant list with a `usize` `gen_range(0..len)`.
pub fn pick<T: Copy>(rng: &mut Rng, list: &[T]) -> T {
    list[rng.gen_range(0..list.len())]
}

/// Picks a string from a constant list and returns an owned copy.
pub fn pick_string(rng: &mut Rng, list: &[&str]) -> String {
    pick(rng, list).to_owned()
}

/// The `Option<T>` rule: `gen_bool(0.5)`, and only if it is true, `some` draws
/// the value.
pub fn generate_option<T>(rng: &mut Rng, some: impl FnOnce(&mut Rng) -> T) -> Option<T> {
    if rng.gen_bool(0.5) {
        Some(some(rng))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use rand::RngCore as _;

    #[test]
    fn rng_first_outputs() {
        let mut rng = super::rng();
        let first: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
        assert_eq!(first, [3003437350, 1615405362, 2487951310, 722531429]);
        assert_eq!(super::rng().next_u64(), 6938113202576478502);
    }
}
