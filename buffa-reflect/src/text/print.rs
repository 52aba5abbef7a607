//! Printing a message in the text format, as C++ protobuf's
//! `TextFormat::Printer` (and so `protoc --decode`) prints it.

use std::fmt::Write;

use buffa::EncodeOptions;

use super::PrintOptions;
use super::escape::escape_bytes;
use super::names::{
    find_any_type, group_type_name, is_dotted_identifier, printable_extension_name,
};
use crate::dynamic::DynamicMessage;
use crate::reflect::ReflectMessage;
use crate::typed::extensions::decode_kept;
use crate::value::{MapKeyRef, ValueRef};
use crate::{DescriptorPool, FieldDescriptor, Kind};
use buffa_descriptor::rules::{format_double, format_float};

/// The deepest nesting at which an `Any` is still expanded; deeper ones
/// are printed as their `type_url` and `value`, so that a chain of `Any`s
/// (each decoded only when printed) cannot nest the printer without bound.
const MAX_ANY_EXPANSION_DEPTH: usize = 100;

/// `message` in the text format.
pub(super) fn print(message: &dyn ReflectMessage, options: &PrintOptions) -> String {
    let mut printer = Printer {
        out: String::new(),
        options,
        depth: 0,
        types: message.descriptor().pool().clone(),
    };
    printer.message(message);
    if options.single_line {
        // Every field ends with a space; the last one is dropped.
        let len = printer.out.trim_end_matches(' ').len();
        printer.out.truncate(len);
    }
    printer.out
}

/// The output so far, and where in the message tree it is.
pub(super) struct Printer<'o> {
    pub(super) out: String,
    pub(super) options: &'o PrintOptions,
    /// How many messages deep the printer is: the indentation level.
    depth: usize,
    /// Where the types of `Any`s are looked up first: the pool of the
    /// message printed. (A generated `Any` is described by the pool of the
    /// well-known types, which does not know the types of the code it is
    /// used in.) See [`find_any_type`].
    types: DescriptorPool,
}

impl Printer<'_> {
    /// The fields, extensions among them by number, then the unknown
    /// fields. Extensions a generated message keeps among its unknown
    /// fields are decoded from there.
    fn message(&mut self, message: &dyn ReflectMessage) {
        if self.options.expand_any && self.any(message) {
            return;
        }
        let kept = decode_kept(message);
        let mut fields = message.set_fields();
        let unknown = match &kept {
            Some(kept) => {
                fields.extend(kept.set_fields());
                fields.sort_by_key(|(field, _)| field.number());
                kept.unknown_fields()
            }
            None => message.unknown_fields(),
        };
        for (field, value) in fields {
            self.field(&field, value);
        }
        if self.options.print_unknown_fields {
            self.unknown_fields(unknown);
        }
    }

    /// Every value of `field`: one line (or message) per element of a
    /// list, one `key`/`value` message per map entry, in key order.
    fn field(&mut self, field: &FieldDescriptor, value: ValueRef<'_>) {
        match value {
            ValueRef::List(list) => {
                for element in (0..list.len()).filter_map(|i| list.get(i)) {
                    self.element(field, element);
                }
            }
            ValueRef::Map(map) => {
                let Kind::Message(entry) = field.kind() else {
                    return;
                };
                let key_field = entry.map_entry_key_field();
                let value_field = entry.map_entry_value_field();
                let mut entries: Vec<_> = map.entries().collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                for (key, value) in entries {
                    self.start_line();
                    self.field_name(field);
                    self.open();
                    self.start_line();
                    self.field_name(&key_field);
                    self.out.push_str(": ");
                    self.map_key(key);
                    self.end_line();
                    self.element(&value_field, value);
                    self.close();
                }
            }
            value => self.element(field, value),
        }
    }

    /// One value of `field`: `name: value` or `name { ... }`.
    fn element(&mut self, field: &FieldDescriptor, value: ValueRef<'_>) {
        self.start_line();
        self.field_name(field);
        if let ValueRef::Message(message) = value {
            self.open();
            self.message(message);
            self.close();
        } else {
            self.out.push_str(": ");
            self.scalar(&field.kind(), value);
            self.end_line();
        }
    }

    /// `[full.name]` for an extension, the type name of a group, the
    /// field name otherwise.
    fn field_name(&mut self, field: &FieldDescriptor) {
        if field.is_extension() {
            self.out.push('[');
            self.out.push_str(&printable_extension_name(field));
            self.out.push(']');
        } else if let Some(group) = group_type_name(field) {
            self.out.push_str(&group);
        } else {
            self.out.push_str(field.name());
        }
    }

    fn scalar(&mut self, kind: &Kind, value: ValueRef<'_>) {
        let out = &mut self.out;
        let _ = match value {
            ValueRef::Bool(v) => write!(out, "{v}"),
            ValueRef::I32(v) => write!(out, "{v}"),
            ValueRef::I64(v) => write!(out, "{v}"),
            ValueRef::U32(v) => write!(out, "{v}"),
            ValueRef::U64(v) => write!(out, "{v}"),
            ValueRef::F32(v) => write!(out, "{}", format_float(v)),
            ValueRef::F64(v) => write!(out, "{}", format_double(v)),
            ValueRef::String(v) => {
                quoted(out, v.as_bytes());
                Ok(())
            }
            ValueRef::Bytes(v) => {
                quoted(out, v);
                Ok(())
            }
            ValueRef::EnumNumber(number) => {
                match kind.as_enum().and_then(|e| e.get_value(number)) {
                    Some(value) => write!(out, "{}", value.name()),
                    None => write!(out, "{number}"),
                }
            }
            // Not scalars; `field` and `element` route them elsewhere.
            ValueRef::Message(_) | ValueRef::List(_) | ValueRef::Map(_) => Ok(()),
        };
    }

    fn map_key(&mut self, key: MapKeyRef<'_>) {
        let out = &mut self.out;
        let _ = match key {
            MapKeyRef::Bool(v) => write!(out, "{v}"),
            MapKeyRef::I32(v) => write!(out, "{v}"),
            MapKeyRef::I64(v) => write!(out, "{v}"),
            MapKeyRef::U32(v) => write!(out, "{v}"),
            MapKeyRef::U64(v) => write!(out, "{v}"),
            MapKeyRef::String(v) => {
                quoted(out, v.as_bytes());
                Ok(())
            }
        };
    }

    /// Prints a `google.protobuf.Any` as `[type_url] { ... }` if its type
    /// is in the pool and its value decodes; returns whether it did.
    fn any(&mut self, any: &dyn ReflectMessage) -> bool {
        let descriptor = any.descriptor();
        if descriptor.full_name() != "google.protobuf.Any" || self.depth >= MAX_ANY_EXPANSION_DEPTH
        {
            return false;
        }
        let (Some(url_field), Some(value_field)) =
            (descriptor.get_field(1), descriptor.get_field(2))
        else {
            return false;
        };
        let Some(ValueRef::String(type_url)) = any.field(&url_field) else {
            return false;
        };
        let value = match any.field(&value_field) {
            Some(ValueRef::Bytes(value)) => value,
            None => &[],
            Some(_) => return false,
        };
        // Only a URL that the parser reads back: `domain.name/pkg.Type`.
        let Some((domain, type_name)) = type_url.rsplit_once('/') else {
            return false;
        };
        if !is_dotted_identifier(domain) || !is_dotted_identifier(type_name) {
            return false;
        }
        let Some(type_descriptor) = find_any_type(&self.types, &descriptor, type_name) else {
            return false;
        };
        let Ok(inner) = DynamicMessage::decode(type_descriptor, value) else {
            return false;
        };
        // Only an expansion that says everything the bytes say: the text
        // parses back to the same value.
        if inner
            .encode_to_vec_with_options(&EncodeOptions::new())
            .as_deref()
            != Ok(value)
            || has_unknown_fields(&inner)
        {
            return false;
        }
        self.start_line();
        self.out.push('[');
        self.out.push_str(type_url);
        self.out.push(']');
        self.open();
        self.message(&inner);
        self.close();
        true
    }

    pub(super) fn start_line(&mut self) {
        if !self.options.single_line {
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
    }

    pub(super) fn end_line(&mut self) {
        self.out
            .push(if self.options.single_line { ' ' } else { '\n' });
    }

    /// ` {` after a field name, and one level deeper.
    pub(super) fn open(&mut self) {
        self.out.push_str(" {");
        self.end_line();
        self.depth += 1;
    }

    /// One level up, and its `}`.
    pub(super) fn close(&mut self) {
        self.depth -= 1;
        self.start_line();
        self.out.push('}');
        self.end_line();
    }
}

/// Whether `message`, or a message inside it, has unknown fields.
fn has_unknown_fields(message: &dyn ReflectMessage) -> bool {
    let inside = |value: ValueRef<'_>| match value {
        ValueRef::Message(message) => has_unknown_fields(message),
        _ => false,
    };
    !message.unknown_fields().is_empty()
        || message
            .set_fields()
            .into_iter()
            .any(|(_, value)| match value {
                ValueRef::List(list) => (0..list.len()).filter_map(|i| list.get(i)).any(inside),
                ValueRef::Map(map) => map.entries().any(|(_, value)| inside(value)),
                value => inside(value),
            })
}

/// `bytes` escaped between double quotes.
pub(super) fn quoted(out: &mut String, bytes: &[u8]) {
    out.push('"');
    escape_bytes(bytes, out);
    out.push('"');
}
