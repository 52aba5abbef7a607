//! The size estimates of the layout report against rustc: for every message
//! of the runs in `build.rs` that write a report (protobuf's unittest
//! protos, hostile names, editions, shared bytes, the allocation-budget and
//! `Eq`/`Hash` protos with a custom pointer, the cross-check protos boxed
//! and inline, and the string protos as `BytesStr` and `Bytes`), the
//! estimate is compared with `size_of` of the generated struct. Between
//! them they hold every field shape: scalars with and without presence,
//! open and closed enums, `String`, `BytesStr`, `Vec<u8>` and `Bytes`,
//! repeated fields, `HashMap` and `BTreeMap`, boxed, inline and
//! custom-pointer sub-messages, groups, and oneofs of every kind.
//!
//! `docs/pointer-layout.md` promises: unmarked estimates are exact;
//! estimates marked `<=` are never below `size_of` and never above it by
//! more than the difference to the report's `at least` figure; `~` marks
//! an assumption (custom pointers of one word), which `Handle`, the
//! tests' custom pointer, satisfies: such an estimate is exact, or an
//! upper bound when the report gives an `at least` figure too.

/// One message of a layout report, with the real size of its struct.
#[derive(Debug)]
struct Layout {
    /// The `OUT_DIR` subdirectory (and module) of its run.
    set: &'static str,
    message: &'static str,
    /// `""` (exact), `"<="` (upper bound) or `"~"` (assumed).
    mark: &'static str,
    estimate: usize,
    /// The report's lower bound; the estimate itself unless marked `<=`.
    min_size: usize,
    size_of: usize,
}

const LAYOUTS: &[Layout] = include!(concat!(env!("OUT_DIR"), "/layout_sizes.rs"));

fn with_mark(mark: &str) -> impl Iterator<Item = &'static Layout> + '_ {
    LAYOUTS.iter().filter(move |layout| layout.mark == mark)
}

#[test]
fn exact_estimates_are_size_of() {
    let wrong: Vec<&Layout> = with_mark("").filter(|l| l.estimate != l.size_of).collect();
    assert!(wrong.is_empty(), "estimates off: {wrong:#?}");
}

#[test]
fn upper_bounds_bracket_size_of() {
    let wrong: Vec<&Layout> = with_mark("<=")
        .filter(|l| !(l.min_size <= l.size_of && l.size_of <= l.estimate))
        .collect();
    assert!(wrong.is_empty(), "outside their bounds: {wrong:#?}");
    // Each oneof adds at most a tag's worth (one alignment, 8 bytes) to
    // the estimate, and the reports hold no struct with more than a few.
    let worst = with_mark("<=")
        .map(|l| l.estimate - l.min_size)
        .max()
        .unwrap_or(0);
    assert!(worst <= 16, "a bound {worst} bytes wide");
}

#[test]
fn assumed_estimates_hold_for_a_one_word_pointer() {
    let assumed: Vec<&Layout> = with_mark("~").collect();
    assert!(
        assumed.iter().any(|l| l.message == ".eq_hash.Pointed"),
        "the custom pointer of eq_hash.Pointed is marked: {assumed:#?}"
    );
    // Exact under the assumption, or, with an `at least` note, an upper
    // bound (`min_size` is the estimate itself without one).
    let wrong: Vec<&Layout> = assumed
        .into_iter()
        .filter(|l| !(l.min_size <= l.size_of && l.size_of <= l.estimate))
        .collect();
    assert!(wrong.is_empty(), "estimates off: {wrong:#?}");
}

/// The table covers what the claims are about, and the figures quoted in
/// `docs/pointer-layout.md` (run with `--nocapture` to print them).
#[test]
fn coverage_and_figures() {
    let exact = with_mark("").count();
    let bounded: Vec<&Layout> = with_mark("<=").collect();
    let over: Vec<usize> = bounded.iter().map(|l| l.estimate - l.size_of).collect();
    let exactly_right = over.iter().filter(|&&o| o == 0).count();
    println!(
        "{} messages: {exact} exact; {} upper bounds ({exactly_right} of them equal to \
         size_of, at most {} bytes over, {} bytes over in total); {} assumed",
        LAYOUTS.len(),
        bounded.len(),
        over.iter().max().unwrap_or(&0),
        over.iter().sum::<usize>(),
        with_mark("~").count(),
    );
    for set in [
        "unittest",
        "hostile",
        "editions",
        "shared",
        "limits",
        "eq_hash",
        "crosscheck",
        "crosscheck_lazy",
        "strings_shared",
    ] {
        assert!(
            LAYOUTS.iter().any(|l| l.set == set),
            "no message from {set}"
        );
    }
    assert!(exact > 500, "{exact} exact estimates");
    assert!(!bounded.is_empty(), "no oneof with a niche was estimated");
}
