//! protoc's tokenizer: `.proto` text to tokens with their line and column
//! (0-based; a tab advances the column to the next multiple of 8), and the
//! comments between tokens sorted into trailing, detached and leading as
//! protoc sorts them.

use super::comments::{Collector, Comments};

/// What kind of token a [`Token`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Before the first token.
    Start,
    /// After the last token.
    End,
    /// A letter or `_`, then letters, digits and `_`.
    Identifier,
    /// A decimal, octal (`0` first) or hexadecimal (`0x`) integer.
    Integer,
    /// A number with a decimal point or an exponent.
    Float,
    /// A quoted string, quotes and escapes included.
    String,
    /// Any other single byte.
    Symbol,
    /// A run of spaces (reported only inside aggregate option values).
    Whitespace,
    /// A line break (reported only inside aggregate option values).
    Newline,
}

/// One token: its kind, its text as written and where it is.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    /// The token's kind.
    pub(crate) kind: Kind,
    /// The token's bytes as written.
    pub(crate) text: Vec<u8>,
    /// 0-based line of the first byte.
    pub(crate) line: i32,
    /// 0-based column of the first byte.
    pub(crate) column: i32,
    /// 0-based column just after the last byte.
    pub(crate) end_column: i32,
}

impl Token {
    /// The start token, before anything is read.
    fn start() -> Token {
        Token {
            kind: Kind::Start,
            text: Vec::new(),
            line: 0,
            column: 0,
            end_column: 0,
        }
    }
}

/// Where a comment begins, if one begins at the current byte.
enum CommentStart {
    /// `//`.
    Line,
    /// `/*`.
    Block,
    /// A `/` that starts no comment: it became the current token.
    SlashNotComment,
    /// Anything else.
    None,
}

/// The tokenizer: reads `text` byte by byte, tracking line and column.
pub(crate) struct Tokenizer<'a> {
    /// The text being read.
    input: &'a [u8],
    /// The offset of the current byte.
    pos: usize,
    /// The byte at `pos`, 0 at the end.
    ch: u8,
    /// Whether the whole text was read.
    at_end: bool,
    /// 0-based line of the current byte.
    line: i32,
    /// 0-based column of the current byte (tabs to multiples of 8).
    column: i32,
    /// The token being looked at.
    current: Token,
    /// The token before it.
    previous: Token,
    /// Where the current token's text began.
    token_start: usize,
    /// The comment being recorded into `record_buffer`, from this offset.
    record_start: Option<usize>,
    /// Whitespace runs are tokens (inside aggregate values).
    pub(crate) report_whitespace: bool,
    /// Line breaks are tokens (inside aggregate values).
    pub(crate) report_newlines: bool,
    /// Errors found so far: line, column, message.
    pub(crate) errors: Vec<(i32, i32, String)>,
}

/// `\t`, `\n`, `\v`, `\f`, `\r` and space.
fn is_whitespace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Whitespace other than `\n`.
fn is_whitespace_no_newline(c: u8) -> bool {
    c != b'\n' && is_whitespace(c)
}

/// Control bytes 1 to 31.
fn is_unprintable(c: u8) -> bool {
    (1..b' ').contains(&c)
}

/// A letter or `_`.
fn is_letter(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// A letter, `_` or digit.
fn is_alphanumeric(c: u8) -> bool {
    is_letter(c) || c.is_ascii_digit()
}

/// An octal digit.
pub(super) fn is_octal(c: u8) -> bool {
    (b'0'..=b'7').contains(&c)
}

/// The letters of the simple escapes (`\n`, `\\`, ...).
fn is_escape(c: u8) -> bool {
    b"abfnrtv\\?'\"".contains(&c)
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer at the start of `input`.
    pub(crate) fn new(input: &'a [u8]) -> Tokenizer<'a> {
        Tokenizer {
            input,
            pos: 0,
            ch: input.first().copied().unwrap_or(0),
            at_end: input.is_empty(),
            line: 0,
            column: 0,
            current: Token::start(),
            previous: Token::start(),
            token_start: 0,
            record_start: None,
            report_whitespace: false,
            report_newlines: false,
            errors: Vec::new(),
        }
    }

    /// The token being looked at.
    pub(crate) fn current(&self) -> &Token {
        &self.current
    }

    /// The token before the current one.
    pub(crate) fn previous(&self) -> &Token {
        &self.previous
    }

    /// Records an error at the current position.
    fn error(&mut self, message: &str) {
        self.errors
            .push((self.line, self.column, message.to_owned()));
    }

    /// Advances one byte.
    fn next_char(&mut self) {
        if self.at_end {
            return;
        }
        if self.ch == b'\n' {
            self.line += 1;
            self.column = 0;
        } else if self.ch == b'\t' {
            self.column += 8 - self.column % 8;
        } else {
            self.column += 1;
        }
        self.pos += 1;
        match self.input.get(self.pos) {
            Some(&c) => self.ch = c,
            None => {
                self.ch = 0;
                self.at_end = true;
            }
        }
    }

    /// Consumes `c` if it is the current byte.
    fn try_consume(&mut self, c: u8) -> bool {
        if !self.at_end && self.ch == c {
            self.next_char();
            true
        } else {
            false
        }
    }

    /// Consumes the current byte if it is in `class`.
    fn try_consume_one(&mut self, class: fn(u8) -> bool) -> bool {
        if !self.at_end && class(self.ch) {
            self.next_char();
            true
        } else {
            false
        }
    }

    /// Whether the current byte is in `class`.
    fn looking_at(&self, class: fn(u8) -> bool) -> bool {
        !self.at_end && class(self.ch)
    }

    /// Consumes bytes while they are in `class`.
    fn consume_zero_or_more(&mut self, class: fn(u8) -> bool) {
        while self.looking_at(class) {
            self.next_char();
        }
    }

    /// Consumes at least one byte of `class`, or records `error`.
    fn consume_one_or_more(&mut self, class: fn(u8) -> bool, error: &str) {
        if !self.looking_at(class) {
            self.error(error);
        } else {
            self.consume_zero_or_more(class);
        }
    }

    /// Starts a token at the current position.
    fn start_token(&mut self) {
        self.current.kind = Kind::Start;
        self.current.text.clear();
        self.current.line = self.line;
        self.current.column = self.column;
        self.token_start = self.pos;
    }

    /// Ends the token started by [`Tokenizer::start_token`] here.
    fn end_token(&mut self) {
        self.current.text.clear();
        self.current
            .text
            .extend_from_slice(&self.input[self.token_start..self.pos]);
        self.current.end_column = self.column;
    }

    /// Starts recording comment text at the current byte.
    fn record(&mut self) {
        self.record_start = Some(self.pos);
    }

    /// Appends what was recorded since [`Tokenizer::record`] to `buffer`.
    fn stop_recording(&mut self, buffer: &mut Vec<u8>) {
        if let Some(start) = self.record_start.take() {
            buffer.extend_from_slice(&self.input[start..self.pos]);
        }
    }

    /// Consumes a string literal's body after its opening `delimiter`.
    fn consume_string(&mut self, delimiter: u8) {
        loop {
            if self.at_end || self.ch == 0 {
                self.error("Unexpected end of string.");
                return;
            }
            match self.ch {
                b'\n' => {
                    self.error("Multiline strings are not allowed. Did you miss a \"?.");
                    return;
                }
                b'\\' => {
                    self.next_char();
                    if self.try_consume_one(is_escape) || self.try_consume_one(is_octal) {
                    } else if self.try_consume(b'x') || self.try_consume(b'X') {
                        if !self.try_consume_one(|c| c.is_ascii_hexdigit()) {
                            self.error("Expected hex digits for escape sequence.");
                        }
                    } else if self.try_consume(b'u') {
                        if !(0..4).all(|_| self.try_consume_one(|c| c.is_ascii_hexdigit())) {
                            self.error("Expected four hex digits for \\u escape sequence.");
                        }
                    } else if self.try_consume(b'U') {
                        let ok = self.try_consume(b'0')
                            && self.try_consume(b'0')
                            && (self.try_consume(b'0') || self.try_consume(b'1'))
                            && (0..5).all(|_| self.try_consume_one(|c| c.is_ascii_hexdigit()));
                        if !ok {
                            self.error(
                                "Expected eight hex digits up to 10ffff for \\U escape sequence",
                            );
                        }
                    } else {
                        self.error("Invalid escape sequence in string literal.");
                    }
                }
                c => {
                    self.next_char();
                    if c == delimiter {
                        return;
                    }
                }
            }
        }
    }

    /// Consumes a number's remaining bytes; whether it is a float.
    fn consume_number(&mut self, started_with_zero: bool, started_with_dot: bool) -> Kind {
        let mut is_float = false;
        if started_with_zero && (self.try_consume(b'x') || self.try_consume(b'X')) {
            self.consume_one_or_more(
                |c| c.is_ascii_hexdigit(),
                "\"0x\" must be followed by hex digits.",
            );
        } else if started_with_zero && self.looking_at(|c| c.is_ascii_digit()) {
            self.consume_zero_or_more(is_octal);
            if self.looking_at(|c| c.is_ascii_digit()) {
                self.error("Numbers starting with leading zero must be in octal.");
                self.consume_zero_or_more(|c| c.is_ascii_digit());
            }
        } else {
            if started_with_dot {
                is_float = true;
                self.consume_zero_or_more(|c| c.is_ascii_digit());
            } else {
                self.consume_zero_or_more(|c| c.is_ascii_digit());
                if self.try_consume(b'.') {
                    is_float = true;
                    self.consume_zero_or_more(|c| c.is_ascii_digit());
                }
            }
            if self.try_consume(b'e') || self.try_consume(b'E') {
                is_float = true;
                let _ = self.try_consume(b'-') || self.try_consume(b'+');
                self.consume_one_or_more(
                    |c| c.is_ascii_digit(),
                    "\"e\" must be followed by exponent.",
                );
            }
        }
        if self.looking_at(is_letter) {
            self.error("Need space between number and identifier.");
        } else if self.looking_at(|c| c == b'.') {
            if is_float {
                self.error("Already saw decimal point or exponent; can't have another one.");
            } else {
                self.error("Hex and octal numbers must be integers.");
            }
        }
        if is_float { Kind::Float } else { Kind::Integer }
    }

    /// Consumes a line comment's text after `//`, through its `\n`.
    fn consume_line_comment(&mut self, content: Option<&mut Vec<u8>>) {
        if content.is_some() {
            self.record();
        }
        while !self.at_end && self.ch != 0 && self.ch != b'\n' {
            self.next_char();
        }
        self.try_consume(b'\n');
        if let Some(buffer) = content {
            self.stop_recording(buffer);
        }
    }

    /// Consumes a block comment's text after `/*`, through its `*/`.
    fn consume_block_comment(&mut self, mut content: Option<&mut Vec<u8>>) {
        let start_line = self.line;
        let start_column = self.column - 2;
        if content.is_some() {
            self.record();
        }
        loop {
            while !self.at_end && !matches!(self.ch, 0 | b'*' | b'/' | b'\n') {
                self.next_char();
            }
            if self.try_consume(b'\n') {
                if let Some(buffer) = content.as_deref_mut() {
                    self.stop_recording(buffer);
                }
                self.consume_zero_or_more(is_whitespace_no_newline);
                if self.try_consume(b'*') && self.try_consume(b'/') {
                    break;
                }
                if content.is_some() {
                    self.record();
                }
            } else if self.try_consume(b'*') && self.try_consume(b'/') {
                if let Some(buffer) = content.as_deref_mut() {
                    self.stop_recording(buffer);
                    buffer.truncate(buffer.len().saturating_sub(2));
                }
                break;
            } else if self.try_consume(b'/') && self.ch == b'*' && !self.at_end {
                self.error("\"/*\" inside block comment.  Block comments cannot be nested.");
            } else if self.at_end || self.ch == 0 {
                self.error("End-of-file inside block comment.");
                self.errors
                    .push((start_line, start_column, "  Comment started here.".into()));
                if let Some(buffer) = content.as_deref_mut() {
                    self.stop_recording(buffer);
                }
                break;
            }
        }
    }

    /// Consumes the start of a comment, if one starts here.
    fn try_consume_comment_start(&mut self) -> CommentStart {
        if self.try_consume(b'/') {
            if self.try_consume(b'/') {
                CommentStart::Line
            } else if self.try_consume(b'*') {
                CommentStart::Block
            } else {
                self.current.kind = Kind::Symbol;
                self.current.text.clear();
                self.current.text.push(b'/');
                self.current.line = self.line;
                self.current.column = self.column - 1;
                self.current.end_column = self.column;
                CommentStart::SlashNotComment
            }
        } else {
            CommentStart::None
        }
    }

    /// Consumes whitespace; whether it is a token to report.
    fn try_consume_whitespace(&mut self) -> bool {
        if self.report_newlines {
            if self.try_consume_one(is_whitespace_no_newline) {
                self.consume_zero_or_more(is_whitespace_no_newline);
                self.current.kind = Kind::Whitespace;
                return true;
            }
            return false;
        }
        if self.try_consume_one(is_whitespace) {
            self.consume_zero_or_more(is_whitespace);
            self.current.kind = Kind::Whitespace;
            return self.report_whitespace;
        }
        false
    }

    /// Consumes a line break when line breaks are tokens.
    fn try_consume_newline(&mut self) -> bool {
        if !self.report_whitespace || !self.report_newlines {
            return false;
        }
        if self.try_consume(b'\n') {
            self.current.kind = Kind::Newline;
            return true;
        }
        false
    }

    /// Reads the next token, skipping comments; false at the end.
    pub(crate) fn next(&mut self) -> bool {
        // The old previous token's buffer is reused for the new current one
        // (every path below sets all of its fields).
        std::mem::swap(&mut self.previous, &mut self.current);
        while !self.at_end {
            self.start_token();
            let report = self.try_consume_whitespace() || self.try_consume_newline();
            self.end_token();
            if report {
                return true;
            }
            match self.try_consume_comment_start() {
                CommentStart::Line => {
                    self.consume_line_comment(None);
                    continue;
                }
                CommentStart::Block => {
                    self.consume_block_comment(None);
                    continue;
                }
                CommentStart::SlashNotComment => return true,
                CommentStart::None => {}
            }
            if self.at_end {
                break;
            }
            if self.looking_at(is_unprintable) || self.ch == 0 {
                self.error("Invalid control characters encountered in text.");
                self.next_char();
                while self.try_consume_one(is_unprintable) || self.try_consume(0) {}
            } else {
                self.start_token();
                if self.try_consume_one(is_letter) {
                    self.consume_zero_or_more(is_alphanumeric);
                    self.current.kind = Kind::Identifier;
                } else if self.try_consume(b'0') {
                    self.current.kind = self.consume_number(true, false);
                } else if self.try_consume(b'.') {
                    if self.try_consume_one(|c| c.is_ascii_digit()) {
                        if self.previous.kind == Kind::Identifier
                            && self.current.line == self.previous.line
                            && self.current.column == self.previous.end_column
                        {
                            self.errors.push((
                                self.line,
                                self.column - 2,
                                "Need space between identifier and decimal point.".into(),
                            ));
                        }
                        self.current.kind = self.consume_number(false, true);
                    } else {
                        self.current.kind = Kind::Symbol;
                    }
                } else if self.try_consume_one(|c| c.is_ascii_digit()) {
                    self.current.kind = self.consume_number(false, false);
                } else if self.try_consume(b'"') {
                    self.consume_string(b'"');
                    self.current.kind = Kind::String;
                } else if self.try_consume(b'\'') {
                    self.consume_string(b'\'');
                    self.current.kind = Kind::String;
                } else {
                    if self.ch & 0x80 != 0 {
                        self.error(&format!("Interpreting non ascii codepoint {}.", self.ch));
                    }
                    self.next_char();
                    self.current.kind = Kind::Symbol;
                }
                self.end_token();
                return true;
            }
        }
        self.current.kind = Kind::End;
        self.current.text.clear();
        self.current.line = self.line;
        self.current.column = self.column;
        self.current.end_column = self.column;
        false
    }

    /// Reads the next token as [`Tokenizer::next`] does, sorting the
    /// comments before it: the previous token's trailing comment, comments
    /// detached from both, and the next token's leading comment.
    ///
    /// Without `keep_trailing` the trailing comment is dropped, as protoc
    /// drops it where it passes no buffer for it.
    pub(crate) fn next_with_comments(
        &mut self,
        comments: &mut Comments,
        keep_trailing: bool,
    ) -> bool {
        let mut collector = Collector::new(comments, keep_trailing);
        let mut prev_line = self.line;
        let mut trailing_comment_end_line = -1;
        if self.current.kind == Kind::Start {
            if self.try_consume(0xEF) && !(self.try_consume(0xBB) && self.try_consume(0xBF)) {
                self.error(
                    "Proto file starts with 0xEF but not UTF-8 BOM. Only UTF-8 is accepted for proto file.",
                );
                collector.finish();
                return false;
            }
            collector.can_attach_to_prev = false;
            prev_line = -1;
        } else {
            self.consume_zero_or_more(is_whitespace_no_newline);
            match self.try_consume_comment_start() {
                CommentStart::Line => {
                    trailing_comment_end_line = self.line;
                    let buffer = collector.buffer_for_line_comment();
                    self.consume_line_comment(Some(buffer));
                    collector.flush();
                }
                CommentStart::Block => {
                    let buffer = collector.buffer_for_block_comment();
                    self.consume_block_comment(Some(buffer));
                    trailing_comment_end_line = self.line;
                    self.consume_zero_or_more(is_whitespace_no_newline);
                    collector.flush();
                }
                CommentStart::SlashNotComment => {
                    collector.finish();
                    return true;
                }
                CommentStart::None => {
                    if !self.try_consume(b'\n') {
                        collector.finish();
                        return self.next();
                    }
                }
            }
        }
        loop {
            self.consume_zero_or_more(is_whitespace_no_newline);
            match self.try_consume_comment_start() {
                CommentStart::Line => {
                    let buffer = collector.buffer_for_line_comment();
                    self.consume_line_comment(Some(buffer));
                }
                CommentStart::Block => {
                    let buffer = collector.buffer_for_block_comment();
                    self.consume_block_comment(Some(buffer));
                    self.consume_zero_or_more(is_whitespace_no_newline);
                    self.try_consume(b'\n');
                }
                CommentStart::SlashNotComment => {
                    collector.finish();
                    return true;
                }
                CommentStart::None => {
                    if self.try_consume(b'\n') {
                        collector.flush();
                        collector.can_attach_to_prev = false;
                    } else {
                        let result = self.next();
                        if !result || matches!(self.current.text.as_slice(), b"}" | b"]" | b")") {
                            collector.flush();
                        }
                        if result
                            && (prev_line == self.line || trailing_comment_end_line == self.line)
                        {
                            collector.maybe_detach_comment();
                        }
                        collector.finish();
                        return result;
                    }
                }
            }
        }
    }
}
