//! Doc comments from the .proto source: leading comments of each element.

use std::collections::HashMap;

use buffa_types::google::protobuf::FileDescriptorProto;
use proc_macro2::TokenStream;
use quote::quote;

/// Leading comments of a file's elements by source path.
pub struct Comments {
    by_path: HashMap<Vec<i32>, String>,
}

impl Comments {
    /// Collects the comments of `file` (empty when it has no source info).
    pub fn new(file: &FileDescriptorProto) -> Comments {
        let mut by_path = HashMap::new();
        if let Some(info) = file.source_code_info.as_option() {
            for location in &info.location {
                if let Some(comment) = &location.leading_comments {
                    by_path.insert(location.path.clone(), comment.clone());
                }
            }
        }
        Comments { by_path }
    }

    /// `#[doc]` attributes for the element at `path`.
    pub fn doc(&self, path: &[i32]) -> TokenStream {
        let lines = self.lines(path);
        quote!(#(#[doc = #lines])*)
    }

    /// The rustdoc lines of the element at `path` (none without a comment),
    /// for generators that write the attributes themselves.
    pub fn lines(&self, path: &[i32]) -> Vec<String> {
        self.by_path
            .get(path)
            .map(|comment| sanitize(comment))
            .unwrap_or_default()
    }
}

/// Turns a proto comment into rustdoc lines that cannot become doctests:
/// indentation that Markdown would read as a code block is removed, and
/// fenced blocks are marked as plain text. Lines continuing a list item
/// are indented to the item's text, as Markdown reads them anyway, so that
/// removing the indentation leaves no lazy continuation lines.
fn sanitize(comment: &str) -> Vec<String> {
    let mut in_fence = false;
    // Indentation of the text of the list item being continued, if any.
    let mut list_item: Option<usize> = None;
    let mut lines: Vec<String> = comment
        .trim_end()
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") {
                in_fence = !in_fence;
                list_item = None;
                let bare = trimmed.trim_start_matches('`').trim().is_empty();
                if in_fence && bare {
                    " ```text".to_owned()
                } else {
                    format!(" {trimmed}")
                }
            } else if trimmed.is_empty() {
                list_item = None;
                String::new()
            } else if in_fence {
                format!(" {trimmed}")
            } else if let Some(offset) = list_marker_len(trimmed) {
                list_item = Some(offset);
                format!(" {trimmed}")
            } else if let Some(offset) = list_item {
                format!(" {}{trimmed}", " ".repeat(offset))
            } else {
                format!(" {trimmed}")
            }
        })
        .collect();
    while lines.first().is_some_and(String::is_empty) {
        lines.remove(0);
    }
    lines
}

/// The length of the list marker starting `line` (`- `, `* `, `+ `, `1. `,
/// `1) `), i.e. where the item's text starts.
fn list_marker_len(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let marker = match digits {
        0 if matches!(bytes.first(), Some(b'-' | b'*' | b'+')) => 1,
        1..=9 if matches!(bytes.get(digits), Some(b'.' | b')')) => digits + 1,
        _ => return None,
    };
    (bytes.get(marker) == Some(&b' ')).then_some(marker + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_lines_cannot_become_doctests() {
        assert_eq!(
            sanitize(" A thing.\n\n     code();\n"),
            [" A thing.", "", " code();"]
        );
        assert_eq!(sanitize(" ```\n x\n ```\n"), [" ```text", " x", " ```"]);
    }

    #[test]
    fn list_continuations_are_indented() {
        assert_eq!(
            sanitize(" - one\n   two\n three\n\n after\n 10. ten\n     more\n"),
            [
                " - one",
                "   two",
                "   three",
                "",
                " after",
                " 10. ten",
                "     more"
            ]
        );
    }
}
