//! Every example and rule stated in the comments of `google/api/http.proto`
//! (googleapis, as packaged in google-proto-files 6.0.1), each test
//! quoting the lines it comes from, followed by templates from googleapis'
//! own `google.api.http` annotations in the same package.

use buffa_http::query;
use buffa_http::template::{PathTemplate, ReservedExpansion};

/// The `(field path, value)` pairs of a request: the path's bindings
/// under `template`, then the query's parameters; `None` if the path does
/// not match.
fn request(template: &str, target: &str) -> Option<Vec<(String, String)>> {
    request_with(template, target, ReservedExpansion::KeepReserved)
}

fn request_with(
    template: &str,
    target: &str,
    expansion: ReservedExpansion,
) -> Option<Vec<(String, String)>> {
    let template = PathTemplate::parse(template).expect("the example parses");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut bindings = template
        .matches_with(path, expansion)
        .expect("the path is well formed")?;
    bindings.extend(query::parse(query).expect("the query is well formed"));
    Some(
        bindings
            .into_iter()
            .map(|b| (b.field_path.join("."), b.value))
            .collect(),
    )
}

fn bound(pairs: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
    Some(pairs.iter().map(|&(f, v)| (f.into(), v.into())).collect())
}

/// The message `template` fails to parse with.
fn template_error(template: &str) -> String {
    PathTemplate::parse(template)
        .expect_err(template)
        .message()
        .to_owned()
}

// http.proto:71:             get: "/v1/{name=messages/*}"
// http.proto:84: - HTTP: `GET /v1/messages/123456`
// http.proto:85: - gRPC: `GetMessage(name: "messages/123456")`
#[test]
fn get_message_by_resource_name() {
    assert_eq!(
        request("/v1/{name=messages/*}", "/v1/messages/123456"),
        bound(&[("name", "messages/123456")])
    );
    assert_eq!(
        request("/v1/{name=messages/*}", "/v1/messages/123456/x"),
        None
    );
    assert_eq!(request("/v1/{name=messages/*}", "/v1/users/123456"), None);
}

// http.proto:94:             get:"/v1/messages/{message_id}"
// http.proto:103:       int64 revision = 2;    // Mapped to URL query parameter `revision`.
// http.proto:104:       SubMessage sub = 3;    // Mapped to URL query parameter `sub.subfield`.
// http.proto:109: - HTTP: `GET /v1/messages/123456?revision=2&sub.subfield=foo`
// http.proto:110: - gRPC: `GetMessage(message_id: "123456" revision: 2 sub:
// http.proto:111: SubMessage(subfield: "foo"))`
#[test]
fn unbound_fields_become_query_parameters() {
    assert_eq!(
        request(
            "/v1/messages/{message_id}",
            "/v1/messages/123456?revision=2&sub.subfield=foo"
        ),
        bound(&[
            ("message_id", "123456"),
            ("revision", "2"),
            ("sub.subfield", "foo")
        ])
    );
    let parameters = query::parse("revision=2&sub.subfield=foo").unwrap();
    assert_eq!(parameters[1].field_path, ["sub", "subfield"]);
}

// http.proto:115: In the case of a repeated type, the parameter can be repeated in the URL
// http.proto:116: as `...?param=A&param=B`.
// http.proto:209:      parameter name is the field path in the request message. A repeated
// http.proto:210:      field can be represented as multiple query parameters under the same
// http.proto:211:      name.
#[test]
fn repeated_query_parameters() {
    assert_eq!(
        request(
            "/v1/messages/{message_id}",
            "/v1/messages/1?param=A&param=B"
        ),
        bound(&[("message_id", "1"), ("param", "A"), ("param", "B")])
    );
}

// http.proto:116: In the case of a message type, each field of the
// http.proto:117: message is mapped to a separate parameter, such as
// http.proto:118: `...?foo.a=A&foo.b=B&foo.c=C`.
#[test]
fn message_fields_as_query_parameters() {
    let parameters = query::parse("foo.a=A&foo.b=B&foo.c=C").unwrap();
    let pairs: Vec<_> = parameters
        .iter()
        .map(|p| (p.field_path.clone(), p.value.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            (vec!["foo".to_owned(), "a".to_owned()], "A"),
            (vec!["foo".to_owned(), "b".to_owned()], "B"),
            (vec!["foo".to_owned(), "c".to_owned()], "C"),
        ]
    );
}

// http.proto:127:           patch: "/v1/messages/{message_id}"
// http.proto:128:           body: "message"
// http.proto:141: - HTTP: `PATCH /v1/messages/123456 { "text": "Hi!" }`
// http.proto:142: - gRPC: `UpdateMessage(message_id: "123456" message { text: "Hi!" })`
// http.proto:152:           patch: "/v1/messages/{message_id}"
// http.proto:153:           body: "*"
// http.proto:165: - HTTP: `PATCH /v1/messages/123456 { "text": "Hi!" }`
// http.proto:166: - gRPC: `UpdateMessage(message_id: "123456" text: "Hi!")`
// (The body is the JSON layer's; the path binds `message_id`.)
#[test]
fn update_message_path() {
    assert_eq!(
        request("/v1/messages/{message_id}", "/v1/messages/123456"),
        bound(&[("message_id", "123456")])
    );
}

// http.proto:180:           get: "/v1/messages/{message_id}"
// http.proto:182:             get: "/v1/users/{user_id}/messages/{message_id}"
// http.proto:194: - HTTP: `GET /v1/messages/123456`
// http.proto:195: - gRPC: `GetMessage(message_id: "123456")`
// http.proto:197: - HTTP: `GET /v1/users/me/messages/123456`
// http.proto:198: - gRPC: `GetMessage(user_id: "me" message_id: "123456")`
#[test]
fn additional_bindings() {
    let primary = "/v1/messages/{message_id}";
    let additional = "/v1/users/{user_id}/messages/{message_id}";
    assert_eq!(
        request(primary, "/v1/messages/123456"),
        bound(&[("message_id", "123456")])
    );
    assert_eq!(request(additional, "/v1/messages/123456"), None);
    assert_eq!(
        request(additional, "/v1/users/me/messages/123456"),
        bound(&[("user_id", "me"), ("message_id", "123456")])
    );
    assert_eq!(request(primary, "/v1/users/me/messages/123456"), None);
}

// http.proto:221: //     Template = "/" Segments [ Verb ] ;
// http.proto:222: //     Segments = Segment { "/" Segment } ;
// http.proto:223: //     Segment  = "*" | "**" | LITERAL | Variable ;
// http.proto:224: //     Variable = "{" FieldPath [ "=" Segments ] "}" ;
// http.proto:225: //     FieldPath = IDENT { "." IDENT } ;
// http.proto:226: //     Verb     = ":" LITERAL ;
#[test]
fn the_grammar() {
    let template = PathTemplate::parse("/v1/*/{a.b.c=x/*}/lit/{d}/**:verb").unwrap();
    let variables: Vec<_> = template.variables().map(|v| v.join(".")).collect();
    assert_eq!(variables, ["a.b.c", "d"]);
    assert_eq!(template.verb(), Some("verb"));
    assert_eq!(template.to_string(), "/v1/*/{a.b.c=x/*}/lit/{d}/**:verb");
    // Template = "/" ...: the leading slash is required.
    assert_eq!(template_error("v1/x"), "a path template starts with `/`");
    // Segments = Segment { "/" Segment }: at least one, none empty.
    assert_eq!(template_error("/"), "empty segment");
    assert_eq!(template_error("/v1//x"), "empty segment");
    // FieldPath = IDENT { "." IDENT }.
    assert_eq!(template_error("/{a..b}"), "expected a field name");
    // Verb = ":" LITERAL: one verb, at the end.
    assert_eq!(template_error("/v1:a/b"), "the verb must end the template");
}

// http.proto:228: The syntax `*` matches a single URL path segment. The syntax `**` matches
// http.proto:229: zero or more URL path segments, which must be the last part of the URL path
// http.proto:230: except the `Verb`.
#[test]
fn single_and_double_wildcards() {
    assert_eq!(request("/v1/*", "/v1/a"), bound(&[]));
    assert_eq!(request("/v1/*", "/v1/a/b"), None);
    assert_eq!(request("/v1/*", "/v1"), None);
    assert_eq!(request("/v1/**", "/v1"), bound(&[]));
    assert_eq!(request("/v1/**", "/v1/a/b/c"), bound(&[]));
    assert_eq!(request("/v1/**:verb", "/v1/a/b:verb"), bound(&[]));
    assert_eq!(
        request("/v1/{rest=**}:verb", "/v1/a/b:verb"),
        bound(&[("rest", "a/b")])
    );
    assert_eq!(
        template_error("/v1/**/a"),
        "`**` must be the last segment of the template"
    );
    assert_eq!(
        template_error("/{a=**}/b"),
        "`**` must be the last segment of the template"
    );
}

// http.proto:232: The syntax `Variable` matches part of the URL path as specified by its
// http.proto:233: template. A variable template must not contain other variables. If a variable
// http.proto:234: matches a single path segment, its template may be omitted, e.g. `{var}`
// http.proto:235: is equivalent to `{var=*}`.
#[test]
fn variables() {
    assert_eq!(
        template_error("/v1/{a=x/{b}}"),
        "variables cannot be nested"
    );
    assert_eq!(
        PathTemplate::parse("/v1/{var}").unwrap(),
        PathTemplate::parse("/v1/{var=*}").unwrap()
    );
    assert_eq!(
        request("/v1/{var}", "/v1/x"),
        request("/v1/{var=*}", "/v1/x")
    );
    assert_eq!(request("/v1/{var}", "/v1/x"), bound(&[("var", "x")]));
}

// http.proto:237: The syntax `LITERAL` matches literal text in the URL path. If the `LITERAL`
// http.proto:238: contains any reserved character, such characters should be percent-encoded
// http.proto:239: before the matching.
#[test]
fn literals_write_reserved_characters_escaped() {
    assert!(template_error("/v1/a:b/c").starts_with("the verb must end"));
    assert!(template_error("/v1/a@b").starts_with("'@' is not allowed here"));
    assert_eq!(request("/v1/a%40b", "/v1/a%40b"), bound(&[]));
    assert_eq!(request("/v1/a%40b", "/v1/a%40B"), None);
    assert_eq!(request("/v1/a%3Ab", "/v1/a%3ab"), bound(&[]));
}

/// `text` with every character except `unescaped` and ASCII letters and
/// digits percent-encoded, as http.proto's client side expands a variable.
fn client_encode(text: &str, unescaped: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || unescaped.as_bytes().contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Every printable ASCII character, and some that are not ASCII.
fn awkward_text() -> String {
    let mut text: String = (b' '..=b'~').map(char::from).collect();
    text.push_str("é€😀");
    text
}

// http.proto:241: If a variable contains exactly one path segment, such as `"{var}"` or
// http.proto:242: `"{var=*}"`, when such a variable is expanded into a URL path on the client
// http.proto:243: side, all characters except `[-_.~0-9a-zA-Z]` are percent-encoded. The
// http.proto:244: server side does the reverse decoding.
// http.proto:286: While the single segment variable follows the semantics of
// http.proto:287: [RFC 6570](https://tools.ietf.org/html/rfc6570) Section 3.2.2 Simple String
// http.proto:288: Expansion, ...
#[test]
fn single_segment_variables_decode_what_clients_encode() {
    let text = awkward_text();
    let path = format!("/v1/{}", client_encode(&text, "-_.~"));
    assert_eq!(request("/v1/{var}", &path), bound(&[("var", &text)]));
    assert_eq!(request("/v1/{var=*}", &path), bound(&[("var", &text)]));
    assert_eq!(
        request("/v1/{var}", "/v1/a%2Fb%2fc"),
        bound(&[("var", "a/b/c")])
    );
}

// http.proto:249: If a variable contains multiple path segments, such as `"{var=foo/*}"`
// http.proto:250: or `"{var=**}"`, when such a variable is expanded into a URL path on the
// http.proto:251: client side, all characters except `[-_.~/0-9a-zA-Z]` are percent-encoded.
// http.proto:252: The server side does the reverse decoding, except "%2F" and "%2f" are left
// http.proto:253: unchanged.
// http.proto:34:   // When set to true, URL path parameters will be fully URI-decoded except in
// http.proto:35:   // cases of single segment matches in reserved expansion, where "%2F" will be
// http.proto:36:   // left encoded.
// Decoding everything but `%2F` is what `fully_decode_reserved_expansion: true` asks for.
#[test]
fn multi_segment_variables_fully_decoded_keep_slashes() {
    let fully = ReservedExpansion::KeepSlash;
    let text = awkward_text();
    let encoded = client_encode(&text, "-_.~/");
    let path = format!("/v1/foo/{encoded}");
    assert_eq!(
        request_with("/v1/{var=foo/**}", &path, fully),
        bound(&[("var", &format!("foo/{text}"))])
    );
    assert_eq!(
        request_with("/v1/{var=**}", "/v1/a%2Fb/c%2fd%20", fully),
        bound(&[("var", "a%2Fb/c%2fd ")])
    );
    assert_eq!(
        request_with("/v1/{var=foo/*}", "/v1/foo/a%2Fb%3F", fully),
        bound(&[("var", "foo/a%2Fb?")])
    );
}

// http.proto:38:   // The default behavior is to not decode RFC 6570 reserved characters in multi
// http.proto:39:   // segment matches.
// http.proto:288: ... the multi segment variable **does not** follow RFC 6570 Section
// http.proto:289: 3.2.3 Reserved Expansion. The reason is that the Reserved Expansion
// http.proto:290: does not expand special characters like `?` and `#`, which would lead
// http.proto:291: to invalid URLs. As the result, gRPC Transcoding uses a custom encoding
// http.proto:292: for multi segment variables.
#[test]
fn multi_segment_variables_keep_reserved_escapes_by_default() {
    // Clients escape `?` and `#` (and every reserved character but `/`);
    // by default the server leaves the reserved ones escaped.
    assert_eq!(
        request(
            "/v1/{var=**}",
            "/v1/a%3Fb%23c/d%2Fe%3A%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%5B%5D"
        ),
        bound(&[(
            "var",
            "a%3Fb%23c/d%2Fe%3A%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%5B%5D"
        )])
    );
    // Unreserved and non-ASCII characters are decoded.
    assert_eq!(
        request("/v1/{var=foo/*}", "/v1/foo/a%20b%C3%A9%25%22"),
        bound(&[("var", "foo/a bé%\"")])
    );
}

// http.proto:278: //           get: /v1/messages/{message_id}/{sub.subfield}
#[test]
fn service_config_rule_with_a_nested_field() {
    let template = PathTemplate::parse("/v1/messages/{message_id}/{sub.subfield}").unwrap();
    let bindings = template
        .matches("/v1/messages/123456/foo")
        .unwrap()
        .unwrap();
    assert_eq!(bindings[0].field_path, ["message_id"]);
    assert_eq!(bindings[0].value, "123456");
    assert_eq!(bindings[1].field_path, ["sub", "subfield"]);
    assert_eq!(bindings[1].value, "foo");
}

// http.proto:297: The path variables **must not** capture the leading "/" character. The reason
// http.proto:298: is that the most common use case "{var}" does not capture the leading "/"
// http.proto:299: character. For consistency, all path variables must share the same behavior.
#[test]
fn variables_do_not_capture_the_leading_slash() {
    assert_eq!(request("/{var}", "/a"), bound(&[("var", "a")]));
    assert_eq!(request("/{var=**}", "/a/b"), bound(&[("var", "a/b")]));
    assert_eq!(request("/{var=**}", "/"), bound(&[("var", "")]));
    assert_eq!(request("/v1/{var=**}", "/v1/a"), bound(&[("var", "a")]));
}

// Templates of googleapis' own annotations, same package:
// google/cloud/location/locations.proto:51:        get: "/v1/{name=projects/*/locations/*}"
// google/longrunning/operations.proto:62:          get: "/v1/{name=operations}"
// google/longrunning/operations.proto:101:         post: "/v1/{name=operations/**}:cancel"
// google/monitoring/v3/metric_service.proto:106:   get: "/v3/{name=projects/*/metricDescriptors/**}"
// google/protobuf/api.proto:167: option (google.api.http).get = "/v1/{resource=**}:getAcl";
#[test]
fn googleapis_annotations() {
    assert_eq!(
        request(
            "/v1/{name=projects/*/locations/*}",
            "/v1/projects/p1/locations/us-east1"
        ),
        bound(&[("name", "projects/p1/locations/us-east1")])
    );
    assert_eq!(
        request(
            "/v1/{name=projects/*/locations/*}",
            "/v1/projects/p1/locations"
        ),
        None
    );
    assert_eq!(
        request("/v1/{name=operations}", "/v1/operations"),
        bound(&[("name", "operations")])
    );
    assert_eq!(
        request(
            "/v1/{name=operations/**}:cancel",
            "/v1/operations/a/b/c:cancel"
        ),
        bound(&[("name", "operations/a/b/c")])
    );
    assert_eq!(
        request(
            "/v3/{name=projects/*/metricDescriptors/**}",
            "/v3/projects/p/metricDescriptors/custom.googleapis.com/my_metric"
        ),
        bound(&[(
            "name",
            "projects/p/metricDescriptors/custom.googleapis.com/my_metric"
        )])
    );
    assert_eq!(
        request("/v1/{resource=**}:getAcl", "/v1/buckets/b/objects/o:getAcl"),
        bound(&[("resource", "buckets/b/objects/o")])
    );
}
