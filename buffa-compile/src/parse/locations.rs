//! `SourceCodeInfo` as protoc's parser records it: a location is added
//! when the parser starts an element (in that order), starts at the token
//! then current, and ends at the last token the element consumed; comments
//! attach to the location a declaration's `;`, `{` or `}` closes.

use buffa_types::google::protobuf::source_code_info::Location;

use super::tokenizer::Token;

/// The index of a location being recorded.
pub(crate) type Loc = usize;

/// The locations recorded so far, in protoc's order.
#[derive(Debug, Default)]
pub(crate) struct Locations {
    /// The locations, each with its path, span and comments.
    pub(crate) list: Vec<Location>,
}

impl Locations {
    /// Starts a location at `at` whose path is `parent`'s (if any) followed
    /// by `path`.
    pub(crate) fn start(&mut self, parent: Option<Loc>, path: &[i32], at: &Token) -> Loc {
        // Sized once: the parent's path, `path`, and the component or two
        // `add_path` may append; a span has at most four numbers.
        let parent_path = parent.map_or(&[][..], |p| self.list[p].path.as_slice());
        let mut full = Vec::with_capacity(parent_path.len() + path.len() + 2);
        full.extend_from_slice(parent_path);
        full.extend_from_slice(path);
        let mut span = Vec::with_capacity(4);
        span.extend([at.line, at.column]);
        self.list.push(Location {
            path: full,
            span,
            ..Default::default()
        });
        self.list.len() - 1
    }

    /// Appends a component to `loc`'s path.
    pub(crate) fn add_path(&mut self, loc: Loc, component: i32) {
        self.list[loc].path.push(component);
    }

    /// The length of `loc`'s path.
    pub(crate) fn path_len(&self, loc: Loc) -> usize {
        self.list[loc].path.len()
    }

    /// Moves `loc`'s start to `line`, `column`.
    pub(crate) fn start_at(&mut self, loc: Loc, line: i32, column: i32) {
        let span = &mut self.list[loc].span;
        span[0] = line;
        span[1] = column;
    }

    /// Moves `loc`'s start to `other`'s.
    pub(crate) fn start_at_loc(&mut self, loc: Loc, other: Loc) {
        let (line, column) = (self.list[other].span[0], self.list[other].span[1]);
        self.start_at(loc, line, column);
    }

    /// Ends `loc` after `token`: three span numbers when it ends on the line
    /// it starts on, else four.
    pub(crate) fn end_at(&mut self, loc: Loc, token: &Token) {
        let span = &mut self.list[loc].span;
        if token.line != span[0] {
            span.push(token.line);
        }
        span.push(token.end_column);
    }

    /// Finishes `loc` after `previous` (the last token consumed) unless it
    /// was ended explicitly: what protoc's `LocationRecorder` destructor
    /// does.
    pub(crate) fn finish(&mut self, loc: Loc, previous: &Token) {
        if self.list[loc].span.len() <= 2 {
            self.end_at(loc, previous);
        }
    }

    /// Attaches a declaration's comments to `loc`.
    pub(crate) fn attach_comments(
        &mut self,
        loc: Loc,
        leading: Vec<u8>,
        trailing: Vec<u8>,
        detached: Vec<Vec<u8>>,
    ) {
        let location = &mut self.list[loc];
        if !leading.is_empty() {
            location.leading_comments = Some(text(leading));
        }
        if !trailing.is_empty() {
            location.trailing_comments = Some(text(trailing));
        }
        location
            .leading_detached_comments
            .extend(detached.into_iter().map(text));
    }
}

/// A comment's bytes as a string (they are whole lines or ASCII-delimited
/// pieces of valid UTF-8 text, so nothing is lost).
fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
