//! Parses arbitrary text as a `google.api.http` path template, a request
//! path and a query string (`buffa_http`). The input is split at its
//! first two newlines: template, path, query (what is missing is empty).
//! Checks:
//!
//! - parsing never panics; an accepted template prints (canonically) as
//!   text that parses back to an equal template and prints the same, and
//!   is within the documented limits;
//! - matching the path never panics, under both decodings of
//!   multi-segment variables; both agree on whether it matches and on the
//!   error; a match binds the template's variables in order, and the
//!   value that keeps reserved escapes is never the shorter;
//! - the template's own text, as a path, never panics either;
//! - the query parses or fails without panicking; what it accepts is
//!   within the limits, with no empty field name;
//! - each accepted parameter binds into a generated message
//!   (`FieldDescriptorProto`, through its reflection) and into a dynamic
//!   one of the same type, or fails leaving it unchanged, never
//!   panicking; both end up with the same bytes.
#![no_main]

use buffa::Message as _;
use buffa_http::template::{MAX_SEGMENTS, MAX_TEMPLATE_LEN, PathTemplate, ReservedExpansion};
use buffa_http::{Binding, MAX_FIELD_PATH_DEPTH, bind, query};
use buffa_reflect::{DynamicMessage, ReflectMessage};
use buffa_types::google::protobuf::FieldDescriptorProto;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = input.splitn(3, '\n');
    let template_text = parts.next().unwrap_or("");
    let path = parts.next().unwrap_or("");
    let query_text = parts.next().unwrap_or("");

    check_query(query_text);

    let template = match PathTemplate::parse(template_text) {
        Ok(template) => template,
        Err(e) => {
            assert!(e.offset() <= template_text.len());
            return;
        }
    };
    assert!(template_text.len() <= MAX_TEMPLATE_LEN);
    assert!(
        template
            .variables()
            .all(|v| !v.is_empty() && v.len() <= MAX_FIELD_PATH_DEPTH)
    );
    assert!(template.variables().len() <= MAX_SEGMENTS);

    let printed = template.to_string();
    let again = PathTemplate::parse(&printed)
        .unwrap_or_else(|e| panic!("the printed template {printed:?} does not parse: {e}"));
    assert_eq!(again, template, "{printed:?} parses to another template");
    assert_eq!(again.to_string(), printed);

    check_match(&template, path);
    check_match(&template, template_text);
});

/// Matches `path` under both decodings and compares the answers.
fn check_match(template: &PathTemplate, path: &str) {
    let reserved = template.matches_with(path, ReservedExpansion::KeepReserved);
    let slash = template.matches_with(path, ReservedExpansion::KeepSlash);
    match (&reserved, &slash) {
        (Ok(Some(a)), Ok(Some(b))) => {
            assert_eq!(a.len(), template.variables().len());
            for ((a, b), variable) in a.iter().zip(b).zip(template.variables()) {
                assert_eq!(a.field_path, variable);
                assert_eq!(b.field_path, variable);
                // Keeping more escapes never makes a value shorter.
                assert!(a.value.len() >= b.value.len());
            }
        }
        (Ok(None), Ok(None)) => {}
        // The same malformed escape, or the same value that is not UTF-8:
        // the escapes one decoding keeps and the other decodes are ASCII,
        // so they cannot make the difference.
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("the decodings disagree on {path:?}: {reserved:?} vs {slash:?}"),
    }
}

/// Parses `text` as a query string and checks what it accepts.
fn check_query(text: &str) {
    let Ok(parameters) = query::parse(text) else {
        return;
    };
    assert!(parameters.len() <= query::MAX_PARAMETERS);
    for parameter in &parameters {
        assert!(!parameter.field_path.is_empty());
        assert!(parameter.field_path.len() <= MAX_FIELD_PATH_DEPTH);
        assert!(parameter.field_path.iter().all(|name| !name.is_empty()));
    }
    check_binding(&parameters);
}

/// Binds `parameters` into a generated and a dynamic message of one type.
fn check_binding(parameters: &[Binding]) {
    let mut generated = FieldDescriptorProto::default();
    let mut dynamic = DynamicMessage::new(generated.descriptor());
    for parameter in parameters {
        let before = generated.clone();
        if bind::bind(&mut generated, parameter).is_err() {
            assert_eq!(generated, before, "a failed binding changed the message");
        }
        let before = dynamic.encode_to_vec();
        if bind::bind(&mut dynamic, parameter).is_err() {
            assert_eq!(dynamic.encode_to_vec(), before);
        }
    }
    assert_eq!(generated.encode_to_vec(), dynamic.encode_to_vec());
}
