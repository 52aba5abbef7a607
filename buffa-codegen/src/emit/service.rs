//! gRPC services for tonic (`Options::tonic`, feature `tonic`): per
//! `service Foo`, the modules `foo_server` and `foo_client` of tonic's own
//! generator, over buffa's message types and `buffa_tonic::BuffaCodec`.
//!
//! tonic-build lays out the modules (its `CodeGenBuilder`, the pure half of
//! the generator that its `manual` builder also drives): this module only
//! describes each service to it through its `Service` and `Method` traits,
//! with the Rust paths of the request and response types resolved here
//! like every other type reference (extern paths, buffa-types, nested
//! types), the doc comments of the .proto, and the codec's path. So the
//! generated API is tonic's, method for method, and follows tonic's
//! releases.

use proc_macro2::TokenStream;

use crate::context::Context;
use crate::emit::comments::Comments;
use crate::emit::runtime;
use crate::error::Error;
use crate::options::Options;

/// The codec generated code uses when `TonicOptions::codec_path` is unset.
pub const DEFAULT_CODEC_PATH: &str = "::buffa_tonic::BuffaCodec";

/// Checks the tonic options before a run: the feature is compiled in and
/// the codec path is an absolute path. Returns the codec as generated code
/// names it.
pub fn check_options(options: &Options) -> Result<Option<String>, Error> {
    let Some(tonic) = &options.tonic else {
        return Ok(None);
    };
    if !cfg!(feature = "tonic") {
        return Err(Error::new(
            "Options::tonic (buffa-build's Config::tonic) needs the `tonic` feature: \
             enable it on buffa-build (`buffa-build = { version = \"...\", features = [\"tonic\"] }`) \
             or on buffa-codegen",
        ));
    }
    let text = tonic.codec_path.as_deref().unwrap_or(DEFAULT_CODEC_PATH);
    let path = runtime::checked_path("tonic codec_path", text)?;
    // tonic-build writes `<codec path>::default()`. Naming the two message
    // types as `_` makes an options parameter with a default
    // (`BuffaCodec<T, U, O = DefaultOptions>`) take it, where a bare path
    // would leave it to inference, which ignores defaults.
    Ok(Some(format!(
        "{}::<_, _>",
        path.to_string().replace(' ', "")
    )))
}

/// The server and client modules of the services of `file`, in the
/// module of its package; empty without `Options::tonic`.
pub fn generate_file_services(
    context: &Context<'_>,
    file: &buffa_types::google::protobuf::FileDescriptorProto,
    comments: &Comments,
) -> Result<TokenStream, Error> {
    let Some(tonic) = &context.options.tonic else {
        return Ok(TokenStream::new());
    };
    if file.service.is_empty() {
        return Ok(TokenStream::new());
    }
    let codec_path = check_options(context.options)?.unwrap_or_default();
    generate(context, file, comments, tonic, &codec_path)
}

#[cfg(not(feature = "tonic"))]
fn generate(
    _context: &Context<'_>,
    _file: &buffa_types::google::protobuf::FileDescriptorProto,
    _comments: &Comments,
    _tonic: &crate::options::TonicOptions,
    _codec_path: &str,
) -> Result<TokenStream, Error> {
    // `check_options` refused the options before the run started.
    Err(Error::new("Options::tonic needs the `tonic` feature"))
}

#[cfg(feature = "tonic")]
fn generate(
    context: &Context<'_>,
    file: &buffa_types::google::protobuf::FileDescriptorProto,
    comments: &Comments,
    tonic: &crate::options::TonicOptions,
    codec_path: &str,
) -> Result<TokenStream, Error> {
    use crate::input::schema;

    let mut builder = tonic_build::CodeGenBuilder::new();
    builder.emit_package(true).build_transport(true);
    // The generated modules sit one level below the package's module, so
    // type paths are resolved from a module there.
    let mut from = schema::package_modules(file.package());
    from.push(String::new());
    let mut out = TokenStream::new();
    for (index, proto) in file.service.iter().enumerate() {
        let service = Service::new(context, file, proto, index, comments, &from, codec_path)?;
        if tonic.server {
            out.extend(builder.generate_server(&service, "super"));
        }
        if tonic.client {
            out.extend(builder.generate_client(&service, "super"));
        }
    }
    Ok(out)
}

/// The methods tonic-build gives every client besides the rpcs.
#[cfg(feature = "tonic")]
const CLIENT_METHODS: &[&str] = &[
    "new",
    "connect",
    "with_origin",
    "with_interceptor",
    "send_compressed",
    "accept_compressed",
    "max_decoding_message_size",
    "max_encoding_message_size",
];

/// The Rust names of the rpcs `proto_names` of one service, on the server
/// trait and the client alike: snake_case and keyword-escaped like a
/// field, with trailing underscores while that is one of the client's own
/// methods (`rpc Connect` is `connect_`, beside `connect(url)`), which
/// tonic's own generator leaves to fail with "duplicate definitions", or
/// the name of an earlier rpc (`GetItem` and `get_item` are `get_item` and
/// `get_item_`).
#[cfg(feature = "tonic")]
fn method_names<'p>(proto_names: impl IntoIterator<Item = &'p str>) -> Vec<String> {
    use crate::ident;

    let mut taken: Vec<String> = CLIENT_METHODS.iter().map(|m| m.to_string()).collect();
    proto_names
        .into_iter()
        .map(|proto_name| {
            let mut name = ident::field_name(proto_name);
            while taken.contains(&name) {
                name.push('_');
            }
            taken.push(name.clone());
            name
        })
        .collect()
}

/// A service as tonic-build reads it.
#[cfg(feature = "tonic")]
struct Service {
    /// The Rust name (`Schema::service_name`): the trait, `{name}Server`,
    /// `{name}Client`, and the modules `{snake}_server`, `{snake}_client`.
    name: String,
    /// The protobuf package, for the route.
    package: String,
    /// The protobuf name, for the route (`/package.Identifier/Method`).
    identifier: String,
    methods: Vec<Method>,
    comments: Vec<String>,
}

/// A method as tonic-build reads it.
#[cfg(feature = "tonic")]
struct Method {
    /// The Rust name of the trait and client method (snake_case).
    name: String,
    /// The protobuf name, for the route and the `{identifier}Svc` types.
    identifier: String,
    codec_path: String,
    client_streaming: bool,
    server_streaming: bool,
    deprecated: bool,
    comments: Vec<String>,
    request: TokenStream,
    response: TokenStream,
}

#[cfg(feature = "tonic")]
impl Service {
    /// The service `proto`, the `index`th of `file`, with its types' paths
    /// as named from module `from`.
    fn new(
        context: &Context<'_>,
        file: &buffa_types::google::protobuf::FileDescriptorProto,
        proto: &buffa_types::google::protobuf::ServiceDescriptorProto,
        index: usize,
        comments: &Comments,
        from: &[String],
        codec_path: &str,
    ) -> Result<Service, Error> {
        // Source paths: `service` is field 6 of a file, `method` field 2
        // of a service.
        let path = [6, index as i32];
        let names = method_names(proto.method.iter().map(|m| m.name()));
        let mut methods: Vec<Method> = Vec::new();
        for (method_index, (method, name)) in proto.method.iter().zip(names).enumerate() {
            let type_path = |name: &str| {
                context.message_path(name, from).map_err(|e| {
                    Error::new(format!(
                        "service {}.{} method {}: {e}",
                        file.package(),
                        proto.name(),
                        method.name()
                    ))
                })
            };
            methods.push(Method {
                name,
                identifier: method.name().to_owned(),
                codec_path: codec_path.to_owned(),
                client_streaming: method.client_streaming(),
                server_streaming: method.server_streaming(),
                deprecated: method.options.as_option().is_some_and(|o| o.deprecated()),
                comments: comments.lines(&[path[0], path[1], 2, method_index as i32]),
                request: type_path(method.input_type())?,
                response: type_path(method.output_type())?,
            });
        }
        let full_name = format!(
            "{}.{}",
            crate::path::package_prefix(file.package()),
            proto.name()
        );
        Ok(Service {
            name: context.schema.service_name(&full_name)?.to_owned(),
            package: file.package().to_owned(),
            identifier: proto.name().to_owned(),
            methods,
            comments: comments.lines(&path),
        })
    }
}

#[cfg(feature = "tonic")]
impl tonic_build::Service for Service {
    type Comment = String;
    type Method = Method;

    fn name(&self) -> &str {
        &self.name
    }

    fn package(&self) -> &str {
        &self.package
    }

    fn identifier(&self) -> &str {
        &self.identifier
    }

    fn methods(&self) -> &[Method] {
        &self.methods
    }

    fn comment(&self) -> &[String] {
        &self.comments
    }
}

#[cfg(feature = "tonic")]
impl tonic_build::Method for Method {
    type Comment = String;

    fn name(&self) -> &str {
        &self.name
    }

    fn identifier(&self) -> &str {
        &self.identifier
    }

    fn codec_path(&self) -> &str {
        &self.codec_path
    }

    fn client_streaming(&self) -> bool {
        self.client_streaming
    }

    fn server_streaming(&self) -> bool {
        self.server_streaming
    }

    fn comment(&self) -> &[String] {
        &self.comments
    }

    fn deprecated(&self) -> bool {
        self.deprecated
    }

    fn request_response_name(&self, _: &str, _: bool) -> (TokenStream, TokenStream) {
        (self.request.clone(), self.response.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::TonicOptions;

    fn options(codec_path: Option<&str>) -> Options {
        Options {
            tonic: Some(TonicOptions {
                codec_path: codec_path.map(str::to_owned),
                ..TonicOptions::default()
            }),
            ..Options::default()
        }
    }

    #[test]
    fn without_tonic_nothing_is_checked() {
        assert_eq!(check_options(&Options::default()).unwrap(), None);
    }

    #[cfg(not(feature = "tonic"))]
    #[test]
    fn tonic_without_the_feature_says_which_to_enable() {
        let error = check_options(&options(None)).unwrap_err().to_string();
        assert!(
            error.contains("`tonic` feature") && error.contains("buffa-build"),
            "{error}"
        );
    }

    #[cfg(feature = "tonic")]
    #[test]
    fn rpcs_named_like_the_clients_own_methods_take_an_underscore() {
        assert_eq!(
            method_names([
                "Connect",
                "New",
                "MaxDecodingMessageSize",
                "ConnectAll",
                "Type"
            ]),
            [
                "connect_",
                "new_",
                "max_decoding_message_size_",
                "connect_all",
                "r#type"
            ]
        );
    }

    /// Later rpcs yield: `get_item` after `GetItem` is `get_item_`, and
    /// `connect_` (whose snake case is `connect`) after `Connect` is
    /// `connect__`.
    #[cfg(feature = "tonic")]
    #[test]
    fn rpcs_that_become_the_same_rust_method_take_underscores() {
        assert_eq!(
            method_names(["GetItem", "get_item", "getItem", "Connect", "connect_"]),
            [
                "get_item",
                "get_item_",
                "get_item__",
                "connect_",
                "connect__"
            ]
        );
    }

    #[cfg(feature = "tonic")]
    #[test]
    fn the_codec_is_named_with_its_message_types_inferred() {
        assert_eq!(
            check_options(&options(None)).unwrap().as_deref(),
            Some("::buffa_tonic::BuffaCodec::<_, _>")
        );
        assert_eq!(
            check_options(&options(Some("crate::rpc::Codec")))
                .unwrap()
                .as_deref(),
            Some("crate::rpc::Codec::<_, _>")
        );
        let error = check_options(&options(Some("rpc::Codec<A>")))
            .unwrap_err()
            .to_string();
        assert!(error.contains("tonic codec_path"), "{error}");
    }
}
