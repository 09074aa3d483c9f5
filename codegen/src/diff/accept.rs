//! The file a team keeps beside its spec (`CHANGES.yaml`): the generated crates' version, and the
//! breaking changes it accepts, each with the API version that announces it.

use serde::Deserialize;

use super::{Report, Semver};

/// What the file says.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Acceptance {
    /// The generated crates' version; `0.1.0` when not given.
    #[serde(default)]
    pub crate_version: Option<String>,
    /// The accepted breaking changes.
    #[serde(default)]
    pub accepted: Vec<Accepted>,
}

/// One accepted change.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accepted {
    /// The change's id as the check prints it: `Pet.name: field removed`.
    pub change: String,
    /// The spec's `info.version` that announces the change; it must differ from the old one.
    pub version: String,
    /// Why the change is worth breaking someone, for whoever reads the history.
    #[serde(default)]
    pub why: Option<String>,
}

impl Acceptance {
    /// Reads the file's text: `crate-version`, and `accepted`, a list of `{change, version, why}`.
    pub fn parse(text: &str) -> Result<Acceptance, String> {
        if text.trim().is_empty() {
            return Ok(Acceptance::default());
        }
        serde_yaml_ng::from_str(text).map_err(|e| e.to_string())
    }

    /// Marks the report's changes this accepts. An acknowledgement counts only for the version
    /// the new spec declares, and only when that version is new: the notes say why one did not.
    pub fn apply(&self, report: &mut Report) -> Vec<String> {
        let mut notes = Vec::new();
        for change in report.changes.iter_mut().filter(|c| c.breaks()) {
            let Some(accepted) = self.accepted.iter().find(|a| a.change == change.id) else { continue };
            if accepted.version != report.new_version {
                notes.push(format!(
                    "`{}` is accepted for version {}, but the spec now declares {}: the change needs an acknowledgement naming the version that announces it",
                    change.id, accepted.version, report.new_version
                ));
            } else if report.new_version == report.old_version {
                notes.push(format!(
                    "`{}` is accepted for version {}, which the old spec declared too: raise `info.version` to announce the change",
                    change.id, accepted.version
                ));
            } else {
                change.accepted = Some(accepted.version.clone());
            }
        }
        notes
    }
}

/// The version the generated crates start at.
pub const FIRST_VERSION: &str = "0.1.0";

impl Acceptance {
    /// The generated crates' version the file gives, or the first one.
    pub fn version(&self) -> &str {
        self.crate_version.as_deref().unwrap_or(FIRST_VERSION)
    }
}

/// The least version after `old` for a change of the public API by `level`, as cargo reads
/// versions: below 1.0 the minor number is the one that breaks, the patch number the one that adds.
pub fn next_version(old: &str, level: Semver) -> Result<String, String> {
    let [major, minor, patch] = parse_version(old)?;
    let next = match (level, major) {
        (Semver::None, _) => [major, minor, patch],
        (Semver::Major, 0) | (Semver::Minor, 1..) => [major, minor + 1, 0],
        (Semver::Major, _) => [major + 1, 0, 0],
        (Semver::Minor | Semver::Patch, 0) | (Semver::Patch, _) => [major, minor, patch + 1],
    };
    Ok(format!("{}.{}.{}", next[0], next[1], next[2]))
}

/// Whether `version` is at least `least`.
pub fn at_least(version: &str, least: &str) -> Result<bool, String> {
    Ok(parse_version(version)? >= parse_version(least)?)
}

fn parse_version(text: &str) -> Result<[u64; 3], String> {
    let parts: Vec<Option<u64>> = text.trim().split('.').map(|p| p.parse().ok()).collect();
    match parts.as_slice() {
        [Some(a), Some(b), Some(c)] => Ok([*a, *b, *c]),
        _ => Err(format!("`{text}` is not a version of three numbers, such as 1.4.0")),
    }
}

#[cfg(test)]
mod tests {
    use super::{Semver, at_least, next_version};

    #[test]
    fn versions_move_as_cargo_reads_them() {
        let next = |old, level| next_version(old, level).unwrap();
        assert_eq!(next("0.1.0", Semver::Major), "0.2.0");
        assert_eq!(next("0.1.3", Semver::Minor), "0.1.4");
        assert_eq!(next("1.4.2", Semver::Major), "2.0.0");
        assert_eq!(next("1.4.2", Semver::Minor), "1.5.0");
        assert_eq!(next("1.4.2", Semver::Patch), "1.4.3");
        assert_eq!(next("1.4.2", Semver::None), "1.4.2");
        assert!(at_least("0.10.0", "0.9.1").unwrap());
        assert!(!at_least("0.1.9", "0.2.0").unwrap());
        assert!(next_version("1.0", Semver::Patch).unwrap_err().contains("three numbers"));
    }
}
