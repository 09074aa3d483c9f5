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
    Account {
        id: Some(id.into()),
        code: Some(format!("{id}-CODE")),
        status: Some(AccountStatus::Closed),
        valuation_date: Some(dt("2024-06-30T00:00:00")),
        ..Default::default()
    }
}

fn holdings() -> Vec<HoldingData> {
    vec![HoldingData {
        account_id: Some("A1".into()),
        holdings: Some(vec![Holding {
            quantity: Some(12.5),
            unit_price_date: Some(dt("2024-06-28T16:00:00+10:00")),
            ..Default::default()
        }]),
        ..Default::default()
    }]
}

fn transactions() -> TransactionIEnumerablePagedResponse {
    TransactionIEnumerablePagedResponse {
        data: Some(vec![Transaction {
            transaction_id: Some("T1".into()),
            net_amount: Some(-20.5),
            ..Default::default()
        }]),
        metadata: Some(Metadata { total_count: Some(41), total_pages: Some(5) }),
    }
}

const FILE: &[u8] = b"%PDF-1.4 sample";

recorder! {
    get_user(GetUserInput) -> User = User { user_id: Some(7) };
    create_user(CreateUserInput) -> UserCreationResponse = UserCreationResponse { id: Some(8), get_started_token: Some("tok".into()) };
    link_user_accounts(LinkUserAccountsInput) -> () = ();
    get_au_accounts(GetAuAccountsInput) -> Vec<AccountIEnumerablePagedResponse> = vec![AccountIEnumerablePagedResponse { data: Some(vec![account("A1")]), metadata: Some(Metadata { total_count: Some(1), total_pages: Some(1) }) }];
    get_au_child_accounts(GetAuChildAccountsInput) -> Vec<ChildAccountAu> = vec![ChildAccountAu { id: Some("A2".into()) }];
    get_account_model_weightings(GetAccountModelWeightingsInput) -> Vec<AccountModelWeighting> = vec![AccountModelWeighting { model_code: Some("M".into()), percentage: Some(100.0) }];
    replace_account_model_weightings(ReplaceAccountModelWeightingsInput) -> () = ();
    get_au_app_form(GetAuAppFormInput) -> FileDownload = FileDownload::new(FILE).with_file_name("form.pdf");
    create_draft_application(CreateDraftApplicationInput) -> ApplicationUploadResult = ApplicationUploadResult { application_id: Some(uuid::Uuid::from_u128(42)) };
    get_draft_application_status(GetDraftApplicationStatusInput) -> ApplicationStatus = ApplicationStatus { application_id: Some(uuid::Uuid::from_u128(42)), status: Some("Draft".into()), accounts_status: Some(vec![ApplicationAccountStatus { account_code: Some("X".into()), status: Some(AccountLifeCycle::AwaitingFund) }]) };
    get_pds(GetPdsInput) -> Vec<PdsDetail> = vec![PdsDetail { id: Some("P1".into()), region: Some(ApplicantRegion::International), ..Default::default() }];
    get_uk_ceding_parties(GetUkCedingPartiesInput) -> Vec<CedingPartyResponse> = vec![CedingPartyResponse { ceding_party_id: Some("C1".into()), ..Default::default() }];
    find_au_securities(FindAuSecuritiesInput) -> Vec<SecurityResponse> = vec![SecurityResponse { code: Some("BHP".into()), ..Default::default() }];
    get_au_recalc_status(GetAuRecalcStatusInput) -> ServiceRecalcStatus = ServiceRecalcStatus { recalc_as_at_date: Some(dt("2024-07-01T02:03:04.5Z")) };
    get_au_holdings(GetAuHoldingsInput) -> Vec<HoldingData> = holdings();
    get_au_holdings_per_model(GetAuHoldingsPerModelInput) -> Vec<HoldingsHistoryPerModel> = vec![HoldingsHistoryPerModel { total_value: Some(1.0), ..Default::default() }];
    get_au_asset_class_summary(GetAuAssetClassSummaryInput) -> AssetClassSummary = AssetClassSummary { valuation: Some(AssetClassValuation { total_value: Some(9.0), ..Default::default() }), ..Default::default() };
    get_au_transactions(GetAuTransactionsInput) -> TransactionIEnumerablePagedResponse = transactions();
    get_au_cash_transactions(GetAuCashTransactionsInput) -> CashBookIEnumerablePagedResponse = CashBookIEnumerablePagedResponse { data: Some(vec![CashBook::default()]), metadata: None };
    get_au_unsettled_transactions(GetAuUnsettledTransactionsInput) -> Vec<UnsettledTransaction> = vec![UnsettledTransaction { quantity: Some(3.0), ..Default::default() }];
    get_au_dividend_reinvestment_details(GetAuDividendReinvestmentDetailsInput) -> Vec<DividendReinvestmentDetail> = vec![DividendReinvestmentDetail { drp_type: Some(DrpType::Bsp), ..Default::default() }];
    get_au_income_detail(GetAuIncomeDetailInput) -> Vec<IncomeDetail> = vec![IncomeDetail { income_total: Some(4.25), ..Default::default() }];
    get_au_income_schedules(GetAuIncomeSchedulesInput) -> Vec<IncomeSchedule> = vec![IncomeSchedule { interest: Some(1.5), ..Default::default() }];
    get_au_income_schedules_bulk(GetAuIncomeSchedulesBulkInput) -> Vec<BulkIncomeScheduleData> = vec![BulkIncomeScheduleData { account_id: Some("A1".into()), income_schedules: Some(vec![]) }];
    get_au_expense_detail(GetAuExpenseDetailInput) -> Vec<Expense> = vec![Expense { expense_id: Some("E1".into()), ..Default::default() }];
    get_au_bpay(GetAuBpayInput) -> Vec<BpayInfo> = vec![BpayInfo { bpay_type: Some(BpayType::SpecialPersonal), biller_code: Some(1234), ..Default::default() }];
    get_au_performance(GetAuPerformanceInput) -> Performance = Performance { percent_returns: Some(vec![PerformanceReturn { period_description: Some("1 yr".into()), gross_percent_return: Some(7.5), net_percent_return: None }]), ..Default::default() };
    get_au_asset_class_performance(GetAuAssetClassPerformanceInput) -> Vec<AssetClassInvestment> = vec![AssetClassInvestment { total_return_percent: Some(-1.25), ..Default::default() }];
    get_au_benchmarks(GetAuBenchmarksInput) -> Vec<Benchmark> = vec![Benchmark { id: Some("B1".into()), ..Default::default() }];
    get_au_benchmark_performance(GetAuBenchmarkPerformanceInput) -> Vec<BenchmarkReturn> = vec![BenchmarkReturn { period_description: Some("3 mths".into()), percentage_return: Some(2.0) }];
    get_au_models(GetAuModelsInput) -> Vec<Model> = vec![Model { id: Some("M1".into()), status: Some(ModelStatus::Closing), ..Default::default() }];
    get_au_aproximate_fum(GetAuAproximateFumInput) -> ModelApproximateFum = ModelApproximateFum { number_of_accounts_linked: Some(3), ..Default::default() };
    get_au_model_performance(GetAuModelPerformanceInput) -> ModelPerformance = ModelPerformance { daily_percentage_returns: Some(vec![ModelDailyPercentageReturn { date: Some(dt("2024-01-02")), percentage_return: Some(0.1), cumulative_percentage_return: Some(0.1) }]), percentage_returns: None };
    get_au_model_holdings(GetAuModelHoldingsInput) -> Vec<ModelHolding> = vec![ModelHolding { target_value_percentage: Some(50.0), ..Default::default() }];
    get_au_model_weight_adjustment(GetAuModelWeightAdjustmentInput) -> Vec<ModelWeightAdjustmentResponse> = vec![ModelWeightAdjustmentResponse { target: Some(0.2), security: None }];
    replace_au_model_weight_adjustment(ReplaceAuModelWeightAdjustmentInput) -> () = ();
    get_au_account_esg_categories(GetAuAccountEsgCategoriesInput) -> Vec<String> = vec!["ESG1".into(), "ESG2".into()];
    add_au_account_esg_categories(AddAuAccountEsgCategoriesInput) -> () = ();
    replace_au_account_esg_categories(ReplaceAuAccountEsgCategoriesInput) -> () = ();
    delete_au_account_esg_categories(DeleteAuAccountEsgCategoriesInput) -> () = ();
    get_au_cashflow_instructions(GetAuCashflowInstructionsInput) -> Vec<CashflowInstruction> = vec![CashflowInstruction { cashflow_instruction_type: Some(CashflowInstructionType::InsurancePremiums), ..Default::default() }];
    add_au_one_off_cashflow_instructions(AddAuOneOffCashflowInstructionsInput) -> () = ();
    delete_au_one_off_cashflow_instructions(DeleteAuOneOffCashflowInstructionsInput) -> () = ();
    update_au_regular_cashflow_instructions(UpdateAuRegularCashflowInstructionsInput) -> () = ();
    delete_au_regular_cashflow_instructions(DeleteAuRegularCashflowInstructionsInput) -> () = ();
    get_au_publisher_events(GetAuPublisherEventsInput) -> Vec<PublisherEvent> = vec![PublisherEvent { id: Some("E1".into()), ..Default::default() }];
    get_au_publisher_event_detail(GetAuPublisherEventDetailInput) -> Vec<PublisherEventDetail> = vec![PublisherEventDetail { file_id: Some("F1".into()), ..Default::default() }];
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
    assert_eq!(&c.get_user("alex").await.unwrap(), &User { user_id: Some(7) });
    assert_eq!(h.last::<GetUserInput>("get_user"), GetUserInput { username: "alex".into() });

    let user = PostUserRequest {
        name: IndividualName { title: Some(Title::Dr), first_name: "Ada".into(), last_name: "Lee".into() },
        gender: None,
        email: "ada@example.com".into(),
        date_of_birth: Some(dt("1990-02-03T00:00:00")),
        mothers_maiden_name: None,
        addresses: vec![Address {
            r#type: AddressType::Mailing,
            line1: "1 Main St".into(),
            line2: None,
            line3: None,
            suburb_or_county: "Town".into(),
            town_or_city_or_state: "NSW".into(),
            postcode: "2000".into(),
            country: "AUS".into(),
        }],
        phone: "0400000000".into(),
        phone_other: None,
        job_title: None,
        adviser_id: 12,
        generate_get_started_token: true,
    };
    assert_eq!(
        &c.create_user().body(user.clone()).await.unwrap(),
        &UserCreationResponse { id: Some(8), get_started_token: Some("tok".into()) },
    );
    assert_eq!(&h.last::<CreateUserInput>("create_user").body, &Some(user));

    let link = PatchUserAccountRequest {
        user_id: 5,
        account_ids: vec!["A1".into()],
        user_role: Some(LinkType::Owner),
        access: None,
    };
    c.link_user_accounts().body(link.clone()).await.unwrap();
    assert_eq!(&h.last::<LinkUserAccountsInput>("link_user_accounts").body, &Some(link));

    c.get_au_accounts().await.unwrap();
    assert_eq!(
        h.last::<GetAuAccountsInput>("get_au_accounts"),
        GetAuAccountsInput { search: None, account_ids: None, page: 1, size: 100 }
    );
    let accounts = c.get_au_accounts().search("sm*").account_ids(["A1", "A2"]).page(3).size(7).await.unwrap();
    assert_eq!(
        &accounts,
        &vec![AccountIEnumerablePagedResponse {
            data: Some(vec![account("A1")]),
            metadata: Some(Metadata { total_count: Some(1), total_pages: Some(1) }),
        }],
    );
    assert_eq!(
        h.last::<GetAuAccountsInput>("get_au_accounts"),
        GetAuAccountsInput {
            search: Some("sm*".into()),
            account_ids: Some(vec!["A1".into(), "A2".into()]),
            page: 3,
            size: 7
        }
    );

    assert_eq!(&c.get_au_child_accounts("A1").await.unwrap(), &vec![ChildAccountAu { id: Some("A2".into()) }]);
    assert_eq!(h.last::<GetAuChildAccountsInput>("get_au_child_accounts").account_id, "A1");

    c.get_account_model_weightings("A1").await.unwrap();
    assert_eq!(h.last::<GetAccountModelWeightingsInput>("get_account_model_weightings").account_id, "A1");

    let weightings = PutAccountModelWeightingRequest {
        account_id: "A1".into(),
        rebalance_type: RebalanceType::Floating,
        account_model_weightings: vec![AccountModelWeighting { model_code: Some("M".into()), percentage: Some(100.0) }],
    };
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
    assert_eq!(
        h.last::<GetAuAppFormInput>("get_au_app_form"),
        GetAuAppFormInput { account_id: "A1".into(), recipient: Some(AppFormRecipient::Investor), form_type: None }
    );

    let draft = DraftApplication {
        adviser_id: 3,
        owner_adviser_id: None,
        applicants: vec![DraftApplicant::default()],
        accounts: None,
    };
    assert_eq!(
        &c.create_draft_application().body(draft.clone()).await.unwrap(),
        &ApplicationUploadResult { application_id: Some(uuid::Uuid::from_u128(42)) },
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
    assert_eq!(
        h.last::<GetUkCedingPartiesInput>("get_uk_ceding_parties"),
        GetUkCedingPartiesInput { account_type: Some(CedingPartyAccountType::Gia), search: "north".into() }
    );

    c.find_au_securities().security_codes(["BHP", "CBA"]).pds_id("P1").await.unwrap();
    assert_eq!(
        h.last::<FindAuSecuritiesInput>("find_au_securities"),
        FindAuSecuritiesInput {
            search: None,
            pds_id: Some("P1".into()),
            security_ids: None,
            security_codes: Some(vec!["BHP".into(), "CBA".into()])
        }
    );

    let recalc = c.get_au_recalc_status().await.unwrap();
    assert_eq!(recalc.recalc_as_at_date.unwrap().as_str(), "2024-07-01T02:03:04.5Z", "date-times round-trip exactly");
    h.last::<GetAuRecalcStatusInput>("get_au_recalc_status");

    // Holdings, transactions, income and expenses
    let held =
        c.get_au_holdings(["A1", "A2"], dt("2024-06-30"), ClassificationType::AssetClassPrimaryClass).await.unwrap();
    assert_eq!(&held, &holdings());
    assert_eq!(
        h.last::<GetAuHoldingsInput>("get_au_holdings"),
        GetAuHoldingsInput {
            account_ids: vec!["A1".into(), "A2".into()],
            valuation_date: dt("2024-06-30"),
            classification_type: ClassificationType::AssetClassPrimaryClass
        }
    );

    c.get_au_holdings_per_model("A1", dt("2024-01-01T00:00:00+10:00"), dt("2024-06-30T00:00:00Z")).await.unwrap();
    assert_eq!(
        h.last::<GetAuHoldingsPerModelInput>("get_au_holdings_per_model"),
        GetAuHoldingsPerModelInput {
            account_id: "A1".into(),
            from_date: dt("2024-01-01T00:00:00+10:00"),
            to_date: dt("2024-06-30T00:00:00Z")
        }
    );

    c.get_au_asset_class_summary("A1", dt("2024-06-30")).await.unwrap();
    assert_eq!(
        h.last::<GetAuAssetClassSummaryInput>("get_au_asset_class_summary"),
        GetAuAssetClassSummaryInput { account_id: "A1".into(), include_loans: false, valuation_date: dt("2024-06-30") }
    );

    assert_eq!(&c.get_au_transactions("A1", dt("2024-01-01"), dt("2024-12-31")).await.unwrap(), &transactions());
    assert_eq!(
        h.last::<GetAuTransactionsInput>("get_au_transactions"),
        GetAuTransactionsInput {
            account_id: "A1".into(),
            from_date: dt("2024-01-01"),
            to_date: dt("2024-12-31"),
            buys_and_sells_only: false,
            show_unconfirmed: false,
            page: 1,
            size: 100,
            order_by: TransactionOrderBy::TransactionDate,
            order: SortOrder::Desc,
        },
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
    assert_eq!(
        h.last::<GetAuCashTransactionsInput>("get_au_cash_transactions"),
        GetAuCashTransactionsInput {
            include_pending_unsettled: true,
            page: 1,
            size: 100,
            account_id: "A1".into(),
            from_date: dt("2024-01-01"),
            to_date: dt("2024-02-01")
        }
    );

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
    assert_eq!(
        h.last::<GetAuPerformanceInput>("get_au_performance"),
        GetAuPerformanceInput {
            account_id: "A1".into(),
            from_date: dt("2024-01-01"),
            to_date: dt("2024-12-31"),
            include_cash: false,
            include_loans: false,
            include_excluded_securities: false,
            include_tax_credits: false,
            display_returns: DisplayReturns::Both,
            multiple_periods: -1,
            calculation_method: CalculationMethod::TimeWeightedReturn,
        }
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
    assert_eq!(
        h.last::<GetAuBenchmarkPerformanceInput>("get_au_benchmark_performance"),
        GetAuBenchmarkPerformanceInput {
            benchmark_id: "B1".into(),
            multiple_periods: -1,
            from_date: dt("2024-01-01"),
            to_date: dt("2024-12-31")
        }
    );

    // Models
    let models = c.get_au_models().await.unwrap();
    assert_eq!(models[0].status, Some(ModelStatus::Closing));
    h.last::<GetAuModelsInput>("get_au_models");

    c.get_au_aproximate_fum("M1", dt("2024-06-30")).await.unwrap();
    assert_eq!(
        h.last::<GetAuAproximateFumInput>("get_au_aproximate_fum"),
        GetAuAproximateFumInput { model_id: "M1".into(), valuation_date: dt("2024-06-30") }
    );

    let perf = c.get_au_model_performance("M1", dt("2024-01-01"), dt("2024-12-31")).await.unwrap();
    assert_eq!(perf.daily_percentage_returns.unwrap()[0].date.as_ref().unwrap().as_str(), "2024-01-02");
    assert_eq!(h.last::<GetAuModelPerformanceInput>("get_au_model_performance").model_id, "M1");

    c.get_au_model_holdings("M1", dt("2024-06-30")).await.unwrap();
    assert_eq!(h.last::<GetAuModelHoldingsInput>("get_au_model_holdings").model_id, "M1");

    c.get_au_model_weight_adjustment("M1").await.unwrap();
    assert_eq!(h.last::<GetAuModelWeightAdjustmentInput>("get_au_model_weight_adjustment").model_id, "M1");

    let adjustment = PutModelWeightAdjustmentRequest {
        model_id: "M1".into(),
        model_weight_adjustments: vec![ModelWeightAdjustment { security_id: "S1".into(), target: Some(0.25) }],
    };
    c.replace_au_model_weight_adjustment().body(adjustment.clone()).await.unwrap();
    assert_eq!(
        &h.last::<ReplaceAuModelWeightAdjustmentInput>("replace_au_model_weight_adjustment").body,
        &Some(adjustment)
    );

    // ESG categories
    assert_eq!(c.get_au_account_esg_categories("A1").await.unwrap(), ["ESG1", "ESG2"]);
    assert_eq!(h.last::<GetAuAccountEsgCategoriesInput>("get_au_account_esg_categories").account_id, "A1");

    let add = PostEsgCategoryRequest { account_id: "A1".into(), category_ids: vec!["ESG3".into()] };
    c.add_au_account_esg_categories().body(add.clone()).await.unwrap();
    assert_eq!(&h.last::<AddAuAccountEsgCategoriesInput>("add_au_account_esg_categories").body, &Some(add));

    let replace = PutEsgCategoryRequest { account_id: "A1".into(), category_ids: None };
    c.replace_au_account_esg_categories().body(replace.clone()).await.unwrap();
    assert_eq!(&h.last::<ReplaceAuAccountEsgCategoriesInput>("replace_au_account_esg_categories").body, &Some(replace));

    c.delete_au_account_esg_categories("A1").category_id("ESG1").await.unwrap();
    assert_eq!(
        h.last::<DeleteAuAccountEsgCategoriesInput>("delete_au_account_esg_categories"),
        DeleteAuAccountEsgCategoriesInput { account_id: "A1".into(), category_id: Some("ESG1".into()) }
    );

    // Cashflow instructions
    let instructions = c.get_au_cashflow_instructions("A1").await.unwrap();
    assert_eq!(instructions[0].cashflow_instruction_type, Some(CashflowInstructionType::InsurancePremiums));
    assert_eq!(h.last::<GetAuCashflowInstructionsInput>("get_au_cashflow_instructions").account_id, "A1");

    let one_off = PostOneOffCashflowInstructionRequest {
        cashflow_instruction_type: OneOffCashflowInstructionType::OneOffWithdrawal,
        amount: Some(250.0),
        tax_type: Some(SuperannuationContributionType::Downsizer),
        account_id: "A1".into(),
        allocations: vec![CashflowInstructionDetail {
            model_code: "M".into(),
            sequence: Some(1),
            percentage: Some(100.0),
        }],
    };
    c.add_au_one_off_cashflow_instructions().body(one_off.clone()).await.unwrap();
    assert_eq!(
        &h.last::<AddAuOneOffCashflowInstructionsInput>("add_au_one_off_cashflow_instructions").body,
        &Some(one_off)
    );

    c.delete_au_one_off_cashflow_instructions("A1", "CF1", OneOffCashflowInstructionDeleteType::OneOffDirectDebit)
        .await
        .unwrap();
    assert_eq!(
        h.last::<DeleteAuOneOffCashflowInstructionsInput>("delete_au_one_off_cashflow_instructions"),
        DeleteAuOneOffCashflowInstructionsInput {
            account_id: "A1".into(),
            cashflow_instruction_id: "CF1".into(),
            cashflow_instruction_type: OneOffCashflowInstructionDeleteType::OneOffDirectDebit
        }
    );

    let regular = PutRegularCashflowInstructionRequest {
        cashflow_instruction_type: RegularCashflowInstructionType::RegularWithdrawal,
        frequency_type: RegularWithdrawalFrequencyType::Quarterly,
        start_date: Some(dt("2025-01-01T00:00:00")),
        end_date: None,
        amount: Some(1000.0),
        account_id: "A1".into(),
        allocations: vec![CashflowInstructionDetail::new("M".into())],
    };
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
    let api = portfolio_codegen::lower(&portfolio_codegen::load(&spec).unwrap().doc, &config).unwrap();
    let expected: BTreeSet<String> = api.operations.iter().map(|op| op.fn_name.clone()).collect();
    assert_eq!(expected.len(), 48);
    assert_eq!(h.operations(), expected);
}
