//! The generated mock and partial implementations as their users write them: a downstream test
//! with the client and the mock, and a server that implements two operations.

use portfolio_client::types::Model;
use portfolio_client::{Client, Credentials};
use portfolio_server::{MockApi, Partial, PartialPortfolioApi, inputs, types};

#[tokio::test]
async fn a_downstream_test_against_the_mock() {
    let mock = MockApi::new();
    mock.returns_get_au_models(Ok(vec![types::Model::default().with_code("GROWTH".into())]));
    let client = Client::new(&mock.serve().await.unwrap(), Credentials::new("t", "k")).unwrap();

    let models: Vec<Model> = client.get_au_models().await.unwrap();
    assert_eq!(models[0].code.as_deref(), Some("GROWTH"));
    assert_eq!(mock.calls(), ["GetAUModels"]);
}

#[tokio::test]
async fn the_mock_validates_requests_records_calls_and_answers_501_for_the_rest() {
    let mock = MockApi::new();
    // A handler sees the validated, typed input, defaults applied.
    mock.on_get_au_transactions(|_, input: inputs::GetAuTransactionsInput| async move {
        Ok(types::TransactionIEnumerablePagedResponse::default()
            .with_data(vec![])
            .with_metadata(types::Metadata::default().with_total_count(input.page).with_total_pages(input.size)))
    });
    let client = Client::new(&mock.serve().await.unwrap(), Credentials::new("t", "k")).unwrap();
    let from = portfolio_client::DateTime::parse("2024-01-01").unwrap();
    let page = client.get_au_transactions("A1", from, from).await.unwrap();
    let metadata = page.metadata.unwrap();
    assert_eq!((metadata.total_count, metadata.total_pages), (Some(1), Some(100)), "the spec's defaults");

    // A request the contract forbids never reaches the mock.
    let err = client.get_au_transactions("A1", from, from).size(0).await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(400));

    // An operation without a handler answers 501, naming it.
    let err = client.get_au_models().await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(501));
    assert!(err.to_string().contains("GetAUModels"), "{err}");
    assert_eq!(mock.calls(), ["GetAUTransactions", "GetAUModels"]);
}

/// The smallest server that implements two operations.
struct TwoOperations;

impl PartialPortfolioApi for TwoOperations {
    async fn get_au_models(
        &self,
        _: portfolio_server::RequestContext,
        _: inputs::GetAuModelsInput,
    ) -> Result<Vec<types::Model>, portfolio_server::ApiError> {
        Ok(vec![types::Model::default().with_code("INCOME".into())])
    }

    async fn get_user(
        &self,
        _: portfolio_server::RequestContext,
        input: inputs::GetUserInput,
    ) -> Result<types::User, portfolio_server::ApiError> {
        Ok(types::User::default().with_user_id(input.username.len() as i32))
    }
}

#[tokio::test]
async fn a_partial_implementation_serves_its_operations_and_501_for_the_others() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = portfolio_server::router(Partial(TwoOperations));
    tokio::spawn(portfolio_server::serve(listener, router, std::future::pending()));
    let client = Client::new(&base, Credentials::new("t", "k")).unwrap();

    assert_eq!(client.get_au_models().await.unwrap()[0].code.as_deref(), Some("INCOME"));
    assert_eq!(client.get_user("alex").await.unwrap().user_id, Some(4));
    let err = client.get_au_child_accounts("A1").await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(501));
    assert!(err.to_string().contains("GetAUChildAccounts"), "{err}");
}

#[tokio::test]
async fn replies_keep_enum_values_the_spec_does_not_list_and_requests_may_not_carry_them() {
    use portfolio_client::types::{
        ModelStatus, OneOffCashflowInstructionDeleteType, OneOffCashflowInstructionType,
        PostOneOffCashflowInstructionRequest,
    };

    // A service newer than the spec answers with a status this client has never heard of.
    let mock = MockApi::new();
    mock.returns_get_au_models(Ok(vec![types::Model::default().with_status(types::ModelStatus::Unknown(7))]));
    let client = Client::new(&mock.serve().await.unwrap(), Credentials::new("t", "k")).unwrap();
    let status = client.get_au_models().await.unwrap()[0].status.unwrap();
    assert_eq!(status, ModelStatus::Unknown(7));
    assert!(!status.is_listed() && ModelStatus::Closed.is_listed());
    assert_eq!(status.value(), 7, "written back as it came");

    // The server refuses the same kind of value in a request, naming the field and what it takes.
    let body =
        PostOneOffCashflowInstructionRequest::new(OneOffCashflowInstructionType::Unknown(99), "A1".into(), vec![]);
    let err = client.add_au_one_off_cashflow_instructions().body(body).await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(400));
    let errors = &err.problem().unwrap().errors;
    let message = &errors["body.CashflowInstructionType"][0];
    assert!(message.starts_with("`99` is not a value of OneOffCashflowInstructionType; expected one of 3, 4"), "{err}");
    // In a query parameter too.
    let unlisted = OneOffCashflowInstructionDeleteType::from_value(12);
    let err = client.delete_au_one_off_cashflow_instructions("A1", "CF-1", unlisted).await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(400));
    assert!(err.to_string().contains("is not a value of OneOffCashflowInstructionDeleteType"), "{err}");
    assert_eq!(mock.calls(), ["GetAUModels"], "refused requests never reach the mock");
}

/// The features fixture.
mod features {
    use crate::fixtures::features::client;
    use features_client::types::{Cat, Pet};

    #[tokio::test]
    async fn a_sampled_mock_answers_with_the_documents_example_else_a_valid_sample() {
        let mock = features_server::MockApi::sampled();
        let base = mock.serve().await.unwrap();
        // The document's example, through the real router.
        let notes = client(&base).list_notes().await.unwrap();
        assert_eq!((notes.len(), notes[0].text.as_str(), notes[0].id.as_deref()), (1, "from the example", Some("n7")));
        // No example: a value sampled from the schema, which the client reads as its type.
        let pets = client(&base).list_pets().await.unwrap();
        assert!(matches!(&pets[..], [Pet::Cat(_) | Pet::Dog(_)]), "{pets:?}");
        // Documented reply headers are sampled too, and a reply of several statuses takes its first.
        let (count, _headers) = client(&base).read_counter().await.unwrap();
        assert!(count >= 0);
        let cat = Pet::Cat(Cat::new("cat".into(), "Tom".into()));
        let put = client(&base).put_pet("Tom", cat).await.unwrap();
        assert!(matches!(put, features_client::types::PutPetReply::Ok(_)), "{put:?}");
        // A handler set on the mock takes precedence, and validation still runs first.
        mock.returns_list_pets(Ok(Vec::new()));
        assert_eq!(client(&base).list_pets().await.unwrap(), Vec::new());
        let refused = client(&base).check_parameter_limits("lower").await.unwrap_err();
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400));
        // Operations nothing could be sampled for (a protocol switch) answer 501 naming themselves.
        let tunnel =
            reqwest::Client::new().get(format!("{base}/tunnel")).header("upgrade", "echo").send().await.unwrap();
        assert_eq!(tunnel.status(), 501);
        assert_eq!(mock.calls(), ["listNotes", "listPets", "readCounter", "putPet", "listPets", "openTunnel"]);
    }
}
