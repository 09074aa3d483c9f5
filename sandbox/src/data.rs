//! The sample data set: a few accounts with a year of activity, models, benchmarks, securities and
//! a publisher-event feed. Everything is derived from fixed tables, so every run serves the same
//! data.

use std::collections::BTreeMap;

use portfolio_server::DateTime;
use portfolio_server::types::*;
use time::macros::date;
use time::{Date, Duration};

/// A security the sample accounts hold: (id, code, description, asset class, unit price).
pub const SECURITIES: &[(&str, &str, &str, &str, f64)] = &[
    ("S1", "BHP", "BHP Group Ltd", "Australian Equities", 45.10),
    ("S2", "CBA", "Commonwealth Bank of Australia", "Australian Equities", 118.40),
    ("S3", "CSL", "CSL Ltd", "Australian Equities", 290.75),
    ("S4", "WES", "Wesfarmers Ltd", "Australian Equities", 66.20),
    ("S5", "VAS", "Vanguard Australian Shares ETF", "Australian Equities", 98.30),
    ("S6", "IVV", "iShares S&P 500 ETF", "International Equities", 55.90),
    ("S7", "VGB", "Vanguard Australian Government Bond ETF", "Fixed Interest", 46.15),
    ("S8", "AAA", "Betashares Australian High Interest Cash ETF", "Cash", 50.05),
];

/// Transaction kinds a year of activity cycles through.
const KINDS: &[&str] =
    &["Buy", "Dividend", "Sell", "Management fee", "Buy", "Interest", "Close position", "Short Sell"];

/// The transaction kinds `BuysAndSellsOnly` keeps.
pub const BUYS_AND_SELLS: &[&str] = &[
    "Buy",
    "Close position",
    "Sell",
    "Short Sell",
    "Write Opt. to Open",
    "Write Opt. to Close",
    "Buy Opt. to open",
    "Buy Opt. to close",
];

/// Midnight UTC of `day`, written with its offset as RFC 3339 asks of replies.
pub fn at(day: Date) -> DateTime {
    DateTime::from(day.midnight().assume_utc())
}

/// A date-time from a request, rewritten with an offset for a reply (a request may omit it).
pub fn utc(value: &DateTime) -> DateTime {
    DateTime::from(value.assume_utc())
}

fn security(code: &str) -> Security {
    Security::default().with_code(code.to_string()).with_exchange("ASX".to_string())
}

/// One sample account and what hangs off it.
pub struct AccountData {
    pub account: Account,
    pub children: Vec<String>,
    pub holdings: Positions,
    pub transactions: Vec<Transaction>,
    pub cash: Vec<CashTransaction>,
    pub model_weightings: Vec<AccountModelWeighting>,
    pub esg_categories: Vec<String>,
    pub cashflow_instructions: Vec<CashflowInstruction>,
}

/// Holdings as (index into [`SECURITIES`], units); model weights as (index, percent).
pub type Positions = Vec<(usize, f64)>;

/// A sample account: (id, code, name, entity, child ids, holdings).
type AccountSpec =
    (&'static str, &'static str, &'static str, AccountEntityType, &'static [&'static str], &'static [(usize, f64)]);

pub fn accounts() -> BTreeMap<String, AccountData> {
    let specs: &[AccountSpec] = &[
        (
            "A100",
            "SMITH001",
            "Smith Family Trust",
            AccountEntityType::Trust,
            &["A101", "A102"],
            &[(0, 1200.0), (1, 300.0), (4, 850.0), (7, 400.0)],
        ),
        ("A101", "SMITH002", "Smith Family Trust - Growth", AccountEntityType::Trust, &[], &[(2, 40.0), (5, 500.0)]),
        ("A102", "SMITH003", "Smith Family Trust - Income", AccountEntityType::Trust, &[], &[(6, 900.0), (7, 250.0)]),
        (
            "A200",
            "JONES001",
            "Jones Superannuation Fund",
            AccountEntityType::Superfund,
            &[],
            &[(1, 150.0), (3, 420.0), (5, 610.0), (6, 300.0)],
        ),
        ("A300", "LEE001", "Alex Lee", AccountEntityType::Individual, &[], &[(0, 200.0), (2, 15.0)]),
    ];
    let mut out = BTreeMap::new();
    for (n, (id, code, name, entity, children, holdings)) in specs.iter().enumerate() {
        let account = Account::default()
            .with_id(id.to_string())
            .with_code(code.to_string())
            .with_name(name.to_string())
            .with_consolidation_type(if children.is_empty() {
                AccountConsolidationType::Portfolio
            } else {
                AccountConsolidationType::Transaction
            })
            .with_account_type(if *entity == AccountEntityType::Superfund {
                AccountStructureType::Smsf
            } else {
                AccountStructureType::Standard
            })
            .with_entity_type(*entity)
            .with_is_sma(false)
            .with_status(AccountStatus::Active)
            .with_recalc_type(AccountRecalcType::Auto)
            .with_recalc_status(AccountRecalcStatus::Ok)
            .with_valuation_date(at(date!(2024 - 12 - 31)))
            .with_first_transaction_date(at(date!(2024 - 01 - 02)))
            .with_created_date(at(date!(2023 - 11 - 15)))
            .with_market_value(holdings.iter().map(|(s, q)| q * SECURITIES[*s].4).sum())
            .with_owner_user_name(format!("user{n}"))
            .with_product("Managed Portfolio".to_string())
            .with_benchmark_id1("B1".to_string())
            .with_benchmark1("S&P/ASX 200".to_string());
        out.insert(
            id.to_string(),
            AccountData {
                account,
                children: children.iter().map(|c| c.to_string()).collect(),
                holdings: holdings.to_vec(),
                transactions: transactions(id, n, holdings),
                cash: cash(id, n),
                model_weightings: vec![
                    AccountModelWeighting::default().with_model_code("GROWTH".into()).with_percentage(60.0),
                    AccountModelWeighting::default().with_model_code("INCOME".into()).with_percentage(40.0),
                ],
                esg_categories: vec!["ESG-CLIMATE".to_string()],
                cashflow_instructions: vec![
                    CashflowInstruction::default()
                        .with_id(format!("CF-{id}-1"))
                        .with_cashflow_instruction_type(CashflowInstructionType::RegularContribution)
                        .with_frequency_type(FrequencyType::Monthly)
                        .with_start_date(at(date!(2024 - 01 - 01)))
                        .with_value(500.0)
                        .with_allocations(vec![
                            CashflowInstructionDetail::new("GROWTH".into()).with_sequence(1).with_percentage(100.0),
                        ]),
                ],
            },
        );
    }
    out
}

/// Two transactions a month through 2024, cycling through [`KINDS`] and the account's securities.
fn transactions(id: &str, seed: usize, holdings: &[(usize, f64)]) -> Vec<Transaction> {
    (0..24)
        .map(|i| {
            let (sec, _) = holdings[(i + seed) % holdings.len()];
            let (_, code, _, _, price) = SECURITIES[sec];
            let day = date!(2024 - 01 - 02) + Duration::days(i as i64 * 15);
            let kind = KINDS[(i + seed) % KINDS.len()];
            let quantity = 10.0 + (i as f64) * 5.0;
            Transaction::default()
                .with_transaction_id(format!("T-{id}-{i:02}"))
                .with_security(security(code))
                .with_transaction_date(at(day))
                .with_settlement_date(at(day + Duration::days(2)))
                .with_quantity(quantity)
                .with_average_price(price)
                .with_net_amount(quantity * price)
                .with_unconfirmed(i == 23)
                .with_transaction_type_description(kind.to_string())
                .with_narration(format!("{kind} {code}"))
        })
        .collect()
}

fn cash(id: &str, seed: usize) -> Vec<CashTransaction> {
    let mut balance = 10_000.0 + seed as f64 * 1_000.0;
    (0..12)
        .map(|i| {
            let day = date!(2024 - 01 - 15) + Duration::days(i as i64 * 30);
            let deposit = if i % 3 == 0 { 0.0 } else { 250.0 };
            let withdrawal = if i % 3 == 0 { 400.0 } else { 0.0 };
            balance += deposit - withdrawal;
            CashTransaction::default()
                .with_transaction_id(format!("C-{id}-{i:02}"))
                .with_transaction_date(at(day))
                .with_currency("AUD".into())
                .with_transaction_type_description(if deposit > 0.0 { "Deposit".into() } else { "Withdrawal".into() })
                .with_deposit(deposit)
                .with_withdrawal(withdrawal)
                .with_value_in_account_currency(deposit - withdrawal)
                .with_balance(balance)
        })
        .collect()
}

pub fn models() -> Vec<(Model, Positions)> {
    let model = |id: &str, code: &str, description: &str| {
        Model::default()
            .with_id(id.into())
            .with_code(code.into())
            .with_description(description.into())
            .with_status(ModelStatus::Open)
            .with_provider_name("Sample Advisers".into())
            .with_updated_date(at(date!(2024 - 11 - 30)))
    };
    vec![
        (model("M1", "GROWTH", "Growth model"), vec![(0, 25.0), (2, 25.0), (5, 40.0), (7, 10.0)]),
        (model("M2", "INCOME", "Income model"), vec![(1, 30.0), (6, 50.0), (7, 20.0)]),
        (model("M3", "BALANCED", "Balanced model"), vec![(4, 50.0), (6, 40.0), (7, 10.0)]),
    ]
}

pub fn benchmarks() -> Vec<Benchmark> {
    vec![
        Benchmark::default().with_id("B1".into()).with_code("XJO".into()).with_name("S&P/ASX 200".into()),
        Benchmark::default().with_id("B2".into()).with_code("MSCIW".into()).with_name("MSCI World".into()),
    ]
}

pub struct Event {
    pub event: PublisherEvent,
    pub details: Vec<PublisherEventDetail>,
}

pub fn events() -> Vec<Event> {
    let detail = |file: &str, account: &str, name: &str, day: Date| {
        PublisherEventDetail::default()
            .with_file_id(file.into())
            .with_account_id(account.into())
            .with_file_name(name.into())
            .with_generated_date(at(day))
            .with_published_date(at(day + Duration::days(1)))
    };
    let event = |id: &str, name: &str, day: Date| {
        PublisherEvent::default()
            .with_id(id.into())
            .with_event_name(name.into())
            .with_created_date(at(day))
            .with_updated_date(at(day))
    };
    vec![
        Event {
            event: event("E1", "Quarterly report", date!(2024 - 10 - 01)),
            details: vec![
                detail("F1", "A100", "A100-2024Q3.pdf", date!(2024 - 10 - 01)),
                detail("F2", "A200", "A200-2024Q3.pdf", date!(2024 - 10 - 01)),
            ],
        },
        Event {
            event: event("E2", "Tax statement", date!(2024 - 07 - 20)),
            details: vec![detail("F3", "A300", "A300-tax-2024.pdf", date!(2024 - 07 - 20))],
        },
    ]
}

/// The bytes of a sample file: a recognisable header and deterministic filler.
pub fn file_content(file_id: &str, name: &str) -> Vec<u8> {
    let mut content = format!("%PDF-1.4\n% sample document {name} ({file_id})\n").into_bytes();
    content.extend((0..4096u32).map(|i| b'a' + (i % 26) as u8));
    content
}
