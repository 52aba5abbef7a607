//! The text format's tokens, with the line and column where each starts.
//!
//! The lexical rules are C++ protobuf's (`io::Tokenizer` as its text
//! parser configures it): `#` comments, identifiers of ASCII letters,
//! digits and `_`, decimal, octal (`017`) and hex (`0x1F`) integers,
//! floats with an optional `f`/`F` suffix (`1.5`, `.5`, `1e3`, `2f`),
//! quoted strings that end on the line they start, and every other
//! printable ASCII character as a one-character symbol. A number may not
//! run into a letter (`1a`), and nothing outside a string may be a control
//! character or non-ASCII.

use super::TextError;

/// What kind of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// `[A-Za-z_][A-Za-z0-9_]*`.
    Identifier,
    /// A decimal, octal or hex integer, unsigned.
    Integer,
    /// A decimal number with a point, an exponent or an `f` suffix,
    /// unsigned.
    Float,
    /// A quoted string, quotes and escapes included as written.
    String,
    /// Any other single character.
    Symbol,
    /// The end of the input.
    End,
}

/// One token: its kind, its text as written, and where it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a str,
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
}

impl Token<'_> {
    /// Whether this is the symbol `symbol`.
    pub fn is_symbol(&self, symbol: char) -> bool {
        self.kind == TokenKind::Symbol && self.text.starts_with(symbol)
    }

    /// The token as error messages quote it.
    pub fn describe(&self) -> String {
        match self.kind {
            TokenKind::End => "end of input".to_owned(),
            _ => format!("`{}`", truncate(self.text)),
        }
    }
}

/// At most 40 characters of `text`, for error messages.
pub(crate) fn truncate(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

/// Splits the input into tokens, one at a time.
pub(crate) struct Lexer<'a> {
    input: &'a str,
    /// Byte offset of the next character.
    pos: usize,
    line: u32,
    column: u32,
    /// Where the last identifier ended, to reject `name.5`.
    identifier_end: Option<usize>,
}

impl<'a> Lexer<'a> {
    pub fn new(input: &'a str) -> Lexer<'a> {
        Lexer {
            input,
            pos: 0,
            line: 1,
            column: 1,
            identifier_end: None,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.as_bytes().get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.input.as_bytes().get(self.pos + ahead).copied()
    }

    /// Consumes one character (which may be several bytes).
    fn bump(&mut self) {
        let Some(c) = self.input[self.pos..].chars().next() else {
            return;
        };
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
    }

    fn bump_if(&mut self, accept: impl Fn(u8) -> bool) -> bool {
        match self.peek() {
            Some(b) if accept(b) => {
                self.bump();
                true
            }
            _ => false,
        }
    }

    fn bump_while(&mut self, accept: impl Fn(u8) -> bool) {
        while self.bump_if(&accept) {}
    }

    fn error_here(&self, message: impl Into<String>) -> TextError {
        TextError::new(self.line, self.column, message)
    }

    /// Skips whitespace and comments.
    fn skip_trivia(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\n' | b'\t' | b'\r' | 0x0b | 0x0c) => self.bump(),
                Some(b'#') => self.bump_while(|b| b != b'\n'),
                _ => return,
            }
        }
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Token<'a>, TextError> {
        self.skip_trivia();
        let start = self.pos;
        let (line, column) = (self.line, self.column);
        let Some(first) = self.peek() else {
            return Ok(Token {
                kind: TokenKind::End,
                text: "",
                line,
                column,
            });
        };
        let follows_identifier = self.identifier_end == Some(start);
        self.identifier_end = None;
        let kind = match first {
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                self.bump_while(|b| b.is_ascii_alphanumeric() || b == b'_');
                self.identifier_end = Some(self.pos);
                TokenKind::Identifier
            }
            b'0'..=b'9' => self.number()?,
            b'.' if self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) => {
                if follows_identifier {
                    return Err(self.error_here("need space between identifier and decimal point"));
                }
                self.number()?
            }
            b'"' | b'\'' => {
                self.string(first)?;
                TokenKind::String
            }
            0x00..=0x1f | 0x7f => {
                return Err(
                    self.error_here(format!("invalid control character {first:#04x} in text"))
                );
            }
            0x80.. => {
                let c = self.input[self.pos..].chars().next().unwrap_or('\u{fffd}');
                return Err(self.error_here(format!(
                    "unexpected non-ASCII character {c:?} outside a string"
                )));
            }
            _ => {
                self.bump();
                TokenKind::Symbol
            }
        };
        Ok(Token {
            kind,
            text: &self.input[start..self.pos],
            line,
            column,
        })
    }

    /// A number starting at the current digit (or `.` before a digit).
    fn number(&mut self) -> Result<TokenKind, TextError> {
        let mut is_float = false;
        let is_hex_or_octal;
        if self.peek() == Some(b'0') && matches!(self.peek_at(1), Some(b'x' | b'X')) {
            self.bump();
            self.bump();
            if !self.bump_if(|b| b.is_ascii_hexdigit()) {
                return Err(self.error_here("\"0x\" must be followed by hex digits"));
            }
            self.bump_while(|b| b.is_ascii_hexdigit());
            is_hex_or_octal = true;
        } else if self.peek() == Some(b'0') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            self.bump();
            self.bump_while(|b| (b'0'..=b'7').contains(&b));
            if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(self.error_here("numbers starting with 0 must be in octal"));
            }
            is_hex_or_octal = true;
        } else {
            is_hex_or_octal = false;
            self.bump_while(|b| b.is_ascii_digit());
            if self.bump_if(|b| b == b'.') {
                is_float = true;
                self.bump_while(|b| b.is_ascii_digit());
            }
            if self.bump_if(|b| b == b'e' || b == b'E') {
                is_float = true;
                self.bump_if(|b| b == b'-' || b == b'+');
                if !self.bump_if(|b| b.is_ascii_digit()) {
                    return Err(self.error_here("\"e\" must be followed by an exponent"));
                }
                self.bump_while(|b| b.is_ascii_digit());
            }
            if self.bump_if(|b| b == b'f' || b == b'F') {
                is_float = true;
            }
        }
        match self.peek() {
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => {
                Err(self.error_here("need space between number and identifier"))
            }
            Some(b'.') if is_hex_or_octal => {
                Err(self.error_here("hex and octal numbers must be integers"))
            }
            Some(b'.') => {
                Err(self
                    .error_here("already saw a decimal point or exponent; cannot have another one"))
            }
            _ if is_float => Ok(TokenKind::Float),
            _ => Ok(TokenKind::Integer),
        }
    }

    /// A string literal; only its end is found here, its escapes are read
    /// by [`super::escape::unescape`].
    fn string(&mut self, quote: u8) -> Result<(), TextError> {
        self.bump();
        loop {
            match self.peek() {
                None => return Err(self.error_here("unexpected end of input in a string")),
                Some(b'\n') => {
                    return Err(self.error_here("string literals cannot span lines"));
                }
                Some(0) => return Err(self.error_here("NUL character in a string")),
                Some(b'\\') => {
                    self.bump();
                    // The escaped character, whatever it is, does not end
                    // the string; a line break or the end still do.
                    if !matches!(self.peek(), None | Some(b'\n' | 0)) {
                        self.bump();
                    }
                }
                Some(b) if b == quote => {
                    self.bump();
                    return Ok(());
                }
                Some(_) => self.bump(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Result<Vec<(TokenKind, &str)>, TextError> {
        let mut lexer = Lexer::new(input);
        let mut out = Vec::new();
        loop {
            let token = lexer.next_token()?;
            if token.kind == TokenKind::End {
                return Ok(out);
            }
            out.push((token.kind, token.text));
        }
    }

    #[test]
    fn splits_tokens() {
        use TokenKind::*;
        assert_eq!(
            kinds("a_1: -0x1F # comment\n[b.c] { 017 .5 1e-3 2f 1.F 'x\\'y' }").unwrap(),
            vec![
                (Identifier, "a_1"),
                (Symbol, ":"),
                (Symbol, "-"),
                (Integer, "0x1F"),
                (Symbol, "["),
                (Identifier, "b"),
                (Symbol, "."),
                (Identifier, "c"),
                (Symbol, "]"),
                (Symbol, "{"),
                (Integer, "017"),
                (Float, ".5"),
                (Float, "1e-3"),
                (Float, "2f"),
                (Float, "1.F"),
                (String, "'x\\'y'"),
                (Symbol, "}"),
            ]
        );
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let mut lexer = Lexer::new("a:\n  \"é\" b");
        let mut positions = Vec::new();
        loop {
            let token = lexer.next_token().unwrap();
            positions.push((token.line, token.column));
            if token.kind == TokenKind::End {
                break;
            }
        }
        assert_eq!(positions, [(1, 1), (1, 2), (2, 3), (2, 7), (2, 8)]);
    }

    #[test]
    fn rejects_malformed_tokens() {
        for (input, line, column) in [
            ("1a", 1, 2),
            ("08", 1, 2),
            ("0x", 1, 3),
            ("0x1.5", 1, 4),
            ("1.5.2", 1, 4),
            ("1e", 1, 3),
            ("x.5", 1, 2),
            ("'abc", 1, 5),
            ("'a\nb'", 1, 3),
            ("a\u{1}", 1, 2),
            ("\n é", 2, 2),
        ] {
            let error = kinds(input).expect_err(input);
            assert_eq!(
                (error.line(), error.column()),
                (line, column),
                "{input}: {error}"
            );
        }
    }
}
