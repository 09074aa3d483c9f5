//! Acknowledgements: breaking changes a team accepts, each with the API version that announces
//! it, kept in a file beside the spec.

use serde::Deserialize;

use super::Report;

/// The accepted breaking changes, as the file lists them.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct Acceptance(pub Vec<Accepted>);

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
    /// Reads the file's text: a YAML list of `{change, version, why}`.
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
            let Some(accepted) = self.0.iter().find(|a| a.change == change.id) else { continue };
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
