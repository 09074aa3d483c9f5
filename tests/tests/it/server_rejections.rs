//! The generated router's answers to bad requests, seen through plain HTTP (no generated client):
//! status, problem+json body and the named parameter, in the order the contract gives.

use std::sync::Arc;

use portfolio_client::reqwest::{self, Method, StatusCode};
use portfolio_server::inputs::*;
use portfolio_server::types::*;
use portfolio_server::{ApiError, PortfolioApi, RequestContext, ServerConfig};
use serde_json::Value;

/// Answers the few operations these tests call; panics on `GetAUModels` to test panic handling.
struct Api;

macro_rules! unused {
    ($($method:ident($input:ty) -> $reply:ty;)*) => {
        $(
            async fn $method(&self, _: RequestContext, _: $input) -> Result<$reply, ApiError> {
                Err(ApiError::not_implemented(stringify!($method)))
            }
        )*
    };
}

impl PortfolioApi for Api {
    async fn get_au_transactions(
        &self,
        _: RequestContext,
        input: GetAuTransactionsInput,
    ) -> Result<TransactionIEnumerablePagedResponse, ApiError> {
        Ok(TransactionIEnumerablePagedResponse::default()
            .with_data(vec![])
            .with_metadata(Metadata::default().with_total_count(input.page).with_total_pages(input.size)))
    }
    async fn add_au_account_esg_categories(
        &self,
        _: RequestContext,
        input: AddAuAccountEsgCategoriesInput,
    ) -> Result<(), ApiError> {
        match input.body {
            Some(body) if body.account_id == "missing" => Err(ApiError::not_found("no account `missing`")),
            Some(_) => Ok(()),
            None => Err(ApiError::bad_request("a body is required")),
        }
    }
    async fn get_au_models(&self, _: RequestContext, _: GetAuModelsInput) -> Result<Vec<Model>, ApiError> {
        panic!("implementation bug");
    }
    async fn get_au_benchmarks(
        &self,
        ctx: RequestContext,
        _: GetAuBenchmarksInput,
    ) -> Result<Vec<Benchmark>, ApiError> {
        if ctx.api_version == "1999.01.01" {
            return Err(ApiError::unsupported_api_version(&ctx.api_version));
        }
        Err(ApiError::too_many_requests(30))
    }
    async fn get_draft_application_status(
        &self,
        _: RequestContext,
        input: GetDraftApplicationStatusInput,
    ) -> Result<ApplicationStatus, ApiError> {
        Ok(ApplicationStatus::default().with_application_id(input.application_id))
    }
    unused! {
        get_user(GetUserInput) -> User;
        create_user(CreateUserInput) -> UserCreationResponse;
        link_user_accounts(LinkUserAccountsInput) -> ();
        get_au_accounts(GetAuAccountsInput) -> Vec<AccountIEnumerablePagedResponse>;
        get_au_child_accounts(GetAuChildAccountsInput) -> Vec<ChildAccountAu>;
        get_account_model_weightings(GetAccountModelWeightingsInput) -> Vec<AccountModelWeighting>;
        replace_account_model_weightings(ReplaceAccountModelWeightingsInput) -> ();
        get_au_app_form(GetAuAppFormInput) -> portfolio_server::FileDownload;
        create_draft_application(CreateDraftApplicationInput) -> ApplicationUploadResult;
        get_pds(GetPdsInput) -> Vec<PdsDetail>;
        get_uk_ceding_parties(GetUkCedingPartiesInput) -> Vec<CedingPartyResponse>;
        find_au_securities(FindAuSecuritiesInput) -> Vec<SecurityResponse>;
        get_au_recalc_status(GetAuRecalcStatusInput) -> ServiceRecalcStatus;
        get_au_holdings(GetAuHoldingsInput) -> Vec<HoldingData>;
        get_au_holdings_per_model(GetAuHoldingsPerModelInput) -> Vec<HoldingsHistoryPerModel>;
        get_au_asset_class_summary(GetAuAssetClassSummaryInput) -> AssetClassSummary;
        get_au_cash_transactions(GetAuCashTransactionsInput) -> CashBookIEnumerablePagedResponse;
        get_au_unsettled_transactions(GetAuUnsettledTransactionsInput) -> Vec<UnsettledTransaction>;
        get_au_dividend_reinvestment_details(GetAuDividendReinvestmentDetailsInput) -> Vec<DividendReinvestmentDetail>;
        get_au_income_detail(GetAuIncomeDetailInput) -> Vec<IncomeDetail>;
        get_au_income_schedules(GetAuIncomeSchedulesInput) -> Vec<IncomeSchedule>;
        get_au_income_schedules_bulk(GetAuIncomeSchedulesBulkInput) -> Vec<BulkIncomeScheduleData>;
        get_au_expense_detail(GetAuExpenseDetailInput) -> Vec<Expense>;
        get_au_bpay(GetAuBpayInput) -> Vec<BpayInfo>;
        get_au_performance(GetAuPerformanceInput) -> Performance;
        get_au_asset_class_performance(GetAuAssetClassPerformanceInput) -> Vec<AssetClassInvestment>;
        get_au_benchmark_performance(GetAuBenchmarkPerformanceInput) -> Vec<BenchmarkReturn>;
        get_au_aproximate_fum(GetAuAproximateFumInput) -> ModelApproximateFum;
        get_au_model_performance(GetAuModelPerformanceInput) -> ModelPerformance;
        get_au_model_holdings(GetAuModelHoldingsInput) -> Vec<ModelHolding>;
        get_au_model_weight_adjustment(GetAuModelWeightAdjustmentInput) -> Vec<ModelWeightAdjustmentResponse>;
        replace_au_model_weight_adjustment(ReplaceAuModelWeightAdjustmentInput) -> ();
        get_au_account_esg_categories(GetAuAccountEsgCategoriesInput) -> Vec<String>;
        replace_au_account_esg_categories(ReplaceAuAccountEsgCategoriesInput) -> ();
        delete_au_account_esg_categories(DeleteAuAccountEsgCategoriesInput) -> ();
        get_au_cashflow_instructions(GetAuCashflowInstructionsInput) -> Vec<CashflowInstruction>;
        add_au_one_off_cashflow_instructions(AddAuOneOffCashflowInstructionsInput) -> ();
        delete_au_one_off_cashflow_instructions(DeleteAuOneOffCashflowInstructionsInput) -> ();
        update_au_regular_cashflow_instructions(UpdateAuRegularCashflowInstructionsInput) -> ();
        delete_au_regular_cashflow_instructions(DeleteAuRegularCashflowInstructionsInput) -> ();
        get_au_publisher_events(GetAuPublisherEventsInput) -> Vec<PublisherEvent>;
        get_au_publisher_event_detail(GetAuPublisherEventDetailInput) -> Vec<PublisherEventDetail>;
        download_au_file(DownloadAuFileInput) -> portfolio_server::FileDownload;
    }
}

async fn serve(config: ServerConfig) -> String {
    let app = portfolio_server::router_with(Arc::new(Api), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

const TX: &str = "/api/transactions?AccountId=A1&FromDate=2024-01-01&ToDate=2024-02-01";

/// A request with all three headers, minus those named in `without`.
fn request(base: &str, method: Method, path: &str, without: &[&str]) -> reqwest::RequestBuilder {
    let mut r = reqwest::Client::new().request(method, format!("{base}{path}"));
    for (name, value) in [("Authorization", "t"), ("x-pps-subscription-key", "k"), ("x-pps-api-version", "2022.09.26")]
    {
        if !without.contains(&name) {
            r = r.header(name, value);
        }
    }
    r
}

/// Sends and returns status, content type and the problem body.
async fn problem(r: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let response = r.send().await.unwrap();
    let status = response.status();
    let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
    assert_eq!(content_type.as_deref(), Some("application/problem+json"), "status {status}");
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body["status"], status.as_u16(), "{body}");
    (status, body)
}

#[tokio::test]
async fn missing_or_empty_credentials_are_401_before_anything_else() {
    let base = serve(ServerConfig::default()).await;
    // No credentials, no version, bad parameters: the credential check comes first.
    let (status, body) =
        problem(request(&base, Method::GET, "/api/transactions?Page=x", &["Authorization", "x-pps-api-version"])).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["detail"].as_str().unwrap().contains("Authorization"), "{body}");
    let (status, body) =
        problem(request(&base, Method::GET, TX, &["x-pps-subscription-key"]).header("x-pps-subscription-key", " "))
            .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["detail"].as_str().unwrap().contains("x-pps-subscription-key"), "{body}");
}

#[tokio::test]
async fn a_missing_version_header_is_400_before_parameter_checks() {
    let base = serve(ServerConfig::default()).await;
    let (status, body) = problem(request(&base, Method::GET, "/api/transactions?Page=x", &["x-pps-api-version"])).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"].as_object().unwrap().keys().collect::<Vec<_>>(), ["x-pps-api-version"]);
}

#[tokio::test]
async fn parameter_problems_are_all_named_at_once() {
    let base = serve(ServerConfig::default()).await;
    let (status, body) = problem(request(
        &base,
        Method::GET,
        "/api/transactions?FromDate=yesterday&ToDate=2024-02-01&Page=0&Size=abc&BuysAndSellsOnly=yes&OrderBy=5&Order=1",
        &[],
    ))
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["type"], "urn:problem-type:invalid-request");
    let errors = body["errors"].as_object().unwrap();
    let names: Vec<&str> = errors.keys().map(String::as_str).collect();
    assert_eq!(names, ["AccountId", "BuysAndSellsOnly", "FromDate", "OrderBy", "Page", "Size"], "{body}");
    assert_eq!(errors["AccountId"][0], "is required");
    assert!(errors["OrderBy"][0].as_str().unwrap().contains("expected one of 0, 1"), "{body}");
    assert!(errors["FromDate"][0].as_str().unwrap().contains("date-time"), "{body}");
    assert!(errors["Page"][0].as_str().unwrap().contains("at least 1"), "{body}");
}

#[tokio::test]
async fn malformed_uuids_in_paths_are_400() {
    let base = serve(ServerConfig::default()).await;
    let (status, body) = problem(request(&base, Method::GET, "/api/application/not-a-uuid/status", &[])).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["ApplicationId"][0].as_str().unwrap().contains("UUID"), "{body}");
    let ok = request(&base, Method::GET, "/api/application/00000000-0000-4000-8000-000000000001/status", &[])
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
}

#[tokio::test]
async fn unknown_query_parameters_are_ignored_and_defaults_applied() {
    let base = serve(ServerConfig::default()).await;
    let response = request(&base, Method::GET, &format!("{TX}&Colour=blue"), &[]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(
        body["Metadata"],
        serde_json::json!({"TotalCount": 1, "TotalPages": 100}),
        "Page and Size defaults reach the implementation"
    );
}

#[tokio::test]
async fn bodies_are_checked_for_type_shape_and_size() {
    let base = serve(ServerConfig::default().with_body_limit(1024)).await;
    let post = |content_type: &str, body: &str| {
        request(&base, Method::POST, "/api/esgcategories", &[])
            .header("content-type", content_type)
            .body(body.to_string())
    };
    let valid = r#"{"AccountId":"A1","CategoryIds":["C1"]}"#;
    for content_type in
        ["application/json", "text/json", "application/json-patch+json", "application/merge-patch+json; charset=utf-8"]
    {
        let response = post(content_type, valid).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NO_CONTENT, "{content_type}");
        assert!(response.bytes().await.unwrap().is_empty());
    }
    let (status, body) = problem(post("text/plain", valid)).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(body["detail"].as_str().unwrap().contains("text/plain"), "{body}");

    let (status, body) = problem(post("application/json", r#"{"AccountId":"A1","CategoryIds":"C1"}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["body.CategoryIds"].is_array(), "{body}");
    let (status, body) = problem(post("application/json", r#"{"CategoryIds":[]}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["body"][0].as_str().unwrap().contains("AccountId"), "{body}");
    let (status, _) = problem(post("application/json", "{not json")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let big = format!(r#"{{"AccountId":"{}","CategoryIds":[]}}"#, "x".repeat(2048));
    let (status, body) = problem(post("application/json", &big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body["type"], "urn:problem-type:body-too-large");
}

#[tokio::test]
async fn the_default_body_limit_is_2_mib() {
    let base = serve(ServerConfig::default()).await;
    let big = format!(r#"{{"AccountId":"{}","CategoryIds":["C"]}}"#, "x".repeat(2 * 1024 * 1024));
    let response = request(&base, Method::POST, "/api/esgcategories", &[])
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let small = format!(r#"{{"AccountId":"{}","CategoryIds":["C"]}}"#, "x".repeat(1024 * 1024));
    let response = request(&base, Method::POST, "/api/esgcategories", &[])
        .header("content-type", "application/json")
        .body(small)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn implementation_errors_keep_their_status() {
    let base = serve(ServerConfig::default()).await;
    let (status, body) = problem(
        request(&base, Method::POST, "/api/esgcategories", &[])
            .header("content-type", "application/json")
            .body(r#"{"AccountId":"missing","CategoryIds":["C"]}"#),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["instance"], "/api/esgcategories");
    let response = request(&base, Method::GET, "/api/benchmarks", &[]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(response.headers()["retry-after"], "30");
}

#[tokio::test]
async fn a_panicking_implementation_is_answered_500() {
    let base = serve(ServerConfig::default()).await;
    let (status, body) = problem(request(&base, Method::GET, "/api/models", &[])).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        !body["detail"].as_str().unwrap().contains("implementation bug"),
        "panic messages are not shown to callers: {body}"
    );
    // The server is still serving.
    assert_eq!(request(&base, Method::GET, TX, &[]).send().await.unwrap().status(), StatusCode::OK);
}

#[tokio::test]
async fn unsupported_versions_are_400_with_their_own_problem_type() {
    let mut config = ServerConfig::default();
    config.supported_versions = Some(vec!["2022.09.26".into()]);
    let base = serve(config).await;
    let (status, body) =
        problem(request(&base, Method::GET, TX, &["x-pps-api-version"]).header("x-pps-api-version", "2030.01.01"))
            .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["type"], "urn:problem-type:unsupported-api-version");
    // Without an allow-list the implementation decides.
    let base = serve(ServerConfig::default()).await;
    let (status, body) = problem(
        request(&base, Method::GET, "/api/benchmarks", &["x-pps-api-version"])
            .header("x-pps-api-version", "1999.01.01"),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["type"], "urn:problem-type:unsupported-api-version");
}

#[tokio::test]
async fn unknown_paths_and_methods_are_problems_too() {
    let base = serve(ServerConfig::default()).await;
    let (status, _) = problem(request(&base, Method::GET, "/api/nothing", &[])).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = problem(request(&base, Method::PATCH, "/api/models", &[])).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn body_limits_and_shapes_beyond_types_are_enforced() {
    let base = serve(ServerConfig::default()).await;
    let post = |body: &str| {
        request(&base, Method::POST, "/api/esgcategories", &[])
            .header("content-type", "application/json")
            .body(body.to_string())
    };
    // `CategoryIds` has `minItems: 1`.
    let (status, body) = problem(post(r#"{"AccountId":"A1","CategoryIds":[]}"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["body.CategoryIds"][0].as_str().unwrap().contains("at least 1"), "{body}");
    // A struct written as an array of its values is not an object.
    let (status, _) = problem(post(r#"["A1", ["C1"]]"#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // `null` for an optional field means absent.
    let response = request(&base, Method::PUT, "/api/esgcategories", &[])
        .header("content-type", "application/json")
        .body(r#"{"AccountId":"A1","CategoryIds":null}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_IMPLEMENTED, "the body was accepted and reached the implementation");
}
