//! Every operation through the real stack: the generated client calls the generated router on
//! 127.0.0.1, which validates and hands a typed input to a recording implementation. Each test
//! checks both sides: what the implementation received (defaults applied) and what the client
//! decoded. Client and server share one types crate, so values are compared directly.

use std::any::Any;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use portfolio_server::inputs::*;
use portfolio_server::types::*;
use portfolio_server::{ApiError, DateTime, FileDownload, PortfolioApi, RequestContext};

/// One call as the implementation saw it.
struct Call {
    operation: &'static str,
    ctx: RequestContext,
    input: Box<dyn Any + Send>,
}

#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<Call>>,
}

impl Recorder {
    fn record<T: Any + Send>(&self, operation: &'static str, ctx: RequestContext, input: T) {
        self.calls.lock().unwrap().push(Call { operation, ctx, input: Box::new(input) });
    }
}

/// The canned reply of each operation, and an implementation that records its input and answers
/// with it.
macro_rules! recorder {
    ($($method:ident($input:ty) -> $reply:ty = $value:expr;)*) => {
        impl PortfolioApi for Recorder {
            $(
                async fn $method(&self, ctx: RequestContext, input: $input) -> Result<$reply, ApiError> {
                    self.record(stringify!($method), ctx, input);
                    Ok($value)
                }
            )*
        }
    };
}

fn dt(text: &str) -> DateTime {
    DateTime::parse(text).unwrap()
}

fn account(id: &str) -> Account {
    Account::default()
        .with_id(id.into())
        .with_code(format!("{id}-CODE"))
        .with_status(AccountStatus::Closed)
        .with_valuation_date(dt("2024-06-30T00:00:00"))
}

fn holdings() -> Vec<HoldingData> {
    vec![HoldingData::default().with_account_id("A1".into()).with_holdings(vec![
        Holding::default().with_quantity(12.5).with_unit_price_date(dt("2024-06-28T16:00:00+10:00")),
    ])]
}

fn transactions() -> TransactionIEnumerablePagedResponse {
    TransactionIEnumerablePagedResponse::default()
        .with_data(vec![Transaction::default().with_transaction_id("T1".into()).with_net_amount(-20.5)])
        .with_metadata(Metadata::default().with_total_count(41).with_total_pages(5))
}

const FILE: &[u8] = b"%PDF-1.4 sample";

recorder! {
    get_user(GetUserInput) -> User = User::default().with_user_id(7);
    create_user(CreateUserInput) -> UserCreationResponse = UserCreationResponse::default().with_id(8).with_get_started_token("tok".into());
    link_user_accounts(LinkUserAccountsInput) -> () = ();
    get_au_accounts(GetAuAccountsInput) -> Vec<AccountIEnumerablePagedResponse> = vec![AccountIEnumerablePagedResponse::default().with_data(vec![account("A1")]).with_metadata(Metadata::default().with_total_count(1).with_total_pages(1))];
    get_au_child_accounts(GetAuChildAccountsInput) -> Vec<ChildAccountAu> = vec![ChildAccountAu::default().with_id("A2".into())];
    get_account_model_weightings(GetAccountModelWeightingsInput) -> Vec<AccountModelWeighting> = vec![AccountModelWeighting::default().with_model_code("M".into()).with_percentage(100.0)];
    replace_account_model_weightings(ReplaceAccountModelWeightingsInput) -> () = ();
    get_au_app_form(GetAuAppFormInput) -> FileDownload = FileDownload::new(FILE).with_file_name("form.pdf");
    create_draft_application(CreateDraftApplicationInput) -> ApplicationUploadResult = ApplicationUploadResult::default().with_application_id(uuid::Uuid::from_u128(42));
    get_draft_application_status(GetDraftApplicationStatusInput) -> ApplicationStatus = ApplicationStatus::default().with_application_id(uuid::Uuid::from_u128(42)).with_status("Draft".into()).with_accounts_status(vec![ApplicationAccountStatus::default().with_account_code("X".into()).with_status(AccountLifeCycle::AwaitingFund)]);
    get_pds(GetPdsInput) -> Vec<PdsDetail> = vec![PdsDetail::default().with_id("P1".into()).with_region(ApplicantRegion::International)];
    get_uk_ceding_parties(GetUkCedingPartiesInput) -> Vec<CedingPartyResponse> = vec![CedingPartyResponse::default().with_ceding_party_id("C1".into())];
    find_au_securities(FindAuSecuritiesInput) -> Vec<SecurityResponse> = vec![SecurityResponse::default().with_code("BHP".into())];
    get_au_recalc_status(GetAuRecalcStatusInput) -> ServiceRecalcStatus = ServiceRecalcStatus::default().with_recalc_as_at_date(dt("2024-07-01T02:03:04.5Z"));
    get_au_holdings(GetAuHoldingsInput) -> Vec<HoldingData> = holdings();
    get_au_holdings_per_model(GetAuHoldingsPerModelInput) -> Vec<HoldingsHistoryPerModel> = vec![HoldingsHistoryPerModel::default().with_total_value(1.0)];
    get_au_asset_class_summary(GetAuAssetClassSummaryInput) -> AssetClassSummary = AssetClassSummary::default().with_valuation(AssetClassValuation::default().with_total_value(9.0));
    get_au_transactions(GetAuTransactionsInput) -> TransactionIEnumerablePagedResponse = transactions();
    get_au_cash_transactions(GetAuCashTransactionsInput) -> CashBookIEnumerablePagedResponse = CashBookIEnumerablePagedResponse::default().with_data(vec![CashBook::default()]);
    get_au_unsettled_transactions(GetAuUnsettledTransactionsInput) -> Vec<UnsettledTransaction> = vec![UnsettledTransaction::default().with_quantity(3.0)];
    get_au_dividend_reinvestment_details(GetAuDividendReinvestmentDetailsInput) -> Vec<DividendReinvestmentDetail> = vec![DividendReinvestmentDetail::default().with_drp_type(DrpType::Bsp)];
    get_au_income_detail(GetAuIncomeDetailInput) -> Vec<IncomeDetail> = vec![IncomeDetail::default().with_income_total(4.25)];
    get_au_income_schedules(GetAuIncomeSchedulesInput) -> Vec<IncomeSchedule> = vec![IncomeSchedule::default().with_interest(1.5)];
    get_au_income_schedules_bulk(GetAuIncomeSchedulesBulkInput) -> Vec<BulkIncomeScheduleData> = vec![BulkIncomeScheduleData::default().with_account_id("A1".into()).with_income_schedules(vec![])];
    get_au_expense_detail(GetAuExpenseDetailInput) -> Vec<Expense> = vec![Expense::default().with_expense_id("E1".into())];
    get_au_bpay(GetAuBpayInput) -> Vec<BpayInfo> = vec![BpayInfo::default().with_bpay_type(BpayType::SpecialPersonal).with_biller_code(1234)];
    get_au_performance(GetAuPerformanceInput) -> Performance = Performance::default().with_percent_returns(vec![PerformanceReturn::default().with_period_description("1 yr".into()).with_gross_percent_return(7.5)]);
    get_au_asset_class_performance(GetAuAssetClassPerformanceInput) -> Vec<AssetClassInvestment> = vec![AssetClassInvestment::default().with_total_return_percent(-1.25)];
    get_au_benchmarks(GetAuBenchmarksInput) -> Vec<Benchmark> = vec![Benchmark::default().with_id("B1".into())];
    get_au_benchmark_performance(GetAuBenchmarkPerformanceInput) -> Vec<BenchmarkReturn> = vec![BenchmarkReturn::default().with_period_description("3 mths".into()).with_percentage_return(2.0)];
    get_au_models(GetAuModelsInput) -> Vec<Model> = vec![Model::default().with_id("M1".into()).with_status(ModelStatus::Closing)];
    get_au_aproximate_fum(GetAuAproximateFumInput) -> ModelApproximateFum = ModelApproximateFum::default().with_number_of_accounts_linked(3);
    get_au_model_performance(GetAuModelPerformanceInput) -> ModelPerformance = ModelPerformance::default().with_daily_percentage_returns(vec![ModelDailyPercentageReturn::default().with_date(dt("2024-01-02")).with_percentage_return(0.1).with_cumulative_percentage_return(0.1)]);
    get_au_model_holdings(GetAuModelHoldingsInput) -> Vec<ModelHolding> = vec![ModelHolding::default().with_target_value_percentage(50.0)];
    get_au_model_weight_adjustment(GetAuModelWeightAdjustmentInput) -> Vec<ModelWeightAdjustmentResponse> = vec![ModelWeightAdjustmentResponse::default().with_target(0.2)];
    replace_au_model_weight_adjustment(ReplaceAuModelWeightAdjustmentInput) -> () = ();
    get_au_account_esg_categories(GetAuAccountEsgCategoriesInput) -> Vec<String> = vec!["ESG1".into(), "ESG2".into()];
    add_au_account_esg_categories(AddAuAccountEsgCategoriesInput) -> () = ();
    replace_au_account_esg_categories(ReplaceAuAccountEsgCategoriesInput) -> () = ();
    delete_au_account_esg_categories(DeleteAuAccountEsgCategoriesInput) -> () = ();
    get_au_cashflow_instructions(GetAuCashflowInstructionsInput) -> Vec<CashflowInstruction> = vec![CashflowInstruction::default().with_cashflow_instruction_type(CashflowInstructionType::InsurancePremiums)];
    add_au_one_off_cashflow_instructions(AddAuOneOffCashflowInstructionsInput) -> () = ();
    delete_au_one_off_cashflow_instructions(DeleteAuOneOffCashflowInstructionsInput) -> () = ();
    update_au_regular_cashflow_instructions(UpdateAuRegularCashflowInstructionsInput) -> () = ();
    delete_au_regular_cashflow_instructions(DeleteAuRegularCashflowInstructionsInput) -> () = ();
    get_au_publisher_events(GetAuPublisherEventsInput) -> Vec<PublisherEvent> = vec![PublisherEvent::default().with_id("E1".into())];
    get_au_publisher_event_detail(GetAuPublisherEventDetailInput) -> Vec<PublisherEventDetail> = vec![PublisherEventDetail::default().with_file_id("F1".into())];
    download_au_file(DownloadAuFileInput) -> FileDownload = FileDownload::new(FILE).with_file_name("report.pdf").with_content_type("application/pdf");
}

struct Harness {
    recorder: Arc<Recorder>,
    client: portfolio_client::Client,
}

impl Harness {
    async fn start() -> Harness {
        let recorder = Arc::new(Recorder::default());
        let app = portfolio_server::router_with(recorder.clone(), portfolio_server::ServerConfig::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let credentials = portfolio_client::Credentials::new("token-1", "key-1");
        let client = portfolio_client::Client::new(&format!("http://{addr}"), credentials).unwrap();
        Harness { recorder, client }
    }

    /// The input of the last call, which must have been `operation`.
    fn last<T: Any + Clone>(&self, operation: &str) -> T {
        let calls = self.recorder.calls.lock().unwrap();
        let call = calls.last().expect("the implementation was called");
        assert_eq!(call.operation, operation);
        assert_eq!(call.ctx.access_token, "token-1");
        assert_eq!(call.ctx.subscription_key, "key-1");
        assert_eq!(call.ctx.api_version, portfolio_client::API_VERSION);
        call.input.downcast_ref::<T>().expect("input of the operation's type").clone()
    }

    fn operations(&self) -> BTreeSet<String> {
        self.recorder.calls.lock().unwrap().iter().map(|c| c.operation.to_string()).collect()
    }
}

#[tokio::test]
async fn every_operation_round_trips() {
    let h = Harness::start().await;
    let c = &h.client;

    // Accounts, users and applications
    assert_eq!(&c.get_user("alex").await.unwrap(), &User::default().with_user_id(7));
    assert_eq!(h.last::<GetUserInput>("get_user").username, "alex");

    let user = PostUserRequest::new(
        IndividualName::new("Ada".into(), "Lee".into()).with_title(Title::Dr),
        "ada@example.com".into(),
        vec![Address::new(
            AddressType::Mailing,
            "1 Main St".into(),
            "Town".into(),
            "NSW".into(),
            "2000".into(),
            "AUS".into(),
        )],
        "0400000000".into(),
        12,
        true,
    )
    .with_date_of_birth(dt("1990-02-03T00:00:00"));
    assert_eq!(
        &c.create_user().body(user.clone()).await.unwrap(),
        &UserCreationResponse::default().with_id(8).with_get_started_token("tok".into()),
    );
    assert_eq!(&h.last::<CreateUserInput>("create_user").body, &Some(user));

    let link = PatchUserAccountRequest::new(5, vec!["A1".into()]).with_user_role(LinkType::Owner);
    c.link_user_accounts().body(link.clone()).await.unwrap();
    assert_eq!(&h.last::<LinkUserAccountsInput>("link_user_accounts").body, &Some(link));

    c.get_au_accounts().await.unwrap();
    let input = h.last::<GetAuAccountsInput>("get_au_accounts");
    assert_eq!((input.search, input.account_ids, input.page, input.size), (None, None, 1, 100));
    let accounts = c.get_au_accounts().search("sm*").account_ids(["A1", "A2"]).page(3).size(7).await.unwrap();
    assert_eq!(
        &accounts,
        &vec![
            AccountIEnumerablePagedResponse::default()
                .with_data(vec![account("A1")])
                .with_metadata(Metadata::default().with_total_count(1).with_total_pages(1))
        ],
    );
    let input = h.last::<GetAuAccountsInput>("get_au_accounts");
    assert_eq!(
        (input.search, input.account_ids, input.page, input.size),
        (Some("sm*".into()), Some(vec!["A1".into(), "A2".into()]), 3, 7)
    );

    assert_eq!(&c.get_au_child_accounts("A1").await.unwrap(), &vec![ChildAccountAu::default().with_id("A2".into())]);
    assert_eq!(h.last::<GetAuChildAccountsInput>("get_au_child_accounts").account_id, "A1");

    c.get_account_model_weightings("A1").await.unwrap();
    assert_eq!(h.last::<GetAccountModelWeightingsInput>("get_account_model_weightings").account_id, "A1");

    let weightings = PutAccountModelWeightingRequest::new(
        "A1".into(),
        RebalanceType::Floating,
        vec![AccountModelWeighting::default().with_model_code("M".into()).with_percentage(100.0)],
    );
    c.replace_account_model_weightings().body(weightings.clone()).await.unwrap();
    assert_eq!(
        &h.last::<ReplaceAccountModelWeightingsInput>("replace_account_model_weightings").body,
        &Some(weightings)
    );
    c.replace_account_model_weightings().await.unwrap();
    assert_eq!(
        h.last::<ReplaceAccountModelWeightingsInput>("replace_account_model_weightings").body,
        None,
        "an absent body arrives as None"
    );

    let form = c.get_au_app_form("A1").recipient(AppFormRecipient::Investor).await.unwrap();
    assert_eq!(form.file_name.as_deref(), Some("form.pdf"));
    assert_eq!(form.content_type.as_deref(), Some("application/octet-stream"));
    assert_eq!(form.body.collect().await.unwrap(), FILE);
    let input = h.last::<GetAuAppFormInput>("get_au_app_form");
    assert_eq!(
        (input.account_id.as_str(), input.recipient, input.form_type),
        ("A1", Some(AppFormRecipient::Investor), None)
    );

    let draft = DraftApplication::new(3, vec![DraftApplicant::default()]);
    assert_eq!(
        &c.create_draft_application().body(draft.clone()).await.unwrap(),
        &ApplicationUploadResult::default().with_application_id(uuid::Uuid::from_u128(42)),
    );
    assert_eq!(&h.last::<CreateDraftApplicationInput>("create_draft_application").body, &Some(draft));

    let status = c.get_draft_application_status(uuid::Uuid::from_u128(42)).await.unwrap();
    assert_eq!(status.accounts_status.unwrap()[0].status, Some(AccountLifeCycle::AwaitingFund));
    assert_eq!(
        h.last::<GetDraftApplicationStatusInput>("get_draft_application_status").application_id,
        uuid::Uuid::from_u128(42)
    );

    // Reference data
    let pds = c.get_pds().await.unwrap();
    assert_eq!(pds[0].region, Some(ApplicantRegion::International));
    h.last::<GetPdsInput>("get_pds");

    c.get_uk_ceding_parties("north").account_type(CedingPartyAccountType::Gia).await.unwrap();
    let input = h.last::<GetUkCedingPartiesInput>("get_uk_ceding_parties");
    assert_eq!((input.account_type, input.search.as_str()), (Some(CedingPartyAccountType::Gia), "north"));

    c.find_au_securities().security_codes(["BHP", "CBA"]).pds_id("P1").await.unwrap();
    let input = h.last::<FindAuSecuritiesInput>("find_au_securities");
    assert_eq!(
        (input.search, input.pds_id, input.security_ids, input.security_codes),
        (None, Some("P1".into()), None, Some(vec!["BHP".into(), "CBA".into()]))
    );

    let recalc = c.get_au_recalc_status().await.unwrap();
    assert_eq!(recalc.recalc_as_at_date.unwrap().as_str(), "2024-07-01T02:03:04.5Z", "date-times round-trip exactly");
    h.last::<GetAuRecalcStatusInput>("get_au_recalc_status");

    // Holdings, transactions, income and expenses
    let held =
        c.get_au_holdings(["A1", "A2"], dt("2024-06-30"), ClassificationType::AssetClassPrimaryClass).await.unwrap();
    assert_eq!(&held, &holdings());
    let input = h.last::<GetAuHoldingsInput>("get_au_holdings");
    assert_eq!(
        (input.account_ids, input.valuation_date, input.classification_type),
        (vec!["A1".into(), "A2".into()], dt("2024-06-30"), ClassificationType::AssetClassPrimaryClass)
    );

    c.get_au_holdings_per_model("A1", dt("2024-01-01T00:00:00+10:00"), dt("2024-06-30T00:00:00Z")).await.unwrap();
    let input = h.last::<GetAuHoldingsPerModelInput>("get_au_holdings_per_model");
    assert_eq!(
        (input.account_id.as_str(), input.from_date, input.to_date),
        ("A1", dt("2024-01-01T00:00:00+10:00"), dt("2024-06-30T00:00:00Z"))
    );

    c.get_au_asset_class_summary("A1", dt("2024-06-30")).await.unwrap();
    let input = h.last::<GetAuAssetClassSummaryInput>("get_au_asset_class_summary");
    assert_eq!((input.account_id.as_str(), input.include_loans, input.valuation_date), ("A1", false, dt("2024-06-30")));

    assert_eq!(&c.get_au_transactions("A1", dt("2024-01-01"), dt("2024-12-31")).await.unwrap(), &transactions());
    let input = h.last::<GetAuTransactionsInput>("get_au_transactions");
    assert_eq!((input.account_id.as_str(), input.from_date, input.to_date), ("A1", dt("2024-01-01"), dt("2024-12-31")));
    assert_eq!(
        (input.buys_and_sells_only, input.show_unconfirmed, input.page, input.size, input.order_by, input.order),
        (false, false, 1, 100, TransactionOrderBy::TransactionDate, SortOrder::Desc),
        "defaults are applied by the server"
    );
    c.get_au_transactions("A1", dt("2024-01-01"), dt("2024-12-31"))
        .buys_and_sells_only(true)
        .show_unconfirmed(true)
        .page(2)
        .size(10)
        .order_by(TransactionOrderBy::Security)
        .order(SortOrder::Asc)
        .await
        .unwrap();
    let input = h.last::<GetAuTransactionsInput>("get_au_transactions");
    assert!(input.buys_and_sells_only && input.show_unconfirmed);
    assert_eq!(
        (input.page, input.size, input.order_by, input.order),
        (2, 10, TransactionOrderBy::Security, SortOrder::Asc)
    );

    c.get_au_cash_transactions("A1", dt("2024-01-01"), dt("2024-02-01")).include_pending_unsettled(true).await.unwrap();
    let input = h.last::<GetAuCashTransactionsInput>("get_au_cash_transactions");
    assert_eq!((input.include_pending_unsettled, input.page, input.size), (true, 1, 100));
    assert_eq!((input.account_id.as_str(), input.from_date, input.to_date), ("A1", dt("2024-01-01"), dt("2024-02-01")));

    c.get_au_unsettled_transactions("A1", dt("2024-01-01"), dt("2024-02-01")).size(5).await.unwrap();
    let input = h.last::<GetAuUnsettledTransactionsInput>("get_au_unsettled_transactions");
    assert_eq!((input.page, input.size), (1, 5));

    let drp = c.get_au_dividend_reinvestment_details("A1").await.unwrap();
    assert_eq!(drp[0].drp_type, Some(DrpType::Bsp));
    assert_eq!(
        h.last::<GetAuDividendReinvestmentDetailsInput>("get_au_dividend_reinvestment_details").account_id,
        "A1"
    );

    c.get_au_income_detail("A1", dt("2024-01-01"), dt("2024-02-01")).await.unwrap();
    assert_eq!(h.last::<GetAuIncomeDetailInput>("get_au_income_detail").to_date, dt("2024-02-01"));

    c.get_au_income_schedules("A1", dt("2024-01-01"), dt("2024-02-01")).await.unwrap();
    assert_eq!(h.last::<GetAuIncomeSchedulesInput>("get_au_income_schedules").account_id, "A1");

    c.get_au_income_schedules_bulk(["A1", "A2"], dt("2024-01-01"), dt("2024-02-01")).await.unwrap();
    assert_eq!(h.last::<GetAuIncomeSchedulesBulkInput>("get_au_income_schedules_bulk").account_ids, ["A1", "A2"]);

    c.get_au_expense_detail("A1", dt("2024-01-01"), dt("2024-02-01")).await.unwrap();
    assert_eq!(h.last::<GetAuExpenseDetailInput>("get_au_expense_detail").from_date, dt("2024-01-01"));

    let bpay = c.get_au_bpay(["A1"]).await.unwrap();
    assert_eq!(bpay[0].bpay_type, Some(BpayType::SpecialPersonal));
    assert_eq!(h.last::<GetAuBpayInput>("get_au_bpay").account_ids, ["A1"]);

    // Performance
    let performance = c.get_au_performance("A1", dt("2024-01-01"), dt("2024-12-31")).await.unwrap();
    assert_eq!(performance.percent_returns.unwrap()[0].gross_percent_return, Some(7.5));
    let input = h.last::<GetAuPerformanceInput>("get_au_performance");
    assert_eq!((input.account_id.as_str(), input.from_date, input.to_date), ("A1", dt("2024-01-01"), dt("2024-12-31")));
    assert_eq!(
        (input.include_cash, input.include_loans, input.include_excluded_securities, input.include_tax_credits),
        (false, false, false, false)
    );
    assert_eq!(
        (input.display_returns, input.multiple_periods, input.calculation_method),
        (DisplayReturns::Both, -1, CalculationMethod::TimeWeightedReturn)
    );
    c.get_au_performance("A1", dt("2024-01-01"), dt("2024-12-31"))
        .include_cash(true)
        .display_returns(DisplayReturns::BeforeExpenses)
        .multiple_periods(9)
        .calculation_method(CalculationMethod::ApproximateReturns)
        .await
        .unwrap();
    let input = h.last::<GetAuPerformanceInput>("get_au_performance");
    assert!(input.include_cash);
    assert_eq!(
        (input.display_returns, input.multiple_periods, input.calculation_method),
        (DisplayReturns::BeforeExpenses, 9, CalculationMethod::ApproximateReturns)
    );

    c.get_au_asset_class_performance("A1", dt("2024-01-01"), dt("2024-12-31"))
        .include_foreign_tax_paid(true)
        .await
        .unwrap();
    let input = h.last::<GetAuAssetClassPerformanceInput>("get_au_asset_class_performance");
    assert!(input.include_foreign_tax_paid && !input.include_cash);
    assert_eq!(input.calculation_method, CalculationMethod::TimeWeightedReturn);

    c.get_au_benchmarks().await.unwrap();
    h.last::<GetAuBenchmarksInput>("get_au_benchmarks");

    c.get_au_benchmark_performance("B1", dt("2024-01-01"), dt("2024-12-31")).await.unwrap();
    let input = h.last::<GetAuBenchmarkPerformanceInput>("get_au_benchmark_performance");
    assert_eq!(
        (input.benchmark_id.as_str(), input.multiple_periods, input.from_date, input.to_date),
        ("B1", -1, dt("2024-01-01"), dt("2024-12-31"))
    );

    // Models
    let models = c.get_au_models().await.unwrap();
    assert_eq!(models[0].status, Some(ModelStatus::Closing));
    h.last::<GetAuModelsInput>("get_au_models");

    c.get_au_aproximate_fum("M1", dt("2024-06-30")).await.unwrap();
    let input = h.last::<GetAuAproximateFumInput>("get_au_aproximate_fum");
    assert_eq!((input.model_id.as_str(), input.valuation_date), ("M1", dt("2024-06-30")));

    let perf = c.get_au_model_performance("M1", dt("2024-01-01"), dt("2024-12-31")).await.unwrap();
    assert_eq!(perf.daily_percentage_returns.unwrap()[0].date.as_ref().unwrap().as_str(), "2024-01-02");
    assert_eq!(h.last::<GetAuModelPerformanceInput>("get_au_model_performance").model_id, "M1");

    c.get_au_model_holdings("M1", dt("2024-06-30")).await.unwrap();
    assert_eq!(h.last::<GetAuModelHoldingsInput>("get_au_model_holdings").model_id, "M1");

    c.get_au_model_weight_adjustment("M1").await.unwrap();
    assert_eq!(h.last::<GetAuModelWeightAdjustmentInput>("get_au_model_weight_adjustment").model_id, "M1");

    let adjustment = PutModelWeightAdjustmentRequest::new(
        "M1".into(),
        vec![ModelWeightAdjustment::new("S1".into()).with_target(0.25)],
    );
    c.replace_au_model_weight_adjustment().body(adjustment.clone()).await.unwrap();
    assert_eq!(
        &h.last::<ReplaceAuModelWeightAdjustmentInput>("replace_au_model_weight_adjustment").body,
        &Some(adjustment)
    );

    // ESG categories
    assert_eq!(c.get_au_account_esg_categories("A1").await.unwrap(), ["ESG1", "ESG2"]);
    assert_eq!(h.last::<GetAuAccountEsgCategoriesInput>("get_au_account_esg_categories").account_id, "A1");

    let add = PostEsgCategoryRequest::new("A1".into(), vec!["ESG3".into()]);
    c.add_au_account_esg_categories().body(add.clone()).await.unwrap();
    assert_eq!(&h.last::<AddAuAccountEsgCategoriesInput>("add_au_account_esg_categories").body, &Some(add));

    let replace = PutEsgCategoryRequest::new("A1".into());
    c.replace_au_account_esg_categories().body(replace.clone()).await.unwrap();
    assert_eq!(&h.last::<ReplaceAuAccountEsgCategoriesInput>("replace_au_account_esg_categories").body, &Some(replace));

    c.delete_au_account_esg_categories("A1").category_id("ESG1").await.unwrap();
    let input = h.last::<DeleteAuAccountEsgCategoriesInput>("delete_au_account_esg_categories");
    assert_eq!((input.account_id.as_str(), input.category_id.as_deref()), ("A1", Some("ESG1")));

    // Cashflow instructions
    let instructions = c.get_au_cashflow_instructions("A1").await.unwrap();
    assert_eq!(instructions[0].cashflow_instruction_type, Some(CashflowInstructionType::InsurancePremiums));
    assert_eq!(h.last::<GetAuCashflowInstructionsInput>("get_au_cashflow_instructions").account_id, "A1");

    let one_off = PostOneOffCashflowInstructionRequest::new(
        OneOffCashflowInstructionType::OneOffWithdrawal,
        "A1".into(),
        vec![CashflowInstructionDetail::new("M".into()).with_sequence(1).with_percentage(100.0)],
    )
    .with_amount(250.0)
    .with_tax_type(SuperannuationContributionType::Downsizer);
    c.add_au_one_off_cashflow_instructions().body(one_off.clone()).await.unwrap();
    assert_eq!(
        &h.last::<AddAuOneOffCashflowInstructionsInput>("add_au_one_off_cashflow_instructions").body,
        &Some(one_off)
    );

    c.delete_au_one_off_cashflow_instructions("A1", "CF1", OneOffCashflowInstructionDeleteType::OneOffDirectDebit)
        .await
        .unwrap();
    let input = h.last::<DeleteAuOneOffCashflowInstructionsInput>("delete_au_one_off_cashflow_instructions");
    assert_eq!(
        (input.account_id.as_str(), input.cashflow_instruction_id.as_str(), input.cashflow_instruction_type),
        ("A1", "CF1", OneOffCashflowInstructionDeleteType::OneOffDirectDebit)
    );

    let regular = PutRegularCashflowInstructionRequest::new(
        RegularCashflowInstructionType::RegularWithdrawal,
        RegularWithdrawalFrequencyType::Quarterly,
        "A1".into(),
        vec![CashflowInstructionDetail::new("M".into())],
    )
    .with_start_date(dt("2025-01-01T00:00:00"))
    .with_amount(1000.0);
    c.update_au_regular_cashflow_instructions().body(regular.clone()).await.unwrap();
    assert_eq!(
        &h.last::<UpdateAuRegularCashflowInstructionsInput>("update_au_regular_cashflow_instructions").body,
        &Some(regular),
    );

    c.delete_au_regular_cashflow_instructions("A1", RegularCashflowInstructionDeleteType::RegularWithdrawal)
        .await
        .unwrap();
    assert_eq!(
        h.last::<DeleteAuRegularCashflowInstructionsInput>("delete_au_regular_cashflow_instructions")
            .cashflow_instruction_type,
        RegularCashflowInstructionDeleteType::RegularWithdrawal
    );

    // Publisher events and files
    c.get_au_publisher_events().await.unwrap();
    h.last::<GetAuPublisherEventsInput>("get_au_publisher_events");

    let details = c.get_au_publisher_event_detail("E1").await.unwrap();
    assert_eq!(details[0].file_id.as_deref(), Some("F1"));
    assert_eq!(h.last::<GetAuPublisherEventDetailInput>("get_au_publisher_event_detail").event_id, "E1");

    let file = c.download_au_file("F1").await.unwrap();
    assert_eq!(
        (file.file_name.as_deref(), file.content_type.as_deref()),
        (Some("report.pdf"), Some("application/pdf"))
    );
    assert_eq!(file.body.collect().await.unwrap(), FILE);
    assert_eq!(h.last::<DownloadAuFileInput>("download_au_file").file_id, "F1");

    // Every operation of the spec was called: a new operation without a test fails here.
    let spec = portfolio_tests::spec_text();
    let config = xtask::codegen::project_config();
    let api = apigen::lower(&apigen::load(&spec).unwrap().doc, &config).unwrap();
    let expected: BTreeSet<String> = api.operations.iter().map(|op| op.fn_name.clone()).collect();
    assert_eq!(expected.len(), 48);
    assert_eq!(h.operations(), expected);
}
