//! Source comments: the `SourceCodeInfo` location of an element, found by
//! the element's path from the root `FileDescriptorProto`.

use buffa_types::google::protobuf::FileDescriptorProto;

use crate::inner::PoolInner;

/// The comments protoc recorded around an element of a `.proto` file
/// (present when the descriptor set was written with
/// `--include_source_info`; empty otherwise).
///
/// The text is as protoc gives it: without the comment markers, each line
/// keeping its leading space and ending with a newline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comments {
    /// The comment directly before the element.
    pub leading: Option<String>,
    /// The comment after the element, on the same line or the next.
    pub trailing: Option<String>,
    /// Comments before the element separated from it (and from each
    /// other) by blank lines, first to last.
    pub leading_detached: Vec<String>,
}

impl Comments {
    /// Whether there is no comment at all.
    pub fn is_empty(&self) -> bool {
        self.leading.is_none() && self.trailing.is_none() && self.leading_detached.is_empty()
    }
}

/// A file's `SourceCodeInfo` locations, sorted by path (stably, so that
/// the first location of a path comes first) for lookup by path.
#[derive(Clone, Debug, Default)]
pub(crate) struct LocationIndex {
    by_path: Box<[u32]>,
}

impl LocationIndex {
    pub fn new(file: &FileDescriptorProto) -> LocationIndex {
        let locations = &file.source_code_info.location;
        let mut by_path: Vec<u32> = (0..locations.len() as u32).collect();
        by_path.sort_by(|&a, &b| locations[a as usize].path.cmp(&locations[b as usize].path));
        LocationIndex {
            by_path: by_path.into(),
        }
    }

    /// The comments of the element at `path` in `file`.
    pub fn comments(&self, file: &FileDescriptorProto, path: &[i32]) -> Comments {
        let locations = &file.source_code_info.location;
        let first = self
            .by_path
            .partition_point(|&i| locations[i as usize].path.as_slice() < path);
        match self.by_path.get(first).map(|&i| &locations[i as usize]) {
            Some(location) if location.path == path => Comments {
                leading: location.leading_comments.clone(),
                trailing: location.trailing_comments.clone(),
                leading_detached: location.leading_detached_comments.clone(),
            },
            _ => Comments::default(),
        }
    }
}

impl PoolInner {
    /// The comments of the element at `path` in file `file`.
    pub(crate) fn comments(&self, file: u32, path: &[i32]) -> Comments {
        let file = self.file(file);
        file.locations.comments(&file.proto, path)
    }
}
