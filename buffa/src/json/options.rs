//! What the caller can configure about JSON output and input.

use std::sync::Arc;

use super::TypeRegistry;
use crate::options::DEFAULT_RECURSION_LIMIT;

/// The default longest JSON input accepted: 64 MiB.
pub const DEFAULT_MAX_JSON_LEN: usize = 64 << 20;

/// Options for writing JSON. The defaults follow the proto3 JSON mapping:
/// lowerCamelCase (`json_name`) field names, enums by name, fields left at
/// their default value omitted.
#[derive(Clone, Debug, Default)]
pub struct SerializeOptions {
    emit_default_values: bool,
    enums_as_ints: bool,
    proto_field_names: bool,
    type_registry: Option<Arc<TypeRegistry>>,
}

impl SerializeOptions {
    /// The default options.
    pub const DEFAULT: SerializeOptions = SerializeOptions::new();

    /// The default options.
    pub const fn new() -> SerializeOptions {
        SerializeOptions {
            emit_default_values: false,
            enums_as_ints: false,
            proto_field_names: false,
            type_registry: None,
        }
    }

    /// Also writes fields without presence that hold their default value:
    /// implicit-presence scalars and enums (`0`, `""`, `false`, ...),
    /// empty repeated fields (`[]`) and empty maps (`{}`). Fields with
    /// presence (messages, `optional` scalars, oneof members) are written
    /// exactly when set, whatever this says.
    pub fn with_emit_default_values(mut self, emit: bool) -> SerializeOptions {
        self.emit_default_values = emit;
        self
    }

    /// Writes enum values as their numbers instead of their names.
    pub fn with_enums_as_ints(mut self, as_ints: bool) -> SerializeOptions {
        self.enums_as_ints = as_ints;
        self
    }

    /// Names fields as the .proto file does (`snake_case`) instead of by
    /// their `json_name` (lowerCamelCase unless the schema says otherwise).
    pub fn with_proto_field_names(mut self, proto_names: bool) -> SerializeOptions {
        self.proto_field_names = proto_names;
        self
    }

    /// The message types `google.protobuf.Any` fields may hold, beyond the
    /// well-known types.
    pub fn with_type_registry(mut self, registry: Arc<TypeRegistry>) -> SerializeOptions {
        self.type_registry = Some(registry);
        self
    }

    /// See [`SerializeOptions::with_emit_default_values`].
    pub fn emit_default_values(&self) -> bool {
        self.emit_default_values
    }

    /// See [`SerializeOptions::with_enums_as_ints`].
    pub fn enums_as_ints(&self) -> bool {
        self.enums_as_ints
    }

    /// See [`SerializeOptions::with_proto_field_names`].
    pub fn proto_field_names(&self) -> bool {
        self.proto_field_names
    }

    /// See [`SerializeOptions::with_type_registry`].
    pub fn type_registry(&self) -> Option<&TypeRegistry> {
        self.type_registry.as_deref()
    }
}

/// Options and limits for reading JSON. Field names are accepted both as
/// their `json_name` and as written in the .proto file, enums both by name
/// and by number, whatever the options.
#[derive(Clone, Debug)]
pub struct DeserializeOptions {
    ignore_unknown_fields: bool,
    recursion_limit: u32,
    max_len: usize,
    allocation_limit: Option<usize>,
    type_registry: Option<Arc<TypeRegistry>>,
}

impl DeserializeOptions {
    /// The default options.
    pub const DEFAULT: DeserializeOptions = DeserializeOptions::new();

    /// The default options: unknown fields are errors, messages nest at
    /// most [`DEFAULT_RECURSION_LIMIT`] levels deep, input is at most
    /// [`DEFAULT_MAX_JSON_LEN`] bytes.
    pub const fn new() -> DeserializeOptions {
        DeserializeOptions {
            ignore_unknown_fields: false,
            recursion_limit: DEFAULT_RECURSION_LIMIT,
            max_len: DEFAULT_MAX_JSON_LEN,
            allocation_limit: None,
            type_registry: None,
        }
    }

    /// Skips fields the schema does not know, and enum names it does not
    /// declare (the field is then left unset; in a repeated field or map,
    /// the element is dropped), instead of failing.
    pub fn with_ignore_unknown_fields(mut self, ignore: bool) -> DeserializeOptions {
        self.ignore_unknown_fields = ignore;
        self
    }

    /// How deep messages may nest, the outermost one counting as one level.
    /// Independently of this, the JSON parser refuses input nested more
    /// than 128 arrays and objects deep.
    pub fn with_recursion_limit(mut self, limit: u32) -> DeserializeOptions {
        self.recursion_limit = limit;
        self
    }

    /// The longest input accepted, in bytes.
    pub fn with_max_len(mut self, max_len: usize) -> DeserializeOptions {
        self.max_len = max_len;
        self
    }

    /// Sets a budget, in bytes, for the memory the parsed message may take,
    /// or `None` (the default) for no budget, as
    /// [`DecodeOptions::with_allocation_limit`](crate::DecodeOptions::with_allocation_limit)
    /// does for binary input. Charged: the bytes of each string and bytes
    /// value, the size of each repeated element and map entry, and the
    /// size of each singular sub-message behind an allocating pointer and
    /// of each message-typed oneof member. Without a budget, what a parse
    /// allocates is still proportional to its input (each element or entry
    /// takes at least two bytes of JSON), by a factor of up to the size of
    /// the largest element type.
    pub fn with_allocation_limit(mut self, limit: Option<usize>) -> DeserializeOptions {
        self.allocation_limit = limit;
        self
    }

    /// The message types `google.protobuf.Any` fields may hold, beyond the
    /// well-known types.
    pub fn with_type_registry(mut self, registry: Arc<TypeRegistry>) -> DeserializeOptions {
        self.type_registry = Some(registry);
        self
    }

    /// See [`DeserializeOptions::with_ignore_unknown_fields`].
    pub fn ignore_unknown_fields(&self) -> bool {
        self.ignore_unknown_fields
    }

    /// See [`DeserializeOptions::with_recursion_limit`].
    pub fn recursion_limit(&self) -> u32 {
        self.recursion_limit
    }

    /// See [`DeserializeOptions::with_max_len`].
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// See [`DeserializeOptions::with_allocation_limit`].
    pub fn allocation_limit(&self) -> Option<usize> {
        self.allocation_limit
    }

    /// See [`DeserializeOptions::with_type_registry`].
    pub fn type_registry(&self) -> Option<&TypeRegistry> {
        self.type_registry.as_deref()
    }
}

impl Default for DeserializeOptions {
    fn default() -> Self {
        DeserializeOptions::new()
    }
}
