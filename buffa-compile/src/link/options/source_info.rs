//! The source info of options: moved from the uninterpreted options to
//! the options they became, and removed with stripped options.

use foldhash::HashMap;

use buffa_types::google::protobuf::source_code_info::Location;

use super::UNINTERPRETED_OPTION;

/// Gives each location of an interpreted option (`[.., 999, i]`) the path
/// of the option it became, and drops the locations under it (its name
/// parts and value), as protoc's `UpdateSourceCodeInfo` does.
pub(crate) fn move_interpreted(locations: &mut Vec<Location>, moved: &HashMap<Vec<i32>, Vec<i32>>) {
    if moved.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(locations.len());
    let mut matched: Option<Vec<i32>> = None;
    for mut location in locations.drain(..) {
        if let Some(prefix) = &matched {
            if location.path.starts_with(prefix) {
                continue;
            }
            matched = None;
        }
        // Only an option's own location (`[.., 999, i]`) can have moved.
        let is_option = location.path.len() >= 2
            && location.path[location.path.len() - 2] == UNINTERPRETED_OPTION;
        if let Some(dest) = is_option.then(|| moved.get(&location.path)).flatten() {
            matched = Some(std::mem::replace(&mut location.path, dest.clone()));
        }
        out.push(location);
    }
    *locations = out;
}

/// Removes every location under one of `stripped`.
pub(crate) fn remove_stripped(locations: &mut Vec<Location>, stripped: &[Vec<i32>]) {
    if stripped.is_empty() {
        return;
    }
    locations.retain(|l| !stripped.iter().any(|s| l.path.starts_with(s)));
}
