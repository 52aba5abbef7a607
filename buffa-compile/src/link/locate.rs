//! Where the linker's errors point: protoc locates an error by element and
//! by which part of it is wrong (its name, number, type, ...), recorded by
//! its parser; the same positions are the starts of the element's
//! `SourceCodeInfo` spans.

use buffa_types::google::protobuf::FileDescriptorProto;
use buffa_types::google::protobuf::source_code_info::Location;

use crate::diagnostic::Diagnostic;

/// Which part of an element an error is about (protoc's
/// `DescriptorPool::ErrorCollector::ErrorLocation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ErrorLocation {
    /// The element's name.
    Name,
    /// A field's number.
    Number,
    /// A field's type.
    Type,
    /// An extension's extendee.
    Extendee,
    /// A field's `[default = ...]`.
    DefaultValue,
    /// A method's input type.
    InputType,
    /// A method's output type.
    OutputType,
    /// A field's `[json_name = ...]`.
    JsonName,
    /// The element as a whole.
    Other,
    /// A part protoc's parser records no position for (a oneof's name), or
    /// an error protoc reports against a copy of the element its parser
    /// never saw: the error is the file's, without line and column.
    Unrecorded,
}

impl ErrorLocation {
    /// The `SourceCodeInfo` path suffixes that locate this part, tried in
    /// order after the element's path (descriptor.proto's field numbers).
    fn suffixes(self) -> &'static [&'static [i32]] {
        match self {
            ErrorLocation::Name => &[&[1]],
            ErrorLocation::Number => &[&[3]],
            // A named type (`type_name`, 6) or a scalar one (`type`, 5).
            ErrorLocation::Type => &[&[6], &[5]],
            ErrorLocation::Extendee => &[&[2]],
            ErrorLocation::DefaultValue => &[&[7]],
            ErrorLocation::InputType => &[&[2]],
            ErrorLocation::OutputType => &[&[3]],
            ErrorLocation::JsonName => &[&[10]],
            ErrorLocation::Other | ErrorLocation::Unrecorded => &[],
        }
    }
}

/// An error of the file being linked, not yet turned into a position.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    /// The element's `SourceCodeInfo` path (`[4, 0, 2, 1]`: the second
    /// field of the first message).
    pub(crate) path: Vec<i32>,
    /// Which part of the element is at fault.
    pub(crate) location: ErrorLocation,
    /// protoc's message.
    pub(crate) message: String,
}

impl Located {
    /// An error about `location` of the element at `path`.
    pub(crate) fn new(path: Vec<i32>, location: ErrorLocation, message: String) -> Located {
        Located {
            path,
            location,
            message,
        }
    }

    /// The diagnostic, at the start of the part of the element protoc
    /// points at; without a position (as protoc reports it) when the
    /// parser recorded none for that part (the fields of a map entry, which
    /// the parser generates, have none).
    pub(crate) fn diagnostic(&self, file: &FileDescriptorProto) -> Diagnostic {
        if self.location == ErrorLocation::Unrecorded {
            return Diagnostic::file(file.name(), self.message.clone());
        }
        let locations = file
            .source_code_info
            .as_option()
            .map(|info| info.location.as_slice())
            .unwrap_or_default();
        let has = |path: &[i32]| locations.iter().any(|l| l.path == path);
        if self.location == ErrorLocation::Extendee && !first_of_extend_block(locations, &self.path)
        {
            return Diagnostic::file(file.name(), self.message.clone());
        }
        let suffixes = self.location.suffixes();
        let mut path = self.path.clone();
        for suffix in suffixes {
            path.truncate(self.path.len());
            path.extend_from_slice(suffix);
            if has(&path) {
                return Diagnostic::at_path(file, &path, self.message.clone());
            }
        }
        if self.location == ErrorLocation::Other && has(&self.path) {
            return Diagnostic::at_path(file, &self.path, self.message.clone());
        }
        Diagnostic::file(file.name(), self.message.clone())
    }
}

/// Whether the extension at `path` is the first of its `extend` block:
/// protoc's parser records the extendee's position for that one only
/// (each extension's `SourceCodeInfo` has the block's extendee span, so
/// the next ones share their predecessor's).
fn first_of_extend_block(locations: &[Location], path: &[i32]) -> bool {
    let Some((&index, parent)) = path.split_last() else {
        return true;
    };
    if index == 0 {
        return true;
    }
    let span = |index: i32| {
        let mut path = parent.to_vec();
        path.extend([index, 2]);
        locations
            .iter()
            .find(|l| l.path == path)
            .map(|l| l.span.clone())
    };
    let (this, previous) = (span(index), span(index - 1));
    this.is_none() || this != previous
}

/// The `SourceCodeInfo` path of the element of `file` whose full name is
/// `full_name` (a message, field, oneof, enum, enum value, extension,
/// service or method), if the file defines one.
pub(crate) fn element_path(file: &FileDescriptorProto, full_name: &str) -> Option<Vec<i32>> {
    let package = file.package();
    let relative = if package.is_empty() {
        full_name
    } else {
        full_name.strip_prefix(package)?.strip_prefix('.')?
    };
    let (first, rest) = match relative.split_once('.') {
        Some((first, rest)) => (first, Some(rest)),
        None => (relative, None),
    };
    for (i, message) in file.message_type.iter().enumerate() {
        if message.name() == first {
            let mut path = vec![4, i as i32];
            return match rest {
                None => Some(path),
                Some(rest) => message_element(message, rest, &mut path).then_some(path),
            };
        }
    }
    let index = |name: &str| name == relative;
    for (i, enumeration) in file.enum_type.iter().enumerate() {
        if index(enumeration.name()) {
            return Some(vec![5, i as i32]);
        }
        if let Some(rest) = rest
            && enumeration.name() == first
            && let Some(j) = enumeration.value.iter().position(|v| v.name() == rest)
        {
            return Some(vec![5, i as i32, 2, j as i32]);
        }
        if let Some(j) = enumeration.value.iter().position(|v| index(v.name())) {
            return Some(vec![5, i as i32, 2, j as i32]);
        }
    }
    for (i, service) in file.service.iter().enumerate() {
        if service.name() == first {
            return match rest {
                None => Some(vec![6, i as i32]),
                Some(rest) => {
                    let j = service.method.iter().position(|m| m.name() == rest)?;
                    Some(vec![6, i as i32, 2, j as i32])
                }
            };
        }
    }
    let i = file.extension.iter().position(|e| index(e.name()))?;
    Some(vec![7, i as i32])
}

/// Extends `path` (of `message`) to the element `relative` names inside
/// it; whether there is one.
fn message_element(
    message: &buffa_types::google::protobuf::DescriptorProto,
    relative: &str,
    path: &mut Vec<i32>,
) -> bool {
    let (first, rest) = match relative.split_once('.') {
        Some((first, rest)) => (first, Some(rest)),
        None => (relative, None),
    };
    if let Some(rest) = rest {
        if let Some(i) = message.nested_type.iter().position(|m| m.name() == first) {
            path.extend([3, i as i32]);
            return message_element(&message.nested_type[i], rest, path);
        }
        if let Some(i) = message.enum_type.iter().position(|e| e.name() == first)
            && let Some(j) = message.enum_type[i]
                .value
                .iter()
                .position(|v| v.name() == rest)
        {
            path.extend([4, i as i32, 2, j as i32]);
            return true;
        }
        return false;
    }
    let found = [
        (2, message.field.iter().position(|f| f.name() == first)),
        (6, message.extension.iter().position(|f| f.name() == first)),
        (8, message.oneof_decl.iter().position(|o| o.name() == first)),
        (
            3,
            message.nested_type.iter().position(|m| m.name() == first),
        ),
        (4, message.enum_type.iter().position(|e| e.name() == first)),
    ]
    .into_iter()
    .find_map(|(tag, i)| Some((tag, i?)));
    if let Some((tag, i)) = found {
        path.extend([tag, i as i32]);
        return true;
    }
    for (i, enumeration) in message.enum_type.iter().enumerate() {
        if let Some(j) = enumeration.value.iter().position(|v| v.name() == first) {
            path.extend([4, i as i32, 2, j as i32]);
            return true;
        }
    }
    false
}
