//! Proto paths (`.`, `.pkg`, `.pkg.Msg`, `.pkg.Msg.field`) and the rules
//! that attach options to them.

/// Whether the rule path `rule` covers the fully qualified proto path
/// `path` (both with a leading dot): `.` covers everything, and a path
/// covers itself and everything nested under it, segment-wise (`.a.b`
/// covers `.a.b.c` but not `.a.bc`).
pub fn covers(rule: &str, path: &str) -> bool {
    if rule == "." {
        return true;
    }
    let rule = rule.trim_end_matches('.');
    match path.strip_prefix(rule) {
        Some(rest) => rest.is_empty() || rest.starts_with('.'),
        None => false,
    }
}

/// The prefix of fully qualified names in `package`: `.pkg`, or empty for
/// files without a package.
pub fn package_prefix(package: &str) -> String {
    if package.is_empty() {
        String::new()
    } else {
        format!(".{package}")
    }
}

/// Normalises a user-supplied path: adds the leading dot if missing.
pub fn normalize(path: &str) -> String {
    if path.starts_with('.') {
        path.to_owned()
    } else {
        format!(".{path}")
    }
}

/// An ordered list of (path, value) rules. When several rules cover a path
/// the one added last wins, so a general rule followed by an exception
/// reads naturally.
#[derive(Clone, Debug)]
pub struct PathRules<T> {
    rules: Vec<(String, T)>,
}

impl<T> Default for PathRules<T> {
    fn default() -> Self {
        PathRules { rules: Vec::new() }
    }
}

impl<T> PathRules<T> {
    /// Adds a rule; it takes precedence over every rule added before it.
    pub fn insert(&mut self, path: &str, value: T) {
        self.rules.push((normalize(path), value));
    }

    /// The value of the last rule covering `path`, if any.
    pub fn get(&self, path: &str) -> Option<&T> {
        self.rules
            .iter()
            .rev()
            .find(|(rule, _)| covers(rule, path))
            .map(|(_, value)| value)
    }

    /// The last rule covering any of `paths`, as (rule path, value): the
    /// rule that decides when a setting can be named by several paths (a
    /// oneof variant by its field and by its oneof).
    pub fn winner(&self, paths: &[&str]) -> Option<(&str, &T)> {
        self.rules
            .iter()
            .rev()
            .find(|(rule, _)| paths.iter().any(|path| covers(rule, path)))
            .map(|(rule, value)| (rule.as_str(), value))
    }

    /// The values of every rule covering `path`, in insertion order.
    pub fn get_all<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a T> + 'a {
        self.rules
            .iter()
            .filter(move |(rule, _)| covers(rule, path))
            .map(|(_, value)| value)
    }

    /// Every rule in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.rules
            .iter()
            .map(|(path, value)| (path.as_str(), value))
    }

    /// Whether no rule was added.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_segment_wise() {
        assert!(covers(".", ".a.B.c"));
        assert!(covers(".a", ".a.B.c"));
        assert!(covers(".a.B", ".a.B"));
        assert!(!covers(".a.B", ".a.Bc"));
        assert!(!covers(".a.B.c", ".a.B"));
    }

    #[test]
    fn last_rule_wins() {
        let mut rules = PathRules::default();
        rules.insert(".", 1);
        rules.insert("pkg.Msg", 2);
        rules.insert(".pkg", 3);
        assert_eq!(rules.get(".pkg.Msg.f"), Some(&3));
        assert_eq!(rules.get(".other"), Some(&1));
        assert_eq!(
            rules.get_all(".pkg.Msg").copied().collect::<Vec<_>>(),
            [1, 2, 3]
        );
    }

    #[test]
    fn winner_over_several_paths() {
        let mut rules = PathRules::default();
        rules.insert(".pkg.Msg.kind", 1);
        rules.insert("pkg.Msg.field", 2);
        rules.insert(".other", 3);
        assert_eq!(
            rules.winner(&[".pkg.Msg.field", ".pkg.Msg.kind"]),
            Some((".pkg.Msg.field", &2))
        );
        assert_eq!(
            rules.winner(&[".pkg.Msg.x", ".pkg.Msg.kind"]),
            Some((".pkg.Msg.kind", &1))
        );
        assert_eq!(rules.winner(&[".pkg.Msg"]), None);
    }
}
