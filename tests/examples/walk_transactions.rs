//! A downstream program: lists the accounts a user can see, then walks every transaction of one
//! account page by page.
//!
//! ```sh
//! cargo run -p sandbox &                    # serves on 127.0.0.1:8080
//! cargo run -p portfolio-tests --example walk_transactions -- http://127.0.0.1:8080 A100
//! ```

use std::time::Duration;

use portfolio_client::{Client, Credentials, DateTime, Error};

#[tokio::main]
async fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let base_url = args.next().unwrap_or_else(|| "http://127.0.0.1:8080".to_string());
    let account_id = args.next();

    let client = Client::builder(&base_url, Credentials::new("example-token", "example-key"))
        .timeout(Duration::from_secs(10))
        .build()?;

    println!("Accounts:");
    let mut accounts = client.get_au_accounts().search("*").into_stream();
    let mut first = None;
    while let Some(account) = accounts.next().await {
        let account = account?;
        let id = account.id.unwrap_or_default();
        println!("  {id:<6} {}", account.name.unwrap_or_default());
        first.get_or_insert(id);
    }

    let Some(account_id) = account_id.or(first) else {
        println!("no accounts");
        return Ok(());
    };
    let from = DateTime::parse("2024-01-01T00:00:00Z").expect("a valid date-time");
    let to = DateTime::parse("2024-12-31T23:59:59Z").expect("a valid date-time");
    println!("\nTransactions of {account_id} in 2024, ten per request:");
    let mut transactions = client.get_au_transactions(&*account_id, from, to).size(10).into_stream();
    let mut count = 0;
    while let Some(transaction) = transactions.next().await {
        let t = transaction?;
        count += 1;
        println!(
            "  {}  {:<16} {:>10.2}  {}",
            t.transaction_date.map(|d| d.to_string()).unwrap_or_default(),
            t.transaction_type_description.unwrap_or_default(),
            t.net_amount.unwrap_or_default(),
            t.security.and_then(|s| s.code).unwrap_or_default(),
        );
    }
    println!("{count} transactions");
    Ok(())
}
