//! The generated client against Prism, an independent mock server that validates every request
//! against `spec/openapi.yaml` and answers with schema-valid data. Needs Prism installed; the tests
//! are ignored by default and `bash .ci/run` runs them (`PRISM=path/to/prism cargo test -p portfolio-tests --test it
//! prism:: -- --ignored`).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use portfolio_client::types::*;
use portfolio_client::{Client, Credentials, DateTime, Error};
use portfolio_tests::{RawReply, RawServer, workspace_root};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A running `prism mock`, stopped on drop.
struct Prism {
    child: Child,
    base: String,
}

impl Prism {
    fn start(dynamic: bool) -> Prism {
        let bin = std::env::var("PRISM").expect("set PRISM to the prism executable (bash .ci/run installs it)");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut command = Command::new(bin);
        command.args(["mock", "-h", "127.0.0.1", "-p", &port.to_string()]);
        if dynamic {
            command.arg("-d");
        }
        command.arg(workspace_root().join("spec/openapi.yaml"));
        let child = command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("start prism");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(60), "prism did not start listening");
            std::thread::sleep(Duration::from_millis(100));
        }
        Prism { child, base: format!("http://127.0.0.1:{port}") }
    }

    fn client(&self) -> Client {
        Client::new(&self.base, Credentials::new("prism-token", "prism-key")).unwrap()
    }
}

impl Drop for Prism {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn d(text: &str) -> DateTime {
    DateTime::parse(text).unwrap()
}

/// Why Prism refused a request, from its `sl-violations` header.
fn explain(err: &Error) -> String {
    match err {
        Error::Status(s) => format!(
            "{} {}: {}",
            s.status,
            s.headers.get("sl-violations").and_then(|v| v.to_str().ok()).unwrap_or(""),
            String::from_utf8_lossy(&s.body)
        ),
        other => other.to_string(),
    }
}

/// Calls every operation once with valid arguments; returns the operations that failed.
async fn call_every_operation(c: &Client) -> (usize, Vec<String>) {
    let (from, to, on) = (d("2024-01-01T00:00:00Z"), d("2024-12-31T00:00:00+10:00"), d("2024-06-30T00:00:00Z"));
    let allocation = vec![CashflowInstructionDetail::new("GROWTH".into()).with_sequence(1).with_percentage(100.0)];
    let user = PostUserRequest::new(
        IndividualName::new("Ada".into(), "Lee".into()),
        "ada@example.com".into(),
        vec![Address::new(
            AddressType::Home,
            "1 Main St".into(),
            "Town".into(),
            "NSW".into(),
            "2000".into(),
            "AUS".into(),
        )],
        "0400000000".into(),
        12,
        true,
    );
    let mut results: Vec<(&str, Result<(), Error>)> = Vec::new();
    macro_rules! call {
        ($name:literal, $call:expr) => {
            results.push(($name, $call.await.map(drop)));
        };
    }
    call!("GetUser", c.get_user("alex"));
    call!("CreateUser", c.create_user().body(user));
    call!("LinkUserAccounts", c.link_user_accounts().body(PatchUserAccountRequest::new(5, vec!["A1".into()])));
    call!("GetAUAccounts", c.get_au_accounts().search("sm*").account_ids(["A1", "A2"]).page(2).size(10));
    call!("GetAUChildAccounts", c.get_au_child_accounts("A1"));
    call!("GetAccountModelWeightings", c.get_account_model_weightings("A1"));
    call!(
        "ReplaceAccountModelWeightings",
        c.replace_account_model_weightings().body(PutAccountModelWeightingRequest::new(
            "A1".into(),
            RebalanceType::Fixed,
            vec![AccountModelWeighting::default().with_model_code("M".into()).with_percentage(100.0)]
        ))
    );
    results.push((
        "GetAUAppForm",
        match c.get_au_app_form("A1").recipient(AppFormRecipient::Adviser).form_type(AppFormType::Paper).await {
            Ok(download) => download.body.collect().await.map(drop),
            Err(e) => Err(e),
        },
    ));
    call!(
        "CreateDraftApplication",
        c.create_draft_application().body(DraftApplication::new(1, vec![DraftApplicant::default()]))
    );
    call!("GetDraftApplicationStatus", c.get_draft_application_status(uuid::Uuid::from_u128(7)));
    call!("GetPDS", c.get_pds());
    call!("GetUKCedingParties", c.get_uk_ceding_parties("north").account_type(CedingPartyAccountType::Isa));
    call!(
        "FindAUSecurities",
        c.find_au_securities().search("bhp").pds_id("P1").security_ids(["S1"]).security_codes(["BHP"])
    );
    call!("GetAURecalcStatus", c.get_au_recalc_status());
    call!("GetAUHoldings", c.get_au_holdings(["A1", "A 2"], on, ClassificationType::MarketType));
    call!("GetAUHoldingsPerModel", c.get_au_holdings_per_model("A1", from, to));
    call!("GetAUAssetClassSummary", c.get_au_asset_class_summary("A1", on).include_loans(true));
    call!(
        "GetAUTransactions",
        c.get_au_transactions("A1", from, to)
            .buys_and_sells_only(true)
            .show_unconfirmed(false)
            .page(1)
            .size(50)
            .order_by(TransactionOrderBy::Security)
            .order(SortOrder::Asc)
    );
    call!(
        "GetAUCashTransactions",
        c.get_au_cash_transactions("A1", from, to).include_pending_unsettled(true).page(1).size(5)
    );
    call!("GetAUUnsettledTransactions", c.get_au_unsettled_transactions("A1", from, to).page(1).size(5));
    call!("GetAUDividendReinvestmentDetails", c.get_au_dividend_reinvestment_details("A1"));
    call!("GetAUIncomeDetail", c.get_au_income_detail("A1", from, to));
    call!("GetAUIncomeSchedules", c.get_au_income_schedules("A1", from, to));
    call!("GetAUIncomeSchedulesBulk", c.get_au_income_schedules_bulk(["A1", "A2"], from, to));
    call!("GetAUExpenseDetail", c.get_au_expense_detail("A1", from, to));
    call!("GetAUBpay", c.get_au_bpay(["A1"]));
    call!(
        "GetAUPerformance",
        c.get_au_performance("A1", from, to)
            .include_cash(true)
            .include_loans(false)
            .include_excluded_securities(true)
            .include_tax_credits(false)
            .display_returns(DisplayReturns::AfterExpenses)
            .multiple_periods(9)
            .calculation_method(CalculationMethod::ApproximateReturns)
    );
    call!(
        "GetAUAssetClassPerformance",
        c.get_au_asset_class_performance("A1", from, to)
            .include_foreign_tax_paid(true)
            .calculation_method(CalculationMethod::TimeWeightedReturn)
    );
    call!("GetAUBenchmarks", c.get_au_benchmarks());
    call!("GetAUBenchmarkPerformance", c.get_au_benchmark_performance("B1", from, to).multiple_periods(-1));
    call!("GetAUModels", c.get_au_models());
    call!("GetAUAproximateFum", c.get_au_aproximate_fum("M1", on));
    call!("GetAUModelPerformance", c.get_au_model_performance("M1", from, to));
    call!("GetAUModelHoldings", c.get_au_model_holdings("M1", on));
    call!("GetAUModelWeightAdjustment", c.get_au_model_weight_adjustment("M1"));
    call!(
        "ReplaceAUModelWeightAdjustment",
        c.replace_au_model_weight_adjustment().body(PutModelWeightAdjustmentRequest::new(
            "M1".into(),
            vec![ModelWeightAdjustment::new("S1".into()).with_target(0.5)]
        ))
    );
    call!("GetAUAccountEsgCategories", c.get_au_account_esg_categories("A1"));
    call!(
        "AddAUAccountEsgCategories",
        c.add_au_account_esg_categories().body(PostEsgCategoryRequest::new("A1".into(), vec!["E1".into()]))
    );
    call!(
        "ReplaceAUAccountEsgCategories",
        c.replace_au_account_esg_categories().body(PutEsgCategoryRequest::new("A1".into()))
    );
    call!("DeleteAUAccountEsgCategories", c.delete_au_account_esg_categories("A1").category_id("E1"));
    call!("GetAUCashflowInstructions", c.get_au_cashflow_instructions("A1"));
    call!(
        "AddAUOneOffCashflowInstructions",
        c.add_au_one_off_cashflow_instructions().body(
            PostOneOffCashflowInstructionRequest::new(
                OneOffCashflowInstructionType::OneOffWithdrawal,
                "A1".into(),
                allocation.clone()
            )
            .with_amount(100.0)
            .with_tax_type(SuperannuationContributionType::Spouse)
        )
    );
    call!(
        "DeleteAUOneOffCashflowInstructions",
        c.delete_au_one_off_cashflow_instructions("A1", "CF1", OneOffCashflowInstructionDeleteType::OneOffDirectDebit)
    );
    call!(
        "UpdateAURegularCashflowInstructions",
        c.update_au_regular_cashflow_instructions().body(
            PutRegularCashflowInstructionRequest::new(
                RegularCashflowInstructionType::RegularContribution,
                RegularWithdrawalFrequencyType::Monthly,
                "A1".into(),
                allocation
            )
            .with_start_date(from)
            .with_amount(250.0)
        )
    );
    call!(
        "DeleteAURegularCashflowInstructions",
        c.delete_au_regular_cashflow_instructions("A1", RegularCashflowInstructionDeleteType::RegularWithdrawal)
    );
    call!("GetAUPublisherEvents", c.get_au_publisher_events());
    call!("GetAUPublisherEventDetail", c.get_au_publisher_event_detail("E1"));
    results.push((
        "DownloadAUFile",
        match c.download_au_file("F1").await {
            Ok(download) => download.body.collect().await.map(drop),
            Err(e) => Err(e),
        },
    ));
    let failures =
        results.iter().filter_map(|(name, r)| r.as_ref().err().map(|e| format!("{name}: {}", explain(e)))).collect();
    (results.len(), failures)
}

#[tokio::test]
#[ignore = "needs Prism; bash .ci/run runs it"]
async fn prism_accepts_every_request_the_client_sends() {
    let prism = Prism::start(false);
    let (called, failures) = call_every_operation(&prism.client()).await;
    assert_eq!(called, 48);
    assert!(failures.is_empty(), "Prism refused or the client could not decode:\n{}", failures.join("\n"));
}

#[tokio::test]
#[ignore = "needs Prism; bash .ci/run runs it"]
async fn the_client_decodes_hundreds_of_random_valid_replies() {
    let prism = Prism::start(true);
    let client = prism.client();
    let rounds = std::env::var("PRISM_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(200);
    let mut decoded = 0;
    for _ in 0..rounds {
        let (called, failures) = call_every_operation(&client).await;
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        decoded += called;
    }
    println!("decoded {decoded} random replies ({rounds} per operation)");
    assert_eq!(decoded, 48 * rounds);
}

/// Sends raw request bytes and returns the status code of the reply.
async fn status_of(base: &str, request: &[u8]) -> u16 {
    let addr = base.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    socket.write_all(request).await.unwrap();
    let mut reply = Vec::new();
    let mut buf = [0u8; 4096];
    while !reply.windows(2).any(|w| w == b"\r\n") {
        let n = socket.read(&mut buf).await.unwrap();
        assert!(n > 0, "connection closed before a status line");
        reply.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&reply);
    line.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// The bytes the client puts on the wire for representative operations are accepted by Prism and
/// by the generated server alike.
#[tokio::test]
#[ignore = "needs Prism; bash .ci/run runs it"]
async fn prism_and_the_server_accept_the_same_bytes() {
    let prism = Prism::start(false);
    let app = portfolio_server::router(sandbox::Sandbox::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let capture = RawServer::start(RawReply::empty(599)).await;
    let c = Client::new(&capture.base_url(), Credentials::new("t", "k")).unwrap();
    let (from, to) = (d("2024-01-01T00:00:00Z"), d("2024-03-31T00:00:00+10:00"));
    let _ = c.get_au_holdings(["A100", "A200"], from, ClassificationType::AssetClassLookThrough).await;
    let _ = c.get_au_transactions("A100", from, to).order(SortOrder::Asc).page(1).await;
    let _ = c.get_draft_application_status(uuid::Uuid::from_u128(1)).await;
    let _ = c.add_au_account_esg_categories().body(PostEsgCategoryRequest::new("A100".into(), vec!["E1".into()])).await;
    let _ = c.replace_account_model_weightings().await;
    let _ = c
        .delete_au_regular_cashflow_instructions("A100", RegularCashflowInstructionDeleteType::RegularContribution)
        .await;
    let requests = capture.requests();
    assert_eq!(requests.len(), 6);
    for r in requests {
        let mut bytes = format!("{} {} HTTP/1.1\r\n", r.method, r.target).into_bytes();
        for (name, value) in &r.headers {
            if name != "host" {
                bytes.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
            }
        }
        let mut to_prism = bytes.clone();
        to_prism.extend_from_slice(
            format!("host: {}\r\nconnection: close\r\n\r\n", prism.base.trim_start_matches("http://")).as_bytes(),
        );
        to_prism.extend_from_slice(&r.body);
        let mut to_server = bytes;
        to_server.extend_from_slice(
            format!("host: {}\r\nconnection: close\r\n\r\n", server.trim_start_matches("http://")).as_bytes(),
        );
        to_server.extend_from_slice(&r.body);
        let prism_status = status_of(&prism.base, &to_prism).await;
        let server_status = status_of(&server, &to_server).await;
        assert!((200..300).contains(&prism_status), "Prism answered {prism_status} to {} {}", r.method, r.target);
        assert!(
            (200..300).contains(&server_status) || server_status == 404,
            "the server answered {server_status} to {} {}",
            r.method,
            r.target
        );
    }
}
