//! Resolving the names a file uses (field types, extendees, method input
//! and output types) once all of its own types are indexed, and the
//! checks that need them: message or enum as expected, the defining file
//! imported, extension numbers within the extendee's ranges, map entries
//! used as maps, default values.

use std::collections::HashSet;

use buffa_types::google::protobuf::feature_set::FieldPresence;
use buffa_types::google::protobuf::field_descriptor_proto::Type;

use crate::build::Builder;
use crate::default_value;
use crate::inner::{KindIndex, Symbol};
use crate::names::{self, ResolveError};
use crate::{Cardinality, DescriptorError, validate};

/// What a type name must name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expected {
    Message,
    Enum,
    MessageOrEnum,
}

impl Builder<'_> {
    /// The files whose types this file may use: itself, its imports, and
    /// the files those re-export with `import public`, transitively.
    pub fn visible_files(&mut self) -> Result<HashSet<u32>, DescriptorError> {
        let mut visible = HashSet::from([self.file]);
        let mut pending: Vec<u32> = self.pool.file(self.file).dependencies.to_vec();
        while let Some(file) = pending.pop() {
            if visible.insert(file) {
                self.budget.charge(8).map_err(|e| self.budget_error(e))?;
                pending.extend(self.pool.file(file).public_dependencies.iter());
            }
        }
        Ok(visible)
    }

    /// Resolves `name`, used in `scope`, to a message or enum of a visible
    /// file (as `KindIndex::Message` or `KindIndex::Enum`). `kind` and
    /// `full_name` name the element using it, for errors.
    fn resolve_type(
        &mut self,
        (kind, full_name): (&'static str, &str),
        what: &str,
        scope: &str,
        name: &str,
        expected: Expected,
        visible: &HashSet<u32>,
    ) -> Result<KindIndex, DescriptorError> {
        if name.is_empty() {
            return Err(self.error(kind, full_name, format!("has no {what}")));
        }
        let (resolved, symbol) = names::resolve(&self.pool.symbols, scope, name, &mut self.budget)
            .map_err(|e| match e {
                ResolveError::NotFound => {
                    self.error(kind, full_name, format!("{what} {name} is not defined"))
                }
                ResolveError::Shadowed { candidate } => self.error(
                    kind,
                    full_name,
                    format!("{what} {name} resolves to {candidate}, which is not defined"),
                ),
                ResolveError::Budget => self.budget_error(names::BudgetExceeded),
            })?;
        let (found, resolved_kind) = match symbol {
            Symbol::Message(m) => (Expected::Message, KindIndex::Message(m)),
            Symbol::Enum(e) => (Expected::Enum, KindIndex::Enum(e)),
            _ => {
                return Err(self.error(kind, full_name, format!("{what} {name} is not a type")));
            }
        };
        if expected != Expected::MessageOrEnum && expected != found {
            let expected = match expected {
                Expected::Enum => "an enum",
                _ => "a message",
            };
            return Err(self.error(kind, full_name, format!("{what} {name} is not {expected}")));
        }
        let defined_in = self.pool.symbol_file(symbol);
        if !visible.contains(&defined_in) {
            let defined_in = self.pool.file(defined_in).proto.name();
            return Err(self.error(
                kind,
                full_name,
                format!(
                    "{what} {resolved} is defined in {defined_in}, which {} does not import",
                    self.proto.name()
                ),
            ));
        }
        Ok(resolved_kind)
    }

    /// [`Builder::resolve_type`] for a name that must name a message.
    fn resolve_message(
        &mut self,
        element: (&'static str, &str),
        what: &str,
        scope: &str,
        name: &str,
        visible: &HashSet<u32>,
    ) -> Result<u32, DescriptorError> {
        match self.resolve_type(element, what, scope, name, Expected::Message, visible)? {
            KindIndex::Message(m) => Ok(m),
            _ => Err(self.error(
                element.0,
                element.1,
                format!("{what} {name} is not a message"),
            )),
        }
    }

    /// The full name of the scope that the names used by field `field` are
    /// resolved in: its message, or the message or package declaring an
    /// extension.
    fn field_scope(&self, field: u32) -> Box<str> {
        let field = self.pool.field(field);
        match field.scope {
            Some(message) => self.pool.message(message).full_name.clone(),
            None => self.proto.package().into(),
        }
    }

    /// Sets the type, extendee and default of field or extension `index`.
    pub fn resolve_field(
        &mut self,
        index: u32,
        visible: &HashSet<u32>,
    ) -> Result<(), DescriptorError> {
        let scope = self.field_scope(index);
        let field = self.pool.field(index).clone();
        let file = self.proto.clone();
        let proto = self.pool.field_proto_in(&file, index);
        let element = ("field", &*field.full_name);
        let error =
            |builder: &Self, message: String| builder.error("field", &field.full_name, message);

        let expected = match proto.r#type {
            Some(Type::Message | Type::Group) => Some(Expected::Message),
            Some(Type::Enum) => Some(Expected::Enum),
            None => Some(Expected::MessageOrEnum),
            Some(_) => None,
        };
        let kind = match expected {
            None if proto.type_name.is_some() => {
                return Err(error(self, "a scalar field cannot have a type_name".into()));
            }
            None => field.kind,
            Some(expected) => {
                if proto.r#type.is_none() && proto.type_name.is_none() {
                    return Err(error(self, "has no type".into()));
                }
                self.resolve_type(
                    element,
                    "type",
                    &scope,
                    proto.type_name(),
                    expected,
                    visible,
                )?
            }
        };

        let mut message = field.message;
        if field.is_extension {
            let extendee =
                self.resolve_message(element, "extendee", &scope, proto.extendee(), visible)?;
            let extendee_inner = self.pool.message(extendee);
            let max = if self
                .pool
                .message_proto(extendee)
                .options
                .message_set_wire_format()
            {
                validate::MAX_MESSAGE_SET_NUMBER
            } else {
                validate::MAX_FIELD_NUMBER
            };
            let in_ranges =
                validate::in_sorted_ranges(&extendee_inner.extension_ranges, field.number);
            if !validate::is_extension_number(field.number, max) || !in_ranges {
                let message = format!(
                    "number {} is not in an extension range of {}",
                    field.number, extendee_inner.full_name
                );
                return Err(error(self, message));
            }
            match self
                .pool
                .extensions_by_number
                .get(&(extendee, field.number))
            {
                // Two extensions of one number in one file are an error; in
                // different files protoc only warns, and the first keeps
                // the number (`get_extension_by_number` finds it).
                Some(&other) if self.pool.field(other).file == self.file => {
                    let other = self.pool.field(other);
                    let message = format!(
                        "number {} of {} is already used by extension {} in {}",
                        field.number,
                        extendee_inner.full_name,
                        other.full_name,
                        self.pool.file(other.file).proto.name()
                    );
                    return Err(error(self, message));
                }
                Some(_) => {}
                None => {
                    self.pool
                        .extensions_by_number
                        .insert((extendee, field.number), index);
                }
            }
            message = extendee;
        }

        if let KindIndex::Message(m) = kind {
            let entry = self.pool.message(m);
            if entry.is_map_entry
                && (field.cardinality != Cardinality::Repeated
                    || field.is_extension
                    || entry.parent != Some(field.message))
            {
                let message = format!(
                    "map entry {} can only be the type of a repeated field of its parent message",
                    entry.full_name
                );
                return Err(error(self, message));
            }
        }

        let default = match &proto.default_value {
            None => {
                let first_enum_value = match kind {
                    KindIndex::Enum(e) => {
                        self.pool.enum_value(self.pool.enum_(e).values.start).number
                    }
                    _ => 0,
                };
                default_value::zero(kind, first_enum_value)
            }
            Some(_) if field.cardinality == Cardinality::Repeated => {
                return Err(error(
                    self,
                    "repeated fields cannot have default values".into(),
                ));
            }
            Some(_)
                if field.features.field_presence == FieldPresence::Implicit
                    && !field.is_extension
                    && field.oneof.is_none() =>
            {
                return Err(error(
                    self,
                    "fields with implicit presence (proto3) cannot have default values".into(),
                ));
            }
            Some(text) => {
                let pool = &*self.pool;
                crate::rules::parse_default_value(default_value::default_type(kind), text, |name| {
                    let KindIndex::Enum(e) = kind else {
                        return None;
                    };
                    let value = pool.enum_value_by_name(e, name)?;
                    Some(pool.enum_value(value).number)
                })
                .map_err(|e| error(self, e.to_string()))?
            }
        };

        let field = &mut self.pool.fields[index as usize];
        field.kind = kind;
        field.message = message;
        field.default = default;
        Ok(())
    }

    /// Sets the input and output types of method `index`.
    pub fn resolve_method(
        &mut self,
        index: u32,
        visible: &HashSet<u32>,
    ) -> Result<(), DescriptorError> {
        let method = self.pool.method(index);
        let full_name = method.full_name.clone();
        let service = self.pool.service(method.service);
        let scope = service.full_name.clone();
        let file = self.proto.clone();
        let proto = &file.service[service.index as usize].method[method.index as usize];
        let element = ("method", &*full_name);
        let input =
            self.resolve_message(element, "input type", &scope, proto.input_type(), visible)?;
        let output =
            self.resolve_message(element, "output type", &scope, proto.output_type(), visible)?;
        let method = &mut self.pool.methods[index as usize];
        method.input = input;
        method.output = output;
        Ok(())
    }
}
