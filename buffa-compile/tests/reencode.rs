//! The compiler writes its sets through buffa-types' generated
//! `FileDescriptorSet`; byte-identical output needs that type to write
//! what protoc writes for the same descriptors.

mod support;

use buffa::Message;
use buffa_types::google::protobuf::FileDescriptorSet;

#[test]
fn descriptor_types_reencode_protoc_sets_byte_for_byte() {
    let src = support::protobuf_src();
    for files in [
        &["google/protobuf/unittest_proto3.proto"][..],
        &["google/protobuf/unittest_custom_options.proto"],
        &["google/protobuf/map_proto2_unittest.proto"],
        &["google/protobuf/unittest_import.proto"],
    ] {
        for source_info in [false, true] {
            let bytes = support::protoc_set(&src, files, source_info).unwrap();
            let set = FileDescriptorSet::decode_from_slice(&bytes).unwrap();
            assert!(
                set.encode_to_vec() == bytes,
                "{files:?} (source info {source_info}) re-encodes differently"
            );
        }
    }
}
