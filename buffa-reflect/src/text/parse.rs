//! Parsing the text format into a message: fields, messages, lists, map
//! entries, extensions and expanded `Any`s. The values of scalar fields
//! are read in `scalar.rs`, unknown fields skipped in `skip.rs`.

use buffa::{DecodeOptions, EncodeOptions};

use super::lexer::{Lexer, Token, TokenKind};
use super::names::{find_any_type, find_extension, find_field};
use super::{ParseOptions, TextError};
use crate::dynamic::DynamicMessage;
use crate::reflect::{ReflectError, ReflectMessage, ValueMut};
use crate::value::{MapKey, Value};
use crate::{DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};

/// Merges `text` into `message`.
pub(super) fn merge(
    message: &mut dyn ReflectMessage,
    text: &str,
    options: &ParseOptions,
) -> Result<(), TextError> {
    if text.len() > options.max_len {
        return Err(TextError::new(
            1,
            1,
            format!(
                "the input is {} bytes long, more than the limit of {}",
                text.len(),
                options.max_len
            ),
        ));
    }
    let mut lexer = Lexer::new(text);
    let token = lexer.next_token()?;
    let mut parser = Parser {
        lexer,
        token,
        options,
        depth: 0,
        types: message.descriptor().pool().clone(),
    };
    parser.fields(message, None)
}

/// Extensions read for a message that keeps its extensions encoded (a
/// generated one): parsed into a dynamic message of its type, and merged
/// into it in binary once its fields are read.
struct KeptExtensions<'a> {
    extensions: DynamicMessage,
    /// Where the first of them starts, for an error in the merge.
    start: Token<'a>,
}

/// The parser's state: the input from the current token on.
pub(super) struct Parser<'a, 'o> {
    lexer: Lexer<'a>,
    /// The current token, not yet consumed.
    pub(super) token: Token<'a>,
    pub(super) options: &'o ParseOptions,
    /// How many messages deep the parser is.
    depth: u32,
    /// Where the types of expanded `Any`s are looked up first: the pool of
    /// the message parsed into. (A generated `Any` is described by the
    /// pool of the well-known types, which does not know the types of the
    /// code it is used in.) See [`find_any_type`].
    types: DescriptorPool,
}

impl<'a> Parser<'a, '_> {
    /// Consumes the current token and returns it.
    pub(super) fn advance(&mut self) -> Result<Token<'a>, TextError> {
        let next = self.lexer.next_token()?;
        Ok(std::mem::replace(&mut self.token, next))
    }

    /// Consumes the current token if it is `symbol`.
    pub(super) fn try_symbol(&mut self, symbol: char) -> Result<bool, TextError> {
        if self.token.is_symbol(symbol) {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub(super) fn expect_symbol(&mut self, symbol: char) -> Result<(), TextError> {
        if self.try_symbol(symbol)? {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{symbol}`")))
        }
    }

    /// "expected {what}, found {the current token}".
    pub(super) fn unexpected(&self, what: &str) -> TextError {
        error_at(
            &self.token,
            format!("expected {what}, found {}", self.token.describe()),
        )
    }

    pub(super) fn expect_identifier(&mut self) -> Result<Token<'a>, TextError> {
        if self.token.kind == TokenKind::Identifier {
            self.advance()
        } else {
            Err(self.unexpected("an identifier"))
        }
    }

    /// `ident { "." ident }`, as written (without spaces).
    pub(super) fn dotted_name(&mut self) -> Result<String, TextError> {
        let mut name = self.expect_identifier()?.text.to_owned();
        while self.try_symbol('.')? {
            name.push('.');
            name.push_str(self.expect_identifier()?.text);
        }
        Ok(name)
    }

    /// The delimiter that closes a message opened by the current token
    /// (`{` or `<`), which is consumed; counts one level of nesting
    /// against the recursion limit.
    pub(super) fn open_message(&mut self) -> Result<char, TextError> {
        let close = if self.token.is_symbol('{') {
            '}'
        } else if self.token.is_symbol('<') {
            '>'
        } else {
            return Err(self.unexpected("`{` or `<`"));
        };
        if self.depth >= self.options.recursion_limit {
            return Err(error_at(
                &self.token,
                format!(
                    "messages nest deeper than the recursion limit of {}",
                    self.options.recursion_limit
                ),
            ));
        }
        self.advance()?;
        self.depth += 1;
        Ok(close)
    }

    /// Leaves a message whose closing delimiter was consumed.
    pub(super) fn close_message(&mut self) {
        self.depth -= 1;
    }

    /// The fields of `message` up to the delimiter `close` (consumed), or
    /// to the end of the input at the top level. Extensions of a message
    /// that keeps them encoded are merged into it at the end, also after
    /// an error (the message holds the fields read before it).
    fn fields(
        &mut self,
        message: &mut dyn ReflectMessage,
        close: Option<char>,
    ) -> Result<(), TextError> {
        let mut kept = None;
        let read = self.fields_until(message, &mut kept, close);
        let merged = match kept {
            Some(kept) => self.merge_kept(message, kept),
            None => Ok(()),
        };
        read.and(merged)
    }

    fn fields_until(
        &mut self,
        message: &mut dyn ReflectMessage,
        kept: &mut Option<KeptExtensions<'a>>,
        close: Option<char>,
    ) -> Result<(), TextError> {
        loop {
            if self.token.kind == TokenKind::End {
                return match close {
                    None => Ok(()),
                    Some(close) => Err(self.unexpected(&format!("`{close}`"))),
                };
            }
            if let Some(close) = close
                && self.try_symbol(close)?
            {
                self.close_message();
                return Ok(());
            }
            self.field(message, kept)?;
        }
    }

    /// Merges the extensions read for `message` into it.
    fn merge_kept(
        &self,
        message: &mut dyn ReflectMessage,
        kept: KeptExtensions<'_>,
    ) -> Result<(), TextError> {
        // They nest no deeper than the parser allowed.
        let limit = self.options.recursion_limit.saturating_add(1);
        let bytes = kept
            .extensions
            .encode_to_vec_with_options(&EncodeOptions::new().with_recursion_limit(limit))
            .map_err(|e| error_at(&kept.start, format!("cannot encode the extensions: {e}")))?;
        message
            .merge_binary(&bytes, &DecodeOptions::new().with_recursion_limit(limit))
            .map_err(|e| error_at(&kept.start, format!("cannot merge the extensions: {e}")))
    }

    /// One field: its name, its value or values, and an optional `,` or
    /// `;`.
    fn field(
        &mut self,
        message: &mut dyn ReflectMessage,
        kept: &mut Option<KeptExtensions<'a>>,
    ) -> Result<(), TextError> {
        let descriptor = message.descriptor();
        let start = self.token;
        if descriptor.full_name() == "google.protobuf.Any" && start.is_symbol('[') {
            self.any(message, &descriptor)?;
            return self.separator();
        }
        let Some(field) = self.field_name(&descriptor)? else {
            self.skip_value()?;
            return self.separator();
        };
        self.check_overwrite(message, &field, &start)?;
        let message = if field.is_extension() && !message.as_any().is::<DynamicMessage>() {
            let kept = kept.get_or_insert_with(|| KeptExtensions {
                extensions: DynamicMessage::new(descriptor.clone()),
                start,
            });
            self.check_overwrite(&kept.extensions, &field, &start)?;
            &mut kept.extensions
        } else {
            message
        };
        if let Kind::Message(_) = field.kind() {
            self.try_symbol(':')?;
            if (field.is_list() || field.is_map()) && self.try_symbol('[')? {
                self.list(|parser| parser.message_value(message, &field))?;
            } else {
                self.message_value(message, &field)?;
            }
        } else {
            if !self.try_symbol(':')? {
                return Err(self.unexpected(&format!("`:` after `{}`", start.text)));
            }
            if field.is_list() && self.try_symbol('[')? {
                self.list(|parser| parser.scalar_into(message, &field))?;
            } else {
                self.scalar_into(message, &field)?;
            }
        }
        self.separator()
    }

    /// The elements of a list after its `[`: `]`, or values separated by
    /// `,` up to `]`.
    fn list(
        &mut self,
        mut element: impl FnMut(&mut Self) -> Result<(), TextError>,
    ) -> Result<(), TextError> {
        if self.try_symbol(']')? {
            return Ok(());
        }
        loop {
            element(self)?;
            if self.try_symbol(']')? {
                return Ok(());
            }
            self.expect_symbol(',')?;
        }
    }

    /// An optional `,` or `;` after a field.
    pub(super) fn separator(&mut self) -> Result<(), TextError> {
        if !self.try_symbol(';')? {
            self.try_symbol(',')?;
        }
        Ok(())
    }

    /// Reads a field name (`name`, `GroupType` or `[extension.name]`) and
    /// finds the field. `None` means a field to skip: unknown (when the
    /// options allow it) or reserved.
    fn field_name(
        &mut self,
        descriptor: &MessageDescriptor,
    ) -> Result<Option<FieldDescriptor>, TextError> {
        let start = self.token;
        if self.try_symbol('[')? {
            let name = self.dotted_name()?;
            self.expect_symbol(']')?;
            let extension = find_extension(descriptor, &name);
            return match extension {
                Some(extension) => Ok(Some(extension)),
                None if self.options.allow_unknown_fields => Ok(None),
                None => Err(error_at(
                    &start,
                    format!("`{name}` is not an extension of {}", descriptor.full_name()),
                )),
            };
        }
        let name = self.expect_identifier()?.text;
        if let Some(field) = find_field(descriptor, name) {
            return Ok(Some(field));
        }
        if self.options.allow_unknown_fields || descriptor.reserved_names().any(|r| r == name) {
            return Ok(None);
        }
        Err(error_at(
            &start,
            format!("unknown field `{name}` in {}", descriptor.full_name()),
        ))
    }

    /// Fails if `field` is singular and already set, or a member of a
    /// oneof another member of which is set, unless the options allow
    /// overwrites.
    fn check_overwrite(
        &self,
        message: &dyn ReflectMessage,
        field: &FieldDescriptor,
        start: &Token<'_>,
    ) -> Result<(), TextError> {
        if self.options.allow_singular_overwrites || field.is_list() || field.is_map() {
            return Ok(());
        }
        if message.has_field(field) {
            return Err(error_at(
                start,
                format!("non-repeated field `{}` is set twice", start.text),
            ));
        }
        if let Some(oneof) = field.real_oneof()
            && let Some(other) = oneof.fields().find(|other| message.has_field(other))
        {
            return Err(error_at(
                start,
                format!(
                    "`{}` and `{}` are both set, but are members of the same oneof `{}`",
                    other.name(),
                    field.name(),
                    oneof.name()
                ),
            ));
        }
        Ok(())
    }

    /// A message value of `field` (`{ ... }` or `< ... >`): merged into
    /// the field if singular, appended if repeated, inserted if a map
    /// entry.
    fn message_value(
        &mut self,
        message: &mut dyn ReflectMessage,
        field: &FieldDescriptor,
    ) -> Result<(), TextError> {
        let start = self.token;
        if field.is_map() {
            return self.map_entry(message, field);
        }
        let close = self.open_message()?;
        match message
            .field_mut(field)
            .map_err(|e| reflect_error(&start, &e))?
        {
            ValueMut::Message(target) => self.fields(target, Some(close)),
            ValueMut::List(mut list) => {
                let target = list.push_message().map_err(|e| reflect_error(&start, &e))?;
                self.fields(target, Some(close))
            }
            ValueMut::Map(_) => Err(error_at(&start, "a map field is not a message")),
        }
    }

    /// A map entry, `{ key: ... value: ... }`, either part left out for
    /// its default; inserted into the map `field`, replacing an entry of
    /// the same key.
    fn map_entry(
        &mut self,
        message: &mut dyn ReflectMessage,
        field: &FieldDescriptor,
    ) -> Result<(), TextError> {
        let start = self.token;
        let Kind::Message(entry_type) = field.kind() else {
            return Err(error_at(&start, "a map field's type is not a message"));
        };
        let mut entry = DynamicMessage::new(entry_type.clone());
        let close = self.open_message()?;
        self.fields(&mut entry, Some(close))?;
        let key_field = entry_type.map_entry_key_field();
        let value_field = entry_type.map_entry_value_field();
        // The entry owns its parts; they are copied out of it. A message
        // value is copied once per enclosing map entry, which the
        // recursion limit bounds.
        let key = match entry.field_by_number(key_field.number()) {
            Some(key) => MapKey::from_value(key.clone()),
            None => MapKey::default_of(&key_field.kind()),
        }
        .ok_or_else(|| error_at(&start, "a map key must be an integer, bool or string"))?;
        let value = entry
            .field_by_number(value_field.number())
            .cloned()
            .unwrap_or_else(|| Value::default_of(&value_field.kind()));
        match message
            .field_mut(field)
            .map_err(|e| reflect_error(&start, &e))?
        {
            ValueMut::Map(mut map) => map
                .insert(key, value)
                .map_err(|e| reflect_error(&start, &e)),
            _ => Err(error_at(&start, "a map field does not hold a map")),
        }
    }

    /// An expanded `Any`, `[domain/pkg.Type] { ... }`, after the `[`:
    /// parsed as a message of that type, whose encoding becomes the Any's
    /// `value` and its URL the `type_url`.
    fn any(
        &mut self,
        message: &mut dyn ReflectMessage,
        descriptor: &MessageDescriptor,
    ) -> Result<(), TextError> {
        let start = self.advance()?;
        let domain = self.dotted_name()?;
        self.expect_symbol('/')?;
        let type_name = self.dotted_name()?;
        self.expect_symbol(']')?;
        let type_url = format!("{domain}/{type_name}");
        let (Some(url_field), Some(value_field)) =
            (descriptor.get_field(1), descriptor.get_field(2))
        else {
            return Err(error_at(&start, "google.protobuf.Any lacks its fields"));
        };
        let Some(value_type) = find_any_type(&self.types, descriptor, &type_name) else {
            return Err(error_at(
                &start,
                format!("the type of `{type_url}` is not in the descriptor pool"),
            ));
        };
        if !self.options.allow_singular_overwrites
            && (message.has_field(&url_field) || message.has_field(&value_field))
        {
            return Err(error_at(&start, "the Any is set twice"));
        }
        self.try_symbol(':')?;
        let mut value = DynamicMessage::new(value_type);
        let close = self.open_message()?;
        self.fields(&mut value, Some(close))?;
        let bytes = value
            .encode_to_vec_with_options(&EncodeOptions::new())
            .map_err(|e| error_at(&start, format!("cannot encode the Any's value: {e}")))?;
        message
            .set_field(&url_field, Value::String(type_url))
            .and_then(|()| message.set_field(&value_field, Value::Bytes(bytes)))
            .map_err(|e| reflect_error(&start, &e))
    }
}

pub(super) fn error_at(token: &Token<'_>, message: impl Into<String>) -> TextError {
    TextError::new(token.line, token.column, message)
}

pub(super) fn reflect_error(token: &Token<'_>, error: &ReflectError) -> TextError {
    error_at(token, error.to_string())
}
