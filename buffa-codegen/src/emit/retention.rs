//! Source-retention options (`[retention = RETENTION_SOURCE]`), which are
//! for protoc and its plugins and are not kept in descriptors at run time.
//!
//! protoc strips them from what it writes with `--descriptor_set_out`, for
//! every file, but hands a plugin only the files it was asked to generate
//! stripped: imported files keep them. So before a file is embedded (with
//! `reflection`), it is stripped the way protoc 36.2 strips it, which
//! leaves files protoc stripped already unchanged:
//!
//! - Every options message (file, message, field, extension, oneof,
//!   extension range, enum, enum value, service, method) loses each field
//!   whose declaration has `retention = RETENTION_SOURCE`: the extensions
//!   the descriptor set declares so, and descriptor.proto's own
//!   (`ExtensionRangeOptions.declaration` and `verification`, and
//!   `FeatureSet.enforce_naming_style`, `default_symbol_visibility` and
//!   `enforce_proto_limits`). Message values are stripped in turn: a
//!   `features` set, or a custom option's message.
//! - An options message that this leaves empty is removed too (an element
//!   whose only option was a source-retention one has no `options`); a
//!   `features` set or a custom option's message stays, empty.
//! - The `source_code_info` locations at or under the path of anything
//!   removed are dropped (`[4, 0, 7, 50001]` for option 50001 of the first
//!   message, and everything under it): the location of an `option`
//!   statement (`[4, 0, 7]`) goes with its options message.
//!
//! protoc writes the files it strips anew, in canonical form. Of that,
//! the part that commonly shows is repeated here: the fields of each
//! message walked (descriptors, options, their message values) in number
//! order, which changes only options (protoc hands a plugin the extensions in the
//! order the options were written: `option (google.api.http)` (72295728)
//! before `option (google.api.method_signature)` (1051), say). Split
//! message options (`option (m).a = 1; option (m).b = 2;`) stay split and
//! repeated scalars keep their encoding, where protoc merges them and
//! packs them as declared: the same content in another layout.
//!
//! The files are walked on the wire, as in `descriptor.rs`; the fields
//! kept are copied byte for byte.

use std::borrow::Cow;
use std::collections::HashMap;

use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::field_options::OptionRetention;
use buffa_types::google::protobuf::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};

use buffa::wire::WireType;

use crate::emit::wire;
use crate::error::Error;

/// `FileDescriptorProto.source_code_info`.
const FILE_SOURCE_CODE_INFO: u64 = 9;
/// `SourceCodeInfo.location`.
const SOURCE_CODE_INFO_LOCATION: u64 = 1;
/// `SourceCodeInfo.Location.path`.
const LOCATION_PATH: u64 = 1;
/// How long a path may grow (two elements per nested descriptor, one per
/// nested option message) before the input is refused rather than walked.
const MAX_PATH: usize = 400;

const FILE: &str = ".google.protobuf.FileDescriptorProto";
const MESSAGE: &str = ".google.protobuf.DescriptorProto";
const EXTENSION_RANGE: &str = ".google.protobuf.DescriptorProto.ExtensionRange";
const FIELD: &str = ".google.protobuf.FieldDescriptorProto";
const ONEOF: &str = ".google.protobuf.OneofDescriptorProto";
const ENUM: &str = ".google.protobuf.EnumDescriptorProto";
const ENUM_VALUE: &str = ".google.protobuf.EnumValueDescriptorProto";
const SERVICE: &str = ".google.protobuf.ServiceDescriptorProto";
const METHOD: &str = ".google.protobuf.MethodDescriptorProto";
const FEATURE_SET: &str = ".google.protobuf.FeatureSet";
const EXTENSION_RANGE_OPTIONS: &str = ".google.protobuf.ExtensionRangeOptions";

/// What stripping does with a field of descriptor.proto.
#[derive(Clone, Copy)]
enum Builtin {
    /// Repeated descriptors of this type, which have options.
    Elements(&'static str),
    /// An options message of this type.
    Options(&'static str),
    /// The `features` of an options message.
    Features,
    /// A source-retention field.
    Source,
}

/// How the fields of descriptor.proto lead to options, and its own
/// source-retention fields, as in protoc 36.2.
const DESCRIPTOR_PROTO: &[(&str, u64, Builtin)] = {
    use Builtin::*;
    &[
        (FILE, 4, Elements(MESSAGE)),
        (FILE, 5, Elements(ENUM)),
        (FILE, 6, Elements(SERVICE)),
        (FILE, 7, Elements(FIELD)),
        (FILE, 8, Options(".google.protobuf.FileOptions")),
        (MESSAGE, 2, Elements(FIELD)),
        (MESSAGE, 3, Elements(MESSAGE)),
        (MESSAGE, 4, Elements(ENUM)),
        (MESSAGE, 5, Elements(EXTENSION_RANGE)),
        (MESSAGE, 6, Elements(FIELD)),
        (MESSAGE, 7, Options(".google.protobuf.MessageOptions")),
        (MESSAGE, 8, Elements(ONEOF)),
        (EXTENSION_RANGE, 3, Options(EXTENSION_RANGE_OPTIONS)),
        (FIELD, 8, Options(".google.protobuf.FieldOptions")),
        (ONEOF, 2, Options(".google.protobuf.OneofOptions")),
        (ENUM, 2, Elements(ENUM_VALUE)),
        (ENUM, 3, Options(".google.protobuf.EnumOptions")),
        (ENUM_VALUE, 3, Options(".google.protobuf.EnumValueOptions")),
        (SERVICE, 2, Elements(METHOD)),
        (SERVICE, 3, Options(".google.protobuf.ServiceOptions")),
        (METHOD, 4, Options(".google.protobuf.MethodOptions")),
        (".google.protobuf.FileOptions", 50, Features),
        (".google.protobuf.MessageOptions", 12, Features),
        (".google.protobuf.FieldOptions", 21, Features),
        (".google.protobuf.OneofOptions", 1, Features),
        (EXTENSION_RANGE_OPTIONS, 50, Features),
        (".google.protobuf.EnumOptions", 7, Features),
        (".google.protobuf.EnumValueOptions", 2, Features),
        (".google.protobuf.ServiceOptions", 34, Features),
        (".google.protobuf.MethodOptions", 35, Features),
        // `declaration` and `verification`.
        (EXTENSION_RANGE_OPTIONS, 2, Source),
        (EXTENSION_RANGE_OPTIONS, 3, Source),
        // `enforce_naming_style`, `default_symbol_visibility`,
        // `enforce_proto_limits`.
        (FEATURE_SET, 7, Source),
        (FEATURE_SET, 8, Source),
        (FEATURE_SET, 9, Source),
    ]
};

/// What stripping does with a field; fields without a rule are kept as
/// they are.
#[derive(Clone, Debug, PartialEq, Eq)]
enum FieldRule {
    /// `retention = RETENTION_SOURCE`: removed.
    Source,
    /// A message (or group) field: stripped in turn.
    Message {
        /// Its type (full name, leading dot).
        type_name: String,
        repeated: bool,
        /// An element's options message, which is removed when stripping
        /// empties it (other messages stay, empty).
        options: bool,
    },
}

/// The fields (extensions included) of every message type that can occur
/// in an options message, by type and field number.
pub(crate) struct RetentionRules {
    types: HashMap<String, HashMap<u64, FieldRule>>,
}

impl RetentionRules {
    /// The rules of descriptor.proto and of the declarations in `files`
    /// (a descriptor set's).
    pub(crate) fn new<'f>(
        files: impl IntoIterator<Item = &'f FileDescriptorProto>,
    ) -> RetentionRules {
        let mut rules = RetentionRules {
            types: HashMap::new(),
        };
        for file in files {
            let prefix = crate::path::package_prefix(file.package());
            rules.add_extensions(&file.extension);
            for message in &file.message_type {
                rules.add_message(&prefix, message);
            }
        }
        // After descriptor.proto's own declarations, if the set holds it,
        // which do not tell options apart.
        for &(message, number, builtin) in DESCRIPTOR_PROTO {
            let message_rule = |type_name: &str, repeated, options| FieldRule::Message {
                type_name: type_name.to_owned(),
                repeated,
                options,
            };
            let rule = match builtin {
                Builtin::Elements(type_name) => message_rule(type_name, true, false),
                Builtin::Options(type_name) => message_rule(type_name, false, true),
                Builtin::Features => message_rule(FEATURE_SET, false, false),
                Builtin::Source => FieldRule::Source,
            };
            rules.insert(message, number, rule);
        }
        rules
    }

    fn insert(&mut self, message: &str, number: u64, rule: FieldRule) {
        self.types
            .entry(message.to_owned())
            .or_default()
            .insert(number, rule);
    }

    fn add_message(&mut self, prefix: &str, message: &DescriptorProto) {
        let full_name = format!("{prefix}.{}", message.name());
        for field in &message.field {
            if let Some((number, rule)) = field_rule(field) {
                self.insert(&full_name, number, rule);
            }
        }
        self.add_extensions(&message.extension);
        for nested in &message.nested_type {
            self.add_message(&full_name, nested);
        }
    }

    fn add_extensions(&mut self, extensions: &[FieldDescriptorProto]) {
        for extension in extensions {
            if let (Some(extendee), Some((number, rule))) =
                (&extension.extendee, field_rule(extension))
            {
                self.insert(extendee, number, rule);
            }
        }
    }

    /// The encoded `FileDescriptorProto` `file` without its source-retention
    /// options and with its options' fields in number order, or `None` when
    /// that changes nothing.
    pub(crate) fn strip_file(&self, file: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        let mut removed = Vec::new();
        let Some(stripped) = self.strip(file, FILE, &mut Vec::new(), &mut removed)? else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(stripped.len());
        for field in wire::fields(&stripped)? {
            if field.number == FILE_SOURCE_CODE_INFO && field.wire_type == WireType::LengthDelimited
            {
                wire::put_len(
                    &mut out,
                    field.number,
                    &without_locations(field.payload, &removed)?,
                );
            } else {
                out.extend_from_slice(field.whole);
            }
        }
        Ok(Some(out))
    }

    /// `message` (of type `type_name`, at `path` in its file) without its
    /// source-retention fields, at any depth, and with its fields in number
    /// order, or `None` when that changes nothing. The path of each field
    /// removed is added to `removed`.
    fn strip(
        &self,
        message: &[u8],
        type_name: &str,
        path: &mut Vec<i32>,
        removed: &mut Vec<Vec<i32>>,
    ) -> Result<Option<Vec<u8>>, Error> {
        let Some(rules) = self.types.get(type_name) else {
            return Ok(None);
        };
        if path.len() > MAX_PATH {
            return Err(Error::new(
                "invalid FileDescriptorSet: options nested too deeply",
            ));
        }
        // The fields kept, by number.
        let mut kept: Vec<(u64, Cow<'_, [u8]>)> = Vec::new();
        let mut changed = false;
        // Per repeated field, the number of its elements seen so far.
        let mut counts: HashMap<u64, i32> = HashMap::new();
        for field in wire::fields(message)? {
            path.push(field.number as i32);
            match rules.get(&field.number) {
                Some(FieldRule::Source) => {
                    removed.push(path.clone());
                    changed = true;
                }
                Some(&FieldRule::Message {
                    ref type_name,
                    repeated,
                    options,
                }) if matches!(
                    field.wire_type,
                    WireType::LengthDelimited | WireType::StartGroup
                ) =>
                {
                    if repeated {
                        let count = counts.entry(field.number).or_default();
                        path.push(*count);
                        *count += 1;
                    }
                    let stripped = self.strip(field.payload, type_name, path, removed)?;
                    if repeated {
                        path.pop();
                    }
                    match stripped {
                        None => kept.push((field.number, field.whole.into())),
                        // Emptied by stripping (it held something, or
                        // nothing would have been stripped).
                        Some(stripped) if options && stripped.is_empty() => {
                            removed.push(path.clone());
                            changed = true;
                        }
                        Some(stripped) => {
                            let mut whole = Vec::with_capacity(stripped.len() + 8);
                            if field.wire_type == WireType::StartGroup {
                                wire::put_group(&mut whole, field.number, &stripped);
                            } else {
                                wire::put_len(&mut whole, field.number, &stripped);
                            }
                            kept.push((field.number, whole.into()));
                            changed = true;
                        }
                    }
                }
                _ => kept.push((field.number, field.whole.into())),
            }
            path.pop();
        }
        // Options set as extensions come in the order they were written;
        // protoc writes them in number order, after the others.
        if !kept.is_sorted_by_key(|(number, _)| *number) {
            kept.sort_by_key(|(number, _)| *number);
            changed = true;
        }
        if !changed {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(message.len());
        for (_, bytes) in &kept {
            out.extend_from_slice(bytes);
        }
        Ok(Some(out))
    }
}

/// The encoded `SourceCodeInfo` `info` without the locations whose path
/// starts with one of `removed`.
fn without_locations(info: &[u8], removed: &[Vec<i32>]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(info.len());
    for location in wire::fields(info)? {
        if location.number == SOURCE_CODE_INFO_LOCATION
            && location.wire_type == WireType::LengthDelimited
        {
            let path = location_path(location.payload)?;
            if removed.iter().any(|prefix| path.starts_with(prefix)) {
                continue;
            }
        }
        out.extend_from_slice(location.whole);
    }
    Ok(out)
}

/// The `path` of an encoded `SourceCodeInfo.Location`, packed or not.
fn location_path(location: &[u8]) -> Result<Vec<i32>, Error> {
    let mut path = Vec::new();
    for field in wire::fields(location)? {
        if field.number != LOCATION_PATH {
            continue;
        }
        // A varint's payload is its value; a packed run's, its values.
        let elements = match field.wire_type {
            WireType::Varint | WireType::LengthDelimited => wire::varints(field.payload)?,
            _ => {
                return Err(Error::new(
                    "invalid FileDescriptorSet: malformed source code info path",
                ));
            }
        };
        path.extend(elements.into_iter().map(|element| element as i32));
    }
    Ok(path)
}

/// The number and rule of `field` (a field or an extension); `None` for a
/// field left as it is, or without a valid number.
fn field_rule(field: &FieldDescriptorProto) -> Option<(u64, FieldRule)> {
    let number = u64::try_from(field.number?).ok()?;
    let source = field.options.as_option().and_then(|o| o.retention);
    let rule = if source == Some(OptionRetention::RetentionSource) {
        FieldRule::Source
    } else if matches!(field.r#type, Some(Type::Message | Type::Group)) {
        FieldRule::Message {
            type_name: field.type_name.clone()?,
            repeated: field.label == Some(Label::Repeated),
            options: false,
        }
    } else {
        return None;
    };
    Some((number, rule))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Field `number` holding `payload`, length-delimited.
    fn len(number: u64, payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        wire::put_len(&mut out, number, payload);
        out
    }

    /// Field `number` holding the varint `value`.
    fn varint(number: u64, value: u64) -> Vec<u8> {
        let mut out = Vec::new();
        wire::put_varint(&mut out, number << 3);
        wire::put_varint(&mut out, value);
        out
    }

    /// A `SourceCodeInfo.Location` at `path` (packed).
    fn location(path: &[u64]) -> Vec<u8> {
        let mut packed = Vec::new();
        for &element in path {
            wire::put_varint(&mut packed, element);
        }
        len(1, &len(LOCATION_PATH, &packed))
    }

    /// An extension of `extendee`: a string field `number` of `.o.Note`
    /// when `note`, with source retention when `source`.
    fn extension(extendee: &str, number: u64, note: bool, source: bool) -> Vec<u8> {
        let mut field = len(2, extendee.as_bytes());
        field.extend(varint(3, number));
        field.extend(varint(4, 1));
        if note {
            field.extend(varint(5, Type::Message as u64));
            field.extend(len(6, b".o.Note"));
        } else {
            field.extend(varint(5, 9));
        }
        if source {
            field.extend(len(8, &varint(17, OptionRetention::RetentionSource as u64)));
        }
        len(7, &field)
    }

    /// opts.proto (package `o`): message `Note` (`text` = 1, and `draft`
    /// = 2 with source retention) and options of messages and enum
    /// values, 50001 with source retention, 50002 a `Note`.
    fn opts_proto() -> Vec<u8> {
        let mut note = len(1, b"Note");
        let mut text = len(1, b"text");
        text.extend(varint(3, 1));
        text.extend(varint(5, 9));
        note.extend(len(2, &text));
        let mut draft = len(1, b"draft");
        draft.extend(varint(3, 2));
        draft.extend(varint(5, 9));
        draft.extend(len(8, &varint(17, OptionRetention::RetentionSource as u64)));
        note.extend(len(2, &draft));
        let mut file = len(1, b"opts.proto");
        file.extend(len(2, b"o"));
        file.extend(len(4, &note));
        file.extend(extension(
            ".google.protobuf.MessageOptions",
            50001,
            false,
            true,
        ));
        file.extend(extension(
            ".google.protobuf.MessageOptions",
            50002,
            true,
            false,
        ));
        file.extend(extension(
            ".google.protobuf.EnumValueOptions",
            50001,
            false,
            true,
        ));
        file
    }

    fn set(files: &[Vec<u8>]) -> Vec<u8> {
        files.iter().flat_map(|file| len(1, file)).collect()
    }

    /// The rules of the encoded set `set`.
    fn rules(set: &[u8]) -> Result<RetentionRules, buffa::DecodeError> {
        use buffa::Message as _;
        let set = buffa_types::google::protobuf::FileDescriptorSet::decode_from_slice(set)?;
        Ok(RetentionRules::new(&set.file))
    }

    #[test]
    fn strips_source_retention_options_and_their_locations() {
        // Message A: option 50001 only. Message B: 50001, then a Note
        // with `text` and `draft`. Message C: a Note with `draft` only.
        // Enum E, value 0: 50001 only.
        let a = [len(1, b"A"), len(7, &len(50001, b"x"))].concat();
        let note = [len(1, b"kept"), len(2, b"dropped")].concat();
        let b = [
            len(1, b"B"),
            len(7, &[len(50001, b"x"), len(50002, &note)].concat()),
        ]
        .concat();
        let c = [len(1, b"C"), len(7, &len(50002, &len(2, b"dropped")))].concat();
        let value = [len(1, b"V"), varint(2, 0), len(3, &varint(50001, 1))].concat();
        let e = [len(1, b"E"), len(2, &value)].concat();
        let paths: [&[u64]; 11] = [
            &[4, 0],
            &[4, 0, 7],
            &[4, 0, 7, 50001],
            &[4, 1, 7],
            &[4, 1, 7, 50001],
            &[4, 1, 7],
            &[4, 1, 7, 50002],
            &[4, 2, 7, 50002],
            &[5, 0, 2, 0, 3],
            &[5, 0, 2, 0, 3, 50001],
            &[5, 0, 2, 0, 1],
        ];
        let info: Vec<u8> = paths.iter().flat_map(|path| location(path)).collect();
        let file = [
            len(1, b"a.proto"),
            len(2, b"o"),
            len(3, b"opts.proto"),
            len(4, &a),
            len(4, &b),
            len(4, &c),
            len(5, &e),
            len(9, &info),
        ]
        .concat();
        let rules = rules(&set(&[opts_proto(), file.clone()])).unwrap();
        let stripped = rules.strip_file(&file).unwrap().expect("options stripped");

        let b = [len(1, b"B"), len(7, &len(50002, &len(1, b"kept")))].concat();
        let c = [len(1, b"C"), len(7, &len(50002, &[]))].concat();
        let e = [len(1, b"E"), len(2, &[len(1, b"V"), varint(2, 0)].concat())].concat();
        // B's two `option` statements keep their locations.
        let kept: [&[u64]; 6] = [
            &[4, 0],
            &[4, 1, 7],
            &[4, 1, 7],
            &[4, 1, 7, 50002],
            &[4, 2, 7, 50002],
            &[5, 0, 2, 0, 1],
        ];
        let info: Vec<u8> = kept.iter().flat_map(|path| location(path)).collect();
        let expected = [
            len(1, b"a.proto"),
            len(2, b"o"),
            len(3, b"opts.proto"),
            len(4, &len(1, b"A")),
            len(4, &b),
            len(4, &c),
            len(5, &e),
            len(9, &info),
        ]
        .concat();
        assert_eq!(stripped, expected);
        // Stripped files, and files without such options, stay as they are.
        assert_eq!(rules.strip_file(&stripped).unwrap(), None);
        assert_eq!(rules.strip_file(&opts_proto()).unwrap(), None);
    }

    #[test]
    fn strips_descriptor_protos_own_source_retention_fields() {
        // File options holding `java_package` and features with
        // `enforce_naming_style` and `field_presence`; then an extension
        // range with a `declaration` only, in a set without
        // descriptor.proto.
        let features = [varint(1, 1), varint(7, 2)].concat();
        let options = [len(1, b"x.y"), len(50, &features)].concat();
        let declaration = len(2, &[varint(1, 100), len(2, b".o.ext")].concat());
        let range = [varint(1, 100), varint(2, 200), len(3, &declaration)].concat();
        let message = [len(1, b"M"), len(5, &range)].concat();
        let info: Vec<u8> = [
            location(&[8, 50, 7]),
            location(&[8, 50, 1]),
            location(&[4, 0, 5, 0, 3]),
            location(&[4, 0, 5, 0, 3, 2, 0]),
            location(&[4, 0, 5, 0, 1]),
        ]
        .concat();
        let file = [
            len(1, b"f.proto"),
            len(4, &message),
            len(8, &options),
            len(9, &info),
        ]
        .concat();
        let rules = rules(&set(std::slice::from_ref(&file))).unwrap();
        let expected = [
            len(1, b"f.proto"),
            len(
                4,
                &[
                    len(1, b"M"),
                    len(5, &[varint(1, 100), varint(2, 200)].concat()),
                ]
                .concat(),
            ),
            len(8, &[len(1, b"x.y"), len(50, &varint(1, 1))].concat()),
            len(
                9,
                &[location(&[8, 50, 1]), location(&[4, 0, 5, 0, 1])].concat(),
            ),
        ]
        .concat();
        assert_eq!(rules.strip_file(&file).unwrap(), Some(expected));
    }

    #[test]
    fn options_come_out_in_number_order() {
        // `option (note) = {text: "n"}; option deprecated = true;`, as
        // protoc hands over an imported file; the only location stays.
        let options = [len(50002, &len(1, b"n")), varint(3, 1)].concat();
        let file = |options: &[u8]| {
            [
                len(1, b"a.proto"),
                len(4, &[len(1, b"A"), len(7, options)].concat()),
                len(9, &location(&[4, 0, 7])),
            ]
            .concat()
        };
        let rules = rules(&set(&[opts_proto(), file(&options)])).unwrap();
        let sorted = [varint(3, 1), len(50002, &len(1, b"n"))].concat();
        assert_eq!(
            rules.strip_file(&file(&options)).unwrap(),
            Some(file(&sorted))
        );
        assert_eq!(rules.strip_file(&file(&sorted)).unwrap(), None);
    }

    #[test]
    fn deeply_nested_options_are_refused() {
        // opts.proto's Note, made recursive: field 3 is a Note.
        let mut note = len(1, b"Note");
        let mut inner = len(1, b"inner");
        inner.extend(varint(3, 3));
        inner.extend(varint(5, Type::Message as u64));
        inner.extend(len(6, b".o.Note"));
        note.extend(len(2, &inner));
        let opts = [
            len(2, b"o"),
            len(4, &note),
            extension(".google.protobuf.MessageOptions", 50002, true, false),
        ]
        .concat();
        let nested = |depth: usize| {
            let mut value = Vec::new();
            for _ in 0..depth {
                value = len(3, &value);
            }
            [
                len(1, b"a.proto"),
                len(4, &[len(1, b"A"), len(7, &len(50002, &value))].concat()),
            ]
            .concat()
        };
        let rules = rules(&set(&[opts])).unwrap();
        assert_eq!(rules.strip_file(&nested(300)).unwrap(), None);
        assert!(rules.strip_file(&nested(1000)).is_err());
    }

    #[test]
    fn unpacked_location_paths_are_read() {
        let location = [varint(1, 4), varint(1, 0), len(2, &[1, 2, 3])].concat();
        assert_eq!(location_path(&location).unwrap(), [4, 0]);
        assert!(location_path(&len(1, &[0x80])).is_err());
    }
}
