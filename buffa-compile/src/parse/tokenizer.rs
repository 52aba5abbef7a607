//! protoc's tokenizer: `.proto` text to tokens with their line and column
//! (0-based; a tab advances the column to the next multiple of 8), and the
//! comments between tokens sorted into trailing, detached and leading as
//! protoc sorts them.

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
fn is_octal(c: u8) -> bool {
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

/// The comments [`Tokenizer::next_with_comments`] sorts.
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
struct Collector<'c> {
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
    can_attach_to_prev: bool,
    /// Whether trailing comments are kept (else dropped).
    keep_trailing: bool,
}

impl<'c> Collector<'c> {
    /// A collector writing into `out`, which it clears.
    fn new(out: &'c mut Comments, keep_trailing: bool) -> Collector<'c> {
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
    fn buffer_for_line_comment(&mut self) -> &mut Vec<u8> {
        if self.has_comment && !self.is_line_comment {
            self.flush();
        }
        self.has_comment = true;
        self.is_line_comment = true;
        &mut self.buffer
    }

    /// The buffer a block comment is written to.
    fn buffer_for_block_comment(&mut self) -> &mut Vec<u8> {
        if self.has_comment {
            self.flush();
        }
        self.has_comment = true;
        self.is_line_comment = false;
        &mut self.buffer
    }

    /// Ends the comment in the buffer: trailing if it may attach to the
    /// previous token, else detached.
    fn flush(&mut self) {
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
    fn maybe_detach_comment(&mut self) {
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
    fn finish(self) {
        if self.has_comment {
            self.out.leading = self.buffer;
        }
    }
}

/// Parses an integer token's text (decimal, octal or hex) no greater than
/// `max`, as protoc's `Tokenizer::ParseInteger`.
pub(crate) fn parse_integer(text: &[u8], max: u64) -> Option<u64> {
    let (digits, base) = match text {
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16),
        [b'0', rest @ ..] => (rest, 8),
        _ => (text, 10),
    };
    let mut result: u64 = 0;
    for &c in digits {
        let digit = (c as char).to_digit(36)? as u64;
        if digit >= base {
            return None;
        }
        result = result.checked_mul(base)?.checked_add(digit)?;
    }
    (result <= max).then_some(result)
}

/// Parses a float token's text (or a decimal integer too large for 64
/// bits), as protoc's `Tokenizer::TryParseFloat`.
pub(crate) fn parse_float(text: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(text).ok()?;
    if text.starts_with('-') {
        return None;
    }
    // strtod stops before a dangling exponent ("1e"), which the
    // tokenizer has already reported.
    let trimmed = text.trim_end_matches(['e', 'E', '+', '-']);
    trimmed.parse::<f64>().ok()
}

/// Appends the bytes a string token (quotes included) stands for, as
/// protoc's `Tokenizer::ParseStringAppend` decodes them: lenient, since
/// the tokenizer has reported bad escapes already.
pub(crate) fn parse_string_append(text: &[u8], out: &mut Vec<u8>) {
    let Some(&quote) = text.first() else {
        return;
    };
    let at = |i: usize| text.get(i).copied().unwrap_or(0);
    let hex = |c: u8| (c as char).to_digit(16);
    let mut i = 1;
    while i < text.len() {
        let c = text[i];
        if c == b'\\' && i + 1 < text.len() {
            i += 1;
            let e = text[i];
            if is_octal(e) {
                let mut code = u32::from(e - b'0');
                for _ in 0..2 {
                    if is_octal(at(i + 1)) {
                        i += 1;
                        code = code * 8 + u32::from(text[i] - b'0');
                    }
                }
                out.push(code as u8);
            } else if e == b'x' || e == b'X' {
                let mut code = 0;
                for _ in 0..2 {
                    if let Some(d) = hex(at(i + 1)) {
                        i += 1;
                        code = code * 16 + d;
                    }
                }
                out.push(code as u8);
            } else if e == b'u' || e == b'U' {
                match fetch_code_point(text, i) {
                    Some((code_point, end)) => {
                        append_utf8(code_point, out);
                        i = end - 1;
                    }
                    None => out.push(e),
                }
            } else {
                out.push(match e {
                    b'a' => 0x07,
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'v' => 0x0b,
                    b'\\' | b'?' | b'\'' | b'"' => e,
                    _ => b'?',
                });
            }
        } else if c == quote && i + 1 == text.len() {
            // The closing quote.
        } else {
            out.push(c);
        }
        i += 1;
    }
}

/// Reads the code point of the `\u` or `\U` escape whose letter is at
/// `at`, pairing UTF-16 surrogates; the code point and the offset after it.
fn fetch_code_point(text: &[u8], at: usize) -> Option<(u32, usize)> {
    let len = if text[at] == b'u' { 4 } else { 8 };
    let read = |from: usize, len: usize| -> Option<u32> {
        let digits = text.get(from..from + len)?;
        digits.iter().try_fold(0u32, |acc, &c| {
            Some(acc.wrapping_shl(4) + (c as char).to_digit(16)?)
        })
    };
    let mut code_point = read(at + 1, len)?;
    let mut end = at + 1 + len;
    let trail = ((0xd800..0xdc00).contains(&code_point) && text.get(end..end + 2) == Some(b"\\u"))
        .then(|| read(end + 2, 4))
        .flatten()
        .filter(|t| (0xdc00..0xe000).contains(t));
    if let Some(trail) = trail {
        code_point = 0x10000 + (((code_point - 0xd800) << 10) | (trail - 0xdc00));
        end += 6;
    }
    Some((code_point, end))
}

/// Appends `code_point` as UTF-8 (surrogates too, as protoc does), or as
/// `\Uxxxxxxxx` text when it is beyond Unicode.
fn append_utf8(code_point: u32, out: &mut Vec<u8>) {
    let c = code_point;
    match c {
        0..=0x7f => out.push(c as u8),
        0x80..=0x7ff => out.extend([0xc0 | (c >> 6) as u8, 0x80 | (c & 0x3f) as u8]),
        0x800..=0xffff => out.extend([
            0xe0 | (c >> 12) as u8,
            0x80 | ((c >> 6) & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ]),
        0x10000..=0x10ffff => out.extend([
            0xf0 | (c >> 18) as u8,
            0x80 | ((c >> 12) & 0x3f) as u8,
            0x80 | ((c >> 6) & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ]),
        _ => out.extend_from_slice(format!("\\U{c:08x}").as_bytes()),
    }
}
