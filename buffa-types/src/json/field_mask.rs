//! `FieldMask` as one string of lowerCamelCase paths joined by commas:
//! `{"paths": ["foo", "bar_baz"]}` is `"foo,barBaz"`.

use core::fmt;

use buffa::json::DeserializeCx;
use buffa::json::{JsonMessage, SerializeOptions};
use serde::de::{self, Visitor};
use serde::ser::Error as _;
use serde::{Deserializer, Serializer};

use super::serde_through_json_message;
use crate::google::protobuf as wkt;

/// The lowerCamelCase form of a snake_case path, or `None` when it would
/// not read back as the same path: anything but lower-case letters,
/// digits, `.` and underscores each followed by a lower-case letter.
fn to_camel(path: &str) -> Option<String> {
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        match c {
            '_' => match chars.next() {
                Some(next @ 'a'..='z') => out.push(next.to_ascii_uppercase()),
                _ => return None,
            },
            'a'..='z' | '0'..='9' | '.' => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

/// The snake_case path of a lowerCamelCase one: letters, digits and `.`
/// only.
fn to_snake(path: &str) -> Result<String, String> {
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        match c {
            'A'..='Z' => {
                out.push('_');
                out.push(c.to_ascii_lowercase());
            }
            'a'..='z' | '0'..='9' | '.' => out.push(c),
            _ => {
                return Err(format!(
                    "invalid FieldMask path {path:?}: {c:?} is not a letter, digit or '.'"
                ));
            }
        }
    }
    Ok(out)
}

struct PathsVisitor;

impl<'de> Visitor<'de> for PathsVisitor {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a FieldMask as a string of comma-separated lowerCamelCase paths")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<String>, E> {
        if v.is_empty() {
            return Ok(Vec::new());
        }
        v.split(',')
            .map(|p| to_snake(p).map_err(E::custom))
            .collect()
    }
}

impl JsonMessage for wkt::FieldMask {
    fn serialize_json<S: Serializer>(
        &self,
        serializer: S,
        _: &SerializeOptions,
    ) -> Result<S::Ok, S::Error> {
        let mut joined = String::new();
        for (i, path) in self.paths.iter().enumerate() {
            let camel = to_camel(path).ok_or_else(|| {
                S::Error::custom(format_args!(
                    "FieldMask path {path:?} has no lowerCamelCase form that reads back the same"
                ))
            })?;
            if i > 0 {
                joined.push(',');
            }
            joined.push_str(&camel);
        }
        serializer.serialize_str(&joined)
    }

    fn deserialize_json<'de, D: Deserializer<'de>>(
        deserializer: D,
        _: DeserializeCx<'_>,
    ) -> Result<Self, D::Error> {
        Ok(wkt::FieldMask {
            paths: deserializer.deserialize_str(PathsVisitor)?,
            ..Default::default()
        })
    }
}

serde_through_json_message!(wkt::FieldMask);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_convert_both_ways() {
        assert_eq!(to_camel("bar_baz").as_deref(), Some("barBaz"));
        assert_eq!(to_camel("a.b_c").as_deref(), Some("a.bC"));
        assert_eq!(to_snake("barBaz").as_deref(), Ok("bar_baz"));
        for bad in [
            "fooBar",
            "foo_3_bar",
            "foo__bar",
            "foo_",
            "a,b",
            "a-b",
            "é",
            "a b",
        ] {
            assert_eq!(to_camel(bad), None, "{bad}");
        }
        assert!(to_snake("bar_bar").is_err());
    }
}
