//! [`FieldMask`] as a set of paths: building, normalizing, union,
//! intersection and coverage, without a schema (checking paths against a
//! message type, and applying a mask to messages, is `buffa-reflect`'s
//! `field_mask` module).
//!
//! A path is field names joined by `.`; a path *covers* itself and every
//! path below it: `a` covers `a` and `a.b`, but not `ab`. The order and
//! the covering rule are protobuf-go's (`fieldmaskpb`), so the results
//! match its `Normalize`, `Union` and `Intersect` path for path, odd
//! paths (empty segments, punctuation) included.

use std::cmp::Ordering;

use crate::FieldMask;

impl FieldMask {
    /// A mask of `paths`, as given: neither checked nor normalized.
    ///
    /// ```
    /// use buffa_types::FieldMask;
    ///
    /// let mask = FieldMask::from_paths(["display_name", "address.city"]);
    /// assert_eq!(mask.paths, ["display_name", "address.city"]);
    /// ```
    pub fn from_paths<I, S>(paths: I) -> FieldMask
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        FieldMask {
            paths: paths.into_iter().map(Into::into).collect(),
            ..Default::default()
        }
    }

    /// Puts the mask in its canonical form: paths sorted, duplicates
    /// removed, and every path covered by another one removed (`a.b` goes
    /// when `a` is there). The mask covers the same paths as before.
    ///
    /// Paths sort as their bytes do, except that `.` sorts before every
    /// other byte, so that a path comes right before the paths it covers.
    ///
    /// ```
    /// use buffa_types::FieldMask;
    ///
    /// let mut mask = FieldMask::from_paths(["foo.bar", "baz", "foo", "baz"]);
    /// mask.normalize();
    /// assert_eq!(mask.paths, ["baz", "foo"]);
    /// ```
    pub fn normalize(&mut self) {
        normalize_paths(&mut self.paths);
    }

    /// The paths covered by either mask, normalized (see
    /// [`FieldMask::normalize`]).
    ///
    /// ```
    /// use buffa_types::FieldMask;
    ///
    /// let mask = FieldMask::from_paths(["foo", "bar.baz", "bar.quz"]);
    /// let union = mask.union(&FieldMask::from_paths(["foo.bar", "bar"]));
    /// assert_eq!(union.paths, ["bar", "foo"]);
    /// ```
    pub fn union(&self, other: &FieldMask) -> FieldMask {
        let mut paths = Vec::with_capacity(self.paths.len() + other.paths.len());
        paths.extend_from_slice(&self.paths);
        paths.extend_from_slice(&other.paths);
        normalize_paths(&mut paths);
        FieldMask::from_paths(paths)
    }

    /// The paths covered by both masks, normalized (see
    /// [`FieldMask::normalize`]): where a path of one mask covers a path of
    /// the other, the longer one, so the intersection of `a` and `a.b` is
    /// `a.b`.
    ///
    /// ```
    /// use buffa_types::FieldMask;
    ///
    /// let mask = FieldMask::from_paths(["foo", "bar.baz", "bar.quz"]);
    /// let both = mask.intersection(&FieldMask::from_paths(["foo.bar", "bar"]));
    /// assert_eq!(both.paths, ["bar.baz", "bar.quz", "foo.bar"]);
    /// ```
    pub fn intersection(&self, other: &FieldMask) -> FieldMask {
        let mut left = self.paths.clone();
        let mut right = other.paths.clone();
        normalize_paths(&mut left);
        normalize_paths(&mut right);
        // Both sorted, and in that order the paths a path covers come
        // right after it: one pass over both lists finds every pair where
        // one covers the other.
        let mut paths = Vec::new();
        let (mut i, mut j) = (0, 0);
        while let (Some(a), Some(b)) = (left.get(i), right.get(j)) {
            if path_covers(b, a) {
                paths.push(a.clone());
                i += 1;
            } else if path_covers(a, b) {
                paths.push(b.clone());
                j += 1;
            } else if path_order(a, b) == Ordering::Less {
                i += 1;
            } else {
                j += 1;
            }
        }
        normalize_paths(&mut paths);
        FieldMask::from_paths(paths)
    }

    /// Whether the mask covers `path`: one of its paths is `path` or a
    /// path above it (`a` covers `a` and `a.b`, not `ab`).
    ///
    /// ```
    /// use buffa_types::FieldMask;
    ///
    /// let mask = FieldMask::from_paths(["address"]);
    /// assert!(mask.covers("address"));
    /// assert!(mask.covers("address.city"));
    /// assert!(!mask.covers("addresses"));
    /// assert!(!mask.covers("name"));
    /// ```
    pub fn covers(&self, path: &str) -> bool {
        self.paths.iter().any(|own| path_covers(own, path))
    }
}

/// Whether `prefix` covers `path`: they are equal, or `path` continues
/// `prefix` with a `.`.
fn path_covers(prefix: &str, path: &str) -> bool {
    path.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// The order of normalized paths: bytewise, with `.` below every other
/// byte (the bytes below `.` wrap around to the top).
fn path_order(a: &str, b: &str) -> Ordering {
    let key = |byte: u8| byte.wrapping_sub(b'.');
    a.bytes().map(key).cmp(b.bytes().map(key))
}

/// Sorts `paths` in [`path_order`] and removes every path covered by one
/// before it (duplicates included).
fn normalize_paths(paths: &mut Vec<String>) {
    paths.sort_unstable_by(|a, b| path_order(a, b));
    // Sorted, a path's covered paths follow it directly: comparing with
    // the last path kept finds them all.
    let mut kept: Vec<String> = Vec::with_capacity(paths.len());
    for path in paths.drain(..) {
        if kept.last().is_some_and(|last| path_covers(last, &path)) {
            continue;
        }
        kept.push(path);
    }
    *paths = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of paths, as the test tables write them.
    type Paths = &'static [&'static str];

    fn mask(paths: &[&str]) -> FieldMask {
        FieldMask::from_paths(paths.iter().copied())
    }

    fn normalized(paths: &[&str]) -> Vec<String> {
        let mut mask = mask(paths);
        mask.normalize();
        mask.paths
    }

    /// protobuf-go's `Normalize` cases (fieldmaskpb's tests), odd paths
    /// included: its order puts `.` first and wraps the bytes below it.
    #[test]
    fn normalize_as_protobuf_go() {
        let cases: [(Paths, Paths); 8] = [
            (&[], &[]),
            (&["a"], &["a"]),
            (&["foo", "foo.bar", "foo.baz"], &["foo"]),
            (&["foo.bar", "foo.baz"], &["foo.bar", "foo.baz"]),
            (
                &["", "a.", ".b", "a.b", ".", "", "a.", ".b", "a.b", "."],
                &["", "a.", "a.b"],
            ),
            (
                &[
                    "e.a", "e.b", "e.c", "e.d", "e.f", "e.g", "e.b.a", "e$c", "e.b.c",
                ],
                &["e.a", "e.b", "e.c", "e.d", "e.f", "e.g", "e$c"],
            ),
            (
                &[
                    "a", "aa", "aaa", "a$", "AAA", "aA.a", "a.a", "a", "aa", "aaa", "a$", "AAA",
                    "aA.a",
                ],
                &["AAA", "a", "aA.a", "aa", "aaa", "a$"],
            ),
            (
                &[
                    "a.b", "aa.bb.cc", ".", "a$b", "aa", "a.", "a", "b.c.d", ".a", "", "a$", "a$",
                    "a.b", "a", "a.bb", "",
                ],
                &["", "a", "aa", "a$", "a$b", "b.c.d"],
            ),
        ];
        for (input, want) in cases {
            assert_eq!(normalized(input), want, "normalize {input:?}");
        }
        // The example of the brief: a shorter path covers a longer one.
        assert_eq!(normalized(&["foo.bar", "foo"]), ["foo"]);
    }

    /// protobuf-go's `Union` and `Intersect` cases (fieldmaskpb's tests),
    /// its masks of three and more folded two at a time.
    #[test]
    fn union_and_intersection_as_protobuf_go() {
        let cases: [(&[Paths], Paths, Paths); 7] = [
            (&[&[], &[]], &[], &[]),
            (&[&["a"], &[]], &["a"], &[]),
            (&[&["a"], &["a"]], &["a"], &["a"]),
            (&[&["a"], &["b"], &["c"]], &["a", "b", "c"], &[]),
            (
                &[
                    &["a", "b"],
                    &["b.b"],
                    &["b"],
                    &["b", "a.A"],
                    &["b", "c", "c.a", "c.b"],
                ],
                &["a", "b", "c"],
                &["b.b"],
            ),
            (&[&["a.b", "a.c.d"], &["a"]], &["a"], &["a.b", "a.c.d"]),
            (&[&[], &["a.b", "a.c", "d"]], &["a.b", "a.c", "d"], &[]),
        ];
        for (masks, want_union, want_intersection) in cases {
            let first = mask(masks[0]);
            let union = masks[1..]
                .iter()
                .fold(first.clone(), |acc, m| acc.union(&mask(m)));
            let intersection = masks[1..]
                .iter()
                .fold(first, |acc, m| acc.intersection(&mask(m)));
            assert_eq!(union.paths, want_union, "union of {masks:?}");
            assert_eq!(
                intersection.paths, want_intersection,
                "intersection of {masks:?}"
            );
        }
    }

    /// Java `FieldMaskUtil`'s `union` and `intersection` examples
    /// (`FieldMaskUtilTest`), and its tree's (`FieldMaskTreeTest`).
    #[test]
    fn union_and_intersection_as_java() {
        let first = mask(&["foo", "bar.baz", "bar.quz"]);
        let second = mask(&["foo.bar", "bar"]);
        assert_eq!(first.union(&second).paths, ["bar", "foo"]);
        assert_eq!(
            first.intersection(&second).paths,
            ["bar.baz", "bar.quz", "foo.bar"]
        );
        // union with several masks
        let union = mask(&["foo"])
            .union(&mask(&["foo.bar", "bar.quz"]))
            .union(&mask(&["bar.quz"]))
            .union(&mask(&["bar"]));
        assert_eq!(union.paths, ["bar", "foo"]);
        // the tree's intersection, one path at a time
        for (path, want) in [
            ("quz", &[][..]),
            ("foo.bar", &["foo.bar"][..]),
            ("foo", &["foo"][..]),
            ("bar.foo", &[][..]),
            ("bar", &["bar.baz", "bar.quz"][..]),
        ] {
            assert_eq!(first.intersection(&mask(&[path])).paths, want, "{path}");
        }
    }

    #[test]
    fn intersection_is_symmetric_and_keeps_the_longer_path() {
        let short = mask(&["a"]);
        let long = mask(&["a.b"]);
        assert_eq!(short.intersection(&long).paths, ["a.b"]);
        assert_eq!(long.intersection(&short).paths, ["a.b"]);
        assert_eq!(
            mask(&["ab"]).intersection(&short).paths,
            Vec::<String>::new()
        );
        // Unnormalized input: duplicates and covered paths.
        let messy = mask(&["x.y", "a.b.c", "a", "a.b", "x.y"]);
        let other = mask(&["x", "a.b.d", "a.b.c.e"]);
        assert_eq!(
            messy.intersection(&other).paths,
            ["a.b.c.e", "a.b.d", "x.y"]
        );
        assert_eq!(
            other.intersection(&messy).paths,
            ["a.b.c.e", "a.b.d", "x.y"]
        );
    }

    #[test]
    fn covers_whole_segments_only() {
        let mask = mask(&["a", "b.c"]);
        for (path, covered) in [
            ("a", true),
            ("a.b", true),
            ("a.b.c", true),
            ("ab", false),
            ("b", false),
            ("b.c", true),
            ("b.c.d", true),
            ("b.cd", false),
            ("c", false),
            ("", false),
        ] {
            assert_eq!(mask.covers(path), covered, "{path}");
        }
        assert!(!FieldMask::default().covers("a"));
    }

    #[test]
    fn normalize_keeps_unknown_fields_and_from_paths_keeps_order() {
        let mut mask = mask(&["b", "a", "b"]);
        assert_eq!(mask.paths, ["b", "a", "b"]);
        mask.unknown_fields.push_varint(9, 1);
        let unknown = mask.unknown_fields.clone();
        mask.normalize();
        assert_eq!(mask.paths, ["a", "b"]);
        assert_eq!(mask.unknown_fields, unknown);
    }

    /// The proto3 JSON form: snake_case paths as lowerCamelCase, joined by
    /// commas, both ways (Java `FieldMaskUtil`'s JSON examples too).
    #[cfg(feature = "json")]
    #[test]
    fn json_round_trips_paths_through_lower_camel_case() {
        for (paths, json) in [
            (&["foo_bar.baz_qux"][..], r#""fooBar.bazQux""#),
            (&["foo", "bar_baz"][..], r#""foo,barBaz""#),
            (&["foo.bar_baz"][..], r#""foo.barBaz""#),
            (&["foo_bar"][..], r#""fooBar""#),
            // Lossless, as C++ writes it (Java reads "Foobar" back as
            // "foobar").
            (&["_foobar"][..], r#""Foobar""#),
            (&[][..], r#""""#),
        ] {
            let mask = mask(paths);
            assert_eq!(serde_json::to_string(&mask).unwrap(), json, "{paths:?}");
            let read: FieldMask = serde_json::from_str(json).unwrap();
            assert_eq!(read, mask, "{json}");
        }
        // A path whose camel case would not read back is refused, not
        // written wrong (Java writes `fooBar` as "foobar").
        for path in ["fooBar", "foo__bar", "foo_3", "foo_"] {
            assert!(
                serde_json::to_string(&mask(&[path])).is_err(),
                "{path} has no lowerCamelCase form"
            );
        }
        assert!(serde_json::from_str::<FieldMask>(r#""foo_bar""#).is_err());
    }
}
