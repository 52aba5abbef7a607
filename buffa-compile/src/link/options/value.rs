//! An option's value, checked against the type of the field it sets and
//! encoded as the record protoc writes for it (protoc's
//! `OptionInterpreter::SetOptionValue`, with its wording).

use buffa_descriptor::{DescriptorPool, FieldDescriptor, Kind};
use buffa_types::google::protobuf::UninterpretedOption;

use super::names::Symbols;
use crate::link::scope::{self, Lookup, LookupMode, SymbolKind};

use super::wire::{FIXED32, FIXED64, START_GROUP, VARINT, put_len, put_tag, put_varint};

/// Encodes `option`'s value as the record of `field`, or says what is
/// wrong with it (an error at the option's value).
pub(crate) fn encode(
    field: &FieldDescriptor,
    option: &UninterpretedOption,
    pool: &DescriptorPool,
    symbols: &Symbols<'_>,
) -> Result<Vec<u8>, String> {
    let name = field.full_name();
    let number = field.number();
    let mut out = Vec::new();
    let positive = option.positive_int_value;
    let negative = option.negative_int_value;
    match field.kind() {
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => {
            let range = || out_of_range(i32::MIN, i32::MAX, "int32", name);
            let value = match (positive, negative) {
                (Some(p), _) => i32::try_from(p).map_err(|_| range())?,
                (_, Some(n)) => i32::try_from(n).map_err(|_| range())?,
                _ => return Err(must_be_integer(i32::MIN, i32::MAX, "int32", name)),
            };
            match field.kind() {
                Kind::Sfixed32 => put_fixed32(&mut out, number, value as u32),
                Kind::Sint32 => put_varint_record(
                    &mut out,
                    number,
                    u64::from(((value << 1) ^ (value >> 31)) as u32),
                ),
                _ => put_varint_record(&mut out, number, i64::from(value) as u64),
            }
        }
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => {
            let value = match (positive, negative) {
                (Some(p), _) => {
                    i64::try_from(p).map_err(|_| out_of_range(i64::MIN, i64::MAX, "int64", name))?
                }
                (_, Some(n)) => n,
                _ => return Err(must_be_integer(i64::MIN, i64::MAX, "int64", name)),
            };
            match field.kind() {
                Kind::Sfixed64 => put_fixed64(&mut out, number, value as u64),
                Kind::Sint64 => {
                    put_varint_record(&mut out, number, ((value << 1) ^ (value >> 63)) as u64)
                }
                _ => put_varint_record(&mut out, number, value as u64),
            }
        }
        Kind::Uint32 | Kind::Fixed32 => {
            let Some(p) = positive else {
                return Err(must_be_integer(0, u32::MAX, "uint32", name));
            };
            let value = u32::try_from(p).map_err(|_| out_of_range(0, u32::MAX, "uint32", name))?;
            match field.kind() {
                Kind::Fixed32 => put_fixed32(&mut out, number, value),
                _ => put_varint_record(&mut out, number, u64::from(value)),
            }
        }
        Kind::Uint64 | Kind::Fixed64 => {
            let Some(value) = positive else {
                return Err(must_be_integer(0, u64::MAX, "uint64", name));
            };
            match field.kind() {
                Kind::Fixed64 => put_fixed64(&mut out, number, value),
                _ => put_varint_record(&mut out, number, value),
            }
        }
        Kind::Float => {
            let value = number_value(option)
                .ok_or_else(|| format!("Value must be number for float option \"{name}\"."))?;
            put_fixed32(&mut out, number, (value as f32).to_bits());
        }
        Kind::Double => {
            let value = number_value(option)
                .ok_or_else(|| format!("Value must be number for double option \"{name}\"."))?;
            put_fixed64(&mut out, number, value.to_bits());
        }
        Kind::Bool => {
            let Some(identifier) = option.identifier_value.as_deref() else {
                return Err(format!(
                    "Value must be identifier for boolean option \"{name}\"."
                ));
            };
            let value = match identifier {
                "true" => 1,
                "false" => 0,
                _ => {
                    return Err(format!(
                        "Value must be \"true\" or \"false\" for boolean option \"{name}\"."
                    ));
                }
            };
            put_varint_record(&mut out, number, value);
        }
        Kind::Enum(enum_type) => {
            let Some(identifier) = option.identifier_value.as_deref() else {
                return Err(format!(
                    "Value must be identifier for enum-valued option \"{name}\"."
                ));
            };
            let enum_name = enum_type.full_name();
            let Some(value) = enum_type.get_value_by_name(identifier) else {
                let sibling = if is_sibling_value(&enum_type, identifier, pool) {
                    ". This appears to be a value from a sibling type"
                } else {
                    ""
                };
                return Err(format!(
                    "Enum type \"{enum_name}\" has no value named \"{identifier}\" for option \"{name}\"{sibling}."
                ));
            };
            put_varint_record(&mut out, number, i64::from(value.number()) as u64);
        }
        Kind::String | Kind::Bytes => {
            let Some(value) = option.string_value.as_deref() else {
                return Err(format!(
                    "Value must be quoted string for string option \"{name}\"."
                ));
            };
            put_len(&mut out, number, value);
        }
        Kind::Message(message) => {
            let Some(text) = option.aggregate_value.as_deref() else {
                let short = field.name();
                return Err(format!(
                    "Option \"{name}\" is a message. To set the entire message, use syntax like \"{short} = {{ <proto text format> }}\". To set fields within it, use syntax like \"{short}.foo = value\"."
                ));
            };
            let text = qualify_extension_names(text, message.full_name(), symbols);
            let parsed = buffa_reflect::text::parse(&message, &text).map_err(|e| {
                format!(
                    "Error while parsing option value for \"{}\": {}",
                    field.name(),
                    text_error(e.message())
                )
            })?;
            let encoded = parsed.encode_to_vec();
            let missing = super::required::missing(&encoded, &message, pool);
            if !missing.is_empty() {
                return Err(format!(
                    "Error while parsing option value for \"{}\": Message missing required fields: {}",
                    field.name(),
                    missing.join(", ")
                ));
            }
            if field.is_group() {
                put_tag(&mut out, number, START_GROUP);
                out.extend_from_slice(&encoded);
                put_tag(&mut out, number, super::wire::END_GROUP);
            } else {
                put_len(&mut out, number, &encoded);
            }
        }
    }
    Ok(out)
}

/// The value of a `float` or `double` option: a number or `inf`/`nan`.
fn number_value(option: &UninterpretedOption) -> Option<f64> {
    if let Some(value) = option.double_value {
        Some(value)
    } else if let Some(value) = option.positive_int_value {
        Some(value as f64)
    } else if let Some(value) = option.negative_int_value {
        Some(value as f64)
    } else {
        match option.identifier_value.as_deref() {
            Some("inf") => Some(f64::INFINITY),
            Some("nan") => Some(f64::NAN),
            _ => None,
        }
    }
}

/// Whether `identifier` names a value of another enum in the scope of
/// `enum_type`: enum values are siblings of their enum, as in C++.
fn is_sibling_value(
    enum_type: &buffa_descriptor::EnumDescriptor,
    identifier: &str,
    pool: &DescriptorPool,
) -> bool {
    let full = enum_type.full_name();
    let scope = &full[..full.len() - enum_type.name().len()];
    pool.all_enums().any(|other| {
        let other_full = other.full_name();
        other_full.len() >= other.name().len()
            && &other_full[..other_full.len() - other.name().len()] == scope
            && other.get_value_by_name(identifier).is_some()
    })
}

/// Appends a varint record.
fn put_varint_record(out: &mut Vec<u8>, number: u32, value: u64) {
    put_tag(out, number, VARINT);
    put_varint(out, value);
}

/// Appends a 4-byte record.
fn put_fixed32(out: &mut Vec<u8>, number: u32, value: u32) {
    put_tag(out, number, FIXED32);
    out.extend_from_slice(&value.to_le_bytes());
}

/// Appends an 8-byte record.
fn put_fixed64(out: &mut Vec<u8>, number: u32, value: u64) {
    put_tag(out, number, FIXED64);
    out.extend_from_slice(&value.to_le_bytes());
}

/// protoc's error for an integer outside the option's range.
fn out_of_range(
    min: impl std::fmt::Display,
    max: impl std::fmt::Display,
    type_name: &str,
    option: &str,
) -> String {
    format!("Value out of range, {min} to {max}, for {type_name} option \"{option}\".")
}

/// protoc's error for a value that is not an integer of the option's type.
fn must_be_integer(
    min: impl std::fmt::Display,
    max: impl std::fmt::Display,
    type_name: &str,
    option: &str,
) -> String {
    format!("Value must be integer, from {min} to {max}, for {type_name} option \"{option}\".")
}

/// A text-format error of buffa-reflect's parser in the words of C++'s
/// (those an aggregate option most often meets; others as buffa words
/// them).
fn text_error(message: &str) -> String {
    let ticked = |s: &str| {
        s.strip_prefix('`')
            .and_then(|s| s.strip_suffix('`'))
            .map(str::to_owned)
    };
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((field, message_type)) = rest.split_once("` in ")
    {
        return format!("Message type \"{message_type}\" has no field named \"{field}\".");
    }
    if let Some(rest) = message.strip_prefix("expected an integer, found ")
        && let Some(token) = ticked(rest)
    {
        return format!("Expected integer, got: {token}");
    }
    if let Some(rest) = message.strip_prefix("non-repeated field `")
        && let Some(field) = rest.strip_suffix("` is set twice")
    {
        return format!("Non-repeated field \"{field}\" is specified multiple times.");
    }
    if let Some(rest) = message.strip_prefix("expected `{` or `<`, found ")
        && let Some(token) = ticked(rest)
    {
        return format!("Expected \"{{\", found \"{token}\".");
    }
    if let Some(rest) = message.strip_prefix('`')
        && let Some((name, message_type)) = rest.split_once("` is not an extension of ")
    {
        return format!(
            "Extension \"{name}\" is not defined or is not an extension of \"{message_type}\"."
        );
    }
    if let Some(number) = message.strip_prefix("integer out of range: ") {
        return format!("Integer out of range ({number})");
    }
    if let Some(rest) = message.strip_prefix("expected ")
        && let Some((what, found)) = rest.split_once(", found ")
    {
        let token = if found == "end of input" {
            Some(String::new())
        } else {
            ticked(found)
        };
        if let Some(token) = token {
            match what {
                "an integer" => return format!("Expected integer, got: {token}"),
                "a string" => return format!("Expected string, got: {token}"),
                "an identifier" => return format!("Expected identifier, got: {token}"),
                _ => {}
            }
            let symbol = match what.split_once("` after `") {
                Some((symbol, _)) => symbol.strip_prefix('`').map(str::to_owned),
                None => ticked(what),
            };
            if let Some(symbol) = symbol {
                return format!("Expected \"{symbol}\", found \"{token}\".");
            }
        }
    }
    message.to_owned()
}

/// `text` with each extension name in brackets (`[my.ext]`) written in
/// full: C++'s text parser looks them up from the scope of the message
/// they extend (taken here as `scope`, the option's type, for every
/// level), buffa-reflect's only by full name. Any type URLs and names
/// that do not resolve are left as written.
fn qualify_extension_names(text: &str, scope: &str, symbols: &Symbols<'_>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' | '\'' => {
                out.push(c);
                let mut escaped = false;
                for (_, d) in chars.by_ref() {
                    out.push(d);
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c || d == '\n' {
                        break;
                    }
                }
            }
            '#' => {
                for (_, d) in chars.by_ref() {
                    out.push(d);
                    if d == '\n' {
                        break;
                    }
                }
            }
            '[' => {
                let rest = &text[i + 1..];
                let Some(close) = rest.find(']') else {
                    // No name closes: the rest is as written.
                    out.push_str(&text[i..]);
                    break;
                };
                let name: String = rest[..close]
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                let plain = !name.is_empty()
                    && !name.starts_with('.')
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
                let found = if plain {
                    match scope::lookup(&name, scope, LookupMode::AllSymbols, |n| symbols.find(n)) {
                        Lookup::Found(full, SymbolKind::Extension) => Some(full),
                        _ => None,
                    }
                } else {
                    None
                };
                match found {
                    Some(full) => {
                        out.push('[');
                        out.push_str(&full);
                        out.push(']');
                        for _ in 0..=close {
                            chars.next();
                        }
                    }
                    None => out.push(c),
                }
            }
            _ => out.push(c),
        }
    }
    out
}
