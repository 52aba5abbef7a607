//! Names: full names, and resolving the type names of fields, extensions
//! and methods with protobuf's scoping rules. (The rules a single name
//! follows are in [`rules`](crate::rules).)

use std::collections::HashMap;

use crate::inner::Symbol;

/// `scope.name`, or `name` in the root scope.
pub(crate) fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_owned()
    } else {
        let mut full = String::with_capacity(scope.len() + 1 + name.len());
        full.push_str(scope);
        full.push('.');
        full.push_str(name);
        full
    }
}

/// A bound on the bytes of names the pool builds (full names and lookup
/// candidates) for one file, proportional to the file's encoded size: a
/// long package name repeated in every full name, or a long scope tried for
/// every relative type name, must not turn a small input into a large
/// allocation or a long computation.
pub(crate) struct Budget {
    remaining: usize,
}

/// How many bytes of names each byte of an encoded file may justify. Real
/// files use a few (every full name repeats its package and parents).
const BUDGET_PER_BYTE: usize = 64;

/// Budget every file has regardless of its size.
const BUDGET_BASE: usize = 64 * 1024;

impl Budget {
    pub fn for_encoded_len(len: usize) -> Budget {
        Budget {
            remaining: len
                .saturating_mul(BUDGET_PER_BYTE)
                .saturating_add(BUDGET_BASE),
        }
    }

    /// Spends `bytes`; `Err` when the budget is exhausted.
    pub fn charge(&mut self, bytes: usize) -> Result<(), BudgetExceeded> {
        self.remaining = self.remaining.checked_sub(bytes).ok_or(BudgetExceeded)?;
        Ok(())
    }
}

/// The names of a file outgrow what its size justifies.
#[derive(Debug)]
pub(crate) struct BudgetExceeded;

/// Why a type name did not resolve.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ResolveError {
    /// Nothing of that name.
    NotFound,
    /// The first component of a relative name named something in an inner
    /// scope, under which the rest is not defined (`candidate` is the full
    /// name that was looked up).
    Shadowed {
        candidate: String,
    },
    Budget,
}

impl From<BudgetExceeded> for ResolveError {
    fn from(_: BudgetExceeded) -> ResolveError {
        ResolveError::Budget
    }
}

/// Resolves the type name `name` used in `scope` (the full name of the
/// message declaring the field, or the package): a fully qualified
/// `.pkg.Type` directly, a relative one as in C++, innermost scope first.
///
/// For a relative `A.B`, the scopes are searched for `A`, skipping
/// symbols that cannot contain types (fields, enum values, ...); the first
/// scope where `A` is a message, enum or package decides, and `A.B` must be
/// defined there.
pub(crate) fn resolve(
    symbols: &HashMap<Box<str>, Symbol>,
    scope: &str,
    name: &str,
    budget: &mut Budget,
) -> Result<(String, Symbol), ResolveError> {
    if let Some(full) = name.strip_prefix('.') {
        return match symbols.get(full) {
            Some(&symbol) => Ok((full.to_owned(), symbol)),
            None => Err(ResolveError::NotFound),
        };
    }
    let first = name.split('.').next().unwrap_or(name);
    let mut scope = Some(scope);
    while let Some(current) = scope {
        budget.charge(current.len() + name.len() + 1)?;
        let candidate = join(current, first);
        if let Some(Symbol::Message(_) | Symbol::Enum(_) | Symbol::Package(_)) =
            symbols.get(candidate.as_str())
        {
            let full = join(current, name);
            return match symbols.get(full.as_str()) {
                Some(&symbol) => Ok((full, symbol)),
                None => Err(ResolveError::Shadowed { candidate: full }),
            };
        }
        scope = match current.rfind('.') {
            Some(dot) => Some(&current[..dot]),
            None if current.is_empty() => None,
            None => Some(""),
        };
    }
    Err(ResolveError::NotFound)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols(names: &[(&str, Symbol)]) -> HashMap<Box<str>, Symbol> {
        names.iter().map(|&(n, s)| (n.into(), s)).collect()
    }

    #[test]
    fn relative_names_resolve_innermost_first() {
        let table = symbols(&[
            ("pkg", Symbol::Package(0)),
            ("pkg.Outer", Symbol::Message(0)),
            ("pkg.Outer.Inner", Symbol::Message(1)),
            ("pkg.Inner", Symbol::Message(2)),
            ("pkg.Outer.field", Symbol::Field(0)),
            ("field", Symbol::Message(3)),
        ]);
        let mut budget = Budget::for_encoded_len(0);
        let mut r = |scope, name| resolve(&table, scope, name, &mut budget);
        assert_eq!(r("pkg.Outer", "Inner").unwrap().0, "pkg.Outer.Inner");
        assert_eq!(r("pkg", "Inner").unwrap().0, "pkg.Inner");
        assert_eq!(r("pkg.Outer", ".pkg.Inner").unwrap().0, "pkg.Inner");
        assert_eq!(r("pkg.Outer", "pkg.Inner").unwrap().0, "pkg.Inner");
        // Fields are skipped when looking for types.
        assert_eq!(r("pkg.Outer", "field").unwrap().0, "field");
        // `Outer` is found in `pkg`, which decides: `pkg.Outer.Missing`.
        assert_eq!(
            r("pkg.Outer", "Outer.Missing"),
            Err(ResolveError::Shadowed {
                candidate: "pkg.Outer.Missing".into()
            })
        );
        assert_eq!(r("pkg", "Nope"), Err(ResolveError::NotFound));
    }

    #[test]
    fn budget_bounds_lookups() {
        let table = symbols(&[]);
        let scope = "a".repeat(1000);
        let mut budget = Budget { remaining: 1000 };
        assert_eq!(
            resolve(&table, &scope, "X", &mut budget),
            Err(ResolveError::Budget)
        );
    }
}
