//! `google.protobuf.FieldMask` applied to messages through their
//! descriptors: [`validate`] a mask against a message type, [`trim`] a
//! message to the fields a mask covers, and [`merge`] the covered fields of
//! one message into another, as protobuf-go's `fieldmaskpb` checks paths
//! and Java's `FieldMaskUtil` trims and merges.
//!
//! A path names fields by their names in the .proto file (`display_name`,
//! not the JSON `displayName`), joined by `.`: every segment but the last
//! names a singular message field, and a repeated or map field may only be
//! last. A path covers its field whole, sub-fields included. The path-only
//! operations (normalizing, union, intersection, covering) need no schema
//! and are on [`FieldMask`] itself, in `buffa-types`.
//!
//! Every function here checks the mask first and returns a
//! [`FieldMaskError`] for a path that breaks these rules, changing
//! nothing: a mask from a client is input like any other. An empty mask
//! is valid; neither the special `*` mask some APIs accept nor an absent
//! mask is given a meaning here (services decide what those mean, and
//! check for them before calling).
//!
//! The functions work on generated messages (with reflection) and
//! [`DynamicMessage`](crate::DynamicMessage)s alike, and recurse only as
//! deep as the messages themselves nest.

use std::collections::BTreeMap;
use std::fmt;

use buffa::DecodeOptions;
use buffa_types::FieldMask;

use crate::reflect::{ReflectError, ReflectMessage, ValueMut};
use crate::value::{Value, ValueRef};
use crate::{FieldDescriptor, Kind, MessageDescriptor};

/// Checks that every path of `mask` names fields of `descriptor`: each
/// segment the name of a field (as in the .proto file) of the message the
/// segment before it leads to, each segment but the last a singular
/// message field, so that a repeated or map field only comes last. An
/// empty path, or an empty segment (`a..b`, `a.`), is invalid; so are
/// extensions, which have no name a path could use. Duplicate and
/// overlapping paths are valid. These are protobuf-go's rules
/// (`FieldMask.IsValid`), but for groups, which are named by their field
/// name (`optionalgroup`) as Java names them, not by their type name.
///
/// The first invalid path gives the error, naming the path and its
/// offending segment.
pub fn validate(mask: &FieldMask, descriptor: &MessageDescriptor) -> Result<(), FieldMaskError> {
    mask.paths
        .iter()
        .try_for_each(|path| validate_path(path, descriptor))
}

/// Checks one path; see [`validate`].
fn validate_path(path: &str, root: &MessageDescriptor) -> Result<(), FieldMaskError> {
    // The message the next segment is looked up in, or why there is none.
    let mut next: Result<MessageDescriptor, (PathProblem, &str, String)> = Ok(root.clone());
    for segment in path.split('.') {
        let message = match next {
            Ok(message) => message,
            Err((problem, field, message)) => {
                return Err(invalid(path, field, message, problem));
            }
        };
        if segment.is_empty() {
            return Err(invalid(
                path,
                segment,
                message.full_name().to_owned(),
                PathProblem::EmptySegment,
            ));
        }
        let Some(field) = message.get_field_by_name(segment) else {
            return Err(invalid(
                path,
                segment,
                message.full_name().to_owned(),
                PathProblem::UnknownField,
            ));
        };
        let owner = || message.full_name().to_owned();
        next = match field.kind() {
            _ if field.is_list() || field.is_map() => {
                Err((PathProblem::RepeatedNotLast, segment, owner()))
            }
            Kind::Message(sub) => Ok(sub),
            _ => Err((PathProblem::NotAMessage, segment, owner())),
        };
    }
    Ok(())
}

/// A [`FieldMaskError::InvalidPath`].
fn invalid(path: &str, segment: &str, message: String, problem: PathProblem) -> FieldMaskError {
    FieldMaskError::InvalidPath {
        path: path.to_owned(),
        segment: segment.to_owned(),
        message,
        problem,
    }
}

/// Clears every field of `message` that `mask` does not cover, as Java's
/// `FieldMaskUtil.trim` keeps only the masked fields: a field a path names
/// whole stays as it is, a singular message field that paths go below is
/// trimmed to them in turn (it stays set, even if nothing in it is left),
/// and every other field is cleared, extensions and unknown fields
/// included (those of a sub-message kept whole stay). So an empty mask
/// clears the message.
///
/// Where Java's `trim` merges the covered fields into a new message, and
/// so sets a covered field with presence that was not set to its default,
/// this leaves it unset: trimming only removes.
///
/// Fails, changing nothing, when `mask` is not valid for the message's type
/// (see [`validate`]).
pub fn trim(message: &mut dyn ReflectMessage, mask: &FieldMask) -> Result<(), FieldMaskError> {
    validate(mask, &message.descriptor())?;
    trim_message(message, mask.paths.iter().map(String::as_str), "")
}

/// Trims `message` to `paths` (relative to it); `at` is its own path, for
/// errors.
fn trim_message<'a>(
    message: &mut dyn ReflectMessage,
    paths: impl IntoIterator<Item = &'a str>,
    at: &str,
) -> Result<(), FieldMaskError> {
    let covers = level(paths);
    let set: Vec<FieldDescriptor> = message.set_fields().into_iter().map(|(f, _)| f).collect();
    for field in set {
        let cover = if field.is_extension() {
            None
        } else {
            covers.get(field.name())
        };
        match cover {
            Some(Cover::Whole) => {}
            Some(Cover::Below(below)) => {
                let path = join(at, field.name());
                match message.field_mut(&field) {
                    Ok(ValueMut::Message(sub)) => trim_message(sub, below.iter().copied(), &path)?,
                    Ok(_) => return Err(not_a_message(&path)),
                    Err(error) => return Err(FieldMaskError::Reflect { path, error }),
                }
            }
            None => message.clear_field(&field),
        }
    }
    if let Some(unknown) = message.unknown_fields_mut() {
        unknown.clear();
    }
    Ok(())
}

/// How [`merge`] treats the fields a mask names whole, as Java's
/// `FieldMaskUtil.MergeOptions`; the default (all `false`) is
/// field_mask.proto's rule for update operations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// A singular message field: `false` merges the source's message into
    /// the destination's (protobuf merge: set fields overwrite, repeated
    /// fields append; nothing happens when the source's is not set);
    /// `true` replaces the destination's with the source's (clears it when
    /// the source's is not set).
    pub replace_message_fields: bool,
    /// A repeated or map field: `false` appends the source's elements to
    /// the destination's (a map inserts the source's entries, replacing
    /// those of equal keys); `true` replaces the destination's elements
    /// with the source's.
    pub replace_repeated_fields: bool,
    /// A singular field that is not a message (a scalar, string, bytes or
    /// enum field) that is not set in the source: `false` sets the
    /// destination's to the source's value all the same, which is its
    /// default value (so a field with presence becomes set, to its
    /// default); `true` clears the destination's. A field set in the
    /// source is copied either way.
    pub replace_primitive_fields: bool,
}

/// Merges the fields of `source` that `mask` covers into `destination`,
/// a message of the same type (by full name), as Java's
/// `FieldMaskUtil.merge`; fields not covered are left as they are.
///
/// For each path, by its fields:
///
/// - A path that goes below a singular message field (`payload.count`)
///   merges into the destination's sub-message by the rest of the path,
///   creating it when only the source has it set; when neither has it
///   set, nothing happens. When only the destination has it set, the
///   merge reads the source's as an empty message (so, by the rules below,
///   a named primitive field of it is set to its default, or cleared).
/// - A field a path names whole (`payload`, `tags`, `count`) is merged by
///   its shape, as [`MergeOptions`] says: a singular message field is
///   merged into (or with `replace_message_fields`, replaces) the
///   destination's; a repeated or map field appends to (or with
///   `replace_repeated_fields`, replaces) the destination's; a singular
///   field of another kind is copied from the source, and when the
///   source's is not set, the destination's is set to the default value
///   (or with `replace_primitive_fields`, cleared). A oneof member set
///   selects that member, as setting it does.
/// - Paths covered by another path of the mask change nothing more; an
///   empty mask leaves `destination` unchanged.
///
/// With the default options this is what field_mask.proto says an update
/// operation does: new elements appended to repeated fields, sub-messages
/// merged, and a primitive field named in the mask takes the resource's
/// value, default or not.
///
/// Fails, changing nothing, when the messages are of different types or
/// `mask` is not valid for their type (see [`validate`]). Messages of two
/// pools that describe their type differently may fail part way, when a
/// value of the source does not fit the destination.
///
/// # Panics
///
/// As [`ReflectMessage::encode_binary`], when a sub-message merged whole
/// (not replaced) cannot be encoded: nested deeper than the default
/// recursion limit, or longer than 2 GiB.
///
/// # Example: an update method (AIP-134)
///
/// A service validates the request's `update_mask` against the resource's
/// type and merges the covered fields of the request's resource into the
/// stored one. Here the resource is a `google.protobuf.Api`, a generated
/// message with reflection; the `Api` in the request names the fields to
/// change and their new values, and the others are ignored.
///
/// ```
/// use buffa_reflect::ReflectMessage;
/// use buffa_reflect::field_mask::{self, MergeOptions};
/// use buffa_types::{Api, FieldMask, Method};
///
/// /// An `UpdateApi` request: the new values and which fields to change.
/// struct UpdateApiRequest {
///     api: Api,
///     update_mask: FieldMask,
/// }
///
/// /// Applies `request` to `stored`, or says why the request is invalid
/// /// (`INVALID_ARGUMENT`).
/// fn update_api(stored: &mut Api, request: &UpdateApiRequest) -> Result<(), String> {
///     if request.update_mask.paths.is_empty() {
///         return Err("update_mask is required".to_owned());
///     }
///     field_mask::validate(&request.update_mask, &stored.descriptor())
///         .map_err(|e| e.to_string())?;
///     field_mask::merge(&request.api, stored, &request.update_mask, MergeOptions::default())
///         .map_err(|e| e.to_string())
/// }
///
/// let method = |name: &str| Method { name: name.to_owned(), ..Default::default() };
/// let mut stored = Api {
///     name: "library".to_owned(),
///     version: "v1".to_owned(),
///     methods: vec![method("GetBook")],
///     ..Default::default()
/// };
/// let request = UpdateApiRequest {
///     api: Api {
///         name: "ignored: not in the mask".to_owned(),
///         version: "v2".to_owned(),
///         methods: vec![method("ListBooks")],
///         ..Default::default()
///     },
///     update_mask: FieldMask::from_paths(["version", "methods"]),
/// };
/// update_api(&mut stored, &request).unwrap();
/// assert_eq!(stored.name, "library");
/// assert_eq!(stored.version, "v2");
/// // A repeated field appends (`replace_repeated_fields` replaces).
/// let names: Vec<&str> = stored.methods.iter().map(|m| m.name.as_str()).collect();
/// assert_eq!(names, ["GetBook", "ListBooks"]);
///
/// // A path the type does not have is the client's error.
/// let bad = UpdateApiRequest {
///     api: Api::default(),
///     update_mask: FieldMask::from_paths(["methods.name"]),
/// };
/// assert_eq!(
///     update_api(&mut stored, &bad).unwrap_err(),
///     "invalid field mask path \"methods.name\": field \"methods\" of google.protobuf.Api \
///      is repeated or a map, so the path must end there"
/// );
/// ```
pub fn merge(
    source: &dyn ReflectMessage,
    destination: &mut dyn ReflectMessage,
    mask: &FieldMask,
    options: MergeOptions,
) -> Result<(), FieldMaskError> {
    let (from, to) = (source.descriptor(), destination.descriptor());
    if from.full_name() != to.full_name() {
        return Err(FieldMaskError::DifferentTypes {
            source: from.full_name().to_owned(),
            destination: to.full_name().to_owned(),
        });
    }
    validate(mask, &to)?;
    merge_message(
        source,
        destination,
        mask.paths.iter().map(String::as_str),
        options,
        "",
    )
}

/// Merges the fields of `source` that `paths` (relative to it) cover into
/// `destination`; `at` is their path, for errors.
fn merge_message<'a>(
    source: &dyn ReflectMessage,
    destination: &mut dyn ReflectMessage,
    paths: impl IntoIterator<Item = &'a str>,
    options: MergeOptions,
    at: &str,
) -> Result<(), FieldMaskError> {
    let (from_message, to_message) = (source.descriptor(), destination.descriptor());
    for (name, cover) in level(paths) {
        // Both exist: the mask was validated against one type, and both
        // messages are of that type.
        let (Some(from), Some(to)) = (
            from_message.get_field_by_name(name),
            to_message.get_field_by_name(name),
        ) else {
            continue;
        };
        let path = join(at, name);
        let reflect_error = |error| FieldMaskError::Reflect {
            path: path.clone(),
            error,
        };
        match cover {
            Cover::Whole => {
                merge_field(source, &from, destination, &to, options).map_err(reflect_error)?
            }
            Cover::Below(below) => {
                if !source.has_field(&from) && !destination.has_field(&to) {
                    continue;
                }
                let ValueMut::Message(sub) = destination.field_mut(&to).map_err(reflect_error)?
                else {
                    return Err(not_a_message(&path));
                };
                match source.field(&from) {
                    Some(ValueRef::Message(from_sub)) => {
                        merge_message(from_sub, sub, below, options, &path)?;
                    }
                    _ => {
                        let empty = sub.new_instance();
                        merge_message(&*empty, sub, below, options, &path)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Merges field `from` of `source` into field `to` of `destination` (the
/// same field, perhaps of another pool), by the field's shape; see
/// [`merge`].
fn merge_field(
    source: &dyn ReflectMessage,
    from: &FieldDescriptor,
    destination: &mut dyn ReflectMessage,
    to: &FieldDescriptor,
    options: MergeOptions,
) -> Result<(), ReflectError> {
    let value = source.field(from);
    if to.is_list() || to.is_map() {
        if options.replace_repeated_fields {
            destination.clear_field(to);
        }
        let Some(value) = value else {
            return Ok(());
        };
        return match (value.to_value(to), destination.field_mut(to)?) {
            (Value::List(elements), ValueMut::List(mut list)) => {
                elements.into_iter().try_for_each(|e| list.push(e))
            }
            (Value::Map(entries), ValueMut::Map(mut map)) => entries
                .into_iter()
                .try_for_each(|(key, value)| map.insert(key, value)),
            _ => Err(ReflectError::new(format!(
                "field {} is repeated in one message and not in the other",
                to.full_name()
            ))),
        };
    }
    match (value, to.kind()) {
        (None, Kind::Message(_)) => {
            if options.replace_message_fields {
                destination.clear_field(to);
            }
            Ok(())
        }
        (Some(value), Kind::Message(_)) if options.replace_message_fields => {
            destination.set_field(to, value.to_value(to))
        }
        (Some(ValueRef::Message(from_sub)), Kind::Message(_)) => {
            // Protobuf's merge, as the binary format defines it.
            let mut bytes = Vec::new();
            from_sub.encode_binary(&mut bytes);
            let ValueMut::Message(sub) = destination.field_mut(to)? else {
                return Err(ReflectError::new(format!(
                    "field {} holds no message",
                    to.full_name()
                )));
            };
            sub.merge_binary(&bytes, &DecodeOptions::new())
                .map_err(|e| ReflectError::new(e.to_string()))
        }
        (Some(value), _) => destination.set_field(to, value.to_value(to)),
        (None, _) if options.replace_primitive_fields => {
            destination.clear_field(to);
            Ok(())
        }
        (None, _) => destination.set_field(to, Value::unset_value_of(to)),
    }
}

/// What the paths of one level ask of a field.
enum Cover<'a> {
    /// The whole field.
    Whole,
    /// Only these paths below it, relative to its message.
    Below(Vec<&'a str>),
}

/// The paths of one level grouped by their first segment, the field
/// name: a field a path names whole is covered whole, whatever else goes
/// below it.
fn level<'a>(paths: impl IntoIterator<Item = &'a str>) -> BTreeMap<&'a str, Cover<'a>> {
    let mut fields = BTreeMap::new();
    for path in paths {
        let (name, rest) = match path.split_once('.') {
            Some((name, rest)) => (name, Some(rest)),
            None => (path, None),
        };
        let cover = fields.entry(name).or_insert(Cover::Below(Vec::new()));
        match (cover, rest) {
            (Cover::Whole, _) => {}
            (cover, None) => *cover = Cover::Whole,
            (Cover::Below(below), Some(rest)) => below.push(rest),
        }
    }
    fields
}

/// `name` below the path `at` (the message itself when empty).
fn join(at: &str, name: &str) -> String {
    if at.is_empty() {
        name.to_owned()
    } else {
        format!("{at}.{name}")
    }
}

/// A field validation said is a singular message field is not one: the
/// message does not match its own descriptor.
fn not_a_message(path: &str) -> FieldMaskError {
    FieldMaskError::Reflect {
        path: path.to_owned(),
        error: ReflectError::new("the field holds no message"),
    }
}

/// A field mask that does not fit a message type, or messages it cannot be
/// applied to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldMaskError {
    /// A path breaks the rules [`validate`] checks.
    InvalidPath {
        /// The path, as the mask holds it.
        path: String,
        /// Its offending segment: the unknown or empty name, or the field
        /// the path cannot go on past.
        segment: String,
        /// The full name of the message the segment was looked up in.
        message: String,
        /// What is wrong with the segment.
        problem: PathProblem,
    },
    /// [`merge`] was given messages of two types.
    DifferentTypes {
        /// The source's full type name.
        source: String,
        /// The destination's full type name.
        destination: String,
    },
    /// Reflection refused a change at `path`: the messages do not match
    /// their descriptors, or (merging) the source's value does not fit the
    /// destination, their pools describing the type differently.
    Reflect {
        /// The path of the field.
        path: String,
        /// Why reflection refused.
        error: ReflectError,
    },
}

/// What is wrong with a segment of a path; see
/// [`FieldMaskError::InvalidPath`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathProblem {
    /// The path, or a segment of it, is empty (`""`, `a..b`, `a.`).
    EmptySegment,
    /// The message has no field of that name.
    UnknownField,
    /// The field is not a message, so it has no fields below it.
    NotAMessage,
    /// The field is repeated or a map, so it must be the path's last
    /// segment.
    RepeatedNotLast,
}

impl fmt::Display for FieldMaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldMaskError::InvalidPath {
                path,
                segment,
                message,
                problem,
            } => {
                write!(f, "invalid field mask path {path:?}: ")?;
                match problem {
                    PathProblem::EmptySegment => write!(f, "empty field name"),
                    PathProblem::UnknownField => write!(f, "{message} has no field {segment:?}"),
                    PathProblem::NotAMessage => write!(
                        f,
                        "field {segment:?} of {message} is not a message, \
                         so the path must end there"
                    ),
                    PathProblem::RepeatedNotLast => write!(
                        f,
                        "field {segment:?} of {message} is repeated or a map, \
                         so the path must end there"
                    ),
                }
            }
            FieldMaskError::DifferentTypes {
                source,
                destination,
            } => write!(f, "cannot merge a {source} into a {destination}"),
            FieldMaskError::Reflect { path, error } => {
                write!(f, "cannot apply the field mask at {path:?}: {error}")
            }
        }
    }
}

impl std::error::Error for FieldMaskError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FieldMaskError::Reflect { error, .. } => Some(error),
            _ => None,
        }
    }
}
