//! A file's syntax: what its `syntax` and `edition` fields declare, as
//! protoc's `DescriptorBuilder` reads them.
//!
//! `syntax` is `"proto2"` (or empty: files from before `syntax` existed),
//! `"proto3"` or `"editions"`, and only an editions file's `edition` is
//! read. C++ refuses any other `syntax` (`Unrecognized syntax`), and an
//! editions file without an `edition` (`EDITION_UNKNOWN`, which has no
//! feature defaults).
//!
//! Whether an edition is *supported* is a separate question, answered by
//! [`ResolvedFeatures::for_edition`](super::ResolvedFeatures::for_edition).

use buffa_types::google::protobuf::Edition;

use crate::Syntax;

/// The syntax a file declares with its `syntax` and `edition` fields, or
/// the reason it declares none (e.g. `unknown syntax "proto4"`).
///
/// ```
/// use buffa_descriptor::Syntax;
/// use buffa_descriptor::rules::file_syntax;
/// use buffa_types::google::protobuf::Edition;
///
/// assert_eq!(file_syntax("", None), Ok(Syntax::Proto2));
/// assert_eq!(file_syntax("proto3", Some(Edition::Edition2023)), Ok(Syntax::Proto3));
/// assert_eq!(
///     file_syntax("editions", Some(Edition::Edition2024)),
///     Ok(Syntax::Edition(Edition::Edition2024))
/// );
/// assert!(file_syntax("editions", None).is_err());
/// assert!(file_syntax("proto4", None).is_err());
/// ```
pub fn file_syntax(syntax: &str, edition: Option<Edition>) -> Result<Syntax, String> {
    match (syntax, edition) {
        ("" | "proto2", _) => Ok(Syntax::Proto2),
        ("proto3", _) => Ok(Syntax::Proto3),
        ("editions", Some(edition)) => Ok(Syntax::Edition(edition)),
        ("editions", None) => Err("syntax \"editions\" without an edition".into()),
        (other, _) => Err(format!("unknown syntax {other:?}")),
    }
}
