//! One service answering gRPC and HTTP/JSON in one process: the
//! `Bookstore` service of `proto/bookstore/v1/bookstore.proto` is
//! implemented once ([`Library`], over the trait tonic's generated server
//! calls), and [`app`] serves it on one port twice over: gRPC requests (by
//! their `application/grpc` content type) go to the tonic server, every
//! other request to buffa-http's `Transcoder`, which routes it by the
//! methods' `google.api.http` rules, builds the request message from the
//! path, the query string and the JSON body, calls the same tonic server in
//! process and answers with JSON.
//!
//! `cargo run -p bookstore` serves on 127.0.0.1:8080 (or the address given
//! as the first argument); `tests/scenario.rs` calls one server with a
//! tonic client and with an HTTP/1.1 client.

#[allow(missing_docs, clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/mod.rs"));
}
mod service;

pub use generated::{bookstore, google};
pub use service::{BookStream, Library, REQUEST_ID};

use std::error::Error;

use axum::body::Body;
use axum::http::Request;
use buffa_http::grpc_json::{GrpcJson, is_grpc_json};
use buffa_http::router::Router;
use buffa_http::serve::Transcoder;
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::service::Routes;
use tonic::transport::Server;

use bookstore::v1::bookstore_server::BookstoreServer;

/// The error type of the example: anything that went wrong on the way.
pub type BoxError = Box<dyn Error + Send + Sync>;

/// The full name of the service, as the descriptor pool names it.
pub const SERVICE: &str = "bookstore.v1.Bookstore";

/// The routes answering both protocols from `library`: gRPC by content
/// type, HTTP/JSON (by the `google.api.http` rules of the service)
/// otherwise.
pub fn app(library: Library) -> Result<axum::Router, BoxError> {
    let grpc = BookstoreServer::new(library);
    let pool = bookstore::v1::descriptor_pool();
    let service = pool
        .get_service_by_name(SERVICE)
        .ok_or("the descriptor pool lacks the service")?;
    let rules = Router::for_services([&service])?;
    let http = Transcoder::new(rules, grpc.clone()).into_axum_router();
    let grpc_json = GrpcJson::new(pool.clone(), grpc.clone()).into_axum_router();
    let grpc = Routes::new(grpc).into_axum_router();
    Ok(axum::Router::new().fallback_service(dispatch(grpc, grpc_json, http)))
}

/// A service sending each request by its content type: gRPC with JSON
/// messages to `grpc_json`, other gRPC to `grpc`, the rest to `http`.
fn dispatch(
    grpc: axum::Router,
    grpc_json: axum::Router,
    http: axum::Router,
) -> axum::routing::MethodRouter {
    axum::routing::any(move |request: Request<Body>| {
        let is_grpc = (request.headers().get(axum::http::header::CONTENT_TYPE))
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("application/grpc"));
        let target = if is_grpc_json(request.headers()) {
            grpc_json.clone()
        } else if is_grpc {
            grpc.clone()
        } else {
            http.clone()
        };
        async move {
            use tower_service::Service as _;
            let mut target = target;
            // An axum router is always ready and never fails.
            match target.call(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            }
        }
    })
}

/// Serves `library` on `listener` until the process ends: HTTP/2 for gRPC
/// and HTTP/1.1 (or 2) for HTTP/JSON, on the same port.
pub async fn serve(listener: TcpListener, library: Library) -> Result<(), BoxError> {
    let app = app(library)?;
    Server::builder()
        .accept_http1(true)
        .add_routes(Routes::from(app))
        .serve_with_incoming(TcpListenerStream::new(listener))
        .await?;
    Ok(())
}
