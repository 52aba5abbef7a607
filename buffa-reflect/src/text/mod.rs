//! The protobuf text format, printed from and parsed into any
//! [`ReflectMessage`].
//!
//! The text format is protobuf's human-readable form, specified at
//! <https://protobuf.dev/reference/protobuf/textformat-spec/>:
//!
//! ```text
//! name: "widget"
//! dimensions { width: 3 height: 4 }
//! tags: ["a", "b"]
//! [pkg.extension]: 7
//! ```
//!
//! [`to_string`] prints a message as `protoc --decode` does, byte for
//! byte: fields in field number order (extensions among them, as
//! `[full.name]`), two spaces of indentation per nested message, groups
//! under their type's name, map entries as `key`/`value` messages in key
//! order, enums by name, strings and bytes with C-style escapes (every
//! byte outside printable ASCII in octal), floats with the fewest of 6 or
//! 9 (doubles 15 or 17) significant digits that read back exactly, and the
//! unknown fields after the known ones, by number (`5: 0x0000002a`,
//! nested messages guessed from their bytes as protoc guesses them), and a
//! `google.protobuf.Any` by its `type_url` and `value` fields, as protoc
//! prints it even when it knows the type. [`PrintOptions::expand_any`]
//! prints an `Any` expanded instead, as
//! `[type.googleapis.com/pkg.Msg] { ... }`, which protoc and [`parse`]
//! read.
//!
//! [`parse`] and [`merge`] read everything the specification allows:
//! field names (and group type names), extensions, expanded `Any`s, `:`
//! before a message or a list of messages left out, `{}` or `<>` around
//! messages, lists (`[1, 2]`) and repeated occurrences of repeated fields,
//! map entries, enums by name or number, integers in decimal, octal and
//! hex, floats with `inf`, `nan` and an `f` suffix, adjacent string
//! literals concatenated, every escape, `#` comments, and `,` or `;`
//! after a field. Like C++ protobuf's parser they reject an unknown field
//! (see [`ParseOptions::allow_unknown_fields`]), a singular field or a
//! oneof set twice (see [`ParseOptions::allow_singular_overwrites`]), an
//! unknown value of a closed enum, invalid UTF-8 in a `string` field, and
//! a number out of its field's range; every error says where, by line and
//! column ([`TextError`]). Parsing is bounded: nesting by
//! [`ParseOptions::recursion_limit`], the input by
//! [`ParseOptions::max_len`]; it never panics, and allocates in proportion
//! to the input.
//!
//! Printing and parsing work over reflection, so they serve generated
//! messages that implement [`ReflectMessage`] and [`DynamicMessage`]s
//! alike. A generated message keeps its extensions encoded among its
//! unknown fields (see [`ReflectMessage`]): the printer decodes those its
//! pool declares and prints them among the fields, by number, the rest as
//! unknown fields; the parser reads a message's extensions into a
//! [`DynamicMessage`] of its type, and merges its encoding into the
//! message when the message's fields are read. The type of an expanded
//! `Any` is looked up in the pool of the message printed or parsed, then
//! in the `Any`'s own (a generated `Any` comes with the pool of the
//! well-known types only), then among the well-known types, which every
//! `Any` can hold, as in JSON.

mod error;
mod escape;
mod lexer;
mod names;
mod number;
mod parse;
mod print;
mod scalar;
mod skip;
mod unknown;

pub use error::TextError;

use crate::MessageDescriptor;
use crate::dynamic::DynamicMessage;
use crate::reflect::ReflectMessage;

/// How [`to_string_with`] prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PrintOptions {
    /// Print everything on one line, fields separated by single spaces
    /// (`a: 1 b { c: 2 }`), as C++'s `ShortDebugString` does. Default:
    /// `false`, one field per line.
    pub single_line: bool,
    /// Print the unknown fields, by number, after the known ones, as
    /// `protoc --decode` does. Default: `true`. The parser does not read
    /// field numbers, so text with unknown fields does not parse back.
    pub print_unknown_fields: bool,
    /// Print a `google.protobuf.Any` as `[type_url] { fields }` rather
    /// than as its `type_url` and `value` bytes, when the expansion says
    /// all the bytes do: the message's pool knows the type, the value
    /// decodes to a message without unknown fields (at any depth) that
    /// encodes back to the same bytes, and the URL is one the parser reads
    /// (`domain/pkg.Type`). Default: `false`, as `protoc --decode` prints:
    /// C++ protobuf's printer expands only when asked, and protoc does
    /// not ask.
    pub expand_any: bool,
}

impl Default for PrintOptions {
    fn default() -> PrintOptions {
        PrintOptions {
            single_line: false,
            print_unknown_fields: true,
            expand_any: false,
        }
    }
}

impl PrintOptions {
    /// The default options.
    pub fn new() -> PrintOptions {
        PrintOptions::default()
    }

    /// Sets [`PrintOptions::single_line`].
    pub fn with_single_line(mut self, single_line: bool) -> PrintOptions {
        self.single_line = single_line;
        self
    }

    /// Sets [`PrintOptions::print_unknown_fields`].
    pub fn with_print_unknown_fields(mut self, print: bool) -> PrintOptions {
        self.print_unknown_fields = print;
        self
    }

    /// Sets [`PrintOptions::expand_any`].
    pub fn with_expand_any(mut self, expand: bool) -> PrintOptions {
        self.expand_any = expand;
        self
    }
}

/// How [`merge_with`] parses.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// How deeply messages (and expanded `Any`s) may nest. Default: 100,
    /// which bounds the parser's stack; C++ protobuf's `TextFormat::Parser`
    /// sets no limit unless asked (`INT_MAX`), so protoc reads text nested
    /// deeper than this default allows.
    pub recursion_limit: u32,
    /// The longest input accepted, in bytes. Default: 64 MiB.
    pub max_len: usize,
    /// Skip fields (and extensions) the message type does not have, rather
    /// than fail. Their values must still be well formed. Default: `false`.
    pub allow_unknown_fields: bool,
    /// Let a singular field (or a oneof) set twice keep the last value,
    /// rather than fail. A field already set in the message before the
    /// merge counts as set. Default: `false`, as C++ protobuf's
    /// `TextFormat::Parse`.
    pub allow_singular_overwrites: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            recursion_limit: 100,
            max_len: 64 << 20,
            allow_unknown_fields: false,
            allow_singular_overwrites: false,
        }
    }
}

impl ParseOptions {
    /// The default options.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// Sets [`ParseOptions::recursion_limit`].
    pub fn with_recursion_limit(mut self, limit: u32) -> ParseOptions {
        self.recursion_limit = limit;
        self
    }

    /// Sets [`ParseOptions::max_len`].
    pub fn with_max_len(mut self, max_len: usize) -> ParseOptions {
        self.max_len = max_len;
        self
    }

    /// Sets [`ParseOptions::allow_unknown_fields`].
    pub fn with_allow_unknown_fields(mut self, allow: bool) -> ParseOptions {
        self.allow_unknown_fields = allow;
        self
    }

    /// Sets [`ParseOptions::allow_singular_overwrites`].
    pub fn with_allow_singular_overwrites(mut self, allow: bool) -> ParseOptions {
        self.allow_singular_overwrites = allow;
        self
    }
}

/// The message in the text format, one field per line, byte for byte as
/// `protoc --decode` prints it: `Any`s by their fields, unknown fields
/// after the known ones (see [`PrintOptions`] for other choices).
pub fn to_string(message: &dyn ReflectMessage) -> String {
    to_string_with(message, &PrintOptions::default())
}

/// The message in the text format, printed under `options`.
pub fn to_string_with(message: &dyn ReflectMessage, options: &PrintOptions) -> String {
    print::print(message, options)
}

/// Merges the fields that `text` sets into `message`: singular fields are
/// set, repeated fields appended to, map entries inserted, and message
/// fields merged into.
pub fn merge(message: &mut dyn ReflectMessage, text: &str) -> Result<(), TextError> {
    merge_with(message, text, &ParseOptions::default())
}

/// [`merge`] under `options`. On error, `message` holds the fields read
/// before it.
pub fn merge_with(
    message: &mut dyn ReflectMessage,
    text: &str,
    options: &ParseOptions,
) -> Result<(), TextError> {
    parse::merge(message, text, options)
}

/// Parses `text` as a message of type `descriptor`.
pub fn parse(descriptor: &MessageDescriptor, text: &str) -> Result<DynamicMessage, TextError> {
    parse_with(descriptor, text, &ParseOptions::default())
}

/// [`parse`] under `options`.
pub fn parse_with(
    descriptor: &MessageDescriptor,
    text: &str,
    options: &ParseOptions,
) -> Result<DynamicMessage, TextError> {
    let mut message = DynamicMessage::new(descriptor.clone());
    merge_with(&mut message, text, options)?;
    Ok(message)
}
