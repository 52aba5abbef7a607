//! Name lookup with C++'s scoping rules, as protoc resolves a type name,
//! an extendee or an option name written relative to where it appears.
//!
//! A relative name is looked up from the innermost enclosing scope
//! outwards. Only its first component is searched for in each scope; once
//! found (and able to hold names), the rest is looked up inside it and the
//! search ends there, so that `Bar.Baz` inside `Foo`, which declares its
//! own `Bar`, means `Foo.Bar.Baz` even where only an outer `Bar` has a
//! `Baz`. A name starting with `.` is fully qualified.

/// What a fully-qualified name denotes, as far as lookup cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SymbolKind {
    /// A package, or a prefix of one (`google` of `google.api`).
    Package,
    Message,
    Enum,
    /// Enum values live in the scope that encloses their enum, as in C++.
    EnumValue,
    Field,
    Oneof,
    Extension,
    Service,
    Method,
}

impl SymbolKind {
    /// Whether names can be looked up inside the symbol.
    fn is_aggregate(self) -> bool {
        matches!(
            self,
            SymbolKind::Package | SymbolKind::Message | SymbolKind::Enum | SymbolKind::Service
        )
    }

    /// Whether the symbol is a type a field can have.
    fn is_type(self) -> bool {
        matches!(self, SymbolKind::Message | SymbolKind::Enum)
    }
}

/// Which symbols a lookup accepts for a name of one component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LookupMode {
    /// Any symbol (option names, extendees as protoc looks them up).
    AllSymbols,
    /// Only messages and enums: a field named like a type in an inner
    /// scope does not hide the type (field and method types).
    Types,
}

/// The outcome of [`lookup`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// The fully-qualified name (without leading dot) and its kind.
    Found(String, SymbolKind),
    /// The first component resolved to `resolved_as` prefix, but the rest
    /// is not inside it: protoc's "\"Bar.Baz\" is resolved to
    /// \"Foo.Bar.Baz\", which is not defined." The string is the full name
    /// that was tried.
    PartlyResolved(String),
    NotFound,
}

/// Looks `name` up as written inside the element whose fully-qualified
/// name is `relative_to` (for a field `pkg.Msg.field`, the search starts
/// in `pkg.Msg`). `find` answers what a fully-qualified name denotes among
/// the symbols visible to the file.
pub(crate) fn lookup(
    name: &str,
    relative_to: &str,
    mode: LookupMode,
    find: impl Fn(&str) -> Option<SymbolKind>,
) -> Lookup {
    let found = |full: String| match find(&full) {
        Some(kind) => Lookup::Found(full, kind),
        None => Lookup::NotFound,
    };
    if let Some(full) = name.strip_prefix('.') {
        return found(full.to_owned());
    }
    let first = name.split('.').next().unwrap_or(name);
    let rest = &name[first.len()..];
    let mut scope = relative_to;
    // One buffer for every candidate, `scope.first`.
    let mut candidate = String::with_capacity(relative_to.len() + name.len() + 1);
    while let Some(dot) = scope.rfind('.') {
        scope = &scope[..dot];
        candidate.clear();
        candidate.push_str(scope);
        candidate.push('.');
        candidate.push_str(first);
        let Some(kind) = find(&candidate) else {
            continue;
        };
        if !rest.is_empty() {
            if kind.is_aggregate() {
                let mut full = candidate;
                full.push_str(rest);
                return match find(&full) {
                    Some(kind) => Lookup::Found(full, kind),
                    None => Lookup::PartlyResolved(full),
                };
            }
        } else if mode == LookupMode::AllSymbols || kind.is_type() {
            return Lookup::Found(candidate, kind);
        }
    }
    found(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use SymbolKind::*;

    fn table(
        symbols: &'static [(&'static str, SymbolKind)],
    ) -> impl Fn(&str) -> Option<SymbolKind> {
        move |name| symbols.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
    }

    #[test]
    fn innermost_scope_wins() {
        let find = table(&[
            ("pkg", Package),
            ("pkg.Bar", Message),
            ("pkg.Foo", Message),
            ("pkg.Foo.Bar", Message),
        ]);
        assert_eq!(
            lookup("Bar", "pkg.Foo.field", LookupMode::Types, &find),
            Lookup::Found("pkg.Foo.Bar".into(), Message)
        );
        assert_eq!(
            lookup("Bar", "pkg.Other.field", LookupMode::Types, &find),
            Lookup::Found("pkg.Bar".into(), Message)
        );
    }

    #[test]
    fn the_first_component_binds_the_rest() {
        // message Bar { message Baz {} }  message Foo { message Bar {}  Bar.Baz baz = 1; }
        let find = table(&[
            ("Bar", Message),
            ("Bar.Baz", Message),
            ("Foo", Message),
            ("Foo.Bar", Message),
        ]);
        assert_eq!(
            lookup("Bar.Baz", "Foo.baz", LookupMode::Types, &find),
            Lookup::PartlyResolved("Foo.Bar.Baz".into())
        );
    }

    #[test]
    fn a_field_does_not_hide_a_type_but_hides_an_option() {
        let find = table(&[
            ("pkg", Package),
            ("pkg.Msg", Message),
            ("pkg.Msg.Thing", Field),
            ("pkg.Thing", Message),
        ]);
        assert_eq!(
            lookup("Thing", "pkg.Msg.f", LookupMode::Types, &find),
            Lookup::Found("pkg.Thing".into(), Message)
        );
        assert_eq!(
            lookup("Thing", "pkg.Msg.f", LookupMode::AllSymbols, &find),
            Lookup::Found("pkg.Msg.Thing".into(), Field)
        );
    }

    #[test]
    fn a_non_aggregate_first_component_keeps_searching() {
        let find = table(&[
            ("a", Package),
            ("a.M", Message),
            ("a.M.x", Field),
            ("x", Package),
            ("x.y", Message),
        ]);
        assert_eq!(
            lookup("x.y", "a.M.f", LookupMode::Types, &find),
            Lookup::Found("x.y".into(), Message)
        );
    }

    #[test]
    fn leading_dot_is_fully_qualified() {
        let find = table(&[("pkg.Msg", Message), ("pkg.Inner.Msg", Message)]);
        assert_eq!(
            lookup(".pkg.Msg", "pkg.Inner.f", LookupMode::Types, &find),
            Lookup::Found("pkg.Msg".into(), Message)
        );
        assert_eq!(
            lookup(".Msg", "pkg.Inner.f", LookupMode::Types, &find),
            Lookup::NotFound
        );
    }
}
