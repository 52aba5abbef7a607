//! The protoc plugin protocol (`google/protobuf/compiler/plugin.proto`):
//! the request protoc writes to the plugin's stdin and the response the
//! plugin writes to its stdout.
//!
//! Only the fields the plugin uses are declared; prost skips the others.
//! prost-types has these messages too, but its copies predate editions
//! (no `FEATURE_SUPPORTS_EDITIONS`, no `minimum_edition` or
//! `maximum_edition`), without which protoc refuses editions files.

/// `CodeGeneratorResponse.Feature.FEATURE_PROTO3_OPTIONAL`: proto3
/// `optional` fields are understood (as fields with explicit presence).
pub const FEATURE_PROTO3_OPTIONAL: u64 = 1;
/// `CodeGeneratorResponse.Feature.FEATURE_SUPPORTS_EDITIONS`: editions
/// files are understood, from `minimum_edition` to `maximum_edition`.
pub const FEATURE_SUPPORTS_EDITIONS: u64 = 2;

/// `google.protobuf.Edition.EDITION_PROTO2`, the oldest edition the
/// generator accepts.
pub const EDITION_PROTO2: i32 = 998;
/// `google.protobuf.Edition.EDITION_2026`, the newest edition the
/// generator accepts (protoc 36.2's newest too). Its features that change
/// generated code (`field_presence`, `enum_type`,
/// `repeated_field_encoding`, `message_encoding`) have the defaults of
/// 2023, which buffa-codegen resolves for any edition after it; what 2026
/// adds (strict symbol visibility, naming style, element limits) is
/// checked by protoc before the plugin runs.
pub const EDITION_2026: i32 = 1002;

/// `google.protobuf.compiler.CodeGeneratorRequest`, the fields the plugin
/// reads.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CodeGeneratorRequest {
    /// The files named on protoc's command line (or chosen by buf), as
    /// they are named in `proto_file`.
    #[prost(string, repeated, tag = "1")]
    pub file_to_generate: Vec<String>,
    /// The plugin's options: what follows `--buffa_opt=` (several joined
    /// by commas) or precedes the colon of `--buffa_out=OPTIONS:DIR`.
    #[prost(string, optional, tag = "2")]
    pub parameter: Option<String>,
    /// Every file of `file_to_generate` and everything it imports, in
    /// topological order, each an encoded `FileDescriptorProto` kept as
    /// protoc wrote it: decoding and encoding it again through
    /// prost-types would lose what prost-types does not know (editions
    /// features).
    #[prost(bytes = "vec", repeated, tag = "15")]
    pub proto_file: Vec<Vec<u8>>,
}

impl CodeGeneratorRequest {
    /// The encoded `google.protobuf.FileDescriptorSet` of `proto_file`:
    /// the bytes `protoc --include_imports --include_source_info
    /// --descriptor_set_out` writes for the same files, which is what
    /// buffa-build hands to buffa-codegen.
    pub fn descriptor_set(&self) -> Vec<u8> {
        prost::Message::encode_to_vec(&FileDescriptorSet {
            file: self.proto_file.clone(),
        })
    }
}

/// `google.protobuf.FileDescriptorSet` over encoded files.
#[derive(Clone, PartialEq, prost::Message)]
struct FileDescriptorSet {
    /// Each an encoded `FileDescriptorProto`.
    #[prost(bytes = "vec", repeated, tag = "1")]
    file: Vec<Vec<u8>>,
}

/// `google.protobuf.compiler.CodeGeneratorResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CodeGeneratorResponse {
    /// Set when the input or the options are wrong; protoc prints it and
    /// fails. Plugin crashes are for plugin bugs only.
    #[prost(string, optional, tag = "1")]
    pub error: Option<String>,
    /// The `FEATURE_*` flags the plugin supports, or-ed together.
    #[prost(uint64, optional, tag = "2")]
    pub supported_features: Option<u64>,
    /// The oldest edition the plugin accepts (with
    /// `FEATURE_SUPPORTS_EDITIONS`).
    #[prost(int32, optional, tag = "3")]
    pub minimum_edition: Option<i32>,
    /// The newest edition the plugin accepts (with
    /// `FEATURE_SUPPORTS_EDITIONS`).
    #[prost(int32, optional, tag = "4")]
    pub maximum_edition: Option<i32>,
    /// The generated files.
    #[prost(message, repeated, tag = "15")]
    pub file: Vec<ResponseFile>,
}

/// `google.protobuf.compiler.CodeGeneratorResponse.File`, without
/// insertion points.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ResponseFile {
    /// Path relative to the output directory, `/`-separated.
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    /// The file's content.
    #[prost(string, optional, tag = "15")]
    pub content: Option<String>,
}

#[cfg(test)]
mod tests {
    use prost::Message as _;

    use super::*;

    #[test]
    fn proto_files_are_copied_byte_for_byte() {
        // Two "files" holding fields prost-types does not know (tag 99)
        // and a field the request struct does not declare (tag 3).
        let file_a: &[u8] = &[0x0a, 0x01, b'a', 0x9a, 0x06, 0x01, 0x07];
        let file_b: &[u8] = &[0x0a, 0x01, b'b'];
        let mut request = Vec::new();
        for file in [file_a, file_b] {
            request.push(0x7a); // field 15, length-delimited
            request.push(file.len() as u8);
            request.extend_from_slice(file);
        }
        request.extend_from_slice(&[0x1a, 0x02, 0x08, 0x24]); // compiler_version
        let request = CodeGeneratorRequest::decode(&request[..]).unwrap();
        let mut expected = vec![0x0a, file_a.len() as u8];
        expected.extend_from_slice(file_a);
        expected.extend_from_slice(&[0x0a, file_b.len() as u8]);
        expected.extend_from_slice(file_b);
        assert_eq!(request.descriptor_set(), expected);
    }
}
