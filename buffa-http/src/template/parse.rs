//! The parser of http.proto's template grammar, and [`TemplateError`].

use std::fmt;

use super::{MAX_SEGMENTS, MAX_TEMPLATE_LEN, PathTemplate, Segment, Variable};
use crate::MAX_FIELD_PATH_DEPTH;
use crate::percent;

/// A path template that does not parse: what is wrong, and the byte
/// offset in the template where it is.
///
/// ```text
/// `**` must be the last segment of the template, at byte 4
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    offset: usize,
    message: String,
}

impl TemplateError {
    fn new(offset: usize, message: impl Into<String>) -> TemplateError {
        TemplateError {
            offset,
            message: message.into(),
        }
    }

    /// The byte offset in the template of what is wrong.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, without the offset.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for TemplateError {}

/// Parses `text` as a `Template`.
pub(super) fn parse(text: &str) -> Result<PathTemplate, TemplateError> {
    if text.len() > MAX_TEMPLATE_LEN {
        return Err(TemplateError::new(
            MAX_TEMPLATE_LEN,
            format!(
                "the template is {} bytes, over the limit of {MAX_TEMPLATE_LEN}",
                text.len()
            ),
        ));
    }
    let mut parser = Parser {
        text,
        at: 0,
        segments: Vec::new(),
        variables: Vec::new(),
        double_wildcard: None,
    };
    if !parser.eat(b'/') {
        return Err(parser.error("a path template starts with `/`"));
    }
    parser.segments(false)?;
    let verb = if parser.eat(b':') {
        let literal = parser.literal();
        match parser.peek() {
            Some(b'%') => return Err(parser.unexpected()),
            Some(_) if !literal.is_empty() => {
                return Err(parser.error("the verb must end the template"));
            }
            _ if literal.is_empty() => return Err(parser.error("expected a verb after `:`")),
            _ => {}
        }
        Some(literal.to_owned())
    } else {
        if parser.peek().is_some() {
            return Err(parser.unexpected());
        }
        None
    };
    Ok(PathTemplate {
        segments: parser.segments,
        variables: parser.variables,
        verb,
    })
}

/// Whether `byte` is an unreserved character (RFC 3986: `A-Z a-z 0-9 - .
/// _ ~`), the characters a `LITERAL` holds besides escapes.
fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

struct Parser<'a> {
    text: &'a str,
    /// The byte offset of the next byte to read; always on a character
    /// boundary, since the parser only steps over ASCII bytes.
    at: usize,
    segments: Vec<Segment>,
    variables: Vec<Variable>,
    /// Where the `**` is, once one is read: no segment may follow it.
    double_wildcard: Option<usize>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn error(&self, message: impl Into<String>) -> TemplateError {
        TemplateError::new(self.at, message)
    }

    /// The error for a character that cannot come next.
    fn unexpected(&self) -> TemplateError {
        match self.text[self.at..].chars().next() {
            None => self.error("unexpected end of template"),
            Some('{') => self.error("variables cannot be nested"),
            Some('}') => self.error("`}` closes no variable"),
            // A literal stops before a malformed escape.
            Some('%') => self.error("malformed percent-escape"),
            Some(c) => self.error(format!(
                "{c:?} is not allowed here (a literal is unreserved characters and percent-escapes)"
            )),
        }
    }

    /// `Segments`: one or more segments separated by `/`.
    fn segments(&mut self, in_variable: bool) -> Result<(), TemplateError> {
        loop {
            self.segment(in_variable)?;
            if !self.eat(b'/') {
                return Ok(());
            }
        }
    }

    /// Appends a segment to `self.segments`; `start` is where it is
    /// written.
    fn push(&mut self, start: usize, segment: Segment) -> Result<(), TemplateError> {
        if self.segments.len() == MAX_SEGMENTS {
            return Err(TemplateError::new(
                start,
                format!("more than {MAX_SEGMENTS} segments"),
            ));
        }
        self.segments.push(segment);
        Ok(())
    }

    /// `Segment`, or the segments of a variable.
    fn segment(&mut self, in_variable: bool) -> Result<(), TemplateError> {
        if let Some(at) = self.double_wildcard {
            return Err(TemplateError::new(
                at,
                "`**` must be the last segment of the template",
            ));
        }
        let start = self.at;
        match self.peek() {
            Some(b'*') => {
                self.at += 1;
                let segment = if self.eat(b'*') {
                    self.double_wildcard = Some(start);
                    Segment::DoubleWildcard
                } else {
                    Segment::Wildcard
                };
                if self
                    .peek()
                    .is_some_and(|b| b == b'*' || b == b'%' || is_unreserved(b))
                {
                    return Err(TemplateError::new(
                        start,
                        "`*` and `**` must be whole segments",
                    ));
                }
                self.push(start, segment)
            }
            Some(b'{') if in_variable => Err(self.error("variables cannot be nested")),
            Some(b'{') => self.variable(),
            Some(b'/' | b':' | b'}') | None => Err(self.error("empty segment")),
            Some(_) => {
                let literal = self.literal();
                if literal.is_empty() {
                    return Err(self.unexpected());
                }
                self.push(start, Segment::Literal(literal.to_owned()))
            }
        }
    }

    /// `Variable`, from its `{`.
    fn variable(&mut self) -> Result<(), TemplateError> {
        let open = self.at;
        self.at += 1;
        let field_path = self.field_path()?;
        let start = self.segments.len();
        if self.eat(b'=') {
            self.segments(true)?;
        } else {
            self.push(open, Segment::Wildcard)?;
        }
        if !self.eat(b'}') {
            return Err(match self.peek() {
                None => TemplateError::new(open, "`{` is not closed"),
                Some(b'=') => self.error("expected `}`"),
                _ => self.unexpected(),
            });
        }
        if self.variables.iter().any(|v| v.field_path == field_path) {
            return Err(TemplateError::new(
                open,
                format!("field `{}` is bound twice", field_path.join(".")),
            ));
        }
        self.variables.push(Variable {
            field_path,
            segments: start..self.segments.len(),
        });
        Ok(())
    }

    /// `FieldPath`: identifiers separated by `.`.
    fn field_path(&mut self) -> Result<Vec<String>, TemplateError> {
        let mut path = Vec::new();
        loop {
            let start = self.at;
            if !self
                .peek()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            {
                return Err(self.error("expected a field name"));
            }
            while self
                .peek()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                self.at += 1;
            }
            if path.len() == MAX_FIELD_PATH_DEPTH {
                return Err(TemplateError::new(
                    start,
                    format!("a field path of more than {MAX_FIELD_PATH_DEPTH} names"),
                ));
            }
            path.push(self.text[start..self.at].to_owned());
            if !self.eat(b'.') {
                return Ok(path);
            }
        }
    }

    /// The longest `LITERAL` from here (possibly empty), stopping before
    /// any character a literal cannot hold, a malformed escape included.
    fn literal(&mut self) -> &'a str {
        let start = self.at;
        let bytes = self.text.as_bytes();
        while let Some(byte) = self.peek() {
            if is_unreserved(byte) {
                self.at += 1;
            } else if byte == b'%' && percent::escape_at(bytes, self.at).is_some() {
                self.at += 3;
            } else {
                break;
            }
        }
        &self.text[start..self.at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error `template` fails with, as `(offset, message)`.
    fn error(template: &str) -> (usize, String) {
        let e = PathTemplate::parse(template).expect_err(template);
        (e.offset(), e.message().to_owned())
    }

    fn variables(template: &str) -> Vec<String> {
        let template = PathTemplate::parse(template).unwrap();
        template.variables().map(|path| path.join(".")).collect()
    }

    #[test]
    fn reads_segments_variables_and_verb() {
        let template =
            PathTemplate::parse("/v1/{parent=projects/*}/topics/{topic.id}:publish").unwrap();
        assert_eq!(
            template.segments,
            [
                Segment::Literal("v1".into()),
                Segment::Literal("projects".into()),
                Segment::Wildcard,
                Segment::Literal("topics".into()),
                Segment::Wildcard,
            ]
        );
        assert_eq!(template.variables[0].segments, 1..3);
        assert_eq!(template.variables[1].segments, 4..5);
        assert_eq!(
            variables("/v1/{parent=projects/*}/topics/{topic.id}"),
            ["parent", "topic.id"]
        );
        assert_eq!(template.verb(), Some("publish"));
    }

    #[test]
    fn a_bare_variable_is_a_single_wildcard() {
        assert_eq!(
            PathTemplate::parse("/v1/{name}").unwrap(),
            PathTemplate::parse("/v1/{name=*}").unwrap()
        );
    }

    #[test]
    fn literals_take_unreserved_characters_and_escapes() {
        let template = PathTemplate::parse("/a-b.c_d~e/%2Fx%3a").unwrap();
        assert_eq!(
            template.segments,
            [
                Segment::Literal("a-b.c_d~e".into()),
                Segment::Literal("%2Fx%3a".into())
            ]
        );
        assert_eq!(
            error("/a b"),
            (
                2,
                "' ' is not allowed here (a literal is unreserved characters and percent-escapes)"
                    .into()
            )
        );
        assert_eq!(
            error("/a$b"),
            (
                2,
                "'$' is not allowed here (a literal is unreserved characters and percent-escapes)"
                    .into()
            )
        );
        assert_eq!(error("/é").0, 1);
        assert_eq!(error("/a?b").0, 2);
    }

    #[test]
    fn double_wildcard_only_at_the_end() {
        assert!(PathTemplate::parse("/v1/**").is_ok());
        assert!(PathTemplate::parse("/v1/**:cancel").is_ok());
        assert!(PathTemplate::parse("/v1/{name=files/**}").is_ok());
        assert!(PathTemplate::parse("/v1/{name=files/**}:get").is_ok());
        let last = "`**` must be the last segment of the template";
        assert_eq!(error("/v1/**/messages"), (4, last.into()));
        assert_eq!(error("/**/*"), (1, last.into()));
        assert_eq!(error("/v1/{name=**}/messages"), (10, last.into()));
        assert_eq!(error("/v1/{name=**/x}"), (10, last.into()));
        assert_eq!(error("/v1/{a=**}/{b}"), (7, last.into()));
        assert_eq!(error("/**/**"), (1, last.into()));
    }

    #[test]
    fn wildcards_are_whole_segments() {
        let whole = "`*` and `**` must be whole segments";
        assert_eq!(error("/v1/*a"), (4, whole.into()));
        assert_eq!(error("/v1/***"), (4, whole.into()));
        assert_eq!(error("/v1/**%20"), (4, whole.into()));
        assert_eq!(error("/v1/a*").0, 5);
    }

    #[test]
    fn variables_do_not_nest() {
        let nested = "variables cannot be nested";
        assert_eq!(error("/v1/{a={b}}"), (7, nested.into()));
        assert_eq!(error("/v1/{a=x/{b}}"), (9, nested.into()));
        assert_eq!(error("/v1/{a{b}}"), (6, nested.into()));
    }

    #[test]
    fn braces_must_balance() {
        assert_eq!(error("/v1/{name"), (4, "`{` is not closed".into()));
        assert_eq!(error("/v1/{name=a/*"), (4, "`{` is not closed".into()));
        assert_eq!(error("/v1/name}"), (8, "`}` closes no variable".into()));
        assert_eq!(error("/v1/}"), (4, "empty segment".into()));
        assert_eq!(error("/v1/{}"), (5, "expected a field name".into()));
        assert_eq!(error("/v1/{a=}"), (7, "empty segment".into()));
        assert_eq!(error("/v1/{a==b}").0, 7);
    }

    #[test]
    fn field_paths_are_dotted_identifiers_bound_once() {
        assert_eq!(variables("/{_a.b1.c_}/{a}"), ["_a.b1.c_", "a"]);
        assert_eq!(error("/{1a}"), (2, "expected a field name".into()));
        assert_eq!(error("/{a.}"), (4, "expected a field name".into()));
        assert_eq!(error("/{.a}"), (2, "expected a field name".into()));
        assert_eq!(error("/{a-b}").0, 3);
        assert_eq!(
            error("/v1/{a.b}/x/{a.b=*}"),
            (12, "field `a.b` is bound twice".into())
        );
        // A prefix of another path is a different field path; whether a
        // message can have both is for binding to decide.
        assert_eq!(variables("/{a}/{a.b}"), ["a", "a.b"]);
    }

    #[test]
    fn segments_are_never_empty() {
        assert_eq!(error("/v1//a"), (4, "empty segment".into()));
        assert_eq!(error("/v1/"), (4, "empty segment".into()));
        assert_eq!(error("/"), (1, "empty segment".into()));
        assert_eq!(error("//"), (1, "empty segment".into()));
        assert_eq!(error("/:verb"), (1, "empty segment".into()));
    }

    #[test]
    fn a_template_starts_with_a_slash() {
        assert_eq!(error(""), (0, "a path template starts with `/`".into()));
        assert_eq!(error("v1/a"), (0, "a path template starts with `/`".into()));
        assert_eq!(
            error("{name}"),
            (0, "a path template starts with `/`".into())
        );
    }

    #[test]
    fn the_verb_is_a_literal_that_ends_the_template() {
        assert_eq!(error("/v1:"), (4, "expected a verb after `:`".into()));
        assert_eq!(
            error("/v1:a/b"),
            (5, "the verb must end the template".into())
        );
        assert_eq!(
            error("/v1:a:b"),
            (5, "the verb must end the template".into())
        );
        assert_eq!(error("/v1:{a}"), (4, "expected a verb after `:`".into()));
        assert_eq!(
            PathTemplate::parse("/v1:a%3Ab").unwrap().verb(),
            Some("a%3Ab")
        );
    }

    #[test]
    fn malformed_escapes_are_named() {
        let malformed = "malformed percent-escape";
        assert_eq!(error("/v1/%G1"), (4, malformed.into()));
        assert_eq!(error("/v1/a%"), (5, malformed.into()));
        assert_eq!(error("/v1/a%2"), (5, malformed.into()));
        assert_eq!(error("/v1/{a=b%zz}"), (8, malformed.into()));
        assert_eq!(error("/v1:a%zz"), (5, malformed.into()));
    }

    #[test]
    fn size_is_bounded() {
        let longest = format!("/{}", "a".repeat(MAX_TEMPLATE_LEN - 1));
        assert!(PathTemplate::parse(&longest).is_ok());
        let too_long = format!("/{}", "a".repeat(MAX_TEMPLATE_LEN));
        assert_eq!(
            error(&too_long),
            (
                MAX_TEMPLATE_LEN,
                format!("the template is 4097 bytes, over the limit of {MAX_TEMPLATE_LEN}")
            )
        );
        let most = "/a".repeat(MAX_SEGMENTS);
        assert_eq!(
            PathTemplate::parse(&most).unwrap().segments.len(),
            MAX_SEGMENTS
        );
        let too_many = "/a".repeat(MAX_SEGMENTS + 1);
        assert_eq!(
            error(&too_many),
            (2 * MAX_SEGMENTS + 1, "more than 256 segments".into())
        );
        let deepest = format!("/{{{}}}", vec!["a"; MAX_FIELD_PATH_DEPTH].join("."));
        assert_eq!(
            PathTemplate::parse(&deepest)
                .unwrap()
                .variables()
                .next()
                .unwrap()
                .len(),
            MAX_FIELD_PATH_DEPTH
        );
        let too_deep = format!("/{{{}}}", vec!["a"; MAX_FIELD_PATH_DEPTH + 1].join("."));
        assert_eq!(
            error(&too_deep),
            (
                2 + 2 * MAX_FIELD_PATH_DEPTH,
                "a field path of more than 32 names".into()
            )
        );
    }

    #[test]
    fn display_prints_the_canonical_template() {
        for (written, canonical) in [
            ("/v1/{name=messages/*}", "/v1/{name=messages/*}"),
            ("/v1/{name=*}", "/v1/{name}"),
            ("/v1/{a.b}/x/{c=**}:verb", "/v1/{a.b}/x/{c=**}:verb"),
            ("/v1/*/**", "/v1/*/**"),
            ("/v1/%2f%41", "/v1/%2f%41"),
            ("/{a=x}/{b=*/y}", "/{a=x}/{b=*/y}"),
        ] {
            let template = PathTemplate::parse(written).unwrap();
            assert_eq!(template.to_string(), canonical);
            assert_eq!(PathTemplate::parse(canonical).unwrap(), template);
        }
    }

    #[test]
    fn errors_display_the_offset() {
        let e = PathTemplate::parse("/v1/{name").unwrap_err();
        assert_eq!(e.to_string(), "`{` is not closed, at byte 4");
        let boxed: Box<dyn std::error::Error> = Box::new(e);
        assert_eq!(boxed.to_string(), "`{` is not closed, at byte 4");
    }
}
