//! What a change of the spec does to each party: compares two lowered APIs and lists every
//! difference on the wire with whom it breaks — clients built against the old spec, servers built
//! against it, or neither — and what it does to the generated crates' Rust API (a semver level).
//!
//! The comparison walks each operation's request and reply, so it knows which way every value
//! travels: a value the client sends may grow only if every server accepts the growth, a value the
//! server sends only if every client does. A schema reached from several operations is reported
//! once, listing the operations it is reached from.

mod accept;
mod report;
mod walk;

use serde::Serialize;

pub use accept::{Acceptance, Accepted, FIRST_VERSION, at_least, next_version};

use crate::ir::Api;

/// Every difference between two versions of a spec.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// The old spec's `info.version`.
    pub old_version: String,
    /// The new spec's `info.version`.
    pub new_version: String,
    /// Breaking changes first, then compatible ones; each group by where it is.
    pub changes: Vec<Change>,
    /// How far each generated crate's version must move.
    pub crates: Crates,
}

/// One difference, and its effect on each party.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// Names the change for acknowledgements: `{at}: {what}`.
    pub id: String,
    /// Where: an operation (`GET /pets/{}`), one of its parts (`GET /pets › query limit`), or a
    /// schema's field (`Pet.name`).
    pub at: String,
    /// What happened, e.g. `field removed` or `maximum lowered from 100 to 50`.
    pub what: String,
    /// Clients built against the old spec may now fail: they may send what the new spec refuses
    /// or miss what they read.
    pub breaks_clients: bool,
    /// Servers built against the old spec may now fail: they may refuse what new clients send or
    /// not send what they expect.
    pub breaks_servers: bool,
    /// What it does to the generated crates' public Rust API.
    pub rust: Crates,
    /// The operations the change is reached from, and in which direction
    /// (`GET /pets (reply)`).
    pub reached_from: Vec<String>,
    /// The version whose acknowledgement accepts this change, if one does.
    pub accepted: Option<String>,
}

impl Change {
    /// Whether the change breaks a party on the wire.
    pub fn breaks(&self) -> bool {
        self.breaks_clients || self.breaks_servers
    }
}

/// A semver level per generated crate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Crates {
    pub types: Semver,
    pub client: Semver,
    pub server: Semver,
}

impl Crates {
    fn all(level: Semver) -> Crates {
        Crates { types: level, client: level, server: level }
    }

    fn max(self, other: Crates) -> Crates {
        Crates {
            types: self.types.max(other.types),
            client: self.client.max(other.client),
            server: self.server.max(other.server),
        }
    }
}

/// How far a crate's version moves for a change of its public API.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Semver {
    /// Nothing public changed.
    #[default]
    None,
    /// Documentation or behaviour only.
    Patch,
    /// Additions a dependent crate keeps compiling with.
    Minor,
    /// A dependent crate may stop compiling.
    Major,
}

/// Compares `old` with `new`, both lowered with the same configuration.
pub fn compare(old: &Api, new: &Api) -> Report {
    let mut changes = walk::changes(old, new);
    changes.sort_by(|a, b| b.breaks().cmp(&a.breaks()).then_with(|| a.at.cmp(&b.at)).then_with(|| a.what.cmp(&b.what)));
    let crates = changes.iter().fold(Crates::default(), |all, change| all.max(change.rust));
    Report { old_version: old.version.clone(), new_version: new.version.clone(), changes, crates }
}

impl Crates {
    /// The furthest any of the crates moves: they share one version.
    pub fn level(self) -> Semver {
        self.types.max(self.client).max(self.server)
    }
}

impl Report {
    /// The breaking changes no acknowledgement accepts.
    pub fn unaccepted(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.breaks() && c.accepted.is_none())
    }
}
