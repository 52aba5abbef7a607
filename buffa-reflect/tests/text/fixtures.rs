//! Text fixtures: a message type and a text protoc accepts for it. The
//! print tests print protoc's encoding of each, the parse tests parse
//! each; together they cover every field kind and shape of the test
//! protos.

pub const FIXTURES: &[(&str, &str)] = &[
    // Every scalar kind at its extremes, signed ones negative.
    (
        "text2.Scalars",
        r#"
        f_double: -1.7976931348623157e308
        f_float: 3.4028235e38
        f_int64: -9223372036854775808
        f_uint64: 18446744073709551615
        f_int32: -2147483648
        f_fixed64: 18446744073709551615
        f_fixed32: 4294967295
        f_bool: true
        f_string: "tab\tquote\" apostrophe' backslash\\ \x01\x7f é ☃ 😀"
        f_bytes: "\000\001\377\200 binary \"\n"
        f_uint32: 4294967295
        f_color: BLUE
        f_sfixed32: -2147483648
        f_sfixed64: -9223372036854775808
        f_sint32: -2147483648
        f_sint64: -9223372036854775808
        "#,
    ),
    (
        "text2.Scalars",
        r#"
        f_double: 0 f_float: -0 f_int64: 0 f_uint64: 0 f_int32: 0
        f_bool: false f_string: "" f_bytes: "" f_color: RED
        f_sint32: -1 f_sint64: 1 f_sfixed32: 2147483647 f_sfixed64: 9223372036854775807
        "#,
    ),
    // Repeated fields of every kind, floats of every shape.
    (
        "text2.Scalars",
        r#"
        r_double: [0.1, 1e15, 1e16, 1e17, 123456789012345678, 1e-300, 5e-324,
                   0.30000000000000004, 100000, 1e-4, 1e-5, 2.5, -0, inf, -inf]
        r_float: [0.1, 1e10, 3.4028235e38, 1e-45, 123456789, 0.000123, -0, inf,
                  -inf, 1.17549e-38, 100000, 1000000, 1e-5, 16777217, 0.3333333]
        r_int64: [1, -1, 9223372036854775807]
        r_uint64: [0, 1]
        r_int32: [-5, 5]
        r_fixed64: [7]
        r_fixed32: [8]
        r_bool: [true, false, true]
        r_string: ["a", "", "b c"]
        r_bytes: ["\x00", "yz"]
        r_uint32: [9]
        r_color: [GREEN, RED]
        r_sfixed32: [-10]
        r_sfixed64: [-11]
        r_sint32: [-12, 12]
        r_sint64: [-13]
        p_int32: [1, 2, 3]
        p_double: [1.5, -2.5]
        p_color: [BLUE, BLUE]
        "#,
    ),
    // Nested and repeated messages.
    (
        "text2.Node",
        r#"
        value: 1
        child { value: 2 child { child { value: 4 } } }
        children { value: 5 }
        children { }
        children { scalars { f_string: "deep" r_int32: [1, 2] } }
        "#,
    ),
    // Groups, by type name.
    (
        "text2.Groups",
        r#"
        Data { x: 1 node { value: 2 } }
        Item { name: "first" }
        Item { }
        Item { name: "third" }
        MultiWordGroup { y: 3 }
        "#,
    ),
    // Extensions of every shape, among the fields by number.
    (
        "text2.Extendable",
        r#"
        a: 1
        [text2.ext_int]: -100
        [text2.ext_strings]: "one"
        [text2.ext_strings]: "two"
        [text2.ext_node] { value: 102 children { value: 1 } }
        [text2.extgroup] { g: 104 }
        [text2.ext_color]: GREEN
        [text2.ext_nodes] { value: 1 }
        [text2.ext_nodes] { value: 2 }
        [text2.ext_double]: 1.5
        [text2.Scope.scoped]: "scoped"
        "#,
    ),
    // Oneofs.
    ("text2.WithOneof", r#"text: "chosen" other: 4"#),
    ("text2.WithOneof", r#"node { value: 3 }"#),
    ("text2.WithOneof", r#"number: 0"#),
    // proto3: implicit presence, optional, open enums.
    (
        "text3.Scalars3",
        r#"
        f_double: 2.5 f_float: -1.25 f_int64: -3 f_uint64: 4 f_int32: -5
        f_fixed64: 6 f_fixed32: 7 f_bool: true f_string: "x" f_bytes: "y"
        f_uint32: 13 f_mood: SAD f_sfixed32: -15 f_sfixed64: -16
        f_sint32: -17 f_sint64: -18
        o_int32: 0 o_string: "" o_mood: MOOD_UNSPECIFIED o_double: -0
        r_int32: [1, -1, 0] r_double: [nan, 1] r_mood: [HAPPY, 7, SAD, -9]
        r_string: ["p", "q"] r_sint64: [-1] r_bool: [false]
        "#,
    ),
    // An open enum holding a number it does not declare.
    ("text3.Scalars3", "f_mood: 42"),
    // Maps of every key kind, printed in key order.
    (
        "text3.Maps",
        r#"
        int32_string { key: 2 value: "two" }
        int32_string { key: -1 value: "minus one" }
        int32_string { key: 0 value: "" }
        int64_int64 { key: -9223372036854775808 value: 1 }
        int64_int64 { key: 9223372036854775807 value: -1 }
        uint32_uint32 { key: 4294967295 value: 1 }
        uint32_uint32 { key: 3 value: 0 }
        uint64_uint64 { key: 18446744073709551615 value: 2 }
        sint32_sint32 { key: -3 value: -3 }
        sint64_sint64 { key: -4 value: -4 }
        fixed32_fixed32 { key: 5 value: 5 }
        fixed64_fixed64 { key: 6 value: 6 }
        sfixed32_sfixed32 { key: -7 value: -7 }
        sfixed64_sfixed64 { key: -8 value: -8 }
        bool_bool { key: true value: false }
        bool_bool { key: false value: true }
        string_string { key: "b" value: "B" }
        string_string { key: "a" value: "A" }
        string_string { key: "é" value: "E" }
        string_string { key: "" value: "" }
        string_tree { key: "t" value: { id: 1 left { id: 2 } } }
        string_tree { key: "empty" value: { } }
        string_mood { key: "m" value: SAD }
        string_bytes { key: "raw" value: "\377\000" }
        int32_double { key: 1 value: 0.1 }
        int32_float { key: 1 value: 0.1 }
        "#,
    ),
    // Recursion, oneof members of message type, maps in messages.
    (
        "text3.Tree",
        r#"
        id: 1
        left { id: 2 left { id: 3 subtree { id: 4 } } label: "l" }
        children { id: 5 } children { id: 6 maps { bool_bool { key: true value: true } } }
        subtree { children { } }
        "#,
    ),
    // Edition 2023: delimited fields, group-like or not; a closed enum.
    (
        "text_editions.Delimited",
        r#"
        GroupLike { a: 1 }
        not_group_like { a: 2 }
        length_prefixed { a: 3 }
        closed: CLOSED_ONE
        closed_list: [CLOSED_ZERO, CLOSED_ONE]
        implicit: 6
        "#,
    ),
];

/// Fixtures with an `Any`, printed expanded by default.
pub const ANY_FIXTURES: &[(&str, &str)] = &[
    (
        "text2.WithAny",
        r#"
        any { [type.googleapis.com/text2.Node] { value: 1 child { value: 2 } } }
        anys { [type.googleapis.com/text2.Scalars] { f_string: "in any" r_int32: [1, 2] } }
        anys { [type.googleapis.com/google.protobuf.Any] {
                 [type.googleapis.com/text2.Empty] { } } }
        anys { }
        "#,
    ),
    (
        "text3.Tree",
        r#"
        any { [type.googleapis.com/text3.Tree] { id: 7 any { [type.googleapis.com/text3.Maps] {
              string_string { key: "k" value: "v" } } } } }
        "#,
    ),
];
