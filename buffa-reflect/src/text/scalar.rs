//! The values of scalar fields: integers of every width, floats, bools,
//! strings, bytes and enums, read as C++ protobuf's parser reads them.

use super::TextError;
use super::escape::unescape;
use super::lexer::TokenKind;
use super::number::{double_to_float, is_hex_or_octal, parse_float, parse_unsigned};
use super::parse::{Parser, error_at, reflect_error};
use crate::reflect::{ReflectMessage, ValueMut};
use crate::value::Value;
use crate::{EnumDescriptor, FieldDescriptor, Kind};

impl Parser<'_, '_> {
    /// One value of the scalar `field`: set if singular, appended if
    /// repeated.
    pub(super) fn scalar_into(
        &mut self,
        message: &mut dyn ReflectMessage,
        field: &FieldDescriptor,
    ) -> Result<(), TextError> {
        let start = self.token;
        let value = self.scalar(field)?;
        let result = if field.is_list() {
            match message.field_mut(field) {
                Ok(ValueMut::List(mut list)) => list.push(value),
                Ok(_) => return Err(error_at(&start, "a repeated field does not hold a list")),
                Err(e) => Err(e),
            }
        } else {
            message.set_field(field, value)
        };
        result.map_err(|e| reflect_error(&start, &e))
    }

    /// A value of the scalar `field`'s kind.
    pub(super) fn scalar(&mut self, field: &FieldDescriptor) -> Result<Value, TextError> {
        Ok(match field.kind() {
            Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => {
                Value::I32(self.signed(i32::MAX as u64)? as i32)
            }
            Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => {
                Value::I64(self.signed(i64::MAX as u64)?)
            }
            Kind::Uint32 | Kind::Fixed32 => Value::U32(self.unsigned(u32::MAX.into())? as u32),
            Kind::Uint64 | Kind::Fixed64 => Value::U64(self.unsigned(u64::MAX)?),
            Kind::Double => Value::F64(self.double()?),
            Kind::Float => Value::F32(double_to_float(self.double()?)),
            Kind::Bool => Value::Bool(self.bool()?),
            Kind::String => {
                let start = self.token;
                let bytes = self.string()?;
                let text = String::from_utf8(bytes).map_err(|_| {
                    error_at(
                        &start,
                        format!("string field `{}` holds invalid UTF-8", field.name()),
                    )
                })?;
                Value::String(text)
            }
            Kind::Bytes => Value::Bytes(self.string()?),
            Kind::Enum(enum_type) => Value::EnumNumber(self.enum_number(field, &enum_type)?),
            Kind::Message(_) => return Err(self.unexpected("a message")),
        })
    }

    /// An integer token's value, at most `max`.
    fn unsigned(&mut self, max: u64) -> Result<u64, TextError> {
        if self.token.kind != TokenKind::Integer {
            return Err(self.unexpected("an integer"));
        }
        let value = parse_unsigned(self.token.text, max).ok_or_else(|| {
            error_at(
                &self.token,
                format!("integer out of range: {}", self.token.text),
            )
        })?;
        self.advance()?;
        Ok(value)
    }

    /// An integer with an optional `-`, from `-max - 1` to `max`.
    fn signed(&mut self, max: u64) -> Result<i64, TextError> {
        let start = self.token;
        let negative = self.try_symbol('-')?;
        if !negative {
            return Ok(self.unsigned(max)? as i64);
        }
        if self.token.kind != TokenKind::Integer {
            return Err(self.unexpected("an integer"));
        }
        let magnitude = parse_unsigned(self.token.text, max + 1).ok_or_else(|| {
            error_at(
                &start,
                format!("integer out of range: -{}", self.token.text),
            )
        })?;
        self.advance()?;
        // `max + 1` is the magnitude of the minimum, which wraps to itself.
        Ok(0i64.wrapping_sub(magnitude as i64))
    }

    /// A number with an optional `-`: a float, a decimal integer, or
    /// `inf`, `infinity` or `nan` in any case.
    fn double(&mut self) -> Result<f64, TextError> {
        let negative = self.try_symbol('-')?;
        let token = self.token;
        let value = match token.kind {
            TokenKind::Integer if is_hex_or_octal(token.text) => {
                return Err(error_at(
                    &token,
                    format!("expected a decimal number, found `{}`", token.text),
                ));
            }
            // Beyond u64, an integer is read as a float.
            TokenKind::Integer => parse_unsigned(token.text, u64::MAX)
                .map_or_else(|| parse_float(token.text), |v| v as f64),
            TokenKind::Float => parse_float(token.text),
            TokenKind::Identifier => match token.text.to_ascii_lowercase().as_str() {
                "inf" | "infinity" => f64::INFINITY,
                "nan" => f64::NAN,
                _ => return Err(self.unexpected("a number")),
            },
            _ => return Err(self.unexpected("a number")),
        };
        self.advance()?;
        Ok(if negative { -value } else { value })
    }

    /// `true`, `True`, `t`, `1`, `false`, `False`, `f` or `0`.
    fn bool(&mut self) -> Result<bool, TextError> {
        if self.token.kind == TokenKind::Integer {
            return Ok(self.unsigned(1)? == 1);
        }
        let value = match self.token.text {
            "true" | "True" | "t" if self.token.kind == TokenKind::Identifier => true,
            "false" | "False" | "f" if self.token.kind == TokenKind::Identifier => false,
            _ => return Err(self.unexpected("`true` or `false`")),
        };
        self.advance()?;
        Ok(value)
    }

    /// One or more adjacent string literals, concatenated and unescaped.
    pub(super) fn string(&mut self) -> Result<Vec<u8>, TextError> {
        if self.token.kind != TokenKind::String {
            return Err(self.unexpected("a string"));
        }
        let mut bytes = Vec::new();
        while self.token.kind == TokenKind::String {
            let token = self.token;
            unescape(token.text, &mut bytes).map_err(|e| {
                let column = token.column + token.text[..e.offset].chars().count() as u32;
                TextError::new(token.line, column, e.message)
            })?;
            self.advance()?;
        }
        Ok(bytes)
    }

    /// An enum value by name, or by number (with an optional `-`); a
    /// number the enum does not declare only for an open enum.
    fn enum_number(
        &mut self,
        field: &FieldDescriptor,
        enum_type: &EnumDescriptor,
    ) -> Result<i32, TextError> {
        let start = self.token;
        if start.kind == TokenKind::Identifier {
            let value = enum_type.get_value_by_name(start.text).ok_or_else(|| {
                error_at(
                    &start,
                    format!(
                        "unknown value `{}` of enum {} for field `{}`",
                        start.text,
                        enum_type.full_name(),
                        field.name()
                    ),
                )
            })?;
            self.advance()?;
            return Ok(value.number());
        }
        if !(start.is_symbol('-') || start.kind == TokenKind::Integer) {
            return Err(self.unexpected("an enum value name or number"));
        }
        let number = self.signed(i32::MAX as u64)? as i32;
        if enum_type.is_closed() && enum_type.get_value(number).is_none() {
            return Err(error_at(
                &start,
                format!(
                    "{number} is not a value of the closed enum {} for field `{}`",
                    enum_type.full_name(),
                    field.name()
                ),
            ));
        }
        Ok(number)
    }
}
