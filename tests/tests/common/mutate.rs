//! Random mutations of an encoding: bytes overwritten, inserted, the tail
//! cut off, a span appended again.

use proptest::prelude::*;

/// A mutation of an encoding.
#[derive(Clone, Debug)]
pub enum Mutation {
    Overwrite(usize, u8),
    Truncate(usize),
    Insert(usize, u8),
    Duplicate(usize, usize),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Overwrite(i, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Duplicate(a, b)),
    ]
}

pub fn mutate(seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for mutation in mutations {
        if bytes.is_empty() {
            break;
        }
        let len = bytes.len();
        match *mutation {
            Mutation::Overwrite(i, b) => bytes[i % len] = b,
            Mutation::Truncate(i) => bytes.truncate(i % len),
            Mutation::Insert(i, b) => bytes.insert(i % (len + 1), b),
            Mutation::Duplicate(a, b) => {
                let (start, end) = ((a % len).min(b % len), (a % len).max(b % len));
                let copy = bytes[start..end].to_vec();
                bytes.extend(copy);
            }
        }
    }
    bytes
}
