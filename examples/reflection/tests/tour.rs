//! The tour prints what the example's comments promise.

#[test]
fn tour_reads_extensions_options_fields_and_text() {
    let expected = r#"reason: Some("refund")
tickets: [17, 42]
GetOrder -> GET "/v1/orders/{id}" POST ""
PutOrder -> GET "" POST "/v1/orders"
dynamic (example.api.http).get: /v1/orders/{id}
set fields: id, customer, lines, labels
id: 7
customer: "Ana"
lines {
  sku: "tea"
  quantity: 2
}
labels {
  key: "gift"
  value: "yes"
}
after merge: 2 lines, second quantity None (default 1)
dynamic customer: Some(String("Ana")), same bytes: true
built: id: 8
"#;
    assert_eq!(reflection::tour().unwrap(), expected);
}
