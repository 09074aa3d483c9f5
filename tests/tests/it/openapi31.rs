//! The crates of `codegen/tests/fixtures/openapi31.yaml`, an OpenAPI 3.1 document, client against
//! server over HTTP: what the converter turned into the 3.0 model works on the wire.

use openapi31_client::types::{
    Order, OrderCode, OrderLine, Payment, PaymentCard, PaymentCardMethod, PaymentTransfer, PaymentTransferMethod,
    Voucher, VoucherMethod,
};
use openapi31_client::{Client, Credentials};
use openapi31_server::{FileDownload, MockApi};

async fn serve() -> (std::sync::Arc<MockApi>, Client, String) {
    let mock = MockApi::new();
    let base = mock.serve().await.expect("serve");
    (mock, Client::new(&base, Credentials::default()).expect("client"), base)
}

fn order() -> Order {
    let card = Payment::Card(PaymentCard::new(PaymentCardMethod::Card, "4111".into()));
    let mut order = Order::new("o-1".into(), vec![OrderLine::new("sku-1".into())], card);
    order.note = String::from("leave at the door").into();
    order.quantity = Some(3);
    order.code = Some(OrderCode::Integer(7));
    order.tags = Some(vec![Some("red".into()), None]);
    order.extras = Some([("a".to_string(), Some(1)), ("b".to_string(), None)].into());
    order
}

#[tokio::test]
async fn a_3_1_document_round_trips_through_client_and_server() {
    let (mock, client, base) = serve().await;
    mock.on_place_order(|_, input| std::future::ready(Ok(input.body)));
    let placed = client.place_order(order()).await.expect("an order");
    assert_eq!(placed, order());

    // `const` members told apart by the discriminator, and named by their value; a
    // `[string, null]` note may be null.
    let http = reqwest::Client::new();
    let post = |body: &'static str| {
        http.post(format!("{base}/orders")).header("content-type", "application/json").body(body).send()
    };
    let transfer = r#"{"id":"o-2","lines":[],"payment":{"method":"transfer","iban":"DE1"},"note":null,"code":"A"}"#;
    let reply = post(transfer).await.expect("send");
    assert_eq!(reply.status(), 200);
    let echoed: Order = serde_json::from_slice(&reply.bytes().await.expect("body")).expect("an order");
    assert_eq!(echoed.payment, Payment::Transfer(PaymentTransfer::new(PaymentTransferMethod::Transfer, "DE1".into())));
    assert_eq!(echoed.code, Some(OrderCode::String("A".into())));
    let voucher = r#"{"id":"o-3","lines":[],"payment":{"method":"voucher","code":"V1"}}"#;
    let echoed: Order = serde_json::from_slice(&post(voucher).await.expect("send").bytes().await.expect("body"))
        .expect("an order paid with a voucher");
    assert_eq!(echoed.payment, Payment::Voucher(Voucher::new(VoucherMethod::Voucher, "V1".into())));

    // Numeric `exclusiveMinimum`/`exclusiveMaximum` and a limit beside a `null` type hold.
    for (body, field) in [
        (r#"{"id":"o","lines":[],"payment":{"method":"card","number":"1"},"quantity":0}"#, "quantity"),
        (r#"{"id":"o","lines":[],"payment":{"method":"card","number":"1"},"quantity":100}"#, "quantity"),
        (
            r#"{"id":"o","lines":[],"payment":{"method":"card","number":"1"},"note":"more than twenty characters"}"#,
            "note",
        ),
        (r#"{"id":"o","lines":[],"payment":{"method":"cash"}}"#, "method"),
        (r#"{"id":"o","lines":[],"payment":{"method":"card","number":"1"},"tags":[null,"purple"]}"#, "tags[1]"),
        // `propertyNames`: each key of the map matches its pattern and length.
        (r#"{"id":"o","lines":[],"payment":{"method":"card","number":"1"},"extras":{"Upper":1}}"#, "extras.Upper"),
        (
            r#"{"id":"o","lines":[],"payment":{"method":"card","number":"1"},"extras":{"muchtoolong":1}}"#,
            "extras.muchtoolong",
        ),
    ] {
        let reply = post(body).await.expect("send");
        assert_eq!(reply.status(), 400, "{body}");
        let text = String::from_utf8_lossy(&reply.bytes().await.expect("body")).into_owned();
        assert!(text.contains(field), "{field}: {text}");
    }
}

#[tokio::test]
async fn a_content_media_type_reply_is_a_download() {
    let (mock, client, _) = serve().await;
    mock.on_get_receipt(|_, input| async move {
        Ok(FileDownload::new(format!("%PDF {}", input.id).into_bytes()).with_content_type("application/pdf"))
    });
    let receipt = client.get_receipt("o-1").await.expect("a receipt");
    assert_eq!(receipt.content_type.as_deref(), Some("application/pdf"));
    assert_eq!(receipt.body.collect().await.expect("bytes"), b"%PDF o-1");
}
