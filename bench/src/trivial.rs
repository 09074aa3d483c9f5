//! The generated router with an implementation that does no work: `GET /api/holdings` returns a
//! fixed list and `POST /api/esgcategories` accepts its body; everything else is 501.

use portfolio_server::inputs::*;
use portfolio_server::types::*;
use portfolio_server::{ApiError, FileDownload, PortfolioApi, RequestContext};

/// The implementation; holds the reply so serving it costs only serialization.
pub struct Trivial {
    pub holdings: Vec<HoldingData>,
}

macro_rules! not_implemented {
    ($($method:ident($input:ty) -> $reply:ty;)*) => {
        $(
            async fn $method(&self, _: RequestContext, _: $input) -> Result<$reply, ApiError> {
                Err(ApiError::not_implemented(stringify!($method)))
            }
        )*
    };
}

impl PortfolioApi for Trivial {
    async fn get_au_holdings(&self, _: RequestContext, _: GetAuHoldingsInput) -> Result<Vec<HoldingData>, ApiError> {
        Ok(self.holdings.clone())
    }

    async fn add_au_account_esg_categories(
        &self,
        _: RequestContext,
        input: AddAuAccountEsgCategoriesInput,
    ) -> Result<(), ApiError> {
        std::hint::black_box(input);
        Ok(())
    }

    not_implemented! {
        get_user(GetUserInput) -> User;
        create_user(CreateUserInput) -> UserCreationResponse;
        link_user_accounts(LinkUserAccountsInput) -> ();
        get_au_accounts(GetAuAccountsInput) -> Vec<AccountIEnumerablePagedResponse>;
        get_au_child_accounts(GetAuChildAccountsInput) -> Vec<ChildAccountAu>;
        get_account_model_weightings(GetAccountModelWeightingsInput) -> Vec<AccountModelWeighting>;
        replace_account_model_weightings(ReplaceAccountModelWeightingsInput) -> ();
        get_au_app_form(GetAuAppFormInput) -> FileDownload;
        create_draft_application(CreateDraftApplicationInput) -> ApplicationUploadResult;
        get_draft_application_status(GetDraftApplicationStatusInput) -> ApplicationStatus;
        get_pds(GetPdsInput) -> Vec<PdsDetail>;
        get_uk_ceding_parties(GetUkCedingPartiesInput) -> Vec<CedingPartyResponse>;
        find_au_securities(FindAuSecuritiesInput) -> Vec<SecurityResponse>;
        get_au_recalc_status(GetAuRecalcStatusInput) -> ServiceRecalcStatus;
        get_au_holdings_per_model(GetAuHoldingsPerModelInput) -> Vec<HoldingsHistoryPerModel>;
        get_au_asset_class_summary(GetAuAssetClassSummaryInput) -> AssetClassSummary;
        get_au_transactions(GetAuTransactionsInput) -> TransactionIEnumerablePagedResponse;
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
        get_au_benchmarks(GetAuBenchmarksInput) -> Vec<Benchmark>;
        get_au_benchmark_performance(GetAuBenchmarkPerformanceInput) -> Vec<BenchmarkReturn>;
        get_au_models(GetAuModelsInput) -> Vec<Model>;
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
        download_au_file(DownloadAuFileInput) -> FileDownload;
    }
}
