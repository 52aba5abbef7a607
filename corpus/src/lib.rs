//! What the corpus tools share: the packages of a googleapis tree and
//! the protoc they compare with.

pub mod packages;
pub mod protoc;
