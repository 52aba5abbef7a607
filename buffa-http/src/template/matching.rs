//! Matching a request path against a [`PathTemplate`], and decoding the
//! variables' values as http.proto says.

use std::fmt;
use std::ops::Range;

use super::{PathTemplate, Segment};
use crate::Binding;
use crate::percent::{self, DecodeError, Keep};

/// How the value of a multi-segment variable (`{var=**}`,
/// `{var=foo/*}`) is decoded: http.proto's
/// `Http.fully_decode_reserved_expansion`. A single-segment variable is
/// decoded fully either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReservedExpansion {
    /// `fully_decode_reserved_expansion: false`, the default: escapes of
    /// RFC 6570's reserved characters (`:/?#[]@!$&'()*+,;=`) stay as
    /// written (`%2F` stays `%2F`, `%3a` stays `%3a`); the others are
    /// decoded.
    #[default]
    KeepReserved,
    /// `fully_decode_reserved_expansion: true`: every escape is decoded
    /// except `%2F` and `%2f`, which stay as written.
    KeepSlash,
}

/// A path that matches a template but whose values cannot be read: a
/// malformed percent-escape, or a variable's value that is not UTF-8 once
/// decoded.
///
/// ```text
/// malformed percent-escape `%` not followed by two hex digits, at byte 4
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchError {
    offset: usize,
    message: String,
}

impl MatchError {
    /// The byte offset in the path of what is wrong: the `%` of a
    /// malformed escape, or the start of a variable's value.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, without the offset.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for MatchError {}

impl PathTemplate {
    /// Matches `path` (the request's path, from its leading `/`, without
    /// the query string) against the template, with the default decoding
    /// of multi-segment variables ([`ReservedExpansion::KeepReserved`]):
    /// see [`matches_with`](PathTemplate::matches_with).
    ///
    /// ```
    /// use buffa_http::template::PathTemplate;
    ///
    /// let template = PathTemplate::parse("/v1/users/{user_id}/messages/{message_id}").unwrap();
    /// let bindings = template.matches("/v1/users/me/messages/123456").unwrap().unwrap();
    /// assert_eq!(bindings[0].field_path, ["user_id"]);
    /// assert_eq!(bindings[0].value, "me");
    /// assert_eq!(bindings[1].value, "123456");
    /// ```
    pub fn matches(&self, path: &str) -> Result<Option<Vec<Binding>>, MatchError> {
        self.matches_with(path, ReservedExpansion::KeepReserved)
    }

    /// Matches `path` against the template: `Ok(Some(bindings))`, one
    /// binding per variable in the template's order, when it matches;
    /// `Ok(None)` when it does not; `Err` when the path is malformed.
    ///
    /// Matching:
    ///
    /// - `path` is split into segments at each `/` after its leading one
    ///   (a path without a leading `/` matches nothing); the split comes
    ///   before decoding, so `%2F` never separates segments;
    /// - with a verb, the path's last segment must end in `:` and the
    ///   verb, split at its last `:`; without one, a `:` in the last
    ///   segment is part of it;
    /// - a literal matches a segment that decodes to the same bytes (`v1`
    ///   matches `v1` and `%761`);
    /// - `*` matches one non-empty segment; `**` matches all the segments
    ///   left, zero or more, empty ones included;
    /// - a variable's value is the text of the segments it matched, `/`
    ///   between them, decoded: fully for a single-segment variable, as
    ///   `expansion` says for a multi-segment one.
    ///
    /// Errors: a `%` anywhere in `path` not followed by two hex digits,
    /// whether or not the path matches (so the answer does not depend
    /// on which template is tried), and a matching path whose variable's
    /// decoded value is not UTF-8 (`%FF`). Memory is linear in the
    /// template; time linear in the path.
    ///
    /// ```
    /// use buffa_http::template::{PathTemplate, ReservedExpansion};
    ///
    /// let template = PathTemplate::parse("/v1/{name=**}").unwrap();
    /// let bindings = template.matches("/v1/a%2Fb/c%20d").unwrap().unwrap();
    /// assert_eq!(bindings[0].value, "a%2Fb/c d");
    /// let bindings = template
    ///     .matches_with("/v1/a%2Fb%3A/c", ReservedExpansion::KeepSlash)
    ///     .unwrap()
    ///     .unwrap();
    /// assert_eq!(bindings[0].value, "a%2Fb:/c");
    /// ```
    pub fn matches_with(
        &self,
        path: &str,
        expansion: ReservedExpansion,
    ) -> Result<Option<Vec<Binding>>, MatchError> {
        if let Some(offset) = percent::first_malformed_escape(path) {
            return Err(MatchError {
                offset,
                message: "malformed percent-escape `%` not followed by two hex digits".into(),
            });
        }
        let Some(spans) = self.segment_spans(path) else {
            return Ok(None);
        };
        let mut bindings = Vec::with_capacity(self.variables.len());
        for variable in &self.variables {
            let start = spans[variable.segments.start].start;
            let end = spans[variable.segments.end - 1].end;
            let keep = match expansion {
                _ if variable.is_single_segment(&self.segments) => Keep::Nothing,
                ReservedExpansion::KeepReserved => Keep::Reserved,
                ReservedExpansion::KeepSlash => Keep::Slash,
            };
            let value = percent::decode(&path[start..end], keep, false).map_err(|e| {
                debug_assert_eq!(e, DecodeError::NotUtf8, "escapes were checked above");
                MatchError {
                    offset: start,
                    message: format!(
                        "the value of `{}` is not UTF-8 once percent-decoded",
                        variable.field_path.join(".")
                    ),
                }
            })?;
            bindings.push(Binding {
                field_path: variable.field_path.clone(),
                value,
            });
        }
        Ok(Some(bindings))
    }

    /// The byte range of `path` that each template segment matches (for
    /// `**`, the rest of the path before the verb), or `None` if the
    /// path does not match.
    fn segment_spans(&self, path: &str) -> Option<Vec<Range<usize>>> {
        let rest = path.strip_prefix('/')?;
        let mut end = path.len();
        if let Some(verb) = &self.verb {
            let (before, path_verb) = rest.rsplit_once(':')?;
            if path_verb.contains('/') || !percent::same_decoded(path_verb, verb) {
                return None;
            }
            end = 1 + before.len();
        }
        let mut spans = Vec::with_capacity(self.segments.len());
        let mut at = 1;
        // Whether the path's last segment has been matched.
        let mut exhausted = false;
        for segment in &self.segments {
            if *segment == Segment::DoubleWildcard {
                spans.push(at..end);
                return Some(spans);
            }
            if exhausted {
                return None;
            }
            let segment_end = path[at..end].find('/').map_or(end, |i| at + i);
            let text = &path[at..segment_end];
            let matched = match segment {
                Segment::Literal(literal) => percent::same_decoded(text, literal),
                _ => !text.is_empty(),
            };
            if !matched {
                return None;
            }
            spans.push(at..segment_end);
            exhausted = segment_end == end;
            at = if exhausted { end } else { segment_end + 1 };
        }
        exhausted.then_some(spans)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `(field path, value)` pairs `path` binds under `template`, or
    /// `None` if it does not match.
    fn bind(template: &str, path: &str) -> Option<Vec<(String, String)>> {
        bind_with(template, path, ReservedExpansion::KeepReserved)
    }

    fn bind_with(
        template: &str,
        path: &str,
        expansion: ReservedExpansion,
    ) -> Option<Vec<(String, String)>> {
        let template = PathTemplate::parse(template).unwrap();
        let bindings = template.matches_with(path, expansion).unwrap()?;
        Some(
            bindings
                .into_iter()
                .map(|b| (b.field_path.join("."), b.value))
                .collect(),
        )
    }

    fn pairs(pairs: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(pairs.iter().map(|&(f, v)| (f.into(), v.into())).collect())
    }

    fn error(template: &str, path: &str) -> (usize, String) {
        let template = PathTemplate::parse(template).unwrap();
        let e = template.matches(path).expect_err(path);
        (e.offset(), e.message().to_owned())
    }

    #[test]
    fn literals_match_whole_segments() {
        assert_eq!(bind("/v1/messages", "/v1/messages"), pairs(&[]));
        assert_eq!(bind("/v1/messages", "/v1/message"), None);
        assert_eq!(bind("/v1/messages", "/v1/messagesx"), None);
        assert_eq!(bind("/v1/messages", "/v1/messages/"), None);
        assert_eq!(bind("/v1/messages", "/v1"), None);
        assert_eq!(bind("/v1/messages", "v1/messages"), None);
        assert_eq!(bind("/v1/messages", ""), None);
        assert_eq!(bind("/v1/messages", "/V1/messages"), None);
    }

    #[test]
    fn literals_compare_decoded() {
        assert_eq!(bind("/v1/messages", "/%761/messages"), pairs(&[]));
        assert_eq!(bind("/v1/a%2Fb", "/v1/a%2fb"), pairs(&[]));
        // `%2F` is not a separator: `a/b` is two segments, `a%2Fb` one.
        assert_eq!(bind("/v1/a%2Fb", "/v1/a/b"), None);
        assert_eq!(bind("/v1/{x}", "/v1/a/b"), None);
    }

    #[test]
    fn a_wildcard_matches_one_non_empty_segment() {
        assert_eq!(bind("/v1/*/x", "/v1/abc/x"), pairs(&[]));
        assert_eq!(bind("/v1/*/x", "/v1//x"), None);
        assert_eq!(bind("/v1/{id}", "/v1/"), None);
        assert_eq!(bind("/v1/{id}", "/v1"), None);
        assert_eq!(bind("/v1/{id}", "/v1/a/"), None);
    }

    #[test]
    fn a_double_wildcard_matches_the_rest() {
        assert_eq!(bind("/v1/{p=**}", "/v1"), pairs(&[("p", "")]));
        assert_eq!(bind("/v1/{p=**}", "/v1/"), pairs(&[("p", "")]));
        assert_eq!(bind("/v1/{p=**}", "/v1/a"), pairs(&[("p", "a")]));
        assert_eq!(
            bind("/v1/{p=**}", "/v1/a/b//c/"),
            pairs(&[("p", "a/b//c/")])
        );
        assert_eq!(bind("/{p=**}", "/"), pairs(&[("p", "")]));
        assert_eq!(
            bind("/v1/{p=files/**}", "/v1/files/a/b"),
            pairs(&[("p", "files/a/b")])
        );
        assert_eq!(
            bind("/v1/{p=files/**}", "/v1/files"),
            pairs(&[("p", "files")])
        );
        assert_eq!(bind("/v1/{p=files/**}", "/v1/file/a"), None);
        assert_eq!(bind("/v1/**", "/v2/a"), None);
    }

    #[test]
    fn the_verb_ends_the_last_segment() {
        let template = "/v1/{name=operations/**}:cancel";
        assert_eq!(
            bind(template, "/v1/operations/a/b:cancel"),
            pairs(&[("name", "operations/a/b")])
        );
        assert_eq!(
            bind(template, "/v1/operations:cancel"),
            pairs(&[("name", "operations")])
        );
        assert_eq!(bind(template, "/v1/operations/a/b"), None);
        assert_eq!(bind(template, "/v1/operations/a/b:get"), None);
        assert_eq!(bind(template, "/v1/operations/a:cancel/b"), None);
        // The verb is split at the last `:`; earlier ones are the value's.
        assert_eq!(
            bind("/v1/{id}:undelete", "/v1/a:b:undelete"),
            pairs(&[("id", "a:b")])
        );
        assert_eq!(bind("/v1/{id}:undelete", "/v1/:undelete"), None);
        assert_eq!(bind("/v1:batch", "/v1:batch"), pairs(&[]));
        // An escaped `:` is not the separator.
        assert_eq!(bind("/v1/{id}:undelete", "/v1/a%3Aundelete"), None);
        // Like literals, the verb compares decoded.
        assert_eq!(
            bind("/v1/{id}:undelete", "/v1/a:%75ndelete"),
            pairs(&[("id", "a")])
        );
    }

    #[test]
    fn without_a_verb_a_colon_is_literal() {
        assert_eq!(bind("/v1/{id}", "/v1/foo:bar"), pairs(&[("id", "foo:bar")]));
        assert_eq!(
            bind("/v1/{p=**}", "/v1/a:b/c:d"),
            pairs(&[("p", "a:b/c:d")])
        );
        assert_eq!(bind("/v1/foo", "/v1/foo:bar"), None);
    }

    #[test]
    fn single_segment_variables_decode_everything() {
        assert_eq!(
            bind("/v1/{id}", "/v1/a%2Fb%3Fc%20d%C3%A9%25"),
            pairs(&[("id", "a/b?c dé%")])
        );
        assert_eq!(bind("/v1/{id=*}", "/v1/a%2fb"), pairs(&[("id", "a/b")]));
        assert_eq!(
            bind("/v1/{id=lit%2F}", "/v1/lit%2f"),
            pairs(&[("id", "lit/")])
        );
        // `+` is not a space in a path.
        assert_eq!(bind("/v1/{id}", "/v1/a+b"), pairs(&[("id", "a+b")]));
    }

    #[test]
    fn multi_segment_variables_keep_reserved_escapes() {
        assert_eq!(
            bind("/v1/{name=**}", "/v1/a%2Fb/c%2fd%3A%40%20%C3%A9%25%7E"),
            pairs(&[("name", "a%2Fb/c%2fd%3A%40 é%~")])
        );
        assert_eq!(
            bind("/v1/{name=shelves/*}", "/v1/shelves/x%2Fy%3Fz%23"),
            pairs(&[("name", "shelves/x%2Fy%3Fz%23")])
        );
    }

    #[test]
    fn fully_decoding_reserved_expansion_keeps_only_slashes() {
        let keep_slash = ReservedExpansion::KeepSlash;
        assert_eq!(
            bind_with("/v1/{name=**}", "/v1/a%2Fb/c%2fd%3A%40%20", keep_slash),
            pairs(&[("name", "a%2Fb/c%2fd:@ ")])
        );
        // Single-segment variables decode fully under either setting.
        assert_eq!(
            bind_with("/v1/{id}", "/v1/a%2Fb", keep_slash),
            pairs(&[("id", "a/b")])
        );
    }

    #[test]
    fn bindings_follow_the_template_order() {
        assert_eq!(
            bind("/v1/{b}/{a.x}/{c=**}", "/v1/1/2/3/4"),
            pairs(&[("b", "1"), ("a.x", "2"), ("c", "3/4")])
        );
        let template = PathTemplate::parse("/v1/{a.x}").unwrap();
        let bindings = template.matches("/v1/2").unwrap().unwrap();
        assert_eq!(bindings[0].field_path, ["a", "x"]);
    }

    #[test]
    fn malformed_escapes_are_errors_even_without_a_match() {
        let message = "malformed percent-escape `%` not followed by two hex digits";
        assert_eq!(error("/v1/{id}", "/v1/%G1"), (4, message.into()));
        assert_eq!(error("/v1/{id}", "/v1/a%"), (5, message.into()));
        assert_eq!(error("/v1/{id}", "/v1/a%4"), (5, message.into()));
        assert_eq!(error("/v2/x", "/v1/a%zz"), (5, message.into()));
        assert_eq!(
            PathTemplate::parse("/v1/{id}")
                .unwrap()
                .matches("/v1/%")
                .unwrap_err()
                .to_string(),
            format!("{message}, at byte 4")
        );
    }

    #[test]
    fn values_that_are_not_utf8_are_errors() {
        assert_eq!(
            error("/v1/{msg.id}", "/v1/%FF"),
            (
                4,
                "the value of `msg.id` is not UTF-8 once percent-decoded".into()
            )
        );
        assert_eq!(error("/v1/x/{p=**}", "/v1/x/a/%C3").0, 6);
        // A segment no variable binds is not decoded.
        assert_eq!(bind("/v1/*/{id}", "/v1/%FF/a"), pairs(&[("id", "a")]));
        // Raw non-ASCII text in a path is taken as it is.
        assert_eq!(bind("/v1/{id}", "/v1/é"), pairs(&[("id", "é")]));
    }

    #[test]
    fn huge_paths_are_linear_and_safe() {
        let long = format!("/v1/{}", "a/".repeat(500_000));
        assert_eq!(bind("/v1/{id}", &long), None);
        let bound = bind("/v1/{p=**}", &long).unwrap();
        assert_eq!(bound[0].1.len(), 1_000_000);
        let escapes = format!("/v1/{}", "%41".repeat(100_000));
        assert_eq!(
            bind("/v1/{id}", &escapes).unwrap()[0].1,
            "A".repeat(100_000)
        );
    }
}
