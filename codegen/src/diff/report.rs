//! The report written for a person: breaking changes first, each with whom it breaks and where
//! it is reached from, then the compatible ones, then how far each crate's version moves.

use std::fmt;

use super::{Change, Crates, Report, Semver};

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.is_empty() {
            return writeln!(f, "No changes on the wire or in the generated Rust API.");
        }
        let (breaking, compatible): (Vec<&Change>, Vec<&Change>) = self.changes.iter().partition(|c| c.breaks());
        if !breaking.is_empty() {
            writeln!(f, "Breaking ({}):", breaking.len())?;
            for change in breaking {
                let whom = match (change.breaks_clients, change.breaks_servers) {
                    (true, true) => "clients and servers",
                    (true, false) => "clients",
                    _ => "servers",
                };
                let accepted = change.accepted.as_ref().map(|v| format!(" — accepted for {v}")).unwrap_or_default();
                writeln!(f, "  {}\n      breaks {whom}{accepted}", change.id)?;
                if !change.reached_from.is_empty() {
                    writeln!(f, "      reached from {}", change.reached_from.join(", "))?;
                }
            }
        }
        if !compatible.is_empty() {
            writeln!(f, "Compatible on the wire ({}):", compatible.len())?;
            for change in compatible {
                writeln!(f, "  {}", change.id)?;
            }
        }
        writeln!(f, "Generated crates: {}", Levels(self.crates))
    }
}

struct Levels(Crates);

impl fmt::Display for Levels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = |s: Semver| match s {
            Semver::None => "unchanged",
            Semver::Patch => "patch",
            Semver::Minor => "minor",
            Semver::Major => "major",
        };
        let Crates { types, client, server } = self.0;
        write!(f, "types {}, client {}, server {}", level(types), level(client), level(server))
    }
}
