//! Runs the scenario of the `grpc` example and prints what the client saw.

#[tokio::main]
async fn main() -> Result<(), grpc::BoxError> {
    let report = grpc::run().await?;
    println!("unary: {:?}", report.said);
    println!(
        "metadata: {}={:?} {}={:?}",
        grpc::REQUEST_ID,
        report.request_id,
        grpc::SERVED_BY,
        report.served_by
    );
    println!("server streaming: {:?}", report.repeated);
    println!("client streaming: {:?}", report.collected);
    println!("bidirectional: {:?}", report.chat);
    println!("error: {:?} {:?}", report.error.0, report.error.1);
    println!(
        "{} byte payload with raised limits: came back {}",
        report.large_len,
        if report.large_intact {
            "intact"
        } else {
            "damaged"
        }
    );
    println!(
        "same call with the default limit: {:?} {:?}",
        report.refused.0, report.refused.1
    );
    Ok(())
}
