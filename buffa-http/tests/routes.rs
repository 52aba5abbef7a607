//! The `google.api.http` rules of `tests/proto/shelf/v1/shelf.proto`, as
//! protoc compiles them, read from the descriptor pool and routed: every
//! pattern kind, additional bindings, `body` and `response_body`, and the
//! 404/405/400 answers. Rules that http.proto forbids are refused naming
//! the method.

mod support;

use std::path::{Path, PathBuf};

use buffa_http::router::{RouteError, Router};
use buffa_http::rule::{Body, HttpMethod, service_rules};
use support::{pool_of, proto_dir};

fn shelves() -> Router {
    let pool = pool_of(&proto_dir(), "shelf/v1/shelf.proto");
    let service = pool.get_service_by_name("shelf.v1.Shelves").unwrap();
    Router::for_services([&service]).unwrap()
}

/// `(rpc name, bindings as (dotted path, value))` of a routed request.
fn route(
    router: &Router,
    method: &str,
    path: &str,
) -> Result<(String, Vec<(String, String)>), RouteError> {
    let route = router.route(method, path)?;
    let bindings = (route.bindings.iter())
        .map(|b| (b.field_path.join("."), b.value.clone()))
        .collect();
    Ok((route.rule.rpc.name().to_owned(), bindings))
}

fn bound(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(p, v)| (p.to_string(), v.to_string()))
        .collect()
}

#[test]
fn every_rule_is_read_in_order() {
    let router = shelves();
    let rules: Vec<String> = (router.rules().iter())
        .map(|r| format!("{} {} {}", r.rpc.name(), r.method, r.template))
        .collect();
    assert_eq!(
        rules,
        [
            "CreateShelf POST /v1/shelves",
            "GetShelf GET /v1/{name=shelves/*}",
            "GetShelf GET /v1/{name=users/*/shelves/*}",
            "ListShelves GET /v1/shelves",
            "DeleteShelf DELETE /v1/{name=shelves/*}",
            "MergeShelves POST /v1/{name=shelves/*}:merge",
            "UpdateShelf PATCH /v1/{shelf.name=shelves/*}",
            "GetBook GET /v1/{name=shelves/*/books/**}",
            "HeadShelf HEAD /v1/{name=shelves/*}",
            "WatchShelves GET /v1/shelves:watch",
        ]
    );
    let rule = |name: &str| {
        router
            .rules()
            .iter()
            .find(|r| r.rpc.name() == name)
            .unwrap()
    };
    assert!(matches!(&rule("CreateShelf").body, Body::Field(f) if f.name() == "shelf"));
    assert_eq!(rule("MergeShelves").body, Body::Whole);
    assert_eq!(rule("GetShelf").body, Body::None);
    assert_eq!(
        (rule("ListShelves").response_body.as_ref()).map(|f| f.full_name().to_owned()),
        Some("shelf.v1.ListShelvesResponse.shelves".to_owned())
    );
    assert!(rule("GetShelf").response_body.is_none());
    assert_eq!(rule("HeadShelf").method, HttpMethod::Custom("HEAD".into()));
}

#[test]
fn requests_route_to_their_rule_with_the_path_bindings() {
    let router = shelves();
    assert_eq!(
        route(&router, "GET", "/v1/shelves/s1"),
        Ok(("GetShelf".into(), bound(&[("name", "shelves/s1")])))
    );
    assert_eq!(
        route(&router, "GET", "/v1/users/me/shelves/s1"),
        Ok(("GetShelf".into(), bound(&[("name", "users/me/shelves/s1")])))
    );
    assert_eq!(
        route(&router, "GET", "/v1/shelves"),
        Ok(("ListShelves".into(), vec![]))
    );
    assert_eq!(
        route(&router, "POST", "/v1/shelves"),
        Ok(("CreateShelf".into(), vec![]))
    );
    assert_eq!(
        route(&router, "DELETE", "/v1/shelves/s1"),
        Ok(("DeleteShelf".into(), bound(&[("name", "shelves/s1")])))
    );
    assert_eq!(
        route(&router, "POST", "/v1/shelves/s1:merge"),
        Ok(("MergeShelves".into(), bound(&[("name", "shelves/s1")])))
    );
    assert_eq!(
        route(&router, "PATCH", "/v1/shelves/s1"),
        Ok(("UpdateShelf".into(), bound(&[("shelf.name", "shelves/s1")])))
    );
    assert_eq!(
        route(&router, "HEAD", "/v1/shelves/s1"),
        Ok(("HeadShelf".into(), bound(&[("name", "shelves/s1")])))
    );
    // `**` takes the rest of the path; a multi-segment variable keeps
    // `%2F` as written, a single-segment one decodes it.
    assert_eq!(
        route(&router, "GET", "/v1/shelves/s1/books/b/c%2Fd"),
        Ok((
            "GetBook".into(),
            bound(&[("name", "shelves/s1/books/b/c%2Fd")])
        ))
    );
}

#[test]
fn requests_no_rule_answers_say_why() {
    let router = shelves();
    assert_eq!(
        route(&router, "GET", "/v2/shelves"),
        Err(RouteError::NotFound)
    );
    // A verb no template has is part of the last segment: `s1:copy` is a
    // shelf's name to `GET /v1/{name=shelves/*}`, and no POST rule has it.
    assert_eq!(
        route(&router, "GET", "/v1/shelves/s1:copy"),
        Ok(("GetShelf".into(), bound(&[("name", "shelves/s1:copy")])))
    );
    assert_eq!(
        route(&router, "POST", "/v1/shelves/s1:copy"),
        Err(RouteError::MethodNotAllowed(vec![
            "GET".into(),
            "DELETE".into(),
            "PATCH".into(),
            "HEAD".into()
        ]))
    );
    assert_eq!(
        route(&router, "GET", "v1/shelves"),
        Err(RouteError::NotFound)
    );
    let not_allowed = route(&router, "PUT", "/v1/shelves/s1").unwrap_err();
    assert_eq!(
        not_allowed,
        RouteError::MethodNotAllowed(vec![
            "GET".into(),
            "DELETE".into(),
            "PATCH".into(),
            "HEAD".into()
        ])
    );
    assert_eq!(not_allowed.http_status(), 405);
    assert_eq!(
        not_allowed.to_string(),
        "method not allowed here; allowed: GET, DELETE, PATCH, HEAD"
    );
    // Methods are case-sensitive.
    assert_eq!(
        route(&router, "get", "/v1/shelves")
            .unwrap_err()
            .http_status(),
        405
    );
    let bad = route(&router, "GET", "/v1/shelves/%G1").unwrap_err();
    assert!(matches!(bad, RouteError::BadPath(_)), "{bad:?}");
    assert_eq!(bad.http_status(), 400);
    assert_eq!(RouteError::NotFound.http_status(), 404);
}

#[test]
fn a_method_without_the_option_and_a_pool_without_http_proto_have_no_rules() {
    let pool = pool_of(&proto_dir(), "shelf/v1/shelf.proto");
    let service = pool.get_service_by_name("shelf.v1.Shelves").unwrap();
    let rules = service_rules(&service).unwrap();
    assert!(rules.iter().all(|r| r.rpc.name() != "Compact"));

    let dir = tempdir("plain");
    std::fs::write(
        dir.join("plain.proto"),
        "syntax = \"proto3\";\npackage p;\nmessage M {}\nservice S { rpc Get(M) returns (M); }\n",
    )
    .unwrap();
    let pool = pool_of(&dir, "plain.proto");
    let service = pool.get_service_by_name("p.S").unwrap();
    assert!(service_rules(&service).unwrap().is_empty());
}

/// A fresh directory under the test target directory.
fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The error of the rule `option` on `rpc Get(Req) returns (Resp)`.
fn rule_error(option: &str) -> String {
    let dir = tempdir("bad-rule");
    let source = format!(
        "syntax = \"proto3\";\npackage p;\nimport \"google/api/annotations.proto\";\n\
         message Inner {{ string id = 1; }}\n\
         message Req {{ string name = 1; repeated string tags = 2; Inner inner = 3; \
         map<string, string> labels = 4; int32 n = 5; }}\n\
         message Resp {{ string value = 1; }}\n\
         service S {{ rpc Get(Req) returns (Resp) {{ option (google.api.http) = {{ {option} }}; }} }}\n"
    );
    std::fs::write(dir.join("bad.proto"), source).unwrap();
    let pool = pool_of(&dir, "bad.proto");
    let service = pool.get_service_by_name("p.S").unwrap();
    service_rules(&service).unwrap_err().to_string()
}

#[test]
fn rules_http_proto_forbids_are_refused() {
    let cases = [
        (
            "get: \"/v1/{tags}\"",
            "path variable tags: tags is a repeated or map field",
        ),
        (
            "get: \"/v1/{labels}\"",
            "path variable labels: labels is a repeated or map field",
        ),
        (
            "get: \"/v1/{inner}\"",
            "path variable inner: inner is a message field",
        ),
        (
            "get: \"/v1/{n.x}\"",
            "path variable n.x: n is not a message field",
        ),
        (
            "get: \"/v1/{missing}\"",
            "path variable missing: no field missing in p.Req",
        ),
        (
            "get: \"/v1/{inner.id}\" body: \"nope\"",
            "body \"nope\" is not a field of p.Req (it must be a top-level field)",
        ),
        (
            "get: \"/v1/x\" response_body: \"inner\"",
            "response_body \"inner\" is not a field of p.Resp (it must be a top-level field)",
        ),
        ("get: \"v1/x\"", "path template \"v1/x\": "),
        (
            "body: \"*\"",
            "no pattern: one of get, put, post, delete, patch or custom must be set",
        ),
        (
            "custom: { kind: \"\" path: \"/x\" }",
            "custom kind \"\" is not an HTTP method name",
        ),
        (
            "get: \"/a\" additional_bindings { get: \"/b\" additional_bindings { get: \"/c\" } }",
            "an additional binding may not have additional bindings of its own",
        ),
    ];
    for (option, expected) in cases {
        let error = rule_error(option);
        assert!(error.starts_with("p.S.Get: google.api.http: "), "{error}");
        assert!(error.contains(expected), "{option}: {error}");
    }
    // A valid nested variable.
    let dir = tempdir("good-rule");
    std::fs::write(
        dir.join("good.proto"),
        "syntax = \"proto3\";\npackage p;\nimport \"google/api/annotations.proto\";\n\
         message Inner { string id = 1; }\nmessage Req { Inner inner = 1; }\n\
         service S { rpc Get(Req) returns (Req) { option (google.api.http) = { get: \"/v1/{inner.id}\" }; } }\n",
    )
    .unwrap();
    let pool = pool_of(&dir, "good.proto");
    let service = pool.get_service_by_name("p.S").unwrap();
    assert_eq!(service_rules(&service).unwrap().len(), 1);
}
