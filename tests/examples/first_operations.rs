//! A service with its first two operations, and downstream code checked against the mock.
//!
//! ```sh
//! cargo run -p portfolio-tests --example first_operations
//! ```
//!
//! `PartialPortfolioApi` lets a service answer a few operations while the rest answer 501; the
//! mock stands in for the whole service in tests of code that calls it.

use portfolio_client::{Client, Credentials};
use portfolio_server::{ApiError, MockApi, Partial, PartialPortfolioApi, RequestContext, inputs, types};

/// The service so far: models and users, nothing else yet.
struct FirstOperations;

impl PartialPortfolioApi for FirstOperations {
    async fn get_au_models(
        &self,
        _: RequestContext,
        _: inputs::GetAuModelsInput,
    ) -> Result<Vec<types::Model>, ApiError> {
        Ok(vec![types::Model::default().with_code("GROWTH".into())])
    }

    async fn get_user(&self, _: RequestContext, input: inputs::GetUserInput) -> Result<types::User, ApiError> {
        Ok(types::User::default().with_user_id(input.username.len() as i32))
    }
}

/// Downstream code: the codes of every model the service offers.
async fn model_codes(client: &Client) -> Result<Vec<String>, portfolio_client::Error> {
    Ok(client.get_au_models().await?.into_iter().filter_map(|m| m.code).collect())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The partial service, on an ephemeral port.
    let listener = portfolio_server::bind("127.0.0.1:0", &Default::default()).await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    let app = portfolio_server::router(Partial(FirstOperations));
    tokio::spawn(portfolio_server::serve(listener, app, std::future::pending()));
    let client = Client::new(&base_url, Credentials::new("token", "key"))?;
    println!("service: models {:?}", model_codes(&client).await?);
    let missing = client.get_au_child_accounts("A1").await.unwrap_err();
    println!("service: {missing}");

    // The same downstream code against the mock, as a test would run it.
    let mock = MockApi::new();
    mock.returns_get_au_models(Ok(vec![types::Model::default().with_code("INCOME".into())]));
    let client = Client::new(&mock.serve().await?, Credentials::new("token", "key"))?;
    assert_eq!(model_codes(&client).await?, ["INCOME"]);
    println!("mock: calls {:?}", mock.calls());
    Ok(())
}
