//! Skipping the value of a field the message does not have (with
//! [`ParseOptions::allow_unknown_fields`](super::ParseOptions), or a
//! reserved name), as C++ protobuf skips it: the value must still be well
//! formed, and its shape is guessed from the text, since no descriptor
//! tells it.

use super::TextError;
use super::lexer::TokenKind;
use super::parse::{Parser, error_at};

impl Parser<'_, '_> {
    /// Skips a field's value, after its name: `: value`, `: [values]`, or
    /// a message with or without `:`.
    pub(super) fn skip_value(&mut self) -> Result<(), TextError> {
        if self.try_symbol(':')? && !self.token.is_symbol('{') && !self.token.is_symbol('<') {
            if self.try_symbol('[')? {
                if self.try_symbol(']')? {
                    return Ok(());
                }
                loop {
                    if self.token.is_symbol('{') || self.token.is_symbol('<') {
                        self.skip_message()?;
                    } else {
                        self.skip_scalar()?;
                    }
                    if self.try_symbol(']')? {
                        return Ok(());
                    }
                    self.expect_symbol(',')?;
                }
            }
            return self.skip_scalar();
        }
        self.skip_message()
    }

    /// Skips `{ fields }` or `< fields >`.
    fn skip_message(&mut self) -> Result<(), TextError> {
        let close = self.open_message()?;
        loop {
            if self.try_symbol(close)? {
                self.close_message();
                return Ok(());
            }
            if self.token.kind == TokenKind::End {
                return Err(self.unexpected(&format!("`{close}`")));
            }
            // A field name, an extension name or an Any's type URL.
            if self.try_symbol('[')? {
                self.dotted_name()?;
                if self.try_symbol('/')? {
                    self.dotted_name()?;
                }
                self.expect_symbol(']')?;
            } else {
                self.expect_identifier()?;
            }
            self.skip_value()?;
            self.separator()?;
        }
    }

    /// Skips a scalar: strings, or a number or identifier with an optional
    /// `-` (then only a number, `inf`, `infinity` or `nan`).
    fn skip_scalar(&mut self) -> Result<(), TextError> {
        if self.token.kind == TokenKind::String {
            self.string()?;
            return Ok(());
        }
        let negative = self.try_symbol('-')?;
        let token = self.token;
        match token.kind {
            TokenKind::Integer | TokenKind::Float => {}
            TokenKind::Identifier if !negative => {}
            TokenKind::Identifier
                if matches!(
                    token.text.to_ascii_lowercase().as_str(),
                    "inf" | "infinity" | "nan"
                ) => {}
            TokenKind::Identifier => {
                return Err(error_at(
                    &token,
                    format!("expected a number after `-`, found `{}`", token.text),
                ));
            }
            _ => return Err(self.unexpected("a value")),
        }
        self.advance()?;
        Ok(())
    }
}
