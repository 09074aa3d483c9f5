//! Shared pieces of the benchmarks: the reply both servers send, the generated router with a
//! trivial implementation, the hand-written axum baseline, and a generator of synthetic specs.

pub mod baseline;
pub mod synthetic;
pub mod trivial;

use portfolio_server::types::{Holding, HoldingData, HoldingSecurity, Valuation};

/// The fixed reply of `GET /api/holdings` in the server benchmark: two accounts, five holdings each.
pub fn holdings() -> Vec<HoldingData> {
    (1..=2)
        .map(|a| {
            HoldingData::default()
                .with_account_id(format!("A{a}"))
                .with_valuation(Valuation::default().with_total_value(1000.0 * a as f64))
                .with_holdings(
                    (0..5)
                        .map(|i| {
                            Holding::default()
                                .with_security(
                                    HoldingSecurity::default().with_code(format!("SEC{i}")).with_exchange("ASX".into()),
                                )
                                .with_quantity(10.0 * i as f64)
                                .with_value(100.0 * i as f64)
                        })
                        .collect(),
                )
        })
        .collect()
}
