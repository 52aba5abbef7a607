//! One server, two protocols: a tonic client and an HTTP/1.1 client call
//! the same bookstore, and each sees what the other did.

use std::net::SocketAddr;

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, Request};
use bookstore::Library;
use bookstore::bookstore::v1::bookstore_client::BookstoreClient;
use bookstore::bookstore::v1::{CreateShelfRequest, GetShelfRequest, Shelf};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use tonic::Code;

/// Starts a server on an ephemeral port.
async fn start() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(bookstore::serve(listener, Library::default()));
    address
}

/// An HTTP/1.1 client and the server's address.
struct Http {
    client: Client<HttpConnector, Full<Bytes>>,
    address: SocketAddr,
}

/// What the server answered: the status, the headers and the body.
struct Answer {
    status: u16,
    headers: HeaderMap,
    body: String,
}

impl Http {
    async fn send(&self, method: Method, path: &str, body: &str) -> Answer {
        self.send_with(method, path, body, &[]).await
    }

    async fn send_with(
        &self,
        method: Method,
        path: &str,
        body: &str,
        headers: &[(&'static str, &'static str)],
    ) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("http://{}{path}", self.address))
            .header("content-type", "application/json");
        for (name, value) in headers {
            let headers = request.headers_mut().expect("a valid request");
            headers.insert(
                axum::http::HeaderName::from_static(name),
                axum::http::HeaderValue::from_static(value),
            );
        }
        let request = request
            .body(Full::new(Bytes::from(body.to_owned())))
            .unwrap();
        let response = self.client.request(request).await.unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            headers,
            body: String::from_utf8(bytes.to_vec()).unwrap(),
        }
    }
}

/// Calls `path` with one JSON message over HTTP/2 as
/// `application/grpc+json`: the JSON messages of the answer, and its
/// trailers (or headers, for an answer without a message).
async fn grpc_json(address: SocketAddr, path: &str, message: &str) -> (Vec<String>, HeaderMap) {
    let client: Client<HttpConnector, Full<Bytes>> = Client::builder(TokioExecutor::new())
        .http2_only(true)
        .build_http();
    let mut framed = vec![0];
    framed.extend_from_slice(&(message.len() as u32).to_be_bytes());
    framed.extend_from_slice(message.as_bytes());
    let request = Request::builder()
        .method(Method::POST)
        .uri(format!("http://{address}{path}"))
        .header("content-type", "application/grpc+json")
        .header("te", "trailers")
        .body(Full::new(Bytes::from(framed)))
        .unwrap();
    let response = client.request(request).await.unwrap();
    let headers = response.headers().clone();
    let collected = response.into_body().collect().await.unwrap();
    let trailers = collected.trailers().cloned().unwrap_or(headers);
    let data = collected.to_bytes();
    let mut messages = Vec::new();
    let mut rest = &data[..];
    while rest.len() >= 5 {
        let len = u32::from_be_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
        messages.push(String::from_utf8(rest[5..5 + len].to_vec()).unwrap());
        rest = &rest[5 + len..];
    }
    (messages, trailers)
}

#[tokio::test]
async fn grpc_and_http_json_answer_from_one_implementation() {
    let address = start().await;
    let mut grpc = loop {
        match BookstoreClient::connect(format!("http://{address}")).await {
            Ok(client) => break client,
            Err(_) => tokio::task::yield_now().await,
        }
    };
    let http = Http {
        client: Client::builder(TokioExecutor::new()).build_http(),
        address,
    };

    // A shelf created over gRPC is read over HTTP.
    let created = grpc
        .create_shelf(CreateShelfRequest {
            shelf: Shelf {
                theme: "poetry".into(),
                capacity: 2,
                ..Default::default()
            }
            .into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(created.name, "shelves/1");
    let answer = http.send(Method::GET, "/v1/shelves/1", "").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.headers["content-type"], "application/json");
    assert_eq!(
        answer.body,
        r#"{"name":"shelves/1","theme":"poetry","capacity":2}"#
    );

    // A shelf created over HTTP (`body: "shelf"`) is read over gRPC.
    let answer = http
        .send(Method::POST, "/v1/shelves", r#"{"theme":"history"}"#)
        .await;
    assert_eq!(answer.body, r#"{"name":"shelves/2","theme":"history"}"#);
    let shelf = grpc
        .get_shelf(GetShelfRequest {
            name: "shelves/2".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(shelf.theme, "history");

    // Metadata both ways, as grpc-gateway maps it.
    let answer = http
        .send_with(
            Method::GET,
            "/v1/shelves/2",
            "",
            &[("grpc-metadata-x-request-id", "r-42")],
        )
        .await;
    assert_eq!(answer.headers["grpc-metadata-x-request-id"], "r-42");

    // `response_body`: the named field alone.
    let answer = http.send(Method::GET, "/v1/shelves:array", "").await;
    assert_eq!(
        answer.body,
        r#"[{"name":"shelves/1","theme":"poetry","capacity":2},{"name":"shelves/2","theme":"history"}]"#
    );

    // Query parameters fill the fields the path and body leave.
    let answer = http.send(Method::GET, "/v1/shelves?theme=poetry", "").await;
    assert_eq!(
        answer.body,
        r#"{"shelves":[{"name":"shelves/1","theme":"poetry","capacity":2}]}"#
    );

    // An update through a field mask (AIP-134): only `capacity` changes.
    let answer = http
        .send(
            Method::PATCH,
            "/v1/shelves/2?updateMask=capacity",
            r#"{"theme":"ignored","capacity":1}"#,
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        answer.body,
        r#"{"name":"shelves/2","theme":"history","capacity":1}"#
    );

    // Books, and a server stream as a JSON array.
    let answer = http
        .send(
            Method::POST,
            "/v1/shelves/1/books",
            r#"{"title":"Odes","author":"Keats"}"#,
        )
        .await;
    assert_eq!(
        answer.body,
        r#"{"name":"shelves/1/books/1","author":"Keats","title":"Odes"}"#
    );
    http.send(Method::POST, "/v1/shelves/1/books", r#"{"title":"Lamia"}"#)
        .await;
    let answer = http.send(Method::GET, "/v1/shelves/1/books", "").await;
    assert_eq!(
        answer.body,
        r#"[{"name":"shelves/1/books/1","author":"Keats","title":"Odes"},{"name":"shelves/1/books/2","title":"Lamia"}]"#
    );
    let answer = http
        .send(Method::GET, "/v1/shelves/1/books?limit=1", "")
        .await;
    assert_eq!(
        answer.body,
        r#"[{"name":"shelves/1/books/1","author":"Keats","title":"Odes"}]"#
    );

    // A stream that fails before its first message answers with its
    // status.
    let answer = http.send(Method::GET, "/v1/shelves/9/books", "").await;
    assert_eq!(answer.status, 404, "{}", answer.body);

    // Raw bodies (`google.api.HttpBody`) both ways.
    let png = "\u{89}PNG-ish bytes";
    let answer = http
        .send_with(
            Method::PUT,
            "/v1/shelves/2/cover",
            png,
            &[("content-type", "image/png")],
        )
        .await;
    assert_eq!((answer.status, answer.body.as_str()), (200, "{}"));
    let answer = http.send(Method::GET, "/v1/shelves/2/cover", "").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.headers["content-type"], "image/png");
    assert_eq!(answer.body, png);
    let answer = http.send(Method::PUT, "/v1/shelves/2/cover", "{}").await;
    assert_eq!(answer.status, 400, "{}", answer.body);

    // Errors: the service's status as HTTP and google.rpc.Status JSON.
    let answer = http
        .send(
            Method::POST,
            "/v1/shelves/1/books",
            r#"{"title":"Endymion"}"#,
        )
        .await;
    assert_eq!(answer.status, 400);
    assert_eq!(
        answer.body,
        r#"{"code":9,"message":"the shelf is full","details":[]}"#
    );
    let answer = http.send(Method::GET, "/v1/shelves/9", "").await;
    assert_eq!(answer.status, 404);
    assert_eq!(
        answer.body,
        r#"{"code":5,"message":"no shelf named \"shelves/9\"","details":[]}"#
    );
    // Routing and reading errors.
    let answer = http.send(Method::PUT, "/v1/shelves/1", "").await;
    assert_eq!(answer.status, 405);
    assert_eq!(answer.headers["allow"], "GET, PATCH, DELETE");
    assert_eq!(http.send(Method::GET, "/v2/shelves", "").await.status, 404);
    let answer = http.send(Method::GET, "/v1/shelves?theme=%ZZ", "").await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.body.starts_with(r#"{"code":3,"#), "{}", answer.body);
    let answer = http
        .send(Method::POST, "/v1/shelves", r#"{"theme": 7}"#)
        .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    let huge = format!(r#"{{"theme":"{}"}}"#, "x".repeat(5 << 20));
    assert_eq!(
        http.send(Method::POST, "/v1/shelves", &huge).await.status,
        413
    );

    // gRPC with JSON messages, over HTTP/2: the same method, JSON in
    // gRPC's frames, the status in the trailers.
    let (body, trailers) = grpc_json(
        address,
        "/bookstore.v1.Bookstore/StreamBooks",
        r#"{"parent":"shelves/1"}"#,
    )
    .await;
    assert_eq!(
        body,
        [
            r#"{"name":"shelves/1/books/1","author":"Keats","title":"Odes"}"#,
            r#"{"name":"shelves/1/books/2","title":"Lamia"}"#
        ]
    );
    assert_eq!(trailers["grpc-status"], "0");
    let (body, trailers) = grpc_json(
        address,
        "/bookstore.v1.Bookstore/GetShelf",
        r#"{"name":"shelves/9"}"#,
    )
    .await;
    assert!(body.is_empty());
    assert_eq!(trailers["grpc-status"], "5");
    // The service's message, percent-encoded by tonic, passes through.
    assert_eq!(
        trailers["grpc-message"],
        "no%20shelf%20named%20%22shelves/9%22"
    );
    let (_, trailers) = grpc_json(address, "/bookstore.v1.Bookstore/Nope", "{}").await;
    assert_eq!(trailers["grpc-status"], "12");
    let (_, trailers) =
        grpc_json(address, "/bookstore.v1.Bookstore/GetShelf", "{\"name\":1}").await;
    assert_eq!(trailers["grpc-status"], "3");

    // A delete over HTTP is seen over gRPC.
    let answer = http.send(Method::DELETE, "/v1/shelves/1", "").await;
    assert_eq!((answer.status, answer.body.as_str()), (200, "{}"));
    let error = grpc
        .get_shelf(GetShelfRequest {
            name: "shelves/1".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(error.code(), Code::NotFound);
}
