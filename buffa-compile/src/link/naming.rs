//! Edition 2024's naming style: protoc's `ValidateNamingStyle`, which
//! checks every element whose `features.enforce_naming_style` resolves to
//! `STYLE2024` or later (the default from edition 2024; `STYLE_LEGACY`
//! opts an element and everything it encloses out).
//!
//! - messages, enums, services and methods are TitleCase: letters and
//!   digits, a capital first;
//! - fields (extensions included), oneofs and the package are
//!   lower_snake_case: lower case letters, digits and underscores (and
//!   dots in a package), a lower case letter first, no underscore at
//!   either end or before anything but a letter;
//! - enum values are UPPER_SNAKE_CASE, by the same rules in upper case;
//! - under `STYLE2026`, a field or oneof `has_x`, `get_x`, `set_x`,
//!   `clear_x` or `x_value` must not sit next to a field or oneof `x` of
//!   the same message (an extension's: of its extendee), and no field or
//!   oneof is named `descriptor`: generated code would collide.
//!
//! protoc checks the style only of a file with no other error, after
//! every other check of its `DescriptorBuilder`; it visits the file, then
//! each message (its enums, oneofs, fields, nested messages and
//! extensions after it), the file's enums, extensions and services, and
//! reports every violation, each at the element's name (a oneof's without
//! position: its parser records none).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use buffa_descriptor::DescriptorPool;
use buffa_descriptor::rules::{FieldSyntax, ResolvedFeatures, file_syntax};
use buffa_types::google::protobuf::{
    DescriptorProto, EnumDescriptorProto, FeatureSet, FieldDescriptorProto, FileDescriptorProto,
    ServiceDescriptorProto,
};

use super::locate::{ErrorLocation, Located};
use super::symbols::join;

/// What protoc appends to a style error.
const OPT_OUT: &str =
    " (features.enforce_naming_style = STYLE_LEGACY can be used to opt out of this check)";

/// What protoc appends to a collision error.
const COLLISIONS_OPT_OUT: &str =
    " (features.enforce_naming_style = STYLE2024 can be used to opt out of this check)";

/// The prefixes a field or oneof may not add to a sibling's name.
const RESTRICTED_PREFIXES: [&str; 4] = ["has_", "get_", "set_", "clear_"];

/// The suffix a field or oneof may not add to a sibling's name.
const RESTRICTED_SUFFIX: &str = "_value";

/// The naming style errors of `file` (linked, options interpreted, free of
/// any other error), in protoc's order; `pool` holds its imports, where
/// an extendee may be.
pub(crate) fn validate(file: &FileDescriptorProto, pool: &DescriptorPool) -> Vec<Located> {
    let Some(features) = file_syntax(file.syntax(), file.edition)
        .ok()
        .and_then(|syntax| ResolvedFeatures::for_edition(syntax.edition()))
    else {
        return Vec::new();
    };
    let features = features.merge(file.options.features.as_option());
    let mut checker = Checker {
        file,
        pool,
        errors: Vec::new(),
        extendees: HashMap::new(),
    };
    let package = file.package();
    if features.checks_naming_style()
        && !package.is_empty()
        && let Err(problem) = lower_snake_case(package)
    {
        checker.error(
            vec![2],
            ErrorLocation::Other,
            format!("Package name {package} {problem}{OPT_OUT}"),
        );
    }
    for (i, message) in file.message_type.iter().enumerate() {
        checker.message(message, package, features, vec![4, i as i32]);
    }
    for (i, enumeration) in file.enum_type.iter().enumerate() {
        checker.enumeration(enumeration, features, vec![5, i as i32]);
    }
    for (i, extension) in file.extension.iter().enumerate() {
        checker.extension(extension, features, vec![7, i as i32]);
    }
    for (i, service) in file.service.iter().enumerate() {
        checker.service(service, features, vec![6, i as i32]);
    }
    checker.errors
}

/// The names of a message's fields (not its extensions) and oneofs, which
/// a field's or oneof's name must not collide with.
struct Siblings(HashSet<String>);

impl Siblings {
    /// The siblings in `message`.
    fn of(message: &DescriptorProto) -> Siblings {
        let fields = message.field.iter().map(|f| f.name());
        let oneofs = message.oneof_decl.iter().map(|o| o.name());
        Siblings(fields.chain(oneofs).map(str::to_owned).collect())
    }

    /// Whether a field or oneof is named `name`.
    fn contains(&self, name: &str) -> bool {
        self.0.contains(name)
    }
}

/// Walks a file, resolving each element's features, and collects errors.
struct Checker<'a> {
    /// The file checked.
    file: &'a FileDescriptorProto,
    /// Its imports.
    pool: &'a DescriptorPool,
    /// The errors found so far, in protoc's order.
    errors: Vec<Located>,
    /// The siblings of each extendee looked up, by full name.
    extendees: HashMap<String, Option<Rc<Siblings>>>,
}

impl Checker<'_> {
    /// Records an error.
    fn error(&mut self, path: Vec<i32>, location: ErrorLocation, message: String) {
        self.errors.push(Located::new(path, location, message));
    }

    /// Checks `name` (of the element at `path`, a `kind` such as
    /// `"Message"`) with `rule`.
    fn style(&mut self, kind: &str, name: &str, rule: Rule, path: Vec<i32>, at: ErrorLocation) {
        if let Err(problem) = rule(name) {
            self.error(path, at, format!("{kind} name {name} {problem}{OPT_OUT}"));
        }
    }

    /// Checks that a field's or oneof's `name` does not collide with its
    /// `siblings`.
    fn collisions(
        &mut self,
        kind: &str,
        name: &str,
        siblings: Option<&Siblings>,
        path: Vec<i32>,
        at: ErrorLocation,
    ) {
        if let Some(problem) = collision(name, siblings) {
            self.error(
                path,
                at,
                format!("{kind} name {name} {problem}{COLLISIONS_OPT_OUT}"),
            );
        }
    }

    /// A message, then its enums, oneofs, fields, nested messages and
    /// extensions; `inherited` are the features of its scope.
    fn message(
        &mut self,
        message: &DescriptorProto,
        scope: &str,
        inherited: ResolvedFeatures,
        path: Vec<i32>,
    ) {
        let features = inherited.merge(message.options.features.as_option());
        let full = join(scope, message.name());
        let child = |more: [i32; 2]| [path.as_slice(), &more].concat();
        if features.checks_naming_style() {
            self.style(
                "Message",
                message.name(),
                title_case,
                path.clone(),
                ErrorLocation::Name,
            );
        }
        for (i, enumeration) in message.enum_type.iter().enumerate() {
            self.enumeration(enumeration, features, child([4, i as i32]));
        }
        let oneof_features: Vec<ResolvedFeatures> = message
            .oneof_decl
            .iter()
            .map(|o| features.merge(o.options.features.as_option()))
            .collect();
        let field_features: Vec<ResolvedFeatures> = message
            .field
            .iter()
            .map(|field| {
                let scope = field
                    .oneof_index
                    .and_then(|o| oneof_features.get(usize::try_from(o).ok()?).copied())
                    .unwrap_or(features);
                resolve_field(scope, field)
            })
            .collect();
        // Only STYLE2026 reads the siblings.
        let siblings = (oneof_features.iter().chain(&field_features))
            .any(ResolvedFeatures::checks_name_collisions)
            .then(|| Siblings::of(message));
        for (i, oneof) in message.oneof_decl.iter().enumerate() {
            let features = oneof_features[i];
            if features.checks_naming_style() {
                let (path, at) = (child([8, i as i32]), ErrorLocation::Unrecorded);
                self.style("Oneof", oneof.name(), lower_snake_case, path.clone(), at);
                if features.checks_name_collisions() {
                    self.collisions("Oneof", oneof.name(), siblings.as_ref(), path, at);
                }
            }
        }
        for (i, field) in message.field.iter().enumerate() {
            let path = child([2, i as i32]);
            self.field(field, field_features[i], siblings.as_ref(), path);
        }
        for (i, nested) in message.nested_type.iter().enumerate() {
            self.message(nested, &full, features, child([3, i as i32]));
        }
        for (i, extension) in message.extension.iter().enumerate() {
            self.extension(extension, features, child([6, i as i32]));
        }
    }

    /// A field or extension, whose features are `features`, among
    /// `siblings` (none when its extendee is not found).
    fn field(
        &mut self,
        field: &FieldDescriptorProto,
        features: ResolvedFeatures,
        siblings: Option<&Siblings>,
        path: Vec<i32>,
    ) {
        if !features.checks_naming_style() {
            return;
        }
        let at = ErrorLocation::Name;
        self.style("Field", field.name(), lower_snake_case, path.clone(), at);
        if features.checks_name_collisions() {
            self.collisions("Field", field.name(), siblings, path, at);
        }
    }

    /// An extension declared in a scope whose features are `inherited`:
    /// its siblings are its extendee's fields and oneofs.
    fn extension(
        &mut self,
        extension: &FieldDescriptorProto,
        inherited: ResolvedFeatures,
        path: Vec<i32>,
    ) {
        let features = resolve_field(inherited, extension);
        if !features.checks_name_collisions() {
            self.field(extension, features, None, path);
            return;
        }
        let extendee = extension.extendee();
        let siblings = match self.extendees.get(extendee) {
            Some(siblings) => siblings.clone(),
            None => {
                let siblings = self.extendee(extendee).map(Rc::new);
                self.extendees.insert(extendee.to_owned(), siblings.clone());
                siblings
            }
        };
        self.field(extension, features, siblings.as_deref(), path);
    }

    /// The fields and oneofs of the message `extendee` (a fully qualified
    /// name, with its leading dot), in this file or an import.
    fn extendee(&self, extendee: &str) -> Option<Siblings> {
        let full = extendee.strip_prefix('.').unwrap_or(extendee);
        if let Some(message) = find_message(self.file, full) {
            return Some(Siblings::of(message));
        }
        let message = self.pool.get_message_by_name(full)?;
        let fields = message.fields().map(|f| f.name().to_owned());
        let oneofs = message.oneofs().map(|o| o.name().to_owned());
        Some(Siblings(fields.chain(oneofs).collect()))
    }

    /// An enum and its values.
    fn enumeration(
        &mut self,
        enumeration: &EnumDescriptorProto,
        inherited: ResolvedFeatures,
        path: Vec<i32>,
    ) {
        let features = inherited.merge(enumeration.options.features.as_option());
        if features.checks_naming_style() {
            let name = enumeration.name();
            self.style("Enum", name, title_case, path.clone(), ErrorLocation::Name);
        }
        for (i, value) in enumeration.value.iter().enumerate() {
            if features
                .merge(value.options.features.as_option())
                .checks_naming_style()
            {
                let path = [path.as_slice(), &[2, i as i32]].concat();
                let at = ErrorLocation::Name;
                self.style("Enum value", value.name(), upper_snake_case, path, at);
            }
        }
    }

    /// A service and its methods.
    fn service(
        &mut self,
        service: &ServiceDescriptorProto,
        inherited: ResolvedFeatures,
        path: Vec<i32>,
    ) {
        let features = inherited.merge(service.options.features.as_option());
        if features.checks_naming_style() {
            let name = service.name();
            self.style(
                "Service",
                name,
                title_case,
                path.clone(),
                ErrorLocation::Name,
            );
        }
        for (i, method) in service.method.iter().enumerate() {
            if features
                .merge(method.options.features.as_option())
                .checks_naming_style()
            {
                let path = [path.as_slice(), &[2, i as i32]].concat();
                let at = ErrorLocation::Name;
                self.style("Method", method.name(), title_case, path, at);
            }
        }
    }
}

/// The features of `field`, declared in a scope whose features are
/// `scope`.
fn resolve_field(scope: ResolvedFeatures, field: &FieldDescriptorProto) -> ResolvedFeatures {
    let declared: Option<&FeatureSet> = field.options.features.as_option();
    scope.for_field(declared, FieldSyntax::of(field))
}

/// The message of `file` whose full name is `full` (no leading dot).
fn find_message<'a>(file: &'a FileDescriptorProto, full: &str) -> Option<&'a DescriptorProto> {
    let package = file.package();
    let mut relative = if package.is_empty() {
        full
    } else {
        full.strip_prefix(package)?.strip_prefix('.')?
    };
    let mut messages = &file.message_type;
    loop {
        let (first, rest) = match relative.split_once('.') {
            Some((first, rest)) => (first, Some(rest)),
            None => (relative, None),
        };
        let message = messages.iter().find(|m| m.name() == first)?;
        match rest {
            None => return Some(message),
            Some(rest) => {
                relative = rest;
                messages = &message.nested_type;
            }
        }
    }
}

/// A naming rule: why `name` breaks it, if it does.
type Rule = fn(&str) -> Result<(), &'static str>;

/// TitleCase: letters and digits, a capital letter first.
fn title_case(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("is empty");
    }
    if !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err("should be TitleCase");
    }
    if !name.as_bytes()[0].is_ascii_uppercase() {
        return Err("should begin with a capital letter");
    }
    Ok(())
}

/// lower_snake_case: lower case letters, digits, underscores and dots, a
/// lower case letter first, underscores only between words.
fn lower_snake_case(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("is empty");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.')
    {
        return Err("should be lower_snake_case");
    }
    if !name.as_bytes()[0].is_ascii_lowercase() {
        return Err("should begin with a lower case letter");
    }
    if bad_underscores(name) {
        return Err("contains style violating underscores");
    }
    Ok(())
}

/// UPPER_SNAKE_CASE: capital letters, digits and underscores, a capital
/// letter first, underscores only between words.
fn upper_snake_case(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("is empty");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        return Err("should be UPPER_SNAKE_CASE");
    }
    if !name.as_bytes()[0].is_ascii_uppercase() {
        return Err("should begin with an upper case letter");
    }
    if bad_underscores(name) {
        return Err("contains style violating underscores");
    }
    Ok(())
}

/// Whether `name` starts or ends with an underscore, or has one followed
/// by anything but a letter.
fn bad_underscores(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first() == Some(&b'_')
        || bytes.last() == Some(&b'_')
        || bytes
            .windows(2)
            .any(|w| w[0] == b'_' && !w[1].is_ascii_alphabetic())
}

/// Why a field's or oneof's `name` collides with what generated code
/// derives from one of its `siblings`, if it does.
fn collision(name: &str, siblings: Option<&Siblings>) -> Option<String> {
    if let Some(siblings) = siblings {
        for prefix in RESTRICTED_PREFIXES {
            if let Some(rest) = name.strip_prefix(prefix)
                && siblings.contains(rest)
            {
                return Some(format!(
                    "should not begin with {prefix} if a field named {rest} exists. This can \
                     cause collisions in generated code."
                ));
            }
        }
        if let Some(rest) = name.strip_suffix(RESTRICTED_SUFFIX)
            && siblings.contains(rest)
        {
            return Some(format!(
                "should not end with {RESTRICTED_SUFFIX} if a field named {rest} exists. This \
                 can cause collisions in generated code."
            ));
        }
    }
    (name == "descriptor").then(|| {
        "should not be named descriptor. This can cause collisions in generated code.".to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_styles_as_protoc_words_them() {
        assert_eq!(title_case("FooBar2"), Ok(()));
        assert_eq!(title_case("Foo_Bar"), Err("should be TitleCase"));
        assert_eq!(title_case("foo"), Err("should begin with a capital letter"));
        assert_eq!(lower_snake_case("foo_bar2.baz"), Ok(()));
        assert_eq!(
            lower_snake_case("fooBar"),
            Err("should be lower_snake_case")
        );
        assert_eq!(
            lower_snake_case("_foo"),
            Err("should begin with a lower case letter")
        );
        for bad in ["foo_", "foo__bar", "foo_1", "foo_.bar"] {
            assert_eq!(
                lower_snake_case(bad),
                Err("contains style violating underscores"),
                "{bad}"
            );
        }
        assert_eq!(upper_snake_case("FOO_BAR2"), Ok(()));
        assert_eq!(upper_snake_case("Foo"), Err("should be UPPER_SNAKE_CASE"));
        assert_eq!(
            upper_snake_case("_FOO"),
            Err("should begin with an upper case letter")
        );
        assert_eq!(
            upper_snake_case("FOO_2"),
            Err("contains style violating underscores")
        );
    }
}
