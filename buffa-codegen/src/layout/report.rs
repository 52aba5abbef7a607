//! The layout report: a text table of every generated message with the
//! estimated size of its struct, and where each of its message-typed
//! fields keeps its value and why. buffa-build writes it to a file when
//! asked (`Config::layout_report`); the format is documented in
//! `docs/pointer-layout.md`.

use buffa_types::google::protobuf::DescriptorProto;

use crate::analysis::unknown_fields::UnknownFieldsDecision;
use crate::context::Context;
use crate::error::Error;
use crate::layout::field::{Shape, ValueType};
use crate::layout::owned;
use crate::layout::pointer::{self, Decision, Pointer};
use crate::layout::size::{Accuracy, Layout};
use crate::options::UnknownFieldsRepr;
use crate::path;

/// The first lines of every report.
const HEADER: &str = "\
# buffa layout report: the estimated size_of of each generated struct in bytes
# on 64-bit targets, exact unless marked \"<=\" (an upper bound) or \"~\" (assumes
# custom pointers are one word and extern messages are laid out as generated
# here), where each message-typed field keeps its value, and, where a rule
# covers the message, whether it keeps unknown fields (it does by default).
";

/// One line of the table, before alignment.
struct Row {
    /// Message full name, or field path (indented).
    name: String,
    size: String,
    kind: String,
    storage: String,
    why: String,
}

/// The layout report of the messages of the generated files.
pub fn layout_report(context: &Context<'_>) -> Result<String, Error> {
    let mut names = Vec::new();
    for file in context.schema.files.iter().filter(|f| f.generate) {
        let prefix = path::package_prefix(file.proto.package());
        collect_messages(&prefix, &file.proto.message_type, &mut names);
    }
    names.sort();
    let mut rows = vec![Row {
        name: "# message / field".into(),
        size: "size".into(),
        kind: "kind".into(),
        storage: "storage".into(),
        why: "why".into(),
    }];
    for name in &names {
        let message = context.schema.message(name)?;
        let is_map_entry = message
            .proto
            .options
            .as_option()
            .is_some_and(|o| o.map_entry());
        if is_map_entry || !message.rust.is_local() {
            continue;
        }
        let layout = owned::owned_layout(context, name)?;
        let (size, why) = size_text(layout);
        rows.push(Row {
            name: name.clone(),
            size,
            kind: "message".into(),
            storage: message.rust.relative_to(&[]),
            why,
        });
        rows.extend(unknown_fields_row(context, name));
        rows.extend(field_rows(context, name)?);
    }
    Ok(render(&rows))
}

/// The rows of the message-typed fields of message `full_name`, in
/// declaration order.
fn field_rows(context: &Context<'_>, full_name: &str) -> Result<Vec<Row>, Error> {
    let message = context.schema.message(full_name)?;
    let mut rows = Vec::new();
    for field in owned::fields(context, full_name, message, &[])? {
        let row = |kind: String, storage: String, why: String| Row {
            name: format!("  {}", field.path),
            size: String::new(),
            kind,
            storage,
            why,
        };
        match (&field.shape, &field.value) {
            (
                Shape::Explicit,
                ValueType::Message {
                    path,
                    full_name: target,
                    ..
                },
            ) => {
                let decision = pointer::choose(context, &field.path, path, || {
                    owned::owned_layout(context, target)
                })?;
                let (storage, why) = describe(&decision);
                rows.push(row("field".into(), storage, why));
            }
            (
                Shape::Oneof(index),
                ValueType::Message {
                    full_name: target, ..
                },
            ) => {
                let oneof = message.proto.oneof_decl[*index].name();
                let decision = owned::oneof_decision(context, full_name, &field, target)?;
                let (storage, why) = describe(&decision);
                rows.push(row(format!("oneof {oneof}"), storage, why));
            }
            (Shape::Repeated { .. }, ValueType::Message { .. }) => {
                rows.push(row(
                    "repeated".into(),
                    "Vec".into(),
                    "heap container".into(),
                ));
            }
            (
                Shape::Map {
                    value: ValueType::Message { .. },
                    btree,
                    ..
                },
                _,
            ) => {
                let map = if *btree { "BTreeMap" } else { "HashMap" };
                rows.push(row("map".into(), map.into(), "heap container".into()));
            }
            _ => {}
        }
    }
    Ok(rows)
}

/// The row saying whether message `full_name` keeps unknown fields, for
/// a message an `unknown_fields` rule covers; none for the default (kept).
fn unknown_fields_row(context: &Context<'_>, full_name: &str) -> Option<Row> {
    let (storage, why) = match context.unknown_fields.decision(full_name) {
        UnknownFieldsDecision::Default => return None,
        UnknownFieldsDecision::Rule(rule, UnknownFieldsRepr::Keep) => {
            ("kept", format!("rule {rule}"))
        }
        UnknownFieldsDecision::Rule(rule, UnknownFieldsRepr::Discard) => {
            ("discarded", format!("rule {rule}"))
        }
        UnknownFieldsDecision::Extensions(rule) => {
            ("kept", format!("extension ranges (over rule {rule})"))
        }
    };
    Some(Row {
        name: "  unknown fields".into(),
        size: String::new(),
        kind: "unknown".into(),
        storage: storage.into(),
        why,
    })
}

/// The full names of `messages` and their nested messages, under `prefix`.
fn collect_messages(prefix: &str, messages: &[DescriptorProto], out: &mut Vec<String>) {
    for message in messages {
        let name = format!("{prefix}.{}", message.name());
        collect_messages(&name, &message.nested_type, out);
        out.push(name);
    }
}

/// The size column of a message, with the mark of its accuracy, and the
/// note that explains the mark. An assumed size that is also an upper
/// bound keeps its lower bound as the note: `~` alone would claim it exact
/// under the assumption.
fn size_text(layout: Layout) -> (String, String) {
    let lower_bound = format!("at least {}", layout.min_size);
    match layout.accuracy() {
        Accuracy::Exact => (layout.size.to_string(), String::new()),
        Accuracy::UpperBound => (format!("<={}", layout.size), lower_bound),
        Accuracy::Assumed if layout.min_size < layout.size => {
            (format!("~{}", layout.size), lower_bound)
        }
        Accuracy::Assumed => (
            format!("~{}", layout.size),
            "assumed: custom pointer or extern message".into(),
        ),
    }
}

/// The storage and reason columns of a decision.
fn describe(decision: &Decision) -> (String, String) {
    let storage = match &decision.pointer {
        Pointer::Box => "Box".to_owned(),
        Pointer::Inline => "Inline".to_owned(),
        Pointer::Custom(tokens) => compact_type(&tokens.to_string()),
    };
    (storage, decision.reason.to_string())
}

/// Type tokens as text without the spaces `TokenStream` puts between
/// all tokens: `crate :: Ptr < a :: B , C >` becomes `crate::Ptr<a::B, C>`.
fn compact_type(text: &str) -> String {
    let mut out = String::new();
    let mut after_word = false;
    for token in text.split_whitespace() {
        // Identifiers (raw ones too), keywords and lifetimes.
        let word = token.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '\'');
        if word && after_word {
            out.push(' ');
        }
        out.push_str(token);
        if token == "," {
            out.push(' ');
        }
        after_word = word;
    }
    out
}

/// The rows as aligned columns, after the header.
fn render(rows: &[Row]) -> String {
    let width = |column: fn(&Row) -> &str| rows.iter().map(|r| column(r).len()).max().unwrap_or(0);
    let name = width(|r| &r.name);
    let size = width(|r| &r.size);
    let kind = width(|r| &r.kind);
    let storage = width(|r| &r.storage);
    let mut out = HEADER.to_owned();
    for row in rows {
        let line = format!(
            "{:name$}  {:>size$}  {:kind$}  {:storage$}  {}",
            row.name, row.size, row.kind, row.storage, row.why
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compacts_type_tokens() {
        assert_eq!(
            compact_type("crate :: ptr :: SmallBox < super :: geometry :: Vector3 >"),
            "crate::ptr::SmallBox<super::geometry::Vector3>"
        );
        assert_eq!(
            compact_type("my :: Pair < a :: B , & 'static dyn c :: D >"),
            "my::Pair<a::B, &'static dyn c::D>"
        );
    }
}
