//! Doc comments from the .proto source: leading comments of each element.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use prost_types::FileDescriptorProto;
use quote::quote;

/// Leading comments of a file's elements by source path.
pub struct Comments {
    by_path: HashMap<Vec<i32>, String>,
}

impl Comments {
    /// Collects the comments of `file` (empty when it has no source info).
    pub fn new(file: &FileDescriptorProto) -> Comments {
        let mut by_path = HashMap::new();
        if let Some(info) = &file.source_code_info {
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
        let Some(comment) = self.by_path.get(path) else {
            return quote!();
        };
        let lines = sanitize(comment);
        quote!(#(#[doc = #lines])*)
    }
}

/// Turns a proto comment into rustdoc lines that cannot become doctests:
/// indentation that Markdown would read as a code block is removed, and
/// fenced blocks are marked as plain text.
fn sanitize(comment: &str) -> Vec<String> {
    let mut in_fence = false;
    let mut lines: Vec<String> = comment
        .trim_end()
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") {
                in_fence = !in_fence;
                let bare = trimmed.trim_start_matches('`').trim().is_empty();
                if in_fence && bare {
                    " ```text".to_owned()
                } else {
                    format!(" {trimmed}")
                }
            } else if trimmed.is_empty() {
                String::new()
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
}
