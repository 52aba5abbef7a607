//! One plugin run: a `CodeGeneratorRequest` in, a `CodeGeneratorResponse`
//! out, holding the files buffa-build would write for the same inputs or
//! an error message.

use std::collections::BTreeSet;

use buffa_codegen::Input;
use prost::Message as _;

use crate::params::{self, Params};
use crate::plugin::{
    CodeGeneratorRequest, CodeGeneratorResponse, EDITION_2026, EDITION_PROTO2,
    FEATURE_PROTO3_OPTIONAL, FEATURE_SUPPORTS_EDITIONS, ResponseFile,
};

/// Answers an encoded request. Every failure (an undecodable request, a
/// bad option, a codegen error) becomes the response's `error`, which
/// protoc prints before failing.
pub fn respond(request: &[u8]) -> CodeGeneratorResponse {
    respond_with(request, generate)
}

/// Answers `request` with the files `generate` makes of it. A panic, which
/// is a bug (buffa-codegen returns errors for bad input), becomes an error
/// too, so that protoc still gets a response and says what went wrong.
fn respond_with(
    request: &[u8],
    generate: impl FnOnce(&[u8]) -> Result<Vec<ResponseFile>, String> + std::panic::UnwindSafe,
) -> CodeGeneratorResponse {
    let mut response = CodeGeneratorResponse {
        supported_features: Some(FEATURE_PROTO3_OPTIONAL | FEATURE_SUPPORTS_EDITIONS),
        minimum_edition: Some(EDITION_PROTO2),
        maximum_edition: Some(EDITION_2026),
        ..Default::default()
    };
    match std::panic::catch_unwind(move || generate(request)) {
        Ok(Ok(files)) => response.file = files,
        Ok(Err(message)) => response.error = Some(message),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("(no message)");
            response.error = Some(format!(
                "internal error: protoc-gen-buffa panicked: {message}; this is a bug, \
                 please report it with the .proto files and options that cause it"
            ));
        }
    }
    response
}

fn generate(request: &[u8]) -> Result<Vec<ResponseFile>, String> {
    let request = CodeGeneratorRequest::decode(request)
        .map_err(|e| format!("invalid CodeGeneratorRequest on stdin: {e}"))?;
    let Params {
        options,
        include_file,
        layout_report,
    } = params::parse(request.parameter())?;
    let descriptor_set = request.descriptor_set();
    let codegen_error = |e: buffa_codegen::Error| e.to_string();
    let input = Input::parse(&descriptor_set, &options).map_err(codegen_error)?;
    let names = file_names(&input, &request.file_to_generate)?;
    let selection = input.select(&names).map_err(codegen_error)?;
    let generated = selection.generate().map_err(codegen_error)?;
    let mut files: Vec<ResponseFile> = generated
        .iter()
        .map(|file| response_file(&file.name, file.content.clone()))
        .collect();
    if let Some(name) = include_file {
        check_free(&files, &name, "include_file")?;
        files.push(response_file(
            &name,
            buffa_codegen::include_file(&generated),
        ));
    }
    if let Some(name) = layout_report {
        check_free(&files, &name, "layout_report")?;
        let report = selection.layout_report().map_err(codegen_error)?;
        files.push(response_file(&name, report));
    }
    Ok(files)
}

/// The files code is generated from: every file of the request in a
/// package of `file_to_generate`, imported ones included, since a package
/// becomes one Rust file that must hold all of its types the others can
/// name; but, as with buffa-build, neither those of a package an extern
/// path covers nor those only option imports (`import option`, edition
/// 2024) reach.
fn file_names<'a>(
    input: &'a Input<'_>,
    file_to_generate: &[String],
) -> Result<Vec<&'a str>, String> {
    let mut packages = BTreeSet::new();
    for name in file_to_generate {
        let (_, package) = input
            .files()
            .find(|(file, _)| file == name)
            .ok_or_else(|| format!("file_to_generate names {name}, which is not in proto_file"))?;
        packages.insert(package);
    }
    Ok(input
        .files_with_code(file_to_generate)
        .into_iter()
        .filter(|(_, package)| packages.contains(package))
        .map(|(name, _)| name)
        .collect())
}

/// Fails if an extra output would replace a generated file.
fn check_free(files: &[ResponseFile], name: &str, option: &str) -> Result<(), String> {
    if files.iter().any(|file| file.name() == name) {
        return Err(format!(
            "option {option}={name}: another generated file has that name; choose another"
        ));
    }
    Ok(())
}

fn response_file(name: &str, content: String) -> ResponseFile {
    ResponseFile {
        name: Some(name.to_owned()),
        content: Some(content),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecodable_request_is_an_error_response() {
        let response = respond(&[0xff]);
        let error = response.error.expect("an error");
        assert!(
            error.starts_with("invalid CodeGeneratorRequest on stdin"),
            "{error}"
        );
        assert!(response.file.is_empty());
        assert_eq!(response.maximum_edition, Some(EDITION_2026));
    }

    #[test]
    fn a_panic_is_an_error_response() {
        let response = respond_with(&[], |_| panic!("index out of bounds"));
        assert_eq!(
            response.error.as_deref(),
            Some(
                "internal error: protoc-gen-buffa panicked: index out of bounds; this is a bug, \
                 please report it with the .proto files and options that cause it"
            )
        );
        assert!(response.file.is_empty());
        assert_eq!(response.minimum_edition, Some(EDITION_PROTO2));
        let response = respond_with(&[], |_| panic!("{}", String::from("formatted")));
        assert!(response.error.unwrap().contains("panicked: formatted;"));
    }

    #[test]
    fn out_of_range_oneof_index_is_an_error_response() {
        // Field `x` of message `M` names oneof 3; `M` declares none.
        let file = prost_types::FileDescriptorProto {
            name: Some("a.proto".into()),
            package: Some("a".into()),
            syntax: Some("proto3".into()),
            message_type: vec![prost_types::DescriptorProto {
                name: Some("M".into()),
                field: vec![prost_types::FieldDescriptorProto {
                    name: Some("x".into()),
                    number: Some(1),
                    label: Some(1),
                    r#type: Some(5),
                    json_name: Some("x".into()),
                    oneof_index: Some(3),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let request = CodeGeneratorRequest {
            file_to_generate: vec!["a.proto".into()],
            parameter: None,
            proto_file: vec![file.encode_to_vec()],
        };
        let response = respond(&request.encode_to_vec());
        assert_eq!(
            response.error.as_deref(),
            Some("invalid descriptor set: a.proto: field a.M.x: oneof index 3 is out of range")
        );
        assert!(response.file.is_empty());
    }

    #[test]
    fn unknown_file_to_generate_is_an_error() {
        let request = CodeGeneratorRequest {
            file_to_generate: vec!["missing.proto".into()],
            parameter: None,
            proto_file: Vec::new(),
        };
        let response = respond(&request.encode_to_vec());
        assert_eq!(
            response.error.as_deref(),
            Some("file_to_generate names missing.proto, which is not in proto_file")
        );
    }
}
