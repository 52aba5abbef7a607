//! [`FieldDescriptor`]: a field of a message, or an extension.

use buffa::WireType;
use buffa_types::google::protobuf::feature_set::{
    FieldPresence, MessageEncoding, RepeatedFieldEncoding, Utf8Validation,
};
use buffa_types::google::protobuf::{FieldDescriptorProto, FieldOptions};

use crate::inner::{FieldInner, KindIndex, short_name};
use crate::rules::ResolvedFeatures;
use crate::{
    Cardinality, Comments, DefaultValue, DescriptorPool, FileDescriptor, Kind, MessageDescriptor,
    OneofDescriptor, handle_traits,
};

/// A field of a message type, or an extension, in a [`DescriptorPool`].
///
/// Every property that depends on the file's syntax or edition features
/// ([`FieldDescriptor::cardinality`], [`FieldDescriptor::has_presence`],
/// [`FieldDescriptor::is_packed`], [`FieldDescriptor::is_group`],
/// [`FieldDescriptor::validates_utf8`]) is resolved: it answers what the
/// field does, whichever way the `.proto` file said so.
#[derive(Clone)]
pub struct FieldDescriptor {
    pub(super) pool: DescriptorPool,
    index: u32,
}

handle_traits!(FieldDescriptor, full_name);

impl FieldDescriptor {
    pub(crate) fn new(pool: &DescriptorPool, index: u32) -> FieldDescriptor {
        FieldDescriptor {
            pool: pool.clone(),
            index,
        }
    }

    fn inner(&self) -> &FieldInner {
        self.pool.inner.field(self.index)
    }

    /// The pool this field is in.
    pub fn pool(&self) -> &DescriptorPool {
        &self.pool
    }

    /// The field's name in the `.proto` file.
    pub fn name(&self) -> &str {
        short_name(&self.inner().full_name)
    }

    /// The full name: the message's full name and the field name
    /// (`"pkg.Message.field"`); for an extension, its scope's (package or
    /// declaring message) and its name.
    pub fn full_name(&self) -> &str {
        &self.inner().full_name
    }

    /// The name in the JSON mapping: protoc's `json_name` (the
    /// `json_name` option, else the lowerCamelCase name), or the
    /// lowerCamelCase name when the descriptor does not carry one.
    pub fn json_name(&self) -> &str {
        &self.inner().json_name
    }

    /// Whether another field of the same message has this field's
    /// `json_name` as its JSON or .proto name (proto2 allows that, with
    /// `deprecated_legacy_json_field_conflicts`); the JSON mapping then
    /// writes the field under its .proto name, as protoc's generated code
    /// does.
    pub fn json_name_is_shared(&self) -> bool {
        self.inner().json_name_shared
    }

    /// The field number.
    pub fn number(&self) -> u32 {
        self.inner().number
    }

    /// The position of the field among its message's
    /// [`fields`](MessageDescriptor::fields) (for an extension: among the
    /// extensions of its scope), for tables indexed by field.
    pub fn index(&self) -> usize {
        self.inner().index as usize
    }

    /// The type of the field's values.
    pub fn kind(&self) -> Kind {
        Kind::new(&self.pool, self.inner().kind)
    }

    /// Whether the field holds one value, exactly one, or any number.
    pub fn cardinality(&self) -> Cardinality {
        self.inner().cardinality
    }

    /// Whether the field is repeated and not a map.
    pub fn is_list(&self) -> bool {
        self.cardinality() == Cardinality::Repeated && !self.is_map()
    }

    /// Whether the field is a map: repeated, of a map entry message type.
    pub fn is_map(&self) -> bool {
        let field = self.inner();
        match field.kind {
            KindIndex::Message(m) => {
                field.cardinality == Cardinality::Repeated
                    && self.pool.inner.message(m).is_map_entry
            }
            _ => false,
        }
    }

    /// Whether the field is repeated and its values are written packed (in
    /// one length-delimited record): proto2 `[packed = true]`, proto3
    /// repeated scalars unless `[packed = false]`, editions
    /// `repeated_field_encoding = PACKED`. Only for packable kinds.
    pub fn is_packed(&self) -> bool {
        let field = self.inner();
        field.cardinality == Cardinality::Repeated
            && field.kind.is_packable()
            && field.features.repeated_field_encoding == RepeatedFieldEncoding::Packed
    }

    /// Whether the field distinguishes "not set" from its default value:
    /// message fields, oneof members (proto3 `optional` included),
    /// extensions, proto2 singular fields, editions singular fields
    /// without `field_presence = IMPLICIT`. Never repeated fields.
    pub fn has_presence(&self) -> bool {
        let field = self.inner();
        field.cardinality != Cardinality::Repeated
            && (matches!(field.kind, KindIndex::Message(_))
                || field.oneof.is_some()
                || field.is_extension
                || field.features.field_presence != FieldPresence::Implicit)
    }

    /// Whether the field is a message written as a group (between
    /// start-group and end-group tags): proto2 `group`, editions
    /// `message_encoding = DELIMITED`. Map fields, and the fields of map
    /// entries, are always length-prefixed.
    pub fn is_group(&self) -> bool {
        let field = self.inner();
        let KindIndex::Message(message) = field.kind else {
            return false;
        };
        let inner = &self.pool.inner;
        let in_map_entry = !field.is_extension && inner.message(field.message).is_map_entry;
        field.features.message_encoding == MessageEncoding::Delimited
            && !inner.message(message).is_map_entry
            && !in_map_entry
    }

    /// Whether a `string` field's values must be valid UTF-8 when decoded:
    /// proto3, and editions `utf8_validation = VERIFY` (the default);
    /// proto2 strings are not checked. Always `false` for other kinds.
    pub fn validates_utf8(&self) -> bool {
        let field = self.inner();
        field.kind == KindIndex::String && field.features.utf8_validation == Utf8Validation::Verify
    }

    /// The wire type of the field's records: `StartGroup` for a group,
    /// `LengthDelimited` when packed, else that of its kind
    /// ([`Kind::wire_type`]).
    pub fn wire_type(&self) -> WireType {
        if self.is_group() {
            WireType::StartGroup
        } else if self.is_packed() {
            WireType::LengthDelimited
        } else {
            self.kind().wire_type()
        }
    }

    /// The oneof the field is a member of, synthetic ones (of proto3
    /// `optional` fields) included.
    pub fn containing_oneof(&self) -> Option<OneofDescriptor> {
        self.inner()
            .oneof
            .map(|i| OneofDescriptor::new(&self.pool, i))
    }

    /// The oneof the field is a member of, unless it is the synthetic oneof
    /// of a proto3 `optional` field.
    pub fn real_oneof(&self) -> Option<OneofDescriptor> {
        self.containing_oneof().filter(|o| !o.is_synthetic())
    }

    /// The value the field reads as when unset; see [`DefaultValue`].
    pub fn default_value(&self) -> DefaultValue {
        self.inner().default.clone()
    }

    /// Whether the field has an explicit `[default = ...]`.
    pub fn has_default_value(&self) -> bool {
        self.field_descriptor_proto().default_value.is_some()
    }

    /// The message the field belongs to; for an extension, the message it
    /// extends.
    pub fn containing_message(&self) -> MessageDescriptor {
        MessageDescriptor::new(&self.pool, self.inner().message)
    }

    /// Whether this is an extension.
    pub fn is_extension(&self) -> bool {
        self.inner().is_extension
    }

    /// For an extension declared inside a message (an `extend` block in a
    /// message body), that message. `None` for top-level extensions and
    /// for fields.
    pub fn extension_scope(&self) -> Option<MessageDescriptor> {
        let field = self.inner();
        field
            .scope
            .filter(|_| field.is_extension)
            .map(|i| MessageDescriptor::new(&self.pool, i))
    }

    /// The file declaring the field.
    pub fn parent_file(&self) -> FileDescriptor {
        FileDescriptor::new(&self.pool, self.inner().file)
    }

    /// The field's options.
    pub fn options(&self) -> &FieldOptions {
        &self.field_descriptor_proto().options
    }

    /// The field's edition features, fully resolved: its scope's (its
    /// message's, or for an extension the message or file declaring it)
    /// merged with the field's own `features`, with proto2/proto3 field
    /// syntax (`required`, `[packed]`, groups, `optional`) applied.
    /// [`FieldDescriptor::is_packed`] and the other resolved properties
    /// read these.
    pub fn features(&self) -> ResolvedFeatures {
        self.inner().features
    }

    /// The field as declared in its file's `FileDescriptorProto`.
    pub fn field_descriptor_proto(&self) -> &FieldDescriptorProto {
        self.pool.inner.field_proto(self.index)
    }

    /// The comments around the field's declaration.
    pub fn comments(&self) -> Comments {
        let path = self.pool.inner.field_path(self.index);
        self.pool.inner.comments(self.inner().file, &path)
    }
}
