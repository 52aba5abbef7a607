//! Which messages keep the fields their schema does not know: every one,
//! unless an `unknown_fields_in(Discard, ..)` rule wins for it.
//!
//! A message with extension ranges keeps them whatever a scope rule says:
//! its extensions are stored among its unknown fields (`ExtendableMessage`
//! and reflection read and write them there), so without them it could
//! hold no extension. A `Discard` rule naming such a message exactly is an
//! error rather than a silent no-op, as is a rule path that covers no
//! message (a field's or an enum's path).

use std::collections::HashMap;

use crate::error::Error;
use crate::input::schema::Schema;
use crate::options::{Options, UnknownFieldsRepr};
use crate::path;

/// Why a message keeps or discards its unknown fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownFieldsDecision {
    /// Kept: no rule covers the message.
    Default,
    /// Decided by the rule of this path (kept or discarded as it says).
    Rule(String, UnknownFieldsRepr),
    /// Kept although the `Discard` rule of this path covers the message,
    /// because it has extension ranges.
    Extensions(String),
}

impl UnknownFieldsDecision {
    /// Whether the message has an `unknown_fields` field.
    pub fn keeps(&self) -> bool {
        !matches!(
            self,
            UnknownFieldsDecision::Rule(_, UnknownFieldsRepr::Discard)
        )
    }
}

/// The decision for every message of the schema.
pub struct UnknownFieldsPlan {
    decisions: HashMap<String, UnknownFieldsDecision>,
}

impl UnknownFieldsPlan {
    /// Decides for every message of `schema` under `options`; fails on a
    /// rule that covers no message or discards exactly a message with
    /// extension ranges.
    pub fn new(schema: &Schema<'_>, options: &Options) -> Result<UnknownFieldsPlan, Error> {
        let rules = &options.unknown_fields;
        for (rule, _) in rules.iter() {
            if !schema.messages.keys().any(|name| path::covers(rule, name)) {
                return Err(Error::new(format!(
                    "unknown_fields rule names {rule}, which covers no message \
                     (the rule applies to packages and messages)"
                )));
            }
        }
        let mut decisions = HashMap::new();
        for (name, message) in &schema.messages {
            let decision = match rules.winner(&[name]) {
                None => UnknownFieldsDecision::Default,
                Some((rule, UnknownFieldsRepr::Discard))
                    if !message.proto.extension_range.is_empty() =>
                {
                    if rule == name {
                        return Err(Error::new(format!(
                            "cannot discard the unknown fields of {name}: it has extension \
                             ranges, and its extensions are kept among its unknown fields"
                        )));
                    }
                    UnknownFieldsDecision::Extensions(rule.to_owned())
                }
                Some((rule, repr)) => UnknownFieldsDecision::Rule(rule.to_owned(), *repr),
            };
            decisions.insert(name.clone(), decision);
        }
        Ok(UnknownFieldsPlan { decisions })
    }

    /// The decision for the message `full_name`.
    pub fn decision(&self, full_name: &str) -> &UnknownFieldsDecision {
        self.decisions
            .get(full_name)
            .unwrap_or(&UnknownFieldsDecision::Default)
    }

    /// Whether the message `full_name` keeps its unknown fields.
    pub fn keeps(&self, full_name: &str) -> bool {
        self.decision(full_name).keeps()
    }
}
