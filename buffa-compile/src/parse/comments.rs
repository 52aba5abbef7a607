//! Comments as protoc attaches them: the comment trailing the previous
//! token, comments detached from both tokens, and the comment leading the
//! next token, sorted while the tokenizer reads them.

/// The comments [`Tokenizer::next_with_comments`](super::tokenizer::Tokenizer::next_with_comments) sorts.
#[derive(Debug, Default)]
pub(crate) struct Comments {
    /// The comment trailing the previous token.
    pub(crate) trailing: Vec<u8>,
    /// Comments attached to neither token.
    pub(crate) detached: Vec<Vec<u8>>,
    /// The comment leading the next token.
    pub(crate) leading: Vec<u8>,
}

/// Sorts comments as they are read, as protoc's `CommentCollector` does.
pub(super) struct Collector<'c> {
    /// Where the sorted comments go.
    out: &'c mut Comments,
    /// The comment being read (consecutive line comments join).
    buffer: Vec<u8>,
    /// How many comments were sorted.
    count: usize,
    /// Whether a trailing comment was found.
    has_trailing: bool,
    /// Whether `buffer` holds a comment.
    has_comment: bool,
    /// Whether that comment is a line comment.
    is_line_comment: bool,
    /// Whether the next comment may still trail the previous token.
    pub(super) can_attach_to_prev: bool,
    /// Whether trailing comments are kept (else dropped).
    keep_trailing: bool,
}

impl<'c> Collector<'c> {
    /// A collector writing into `out`, which it clears.
    pub(super) fn new(out: &'c mut Comments, keep_trailing: bool) -> Collector<'c> {
        out.trailing.clear();
        out.detached.clear();
        out.leading.clear();
        Collector {
            out,
            buffer: Vec::new(),
            count: 0,
            has_trailing: false,
            has_comment: false,
            is_line_comment: false,
            can_attach_to_prev: true,
            keep_trailing,
        }
    }

    /// The buffer a line comment appends to (consecutive line comments
    /// form one comment).
    pub(super) fn buffer_for_line_comment(&mut self) -> &mut Vec<u8> {
        if self.has_comment && !self.is_line_comment {
            self.flush();
        }
        self.has_comment = true;
        self.is_line_comment = true;
        &mut self.buffer
    }

    /// The buffer a block comment is written to.
    pub(super) fn buffer_for_block_comment(&mut self) -> &mut Vec<u8> {
        if self.has_comment {
            self.flush();
        }
        self.has_comment = true;
        self.is_line_comment = false;
        &mut self.buffer
    }

    /// Ends the comment in the buffer: trailing if it may attach to the
    /// previous token, else detached.
    pub(super) fn flush(&mut self) {
        if self.has_comment {
            if self.can_attach_to_prev {
                if self.keep_trailing {
                    self.out.trailing.extend_from_slice(&self.buffer);
                }
                self.has_trailing = true;
                self.can_attach_to_prev = false;
            } else {
                self.out.detached.push(std::mem::take(&mut self.buffer));
            }
            self.buffer.clear();
            self.has_comment = false;
            self.count += 1;
        }
    }

    /// When the next token is on the line the comments ended on and there
    /// is one comment, it is detached rather than leading.
    pub(super) fn maybe_detach_comment(&mut self) {
        let count = self.count + usize::from(self.has_comment);
        if count == 1 {
            if self.has_trailing && self.keep_trailing {
                let trail = std::mem::take(&mut self.out.trailing);
                self.out.detached.insert(0, trail);
            }
            self.flush();
        }
    }

    /// The comment left in the buffer leads the next token.
    pub(super) fn finish(self) {
        if self.has_comment {
            self.out.leading = self.buffer;
        }
    }
}
