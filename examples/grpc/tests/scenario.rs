//! The scenario over a real loopback connection, checked value by value.

use std::time::Duration;

use tonic::Code;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_method_kind_metadata_errors_and_limits() {
    // The server stops when the scenario ends; the timeout stops the test
    // if anything hangs.
    let report = tokio::time::timeout(Duration::from_secs(120), grpc::run())
        .await
        .expect("the scenario finished within two minutes")
        .unwrap_or_else(|e| panic!("{e}"));

    assert_eq!(report.said, "hello");
    assert_eq!(report.request_id.as_deref(), Some("req-42"));
    assert_eq!(report.served_by.as_deref(), Some("buffa-grpc-example"));
    assert_eq!(
        report.repeated,
        [
            (0, "again".into()),
            (1, "again".into()),
            (2, "again".into())
        ]
    );
    assert_eq!(report.collected, "a+b+c");
    assert_eq!(report.chat, [(0, "PING".into()), (1, "PONG".into())]);
    assert_eq!(
        report.error,
        (Code::InvalidArgument, "text must not be empty".into())
    );
    assert_eq!(report.large_len, grpc::LARGE_PAYLOAD);
    assert!(report.large_intact);
    // tonic reports a message over the limit as OUT_OF_RANGE, naming both
    // sizes.
    let (code, message) = &report.refused;
    assert_eq!(*code, Code::OutOfRange, "{message}");
    assert!(
        message.contains("too large") && message.contains(&(4 * 1024 * 1024).to_string()),
        "{message}"
    );
}
