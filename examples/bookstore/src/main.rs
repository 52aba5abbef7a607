//! Serves the bookstore over gRPC and HTTP/JSON on one port:
//! `cargo run -p bookstore [ADDRESS]` (default 127.0.0.1:8080), then for
//! instance `curl -X POST localhost:8080/v1/shelves -d '{"theme":"poetry"}'`.

use bookstore::{BoxError, Library};

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".into());
    let listener = tokio::net::TcpListener::bind(&address).await?;
    println!(
        "bookstore: gRPC and HTTP/JSON on {}",
        listener.local_addr()?
    );
    bookstore::serve(listener, Library::default()).await
}
