//! The recursion limit (messages nested in messages, and the levels of a
//! `Struct`/`Value`/`ListValue`) and the input length limit.

use super::*;

/// `levels` nested `Node`s through `field`: `{"field": {"field": {}}}` is
/// three levels.
fn nested_nodes(levels: usize, open: &str, close: &str) -> String {
    let mut text = String::new();
    for _ in 1..levels {
        text.push_str(open);
    }
    text.push_str("{}");
    for _ in 1..levels {
        text.push_str(close);
    }
    text
}

/// How many `Node`s deep `node` goes through any of its fields.
fn depth(node: &Node) -> usize {
    let children = node
        .child
        .as_option()
        .into_iter()
        .chain(&node.children)
        .chain(node.named.values());
    1 + children.map(depth).max().unwrap_or(0)
}

#[track_caller]
fn assert_recursion_error(err: &JsonError, limit: u32) {
    let want = format!("messages nested more than {limit} levels deep (the recursion limit)");
    assert!(err.to_string().contains(&want), "{err}");
}

#[test]
fn messages_nest_up_to_the_default_limit_of_100() {
    let text = nested_nodes(100, r#"{"child": "#, "}");
    let node: Node = parse(&text);
    assert_eq!(depth(&node), 100);
    let err = parse_err::<Node>(&nested_nodes(101, r#"{"child": "#, "}"));
    assert_recursion_error(&err, 100);
}

#[test]
fn messages_in_lists_and_maps_count_once_per_message() {
    // Two JSON levels per message here (an object and an array or map),
    // so 100 messages would pass serde_json's own limit of 128 levels
    // first; a limit of 60 stays under it.
    let options = DeserializeOptions::new().with_recursion_limit(60);
    for (open, close) in [(r#"{"children": ["#, "]}"), (r#"{"named": {"k": "#, "}}")] {
        let node: Node = parse_with(&nested_nodes(60, open, close), &options);
        assert_eq!(depth(&node), 60, "{open}");
        let err = parse_err_with::<Node>(&nested_nodes(61, open, close), &options);
        assert_recursion_error(&err, 60);
    }
    // And serde_json's limit is what stops 100 of them under the default.
    let err = parse_err::<Node>(&nested_nodes(100, r#"{"children": ["#, "]}"));
    assert!(
        err.to_string().contains("recursion limit exceeded"),
        "{err}"
    );
}

#[test]
fn a_lower_limit_applies() {
    let options = DeserializeOptions::new().with_recursion_limit(5);
    let node: Node = parse_with(&nested_nodes(5, r#"{"child": "#, "}"), &options);
    assert_eq!(depth(&node), 5);
    let err = parse_err_with::<Node>(&nested_nodes(6, r#"{"child": "#, "}"), &options);
    assert_recursion_error(&err, 5);
    // The error points at the start of the sixth level.
    assert_eq!(err.line(), 1);
    assert_eq!(err.column(), 5 * r#"{"child": "#.len(), "{err}");
    // Limit 1: only the outermost message, with scalar fields.
    let options = DeserializeOptions::new().with_recursion_limit(1);
    let node: Node = parse_with(r#"{"depth": 3}"#, &options);
    assert_eq!(node.depth, 3);
    let err = parse_err_with::<Node>(r#"{"child": {}}"#, &options);
    assert_recursion_error(&err, 1);
    // Limit 0: not even that.
    let options = DeserializeOptions::new().with_recursion_limit(0);
    assert_recursion_error(&parse_err_with::<Node>("{}", &options), 0);
    // A message packed in an Any counts as well.
    let options = DeserializeOptions::new().with_recursion_limit(2);
    let any = r#"{"any": {"@type": "type.googleapis.com/google.protobuf.Empty"}}"#;
    let err = parse_err_with::<WellKnown>(any, &options);
    assert!(err.to_string().contains("recursion limit"), "{err}");
}

/// A `WellKnown` whose `value` is `levels` arrays deep.
fn nested_lists(levels: usize) -> String {
    format!(
        r#"{{"value": {}1{}}}"#,
        "[".repeat(levels),
        "]".repeat(levels)
    )
}

#[test]
fn struct_and_value_nesting_is_bounded_by_the_recursion_limit() {
    // Each array is a Value holding a ListValue. Find how deep a limit of
    // 5 lets lists go; it must be a few levels, not unbounded.
    let options = DeserializeOptions::new().with_recursion_limit(5);
    let deepest = (0..10)
        .take_while(|&levels| {
            json::from_str_with::<WellKnown>(&nested_lists(levels), &options).is_ok()
        })
        .last()
        .expect("a bare number parses");
    assert!(
        (1..5).contains(&deepest),
        "{deepest} levels under a limit of 5"
    );
    let err = parse_err_with::<WellKnown>(&nested_lists(deepest + 1), &options);
    assert_recursion_error(&err, 5);
    // Objects as well.
    let objects = format!(
        r#"{{"structValue": {}{}}}"#,
        r#"{"a": "#.repeat(10),
        "}".repeat(11)
    );
    let err = parse_err_with::<WellKnown>(&objects, &options);
    assert_recursion_error(&err, 5);
    // Under the default limit (100), 60 nested lists are refused by the
    // recursion limit, well before serde_json's own nesting limit (128).
    let err = parse_err::<WellKnown>(&nested_lists(60));
    assert_recursion_error(&err, 100);
    parse::<WellKnown>(&nested_lists(30));
}

#[test]
fn input_longer_than_max_len_is_refused() {
    let text = r#"{"fString": "0123456789"}"#;
    let options = DeserializeOptions::new().with_max_len(text.len());
    assert_eq!(parse_with::<Scalars>(text, &options).f_string, "0123456789");
    let options = DeserializeOptions::new().with_max_len(text.len() - 1);
    let err = parse_err_with::<Scalars>(text, &options);
    assert!(
        err.to_string().contains(&format!(
            "JSON input of {} bytes is longer than the limit of {} bytes",
            text.len(),
            text.len() - 1
        )),
        "{err}"
    );
    assert_eq!((err.line(), err.column()), (0, 0));
    // Whitespace counts: the limit is on the input, not on its content.
    let padded = format!("{text}   ");
    let options = DeserializeOptions::new().with_max_len(text.len());
    parse_err_with::<Scalars>(&padded, &options);
    assert_eq!(json::DEFAULT_MAX_JSON_LEN, 64 << 20);
}
