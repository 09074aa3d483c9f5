//! The sandbox through the generated client: the service rules, state that writes change, and the
//! publisher-event chain.

use std::sync::Arc;

use portfolio_client::types::*;
use portfolio_client::{Client, Credentials, DateTime, Error};
use sandbox::Sandbox;

async fn start(sandbox: Sandbox) -> String {
    let app = portfolio_server::router_with(Arc::new(sandbox), portfolio_server::ServerConfig::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

async fn client() -> Client {
    let base = start(Sandbox::default()).await;
    Client::new(&base, Credentials::new("t", "k")).unwrap()
}

fn d(text: &str) -> DateTime {
    DateTime::parse(text).unwrap()
}

fn status(err: Error) -> u16 {
    err.status().map(|s| s.as_u16()).unwrap_or_else(|| panic!("expected a status error, got {err:?}"))
}

#[tokio::test]
async fn account_search_pages_and_account_ids_take_precedence() {
    let c = client().await;
    let all = c.get_au_accounts().search("*").await.unwrap();
    let page = &all[0];
    assert_eq!(page.metadata.as_ref().unwrap().total_count, Some(5));
    assert_eq!(page.data.as_ref().unwrap()[0].id.as_deref(), Some("A100"));

    let smiths = c.get_au_accounts().search("smith*").size(2).page(2).await.unwrap();
    let ids: Vec<_> = smiths[0].data.as_ref().unwrap().iter().map(|a| a.id.clone().unwrap()).collect();
    assert_eq!(ids, ["A102"]);
    assert_eq!(smiths[0].metadata.as_ref().unwrap().total_pages, Some(2));

    // With account ids, search and paging are ignored.
    let chosen = c.get_au_accounts().search("nobody").page(9).account_ids(["A300", "A200"]).await.unwrap();
    let ids: Vec<_> = chosen[0].data.as_ref().unwrap().iter().map(|a| a.id.clone().unwrap()).collect();
    assert_eq!(ids, ["A300", "A200"]);

    assert_eq!(status(c.get_au_accounts().account_ids(["A999"]).await.unwrap_err()), 404);
    let children = c.get_au_child_accounts("A100").await.unwrap();
    assert_eq!(children.len(), 2);
}

#[tokio::test]
async fn securities_follow_the_three_rules() {
    let c = client().await;
    let codes = |list: Vec<SecurityResponse>| list.into_iter().map(|s| s.code.unwrap()).collect::<Vec<_>>();
    assert_eq!(
        codes(c.find_au_securities().search("bank").security_ids(["S1"]).await.unwrap()),
        ["CBA"],
        "search wins"
    );
    assert_eq!(
        codes(c.find_au_securities().security_ids(["S1", "S3"]).security_codes(["VAS"]).await.unwrap()),
        ["BHP", "CSL"],
        "ids win over codes"
    );
    assert_eq!(codes(c.find_au_securities().security_codes(["vas"]).await.unwrap()), ["VAS"]);
    assert_eq!(c.find_au_securities().await.unwrap().len(), 8);
}

#[tokio::test]
async fn transactions_filter_order_and_page() {
    let c = client().await;
    let all = c
        .get_au_transactions("A100", d("2024-01-01"), d("2024-12-31"))
        .show_unconfirmed(true)
        .size(1000)
        .await
        .unwrap();
    let rows = all.data.unwrap();
    assert_eq!(rows.len(), 24);
    let dates: Vec<_> = rows.iter().map(|t| t.transaction_date.as_ref().unwrap().local()).collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "descending by date by default");

    let confirmed = c.get_au_transactions("A100", d("2024-01-01"), d("2024-12-31")).size(1000).await.unwrap();
    assert_eq!(confirmed.data.unwrap().len(), 23, "unconfirmed ones are hidden by default");

    let trades = c
        .get_au_transactions("A100", d("2024-01-01"), d("2024-12-31"))
        .buys_and_sells_only(true)
        .size(1000)
        .await
        .unwrap();
    let kinds: Vec<_> = trades.data.unwrap().into_iter().map(|t| t.transaction_type_description.unwrap()).collect();
    assert!(!kinds.is_empty());
    assert!(kinds.iter().all(|k| ["Buy", "Sell", "Close position", "Short Sell"].contains(&k.as_str())), "{kinds:?}");

    let q1 = c
        .get_au_transactions("A100", d("2024-01-01"), d("2024-03-31"))
        .order(SortOrder::Asc)
        .size(2)
        .page(2)
        .await
        .unwrap();
    let meta = q1.metadata.unwrap();
    assert_eq!((meta.total_count, meta.total_pages), (Some(6), Some(3)));
    assert_eq!(q1.data.unwrap()[0].transaction_id.as_deref(), Some("T-A100-02"));

    let by_security = c
        .get_au_transactions("A100", d("2024-01-01"), d("2024-12-31"))
        .order_by(TransactionOrderBy::Security)
        .order(SortOrder::Asc)
        .await
        .unwrap();
    let codes: Vec<_> = by_security.data.unwrap().into_iter().map(|t| t.security.unwrap().code.unwrap()).collect();
    assert!(codes.windows(2).all(|w| w[0] <= w[1]), "{codes:?}");

    let reversed = c.get_au_transactions("A100", d("2024-12-31"), d("2024-01-01")).await.unwrap();
    assert!(reversed.data.unwrap().is_empty(), "a period that ends before it starts holds nothing");
    assert_eq!(status(c.get_au_transactions("NOPE", d("2024-01-01"), d("2024-12-31")).await.unwrap_err()), 404);
}

#[tokio::test]
async fn esg_categories_cashflows_and_weightings_change_state() {
    let c = client().await;
    c.add_au_account_esg_categories()
        .body(PostEsgCategoryRequest::new("A200".into(), vec!["ESG-WATER".into()]))
        .await
        .unwrap();
    assert_eq!(c.get_au_account_esg_categories("A200").await.unwrap(), ["ESG-CLIMATE", "ESG-WATER"]);
    c.replace_au_account_esg_categories()
        .body(PutEsgCategoryRequest::new("A200".into()).with_category_ids(vec!["ESG-X".into()]))
        .await
        .unwrap();
    assert_eq!(c.get_au_account_esg_categories("A200").await.unwrap(), ["ESG-X"]);
    c.delete_au_account_esg_categories("A200").category_id("ESG-X").await.unwrap();
    assert!(c.get_au_account_esg_categories("A200").await.unwrap().is_empty());
    assert_eq!(status(c.delete_au_account_esg_categories("A200").category_id("ESG-X").await.unwrap_err()), 404);

    let allocation = vec![CashflowInstructionDetail::new("GROWTH".into()).with_sequence(1).with_percentage(100.0)];
    c.add_au_one_off_cashflow_instructions()
        .body(
            PostOneOffCashflowInstructionRequest::new(
                OneOffCashflowInstructionType::OneOffDirectDebit,
                "A300".into(),
                allocation.clone(),
            )
            .with_amount(900.0),
        )
        .await
        .unwrap();
    let instructions = c.get_au_cashflow_instructions("A300").await.unwrap();
    let one_off = instructions
        .iter()
        .find(|i| i.cashflow_instruction_type == Some(CashflowInstructionType::OneOffDirectDebit))
        .unwrap();
    let id = one_off.id.clone().unwrap();
    c.delete_au_one_off_cashflow_instructions("A300", &*id, OneOffCashflowInstructionDeleteType::OneOffDirectDebit)
        .await
        .unwrap();
    assert_eq!(c.get_au_cashflow_instructions("A300").await.unwrap().len(), 1);

    c.update_au_regular_cashflow_instructions()
        .body(
            PutRegularCashflowInstructionRequest::new(
                RegularCashflowInstructionType::RegularContribution,
                RegularWithdrawalFrequencyType::Quarterly,
                "A300".into(),
                allocation,
            )
            .with_amount(1500.0),
        )
        .await
        .unwrap();
    let regular = c.get_au_cashflow_instructions("A300").await.unwrap();
    assert_eq!(regular.len(), 1, "the regular contribution was replaced, not added");
    assert_eq!(regular[0].value, Some(1500.0));
    c.delete_au_regular_cashflow_instructions("A300", RegularCashflowInstructionDeleteType::RegularContribution)
        .await
        .unwrap();
    assert!(c.get_au_cashflow_instructions("A300").await.unwrap().is_empty());

    let weights = vec![AccountModelWeighting::default().with_model_code("BALANCED".into()).with_percentage(100.0)];
    c.replace_account_model_weightings()
        .body(PutAccountModelWeightingRequest::new("A100".into(), RebalanceType::Fixed, weights.clone()))
        .await
        .unwrap();
    assert_eq!(c.get_account_model_weightings("A100").await.unwrap(), weights);

    c.replace_au_model_weight_adjustment()
        .body(PutModelWeightAdjustmentRequest::new(
            "M1".into(),
            vec![ModelWeightAdjustment::new("S2".into()).with_target(0.3)],
        ))
        .await
        .unwrap();
    let adjustments = c.get_au_model_weight_adjustment("M1").await.unwrap();
    assert_eq!(adjustments[0].security.as_ref().unwrap().code.as_deref(), Some("CBA"));
    assert_eq!(status(c.get_au_model_weight_adjustment("M9").await.unwrap_err()), 404);
}

#[tokio::test]
async fn draft_applications_and_users_can_be_read_back() {
    let c = client().await;
    let draft = DraftApplication::new(1, vec![DraftApplicant::default()])
        .with_accounts(vec![DraftAccount::new(DraftAccountType::Individual)]);
    let id = c.create_draft_application().body(draft).await.unwrap().application_id.unwrap();
    let status_of = c.get_draft_application_status(id).await.unwrap();
    assert_eq!(status_of.status.as_deref(), Some("Draft"));
    assert_eq!(status_of.accounts_status.unwrap().len(), 1);
    assert_eq!(status(c.get_draft_application_status(uuid::Uuid::nil()).await.unwrap_err()), 404);

    assert_eq!(c.get_user("alex.lee").await.unwrap().user_id, Some(1001));
    assert_eq!(status(c.get_user("nobody").await.unwrap_err()), 404);
}

#[tokio::test]
async fn events_lead_to_details_and_files() {
    let c = client().await;
    let events = c.get_au_publisher_events().await.unwrap();
    let event_id = events[0].id.clone().unwrap();
    let details = c.get_au_publisher_event_detail(event_id).await.unwrap();
    let file_id = details[0].file_id.clone().unwrap();
    let file = c.download_au_file(file_id).await.unwrap();
    assert_eq!(file.file_name, details[0].file_name);
    let bytes = file.body.collect().await.unwrap();
    assert!(bytes.starts_with(b"%PDF"));
    assert_eq!(status(c.download_au_file("F404").await.unwrap_err()), 404);
    assert_eq!(status(c.get_au_publisher_event_detail("E404").await.unwrap_err()), 404);
    let form = c.get_au_app_form("A100").await.unwrap();
    assert_eq!(form.file_name.as_deref(), Some("application-SMITH001.pdf"));
}

#[tokio::test]
async fn fixed_credentials_reject_others() {
    let base = start(Sandbox::new(sandbox::Credentials::Fixed {
        access_token: "good".into(),
        subscription_key: "key".into(),
    }))
    .await;
    let good = Client::new(&base, Credentials::new("good", "key")).unwrap();
    assert_eq!(good.get_au_models().await.unwrap().len(), 3);
    let bad = Client::new(&base, Credentials::new("bad", "key")).unwrap();
    assert_eq!(status(bad.get_au_models().await.unwrap_err()), 401);
}

#[tokio::test]
async fn raw_requests_like_curl() {
    let base = start(Sandbox::default()).await;
    let http = portfolio_client::reqwest::Client::new();
    let url = format!("{base}/api/accounts?search=*");
    let ok = http
        .get(&url)
        .header("Authorization", "t")
        .header("x-pps-subscription-key", "k")
        .header("x-pps-api-version", "2022.09.26")
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let body: serde_json::Value = serde_json::from_slice(&ok.bytes().await.unwrap()).unwrap();
    assert_eq!(body[0]["Data"][0]["Id"], "A100");
    let denied = http
        .get(&url)
        .header("x-pps-subscription-key", "k")
        .header("x-pps-api-version", "2022.09.26")
        .send()
        .await
        .unwrap();
    assert_eq!(denied.status(), 401);
    assert_eq!(denied.headers()["content-type"], "application/problem+json");
}

#[tokio::test]
async fn income_and_expenses_come_from_the_matching_transactions() {
    let c = client().await;
    let (from, to) = (d("2024-01-01T00:00:00Z"), d("2024-12-31T00:00:00Z"));
    let income = c.get_au_income_detail("A100", from, to).await.unwrap();
    assert!(!income.is_empty());
    assert!(income.iter().all(|i| i.income_type_description.as_deref() == Some("Dividend")));
    let expenses = c.get_au_expense_detail("A100", from, to).await.unwrap();
    assert!(!expenses.is_empty());
    let schedules = c.get_au_income_schedules("A100", from, to).await.unwrap();
    assert!(schedules.len() > income.len(), "schedules count interest as well as dividends");
    assert!(
        c.get_au_income_detail("A100", d("2030-01-01T00:00:00Z"), d("2030-12-31T00:00:00Z")).await.unwrap().is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_thousand_esg_categories_neither_take_long_nor_stall_other_requests() {
    let c = client().await;
    // 100,000 distinct ids and as many repeats, about 2 MiB of JSON under the body limit.
    let ids: Vec<String> = (0..200_000).map(|i| format!("E{:06}", i % 100_000)).collect();
    let add = c
        .add_au_account_esg_categories()
        .body(PostEsgCategoryRequest::new("A200".into(), ids))
        .timeout(std::time::Duration::from_secs(10));
    let other = c.clone();
    // Meanwhile another request must still be answered promptly.
    let probe = tokio::spawn(async move {
        let mut slowest = std::time::Duration::ZERO;
        for _ in 0..20 {
            let started = std::time::Instant::now();
            other.get_au_models().await.unwrap();
            slowest = slowest.max(started.elapsed());
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        slowest
    });
    add.await.unwrap();
    let slowest = probe.await.unwrap();
    assert!(slowest < std::time::Duration::from_secs(1), "another request waited {slowest:?}");
    let stored = c.get_au_account_esg_categories("A200").await.unwrap();
    assert_eq!(stored.len(), sandbox::MAX_ENTRIES, "capped, the newest kept");
    assert_eq!(stored.last().map(String::as_str), Some("E099999"));
}

#[tokio::test]
async fn every_growing_collection_keeps_only_its_newest_entries() {
    let base = start(Sandbox::default().with_max_entries(3)).await;
    let c = Client::new(&base, Credentials::new("t", "k")).unwrap();
    let mut drafts = Vec::new();
    for _ in 0..5 {
        drafts.push(c.create_draft_application().await.unwrap().application_id.unwrap());
    }
    assert_eq!(status(c.get_draft_application_status(drafts[1]).await.unwrap_err()), 404, "the oldest went");
    for id in &drafts[2..] {
        c.get_draft_application_status(*id).await.unwrap();
    }
    for _ in 0..5 {
        c.create_user().await.unwrap();
    }
    assert_eq!(status(c.get_user("alex.lee").await.unwrap_err()), 404, "the sample users were the oldest");
    let allocation = vec![CashflowInstructionDetail::new("GROWTH".into()).with_sequence(1).with_percentage(100.0)];
    for amount in 0..5 {
        c.add_au_one_off_cashflow_instructions()
            .body(
                PostOneOffCashflowInstructionRequest::new(
                    OneOffCashflowInstructionType::OneOffDirectDebit,
                    "A300".into(),
                    allocation.clone(),
                )
                .with_amount(f64::from(amount)),
            )
            .await
            .unwrap();
    }
    let values: Vec<_> = c.get_au_cashflow_instructions("A300").await.unwrap().iter().map(|i| i.value).collect();
    assert_eq!(values, [Some(2.0), Some(3.0), Some(4.0)]);
}
