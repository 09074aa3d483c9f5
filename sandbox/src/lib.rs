//! An in-memory implementation of [`PortfolioApi`] over a small, deterministic sample data set.
//!
//! It follows the service rules of the interface document (account id precedence, the securities
//! search rules, `BuysAndSellsOnly` kinds, paging, date filters, ordering), and the operations
//! that change state (ESG categories, cashflow instructions, model weightings and adjustments,
//! users, draft applications) change what the next read returns.

mod data;

use std::collections::{BTreeMap, HashSet};
use std::sync::{Mutex, MutexGuard};

use portfolio_server::inputs::*;
use portfolio_server::types::*;
use portfolio_server::{ApiError, DateTime, FileDownload, PortfolioApi, RequestContext};
use uuid::Uuid;

use data::{AccountData, BUYS_AND_SELLS, SECURITIES, at, utc};

/// Credentials the sandbox accepts: any non-empty values, or exactly one pair.
#[derive(Debug, Clone, Default)]
pub enum Credentials {
    /// Any non-empty access token and subscription key.
    #[default]
    Any,
    /// Only this access token and subscription key.
    Fixed { access_token: String, subscription_key: String },
}

/// Most entries one collection holds unless [`Sandbox::with_max_entries`] says otherwise: users,
/// draft applications, and each account's ESG categories and cashflow instructions. Past it the
/// oldest entries are dropped, so a long-running sandbox stays within bounded memory.
pub const MAX_ENTRIES: usize = 10_000;

/// The sandbox: sample data behind a lock.
///
/// Every operation holds the lock only for a bounded amount of work (no collection grows past its
/// cap, and request bodies are prepared before the lock is taken), so a large request cannot
/// stall the runtime's workers.
pub struct Sandbox {
    credentials: Credentials,
    max_entries: usize,
    store: Mutex<Store>,
}

struct Store {
    accounts: BTreeMap<String, AccountData>,
    models: Vec<(Model, data::Positions)>,
    adjustments: BTreeMap<String, Vec<ModelWeightAdjustmentResponse>>,
    users: BTreeMap<String, i32>,
    next_user: i32,
    applications: BTreeMap<Uuid, ApplicationStatus>,
    next_application: u128,
    next_instruction: u32,
    events: Vec<data::Event>,
}

impl Default for Sandbox {
    fn default() -> Self {
        Self::new(Credentials::Any)
    }
}

impl Sandbox {
    /// A sandbox with the sample data and the given credential policy.
    pub fn new(credentials: Credentials) -> Self {
        let users = [("alex.lee".to_string(), 1001), ("sam.smith".to_string(), 1002)].into_iter().collect();
        Sandbox {
            credentials,
            max_entries: MAX_ENTRIES,
            store: Mutex::new(Store {
                accounts: data::accounts(),
                models: data::models(),
                adjustments: BTreeMap::new(),
                users,
                next_user: 2000,
                applications: BTreeMap::new(),
                next_application: 1,
                next_instruction: 100,
                events: data::events(),
            }),
        }
    }

    /// The same sandbox with collections capped at `max_entries` (at least 1) instead of
    /// [`MAX_ENTRIES`].
    pub fn with_max_entries(mut self, max_entries: usize) -> Self {
        self.max_entries = max_entries.max(1);
        self
    }

    /// Checks the credentials against the policy.
    fn authorize(&self, ctx: &RequestContext) -> Result<(), ApiError> {
        match &self.credentials {
            Credentials::Fixed { access_token, subscription_key }
                if ctx.access_token != *access_token || ctx.subscription_key != *subscription_key =>
            {
                Err(ApiError::unauthorized("the access token or subscription key is not accepted"))
            }
            _ => Ok(()),
        }
    }

    /// Checks the credentials, then locks the data.
    fn open(&self, ctx: &RequestContext) -> Result<MutexGuard<'_, Store>, ApiError> {
        self.authorize(ctx)?;
        Ok(self.lock())
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        // A panic while holding the lock cannot leave the sample data half-changed in a way that
        // matters, so a poisoned lock is still usable.
        self.store.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Store {
    fn account(&self, id: &str) -> Result<&AccountData, ApiError> {
        self.accounts.get(id).ok_or_else(|| ApiError::not_found(format!("no account `{id}`")))
    }

    fn account_mut(&mut self, id: &str) -> Result<&mut AccountData, ApiError> {
        self.accounts.get_mut(id).ok_or_else(|| ApiError::not_found(format!("no account `{id}`")))
    }

    fn model(&self, id: &str) -> Result<&(Model, data::Positions), ApiError> {
        self.models
            .iter()
            .find(|(m, _)| m.id.as_deref() == Some(id))
            .ok_or_else(|| ApiError::not_found(format!("no model `{id}`")))
    }
}

/// The reply to an enum value the sandbox does not handle: one the spec does not list (the router
/// refuses such values before the sandbox sees them; this keeps the arm honest should that ever
/// change), or one a newer spec adds (the generated enums are `#[non_exhaustive]`).
fn unlisted(parameter: &str, value: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("`{parameter}` {value} is not supported"))
}

/// Drops the oldest (first) entries of `list` past `max`.
fn keep_newest<T>(list: &mut Vec<T>, max: usize) {
    if list.len() > max {
        list.drain(..list.len() - max);
    }
}

/// Whether `date` falls in `[from, to]`, comparing the written date and time.
fn within(date: &Option<DateTime>, from: &DateTime, to: &DateTime) -> bool {
    date.as_ref().is_some_and(|d| d.local() >= from.local() && d.local() <= to.local())
}

/// One page of `items`, with totals.
fn page<T: Clone>(items: &[T], page: i32, size: i32) -> (Vec<T>, Metadata) {
    let size = size.max(1) as usize;
    let start = (page.max(1) as usize - 1).saturating_mul(size);
    let data = items.iter().skip(start).take(size).cloned().collect();
    let total = items.len();
    (data, Metadata::default().with_total_count(total as i32).with_total_pages(total.div_ceil(size) as i32))
}

/// `*` matches any run of characters; matching ignores case.
fn wildcard(pattern: &str, text: &str) -> bool {
    let (pattern, text) = (pattern.to_lowercase(), text.to_lowercase());
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return text.contains(&pattern);
    }
    let mut rest = text.as_str();
    for (i, part) in parts.iter().enumerate() {
        if part.is_empty() {
            continue;
        }
        match rest.find(part) {
            Some(pos) if i > 0 || pos == 0 => rest = &rest[pos + part.len()..],
            _ => return false,
        }
    }
    parts.last().is_some_and(|last| last.is_empty() || text.ends_with(last))
}

fn holding_security(index: usize) -> HoldingSecurity {
    let (_, code, description, class, _) = SECURITIES[index];
    HoldingSecurity::default()
        .with_code(code.into())
        .with_exchange("ASX".into())
        .with_asset_class_description(class.into())
        .with_type_description(description.into())
}

fn security(index: usize) -> Security {
    Security::default().with_code(SECURITIES[index].1.into()).with_exchange("ASX".into())
}

fn holdings_of(account: &AccountData, date: &DateTime) -> HoldingData {
    let total: f64 = account.holdings.iter().map(|(s, q)| q * SECURITIES[*s].4).sum();
    let holdings = account
        .holdings
        .iter()
        .map(|(s, q)| {
            let value = q * SECURITIES[*s].4;
            Holding::default()
                .with_security(holding_security(*s))
                .with_quantity(*q)
                .with_unit_value(SECURITIES[*s].4)
                .with_value(value)
                .with_cost(value * 0.9)
                .with_gain_or_loss(value * 0.1)
                .with_percent_total_value(100.0 * value / total)
                .with_unit_price_date(utc(date))
        })
        .collect();
    let valuation = Valuation::default()
        .with_valuation_date(utc(date))
        .with_total_value(total)
        .with_total_cost(total * 0.9)
        .with_net_value(total)
        .with_total_gain_or_loss(total * 0.1);
    let mut data = HoldingData::default().with_valuation(valuation).with_holdings(holdings);
    data.account_id = account.account.id.clone();
    data
}

/// A deterministic return for a label, so repeated calls agree.
fn sample_return(label: &str, months: i64) -> f64 {
    let seed = label.bytes().fold(7u32, |acc, b| acc.wrapping_mul(31).wrapping_add(b as u32));
    ((seed % 900) as f64 / 100.0 - 2.0) * (months.max(1) as f64 / 12.0)
}

fn months_between(from: &DateTime, to: &DateTime) -> i64 {
    ((to.local() - from.local()).whole_days() / 30).max(0)
}

fn periods(label: &str, from: &DateTime, to: &DateTime, multiple_periods: i32) -> Vec<(String, f64)> {
    let mut out = vec![("The period".to_string(), sample_return(label, months_between(from, to)))];
    if multiple_periods != 0 {
        for (name, months) in [("1 month", 1), ("3 months", 3), ("1 year", 12)] {
            out.push((name.to_string(), sample_return(&format!("{label}{name}"), months)));
        }
    }
    out
}

impl PortfolioApi for Sandbox {
    async fn get_user(&self, ctx: RequestContext, input: GetUserInput) -> Result<User, ApiError> {
        let store = self.open(&ctx)?;
        let id = store
            .users
            .get(&input.username)
            .ok_or_else(|| ApiError::not_found(format!("no user `{}`", input.username)))?;
        Ok(User::default().with_user_id(*id))
    }

    async fn create_user(&self, ctx: RequestContext, input: CreateUserInput) -> Result<UserCreationResponse, ApiError> {
        let mut store = self.open(&ctx)?;
        store.next_user += 1;
        let id = store.next_user;
        // Without a body the user gets a placeholder name; a repeated name points at the newest user.
        let name = match &input.body {
            Some(body) => format!("{}.{}", body.name.first_name, body.name.last_name).to_lowercase(),
            None => format!("user-{id}"),
        };
        store.users.insert(name, id);
        if store.users.len() > self.max_entries {
            // Ids rise with each user, so the smallest is the oldest.
            let oldest = store.users.iter().min_by_key(|(_, id)| **id).map(|(name, _)| name.clone());
            if let Some(oldest) = oldest {
                store.users.remove(&oldest);
            }
        }
        let token = input.body.is_some_and(|b| b.generate_get_started_token).then(|| format!("start-{id}"));
        let mut created = UserCreationResponse::default().with_id(id);
        created.get_started_token = token;
        Ok(created)
    }

    async fn link_user_accounts(&self, ctx: RequestContext, input: LinkUserAccountsInput) -> Result<(), ApiError> {
        let store = self.open(&ctx)?;
        let Some(body) = input.body else { return Ok(()) };
        if !store.users.values().any(|id| *id == body.user_id) {
            return Err(ApiError::not_found(format!("no user {}", body.user_id)));
        }
        for id in &body.account_ids {
            store.account(id)?;
        }
        Ok(())
    }

    async fn get_au_accounts(
        &self,
        ctx: RequestContext,
        input: GetAuAccountsInput,
    ) -> Result<Vec<AccountIEnumerablePagedResponse>, ApiError> {
        let store = self.open(&ctx)?;
        // Rule: account ids, when given, decide alone; search and paging are ignored.
        if let Some(ids) = &input.account_ids {
            let accounts =
                ids.iter().map(|id| store.account(id).map(|a| a.account.clone())).collect::<Result<Vec<_>, _>>()?;
            let total = accounts.len() as i32;
            let metadata = Metadata::default().with_total_count(total).with_total_pages(i32::from(total > 0));
            return Ok(vec![AccountIEnumerablePagedResponse::default().with_data(accounts).with_metadata(metadata)]);
        }
        let matching: Vec<Account> = store
            .accounts
            .values()
            .map(|a| &a.account)
            .filter(|a| match &input.search {
                Some(s) => [&a.code, &a.name, &a.id].iter().any(|f| f.as_deref().is_some_and(|t| wildcard(s, t))),
                None => true,
            })
            .cloned()
            .collect();
        let (data, metadata) = page(&matching, input.page, input.size);
        Ok(vec![AccountIEnumerablePagedResponse::default().with_data(data).with_metadata(metadata)])
    }

    async fn get_au_child_accounts(
        &self,
        ctx: RequestContext,
        input: GetAuChildAccountsInput,
    ) -> Result<Vec<ChildAccountAu>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(store
            .account(&input.account_id)?
            .children
            .iter()
            .map(|id| ChildAccountAu::default().with_id(id.clone()))
            .collect())
    }

    async fn get_account_model_weightings(
        &self,
        ctx: RequestContext,
        input: GetAccountModelWeightingsInput,
    ) -> Result<Vec<AccountModelWeighting>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(store.account(&input.account_id)?.model_weightings.clone())
    }

    async fn replace_account_model_weightings(
        &self,
        ctx: RequestContext,
        input: ReplaceAccountModelWeightingsInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let Some(body) = input.body else { return Ok(()) };
        store.account_mut(&body.account_id)?.model_weightings = body.account_model_weightings;
        Ok(())
    }

    async fn get_au_app_form(&self, ctx: RequestContext, input: GetAuAppFormInput) -> Result<FileDownload, ApiError> {
        let store = self.open(&ctx)?;
        let account = store.account(&input.account_id)?;
        let name = format!("application-{}.pdf", account.account.code.as_deref().unwrap_or("form"));
        Ok(FileDownload::new(data::file_content(&input.account_id, &name)).with_file_name(name))
    }

    async fn create_draft_application(
        &self,
        ctx: RequestContext,
        input: CreateDraftApplicationInput,
    ) -> Result<ApplicationUploadResult, ApiError> {
        let mut store = self.open(&ctx)?;
        let id = Uuid::from_u128(0x5a4d_b0c5_0000_4000_8000_0000_0000_0000 + store.next_application);
        store.next_application += 1;
        // Without a body the draft is empty; its status can still be read back.
        let accounts = input
            .body
            .and_then(|b| b.accounts)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, _)| {
                ApplicationAccountStatus::default()
                    .with_account_code(format!("DRAFT{i:03}"))
                    .with_status(AccountLifeCycle::Draft)
            })
            .collect();
        store.applications.insert(
            id,
            ApplicationStatus::default()
                .with_application_id(id)
                .with_status("Draft".into())
                .with_accounts_status(accounts),
        );
        // Ids rise with each draft, so the first in order is the oldest.
        while store.applications.len() > self.max_entries {
            store.applications.pop_first();
        }
        Ok(ApplicationUploadResult::default().with_application_id(id))
    }

    async fn get_draft_application_status(
        &self,
        ctx: RequestContext,
        input: GetDraftApplicationStatusInput,
    ) -> Result<ApplicationStatus, ApiError> {
        let store = self.open(&ctx)?;
        store
            .applications
            .get(&input.application_id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no application {}", input.application_id)))
    }

    async fn get_pds(&self, ctx: RequestContext, _input: GetPdsInput) -> Result<Vec<PdsDetail>, ApiError> {
        self.authorize(&ctx)?;
        let pds = |id: &str, name: &str, region: ApplicantRegion| {
            PdsDetail::default()
                .with_id(id.into())
                .with_name(name.into())
                .with_status("Active".into())
                .with_region(region)
                .with_currency_code("AUD".into())
                .with_max_no_of_bank_accounts(2)
        };
        Ok(vec![
            pds("PDS1", "Managed Portfolio Service", ApplicantRegion::Australia),
            pds("PDS2", "Super Managed Accounts", ApplicantRegion::Australia),
        ])
    }

    async fn get_uk_ceding_parties(
        &self,
        ctx: RequestContext,
        input: GetUkCedingPartiesInput,
    ) -> Result<Vec<CedingPartyResponse>, ApiError> {
        self.authorize(&ctx)?;
        let parties = [
            ("CP1", "Northern Investments ISA", true, CedingPartyAccountType::Isa),
            ("CP2", "Harbour General Investments", false, CedingPartyAccountType::Gia),
        ];
        Ok(parties
            .iter()
            .filter(|(_, name, _, kind)| wildcard(&input.search, name) && input.account_type.is_none_or(|t| t == *kind))
            .map(|(id, name, electronic, _)| {
                CedingPartyResponse::default()
                    .with_ceding_party_id(id.to_string())
                    .with_ceding_party_name(name.to_string())
                    .with_accepts_electronic_transfer(*electronic)
            })
            .collect())
    }

    async fn find_au_securities(
        &self,
        ctx: RequestContext,
        input: FindAuSecuritiesInput,
    ) -> Result<Vec<SecurityResponse>, ApiError> {
        self.authorize(&ctx)?;
        // Rules: a search term wins; otherwise ids; otherwise codes.
        let keep = |(id, code, description, _, _): &(&str, &str, &str, &str, f64)| -> bool {
            if let Some(search) = &input.search {
                wildcard(search, code) || wildcard(search, description)
            } else if let Some(ids) = &input.security_ids {
                ids.iter().any(|i| i == id)
            } else if let Some(codes) = &input.security_codes {
                codes.iter().any(|c| c.eq_ignore_ascii_case(code))
            } else {
                true
            }
        };
        Ok(SECURITIES
            .iter()
            .filter(|s| keep(s))
            .map(|(id, code, description, _, _)| {
                SecurityResponse::default()
                    .with_id(id.to_string())
                    .with_code(code.to_string())
                    .with_description(description.to_string())
                    .with_exchange("ASX".into())
                    .with_currency("AUD".into())
                    .with_is_allowed_by_apl(true)
            })
            .collect())
    }

    async fn get_au_recalc_status(
        &self,
        ctx: RequestContext,
        _input: GetAuRecalcStatusInput,
    ) -> Result<ServiceRecalcStatus, ApiError> {
        self.authorize(&ctx)?;
        Ok(ServiceRecalcStatus::default().with_recalc_as_at_date(at(time::macros::date!(2024 - 12 - 31))))
    }

    async fn get_au_holdings(
        &self,
        ctx: RequestContext,
        input: GetAuHoldingsInput,
    ) -> Result<Vec<HoldingData>, ApiError> {
        let store = self.open(&ctx)?;
        input.account_ids.iter().map(|id| Ok(holdings_of(store.account(id)?, &input.valuation_date))).collect()
    }

    async fn get_au_holdings_per_model(
        &self,
        ctx: RequestContext,
        input: GetAuHoldingsPerModelInput,
    ) -> Result<Vec<HoldingsHistoryPerModel>, ApiError> {
        let store = self.open(&ctx)?;
        let account = store.account(&input.account_id)?;
        let values: Vec<HoldingValuePerModel> = account
            .holdings
            .iter()
            .map(|(s, q)| {
                HoldingValuePerModel::default()
                    .with_security(security(*s))
                    .with_quantity(*q)
                    .with_value(q * SECURITIES[*s].4)
            })
            .collect();
        let total = values.iter().filter_map(|v| v.value).sum();
        Ok([&input.from_date, &input.to_date]
            .into_iter()
            .map(|date| {
                HoldingsHistoryPerModel::default()
                    .with_date(utc(date))
                    .with_total_value(total)
                    .with_holdings_in_model(vec![
                        HoldingsPerModel::default()
                            .with_model_code("GROWTH".into())
                            .with_model_percentage(100.0)
                            .with_holdings(values.clone()),
                    ])
                    .with_holdings_not_in_model(Vec::new())
            })
            .collect())
    }

    async fn get_au_asset_class_summary(
        &self,
        ctx: RequestContext,
        input: GetAuAssetClassSummaryInput,
    ) -> Result<AssetClassSummary, ApiError> {
        let store = self.open(&ctx)?;
        let account = store.account(&input.account_id)?;
        let mut total: f64 = account.holdings.iter().map(|(s, q)| q * SECURITIES[*s].4).sum();
        if input.include_loans {
            total -= 1_000.0;
        }
        let valuation = AssetClassValuation::default()
            .with_total_value(total)
            .with_total_cost(total * 0.9)
            .with_net_value(total)
            .with_total_gain_or_loss(total * 0.1);
        Ok(AssetClassSummary::default()
            .with_valuation(valuation)
            .with_asset_classes(Vec::new())
            .with_receivables_and_payables(Vec::new()))
    }

    async fn get_au_transactions(
        &self,
        ctx: RequestContext,
        input: GetAuTransactionsInput,
    ) -> Result<TransactionIEnumerablePagedResponse, ApiError> {
        let store = self.open(&ctx)?;
        let mut rows: Vec<Transaction> = store
            .account(&input.account_id)?
            .transactions
            .iter()
            .filter(|t| within(&t.transaction_date, &input.from_date, &input.to_date))
            .filter(|t| input.show_unconfirmed || t.unconfirmed != Some(true))
            .filter(|t| {
                !input.buys_and_sells_only
                    || t.transaction_type_description.as_deref().is_some_and(|k| BUYS_AND_SELLS.contains(&k))
            })
            .cloned()
            .collect();
        match input.order_by {
            TransactionOrderBy::TransactionDate => rows.sort_by_key(|t| t.transaction_date.as_ref().map(|d| d.local())),
            TransactionOrderBy::Security => rows.sort_by(|a, b| {
                let code = |t: &Transaction| t.security.as_ref().and_then(|s| s.code.clone());
                code(a).cmp(&code(b)).then_with(|| a.transaction_id.cmp(&b.transaction_id))
            }),
            // The router refuses values the spec does not list, so only a value a newer spec adds
            // could get here.
            other => return Err(unlisted("OrderBy", other)),
        }
        if input.order == SortOrder::Desc {
            rows.reverse();
        }
        let (data, metadata) = page(&rows, input.page, input.size);
        Ok(TransactionIEnumerablePagedResponse::default().with_data(data).with_metadata(metadata))
    }

    async fn get_au_cash_transactions(
        &self,
        ctx: RequestContext,
        input: GetAuCashTransactionsInput,
    ) -> Result<CashBookIEnumerablePagedResponse, ApiError> {
        let store = self.open(&ctx)?;
        let account = store.account(&input.account_id)?;
        let mut rows: Vec<CashTransaction> = account
            .cash
            .iter()
            .filter(|c| within(&c.transaction_date, &input.from_date, &input.to_date))
            .cloned()
            .collect();
        if input.include_pending_unsettled {
            rows.push(
                CashTransaction::default()
                    .with_transaction_id(format!("C-{}-PENDING", input.account_id))
                    .with_transaction_date(utc(&input.to_date))
                    .with_transaction_type_description("Pending settlement".into())
                    .with_withdrawal(125.0),
            );
        }
        let (data, metadata) = page(&rows, input.page, input.size);
        let summary = CashSummary::default()
            .with_cash_book_code(format!("{}-CASH", input.account_id))
            .with_currency("AUD".into())
            .with_deposits(data.iter().filter_map(|c| c.deposit).sum())
            .with_withdrawals(data.iter().filter_map(|c| c.withdrawal).sum());
        Ok(CashBookIEnumerablePagedResponse::default()
            .with_data(vec![CashBook::default().with_summary(summary).with_transactions(data)])
            .with_metadata(metadata))
    }

    async fn get_au_unsettled_transactions(
        &self,
        ctx: RequestContext,
        input: GetAuUnsettledTransactionsInput,
    ) -> Result<Vec<UnsettledTransaction>, ApiError> {
        let store = self.open(&ctx)?;
        let rows: Vec<UnsettledTransaction> = store
            .account(&input.account_id)?
            .transactions
            .iter()
            .filter(|t| t.unconfirmed == Some(true) && within(&t.transaction_date, &input.from_date, &input.to_date))
            .map(|t| {
                let mut row = UnsettledTransaction::default();
                row.security = t.security.clone();
                row.transaction_date = t.transaction_date;
                row.settlement_date = t.settlement_date;
                row.transaction_type_description = t.transaction_type_description.clone();
                row.quantity = t.quantity;
                row.net_amount = t.net_amount;
                row.average_price = t.average_price;
                row
            })
            .collect();
        Ok(page(&rows, input.page, input.size).0)
    }

    async fn get_au_dividend_reinvestment_details(
        &self,
        ctx: RequestContext,
        input: GetAuDividendReinvestmentDetailsInput,
    ) -> Result<Vec<DividendReinvestmentDetail>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(store
            .account(&input.account_id)?
            .holdings
            .iter()
            .take(2)
            .map(|(s, _)| {
                DividendReinvestmentDetail::default()
                    .with_security(security(*s))
                    .with_drp_type(DrpType::Drp)
                    .with_percent_shares_participating(100.0)
                    .with_exclude_from_drp(false)
            })
            .collect())
    }

    async fn get_au_income_detail(
        &self,
        ctx: RequestContext,
        input: GetAuIncomeDetailInput,
    ) -> Result<Vec<IncomeDetail>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(of_kinds(store.account(&input.account_id)?, &["Dividend"], &input.from_date, &input.to_date)
            .map(|t| {
                let mut detail = IncomeDetail::default().with_income_type_description("Dividend".into());
                detail.income_id = t.transaction_id.clone();
                detail.security = t.security.clone();
                detail.payment_date = t.transaction_date;
                detail.cash_amount = t.net_amount.map(|a| a * 0.02);
                detail.income_total = t.net_amount.map(|a| a * 0.02);
                detail
            })
            .collect())
    }

    async fn get_au_income_schedules(
        &self,
        ctx: RequestContext,
        input: GetAuIncomeSchedulesInput,
    ) -> Result<Vec<IncomeSchedule>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(income_schedules(store.account(&input.account_id)?, &input.from_date, &input.to_date))
    }

    async fn get_au_income_schedules_bulk(
        &self,
        ctx: RequestContext,
        input: GetAuIncomeSchedulesBulkInput,
    ) -> Result<Vec<BulkIncomeScheduleData>, ApiError> {
        let store = self.open(&ctx)?;
        input
            .account_ids
            .iter()
            .map(|id| {
                let schedules = income_schedules(store.account(id)?, &input.from_date, &input.to_date);
                Ok(BulkIncomeScheduleData::default().with_account_id(id.clone()).with_income_schedules(schedules))
            })
            .collect()
    }

    async fn get_au_expense_detail(
        &self,
        ctx: RequestContext,
        input: GetAuExpenseDetailInput,
    ) -> Result<Vec<Expense>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(of_kinds(store.account(&input.account_id)?, &["Management fee"], &input.from_date, &input.to_date)
            .map(|t| {
                let mut expense = Expense::default()
                    .with_expense_including_gst(55.0)
                    .with_expense_excluding_gst(50.0)
                    .with_expense_type_description("Management fee".into());
                expense.expense_id = t.transaction_id.clone();
                expense.effective_date = t.transaction_date;
                expense.payment_date = t.transaction_date;
                expense
            })
            .collect())
    }

    async fn get_au_bpay(&self, ctx: RequestContext, input: GetAuBpayInput) -> Result<Vec<BpayInfo>, ApiError> {
        let store = self.open(&ctx)?;
        input
            .account_ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                store.account(id)?;
                Ok(BpayInfo::default()
                    .with_account_id(id.clone())
                    .with_biller_code(123_456)
                    .with_reference_number(format!("9000{i:04}"))
                    .with_bpay_type(BpayType::Personal))
            })
            .collect()
    }

    async fn get_au_performance(
        &self,
        ctx: RequestContext,
        input: GetAuPerformanceInput,
    ) -> Result<Performance, ApiError> {
        let store = self.open(&ctx)?;
        let account = store.account(&input.account_id)?;
        let value: f64 = account.holdings.iter().map(|(s, q)| q * SECURITIES[*s].4).sum();
        let returns = periods(&input.account_id, &input.from_date, &input.to_date, input.multiple_periods)
            .into_iter()
            .map(|(name, r)| {
                let mut row = PerformanceReturn::default().with_period_description(name);
                row.gross_percent_return = (input.display_returns != DisplayReturns::AfterExpenses).then_some(r);
                row.net_percent_return = (input.display_returns != DisplayReturns::BeforeExpenses).then_some(r - 0.5);
                row
            })
            .collect();
        let income = if input.include_tax_credits { 420.0 } else { 380.0 };
        Ok(Performance::default()
            .with_holdings_excluded(!input.include_excluded_securities)
            .with_beginning_market_value(value * 0.95)
            .with_ending_market_value(value + if input.include_cash { 10_000.0 } else { 0.0 })
            .with_dollar_return(
                DollarReturnData::default().with_total_income(income).with_capital_appreciation(value * 0.05),
            )
            .with_percent_returns(returns))
    }

    async fn get_au_asset_class_performance(
        &self,
        ctx: RequestContext,
        input: GetAuAssetClassPerformanceInput,
    ) -> Result<Vec<AssetClassInvestment>, ApiError> {
        let store = self.open(&ctx)?;
        let account = store.account(&input.account_id)?;
        let mut classes: BTreeMap<&str, f64> = BTreeMap::new();
        for (s, q) in &account.holdings {
            *classes.entry(SECURITIES[*s].3).or_default() += q * SECURITIES[*s].4;
        }
        let method = if input.calculation_method == CalculationMethod::TimeWeightedReturn { "TWR" } else { "approx" };
        Ok(classes
            .into_iter()
            .filter(|(class, _)| input.include_cash || *class != "Cash")
            .map(|(class, value)| {
                let r = sample_return(
                    &format!("{}{class}{method}", input.account_id),
                    months_between(&input.from_date, &input.to_date),
                );
                AssetClassInvestment::default()
                    .with_asset_class_description(class.into())
                    .with_start_value(value / (1.0 + r / 100.0))
                    .with_end_value(value)
                    .with_total_return_percent(r)
            })
            .collect())
    }

    async fn get_au_benchmarks(
        &self,
        ctx: RequestContext,
        _input: GetAuBenchmarksInput,
    ) -> Result<Vec<Benchmark>, ApiError> {
        self.authorize(&ctx)?;
        Ok(data::benchmarks())
    }

    async fn get_au_benchmark_performance(
        &self,
        ctx: RequestContext,
        input: GetAuBenchmarkPerformanceInput,
    ) -> Result<Vec<BenchmarkReturn>, ApiError> {
        self.authorize(&ctx)?;
        if !data::benchmarks().iter().any(|b| b.id.as_deref() == Some(input.benchmark_id.as_str())) {
            return Err(ApiError::not_found(format!("no benchmark `{}`", input.benchmark_id)));
        }
        Ok(periods(&input.benchmark_id, &input.from_date, &input.to_date, input.multiple_periods)
            .into_iter()
            .map(|(name, r)| BenchmarkReturn::default().with_period_description(name).with_percentage_return(r))
            .collect())
    }

    async fn get_au_models(&self, ctx: RequestContext, _input: GetAuModelsInput) -> Result<Vec<Model>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(store.models.iter().map(|(m, _)| m.clone()).collect())
    }

    async fn get_au_aproximate_fum(
        &self,
        ctx: RequestContext,
        input: GetAuAproximateFumInput,
    ) -> Result<ModelApproximateFum, ApiError> {
        let store = self.open(&ctx)?;
        let (model, _) = store.model(&input.model_id)?;
        let code = model.code.clone();
        let linked: Vec<AccountApproximateFum> = store
            .accounts
            .values()
            .filter_map(|a| {
                let weight = a.model_weightings.iter().find(|w| w.model_code == code)?.percentage?;
                let total: f64 = a.holdings.iter().map(|(s, q)| q * SECURITIES[*s].4).sum();
                let mut fum = AccountApproximateFum::default()
                    .with_total_value(total)
                    .with_model_weight(weight)
                    .with_approximate_fum(total * weight / 100.0)
                    .with_target_fum(total * weight / 100.0);
                fum.account_id = a.account.id.clone();
                Some(fum)
            })
            .collect();
        Ok(ModelApproximateFum::default()
            .with_number_of_accounts_linked(linked.len() as i32)
            .with_total_approximate_fum(linked.iter().filter_map(|a| a.approximate_fum).sum())
            .with_total_target_fum(linked.iter().filter_map(|a| a.target_fum).sum())
            .with_approximate_fum_for_accounts(linked))
    }

    async fn get_au_model_performance(
        &self,
        ctx: RequestContext,
        input: GetAuModelPerformanceInput,
    ) -> Result<ModelPerformance, ApiError> {
        let store = self.open(&ctx)?;
        store.model(&input.model_id)?;
        let returns = periods(&input.model_id, &input.from_date, &input.to_date, -1)
            .into_iter()
            .map(|(name, r)| {
                PercentageReturn::default()
                    .with_period_description(name)
                    .with_gross_percentage_return(r)
                    .with_net_percentage_return(r - 0.4)
                    .with_annualised(false)
            })
            .collect();
        Ok(ModelPerformance::default().with_daily_percentage_returns(Vec::new()).with_percentage_returns(returns))
    }

    async fn get_au_model_holdings(
        &self,
        ctx: RequestContext,
        input: GetAuModelHoldingsInput,
    ) -> Result<Vec<ModelHolding>, ApiError> {
        let store = self.open(&ctx)?;
        let (_, holdings) = store.model(&input.model_id)?;
        Ok(holdings
            .iter()
            .map(|(s, w)| {
                ModelHolding::default()
                    .with_security(security(*s))
                    .with_target_value_percentage(*w)
                    .with_actual_value_percentage(*w)
            })
            .collect())
    }

    async fn get_au_model_weight_adjustment(
        &self,
        ctx: RequestContext,
        input: GetAuModelWeightAdjustmentInput,
    ) -> Result<Vec<ModelWeightAdjustmentResponse>, ApiError> {
        let store = self.open(&ctx)?;
        store.model(&input.model_id)?;
        Ok(store.adjustments.get(&input.model_id).cloned().unwrap_or_default())
    }

    async fn replace_au_model_weight_adjustment(
        &self,
        ctx: RequestContext,
        input: ReplaceAuModelWeightAdjustmentInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let Some(body) = input.body else { return Ok(()) };
        store.model(&body.model_id)?;
        let mut adjustments = Vec::new();
        for (i, adjustment) in body.model_weight_adjustments.iter().enumerate() {
            let Some((_, code, _, _, _)) = SECURITIES.iter().find(|s| s.0 == adjustment.security_id) else {
                return Err(ApiError::not_found(format!("no security `{}`", adjustment.security_id))
                    .with_error(format!("body.ModelWeightAdjustments[{i}].SecurityId"), "names no security"));
            };
            let security =
                ModelWeightAdjustmentSecurity::default().with_code(code.to_string()).with_exchange("ASX".into());
            let mut response = ModelWeightAdjustmentResponse::default().with_security(security);
            response.target = adjustment.target;
            adjustments.push(response);
        }
        store.adjustments.insert(body.model_id, adjustments);
        Ok(())
    }

    async fn get_au_account_esg_categories(
        &self,
        ctx: RequestContext,
        input: GetAuAccountEsgCategoriesInput,
    ) -> Result<Vec<String>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(store.account(&input.account_id)?.esg_categories.clone())
    }

    async fn add_au_account_esg_categories(
        &self,
        ctx: RequestContext,
        input: AddAuAccountEsgCategoriesInput,
    ) -> Result<(), ApiError> {
        self.authorize(&ctx)?;
        let Some(body) = input.body else { return Ok(()) };
        // Duplicates within the request go before the lock is taken: linear, and no other
        // request waits for it.
        let mut seen = HashSet::with_capacity(body.category_ids.len());
        let mut added: Vec<String> = body.category_ids.into_iter().filter(|id| seen.insert(id.clone())).collect();
        keep_newest(&mut added, self.max_entries);
        let mut store = self.lock();
        let categories = &mut store.account_mut(&body.account_id)?.esg_categories;
        let present: HashSet<&str> = categories.iter().map(String::as_str).collect();
        added.retain(|id| !present.contains(id.as_str()));
        categories.extend(added);
        keep_newest(categories, self.max_entries);
        Ok(())
    }

    async fn replace_au_account_esg_categories(
        &self,
        ctx: RequestContext,
        input: ReplaceAuAccountEsgCategoriesInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let Some(body) = input.body else { return Ok(()) };
        let mut categories = body.category_ids.unwrap_or_default();
        keep_newest(&mut categories, self.max_entries);
        store.account_mut(&body.account_id)?.esg_categories = categories;
        Ok(())
    }

    async fn delete_au_account_esg_categories(
        &self,
        ctx: RequestContext,
        input: DeleteAuAccountEsgCategoriesInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let categories = &mut store.account_mut(&input.account_id)?.esg_categories;
        match &input.category_id {
            Some(id) => {
                let before = categories.len();
                categories.retain(|c| c != id);
                if categories.len() == before {
                    return Err(ApiError::not_found(format!(
                        "account `{}` has no ESG category `{id}`",
                        input.account_id
                    )));
                }
            }
            None => categories.clear(),
        }
        Ok(())
    }

    async fn get_au_cashflow_instructions(
        &self,
        ctx: RequestContext,
        input: GetAuCashflowInstructionsInput,
    ) -> Result<Vec<CashflowInstruction>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(store.account(&input.account_id)?.cashflow_instructions.clone())
    }

    async fn add_au_one_off_cashflow_instructions(
        &self,
        ctx: RequestContext,
        input: AddAuOneOffCashflowInstructionsInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let Some(body) = input.body else { return Ok(()) };
        store.next_instruction += 1;
        let id = format!("CF-{}-{}", body.account_id, store.next_instruction);
        let kind = match body.cashflow_instruction_type {
            OneOffCashflowInstructionType::OneOffDirectDebit => CashflowInstructionType::OneOffDirectDebit,
            OneOffCashflowInstructionType::OneOffWithdrawal => CashflowInstructionType::OneOffWithdrawal,
            other => return Err(unlisted("CashflowInstructionType", other)),
        };
        let instructions = &mut store.account_mut(&body.account_id)?.cashflow_instructions;
        let mut instruction = CashflowInstruction::default()
            .with_id(id)
            .with_cashflow_instruction_type(kind)
            .with_frequency_type(FrequencyType::Adhoc)
            .with_allocations(body.allocations);
        instruction.value = body.amount;
        instruction.tax_type = body.tax_type;
        instructions.push(instruction);
        keep_newest(instructions, self.max_entries);
        Ok(())
    }

    async fn delete_au_one_off_cashflow_instructions(
        &self,
        ctx: RequestContext,
        input: DeleteAuOneOffCashflowInstructionsInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let kind = match input.cashflow_instruction_type {
            OneOffCashflowInstructionDeleteType::OneOffDirectDebit => CashflowInstructionType::OneOffDirectDebit,
            other => {
                return Err(unlisted("CashflowInstructionType", other));
            }
        };
        let instructions = &mut store.account_mut(&input.account_id)?.cashflow_instructions;
        let before = instructions.len();
        instructions.retain(|c| {
            !(c.id.as_deref() == Some(input.cashflow_instruction_id.as_str())
                && c.cashflow_instruction_type == Some(kind))
        });
        if instructions.len() == before {
            return Err(ApiError::not_found(format!("no one-off instruction `{}`", input.cashflow_instruction_id)));
        }
        Ok(())
    }

    async fn update_au_regular_cashflow_instructions(
        &self,
        ctx: RequestContext,
        input: UpdateAuRegularCashflowInstructionsInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let Some(body) = input.body else { return Ok(()) };
        let kind = CashflowInstructionType::from_value(body.cashflow_instruction_type.value());
        let frequency = FrequencyType::from_value(body.frequency_type.value());
        store.next_instruction += 1;
        let id = format!("CF-{}-{}", body.account_id, store.next_instruction);
        let instructions = &mut store.account_mut(&body.account_id)?.cashflow_instructions;
        instructions.retain(|c| c.cashflow_instruction_type != Some(kind));
        let mut instruction = CashflowInstruction::default()
            .with_id(id)
            .with_cashflow_instruction_type(kind)
            .with_frequency_type(frequency)
            .with_allocations(body.allocations);
        instruction.start_date = body.start_date.as_ref().map(utc);
        instruction.end_date = body.end_date.as_ref().map(utc);
        instruction.value = body.amount;
        instructions.push(instruction);
        Ok(())
    }

    async fn delete_au_regular_cashflow_instructions(
        &self,
        ctx: RequestContext,
        input: DeleteAuRegularCashflowInstructionsInput,
    ) -> Result<(), ApiError> {
        let mut store = self.open(&ctx)?;
        let kind = match input.cashflow_instruction_type {
            RegularCashflowInstructionDeleteType::RegularContribution => CashflowInstructionType::RegularContribution,
            RegularCashflowInstructionDeleteType::RegularWithdrawal => CashflowInstructionType::RegularWithdrawal,
            other => {
                return Err(unlisted("CashflowInstructionType", other));
            }
        };
        let instructions = &mut store.account_mut(&input.account_id)?.cashflow_instructions;
        let before = instructions.len();
        instructions.retain(|c| c.cashflow_instruction_type != Some(kind));
        if instructions.len() == before {
            return Err(ApiError::not_found(format!(
                "account `{}` has no regular instruction of that kind",
                input.account_id
            )));
        }
        Ok(())
    }

    async fn get_au_publisher_events(
        &self,
        ctx: RequestContext,
        _input: GetAuPublisherEventsInput,
    ) -> Result<Vec<PublisherEvent>, ApiError> {
        let store = self.open(&ctx)?;
        Ok(store.events.iter().map(|e| e.event.clone()).collect())
    }

    async fn get_au_publisher_event_detail(
        &self,
        ctx: RequestContext,
        input: GetAuPublisherEventDetailInput,
    ) -> Result<Vec<PublisherEventDetail>, ApiError> {
        let store = self.open(&ctx)?;
        store
            .events
            .iter()
            .find(|e| e.event.id.as_deref() == Some(input.event_id.as_str()))
            .map(|e| e.details.clone())
            .ok_or_else(|| ApiError::not_found(format!("no event `{}`", input.event_id)))
    }

    async fn download_au_file(
        &self,
        ctx: RequestContext,
        input: DownloadAuFileInput,
    ) -> Result<FileDownload, ApiError> {
        let store = self.open(&ctx)?;
        let detail = store
            .events
            .iter()
            .flat_map(|e| &e.details)
            .find(|d| d.file_id.as_deref() == Some(input.file_id.as_str()))
            .ok_or_else(|| ApiError::not_found(format!("no file `{}`", input.file_id)))?;
        let name = detail.file_name.clone().unwrap_or_else(|| format!("{}.bin", input.file_id));
        Ok(FileDownload::new(data::file_content(&input.file_id, &name)).with_file_name(name))
    }
}

/// The account's transactions of the given kinds dated within `[from, to]`.
fn of_kinds<'a>(
    account: &'a AccountData,
    kinds: &'a [&str],
    from: &'a DateTime,
    to: &'a DateTime,
) -> impl Iterator<Item = &'a Transaction> {
    account.transactions.iter().filter(move |t| {
        t.transaction_type_description.as_deref().is_some_and(|k| kinds.contains(&k))
            && within(&t.transaction_date, from, to)
    })
}

fn income_schedules(account: &AccountData, from: &DateTime, to: &DateTime) -> Vec<IncomeSchedule> {
    of_kinds(account, &["Dividend", "Interest"], from, to)
        .map(|t| {
            let mut schedule = IncomeSchedule::default();
            schedule.income_id = t.transaction_id.clone();
            schedule.security = t.security.clone();
            schedule.tax_date = t.transaction_date;
            schedule.income_total = t.net_amount.map(|a| a * 0.02);
            schedule.cash_amount = t.net_amount.map(|a| a * 0.02);
            schedule.income_type_description = t.transaction_type_description.clone();
            schedule
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_like_the_service() {
        assert!(wildcard("smith*", "SMITH001"));
        assert!(wildcard("*trust", "Smith Family Trust"));
        assert!(wildcard("*", "anything"));
        assert!(wildcard("s*h*1", "SMITH001"));
        assert!(wildcard("ith", "Smith"), "without a star the term matches anywhere");
        assert!(!wildcard("jones*", "SMITH001"));
        assert!(!wildcard("*trust", "Trust fund"));
    }

    #[test]
    fn pages_report_totals() {
        let items: Vec<i32> = (1..=25).collect();
        let (data, meta) = page(&items, 3, 10);
        assert_eq!(data, [21, 22, 23, 24, 25]);
        assert_eq!((meta.total_count, meta.total_pages), (Some(25), Some(3)));
        assert!(page(&items, 9, 10).0.is_empty());
    }
}
