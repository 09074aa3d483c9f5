//! What changed in a stale generated file, for a person: the items (types, functions, tables)
//! whose lines differ, and the first few differing lines.

use std::fmt;

/// How many differing lines a report shows per file.
const SHOWN_LINES: usize = 12;

/// Above this many cells (old lines × new lines between the common head and tail), the lines are
/// not matched one by one: the whole middle is reported as replaced.
const MOST_CELLS: usize = 4_000_000;

/// One stale file: the items whose lines changed, and a short diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The file, relative to the output root.
    pub path: String,
    /// The items the changed lines belong to, in file order, each once: `struct Account`,
    /// `fn get_account`, `[dependencies]`.
    pub items: Vec<String>,
    /// The differing lines, each starting with `-` (on disk) or `+` (generated), at most
    /// twelve.
    pub lines: Vec<String>,
    /// How many differing lines there are in all.
    pub changed: usize,
}

impl fmt::Display for FileChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "  stale:   {}", self.path)?;
        if !self.items.is_empty() {
            write!(f, " ({})", self.items.join(", "))?;
        }
        writeln!(f)?;
        for line in &self.lines {
            writeln!(f, "           {line}")?;
        }
        if self.changed > self.lines.len() {
            writeln!(f, "           … {} more changed lines", self.changed - self.lines.len())?;
        }
        Ok(())
    }
}

/// What differs between `old` (on disk) and `new` (generated) in the file at `path`.
pub fn explain(path: &str, old: &str, new: &str) -> FileChange {
    let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let edits = edits(&old, &new);
    let mut items: Vec<String> = Vec::new();
    for edit in &edits {
        let item = match *edit {
            Edit::Removed(i) => enclosing_item(&old, i),
            Edit::Added(j) => enclosing_item(&new, j),
        };
        if let Some(item) = item
            && !items.contains(&item)
        {
            items.push(item);
        }
    }
    let lines = edits
        .iter()
        .take(SHOWN_LINES)
        .map(|edit| match *edit {
            Edit::Removed(i) => format!("- {}", old[i].trim_end()),
            Edit::Added(j) => format!("+ {}", new[j].trim_end()),
        })
        .collect();
    FileChange { path: path.to_string(), items, lines, changed: edits.len() }
}

/// A differing line: its index in the old or the new text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Removed(usize),
    Added(usize),
}

/// The lines to remove from `old` and add from `new`, in order: the common head and tail are
/// skipped, and the middle is matched by longest common subsequence when it is small enough.
fn edits(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..].iter().rev().zip(new[head..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (a, b) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    if a.len().saturating_mul(b.len()) > MOST_CELLS {
        let removed = (0..a.len()).map(|i| Edit::Removed(head + i));
        return removed.chain((0..b.len()).map(|j| Edit::Added(head + j))).collect();
    }
    // common[i][j]: the longest common subsequence of a[i..] and b[j..].
    let width = b.len() + 1;
    let mut common = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i * width + j] = if a[i] == b[j] {
                common[(i + 1) * width + j + 1] + 1
            } else {
                common[(i + 1) * width + j].max(common[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            (i, j) = (i + 1, j + 1);
        } else if j < b.len() && (i == a.len() || common[i * width + j + 1] > common[(i + 1) * width + j]) {
            out.push(Edit::Added(head + j));
            j += 1;
        } else {
            out.push(Edit::Removed(head + i));
            i += 1;
        }
    }
    out
}

/// The item the line at `at` belongs to: the nearest line at or above it that opens a Rust item,
/// a TOML table or a Markdown section, as a short label.
fn enclosing_item(lines: &[&str], at: usize) -> Option<String> {
    lines[..=at.min(lines.len().saturating_sub(1))].iter().rev().find_map(|line| item_label(line))
}

/// `struct Account` for `pub struct Account {`, `fn get_account` for `pub async fn get_account(`,
/// `[dependencies]` for that table; nothing for other lines.
fn item_label(line: &str) -> Option<String> {
    let line = line.trim_start();
    if line.starts_with('[') && line.trim_end().ends_with(']') && !line.contains('"') {
        return Some(line.trim_end().to_string());
    }
    if let Some(section) = line.strip_prefix("## ") {
        return Some(section.trim().to_string());
    }
    let mut words = line
        .split_whitespace()
        .skip_while(|w| matches!(*w, "pub" | "pub(crate)" | "async" | "unsafe" | "extern"))
        .peekable();
    let mut keyword = words.next()?;
    if keyword == "const" && words.peek() == Some(&"fn") {
        keyword = words.next()?;
    }
    match keyword {
        "struct" | "enum" | "trait" | "fn" | "mod" | "type" | "union" | "const" | "static" => {
            let name: String = words.next()?.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            (!name.is_empty()).then(|| format!("{keyword} {name}"))
        }
        keyword if keyword == "impl" || keyword.starts_with("impl<") => {
            let rest = line.split_once("impl")?.1;
            let rest = rest.trim_start();
            let rest = if rest.starts_with('<') { rest.split_once("> ").map_or(rest, |(_, r)| r) } else { rest };
            let head = rest.split(['{', '\n']).next()?.split(" where").next()?.trim();
            Some(format!("impl {head}"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_field_names_its_struct_and_shows_the_lines() {
        let old = "use x;\n\npub struct Account {\n    pub id: String,\n}\n\npub fn get_account() {}\n";
        let new = "use x;\n\npub struct Account {\n    pub id: u64,\n}\n\npub fn get_account() {}\n";
        let change = explain("types.rs", old, new);
        assert_eq!(change.items, ["struct Account"]);
        assert_eq!(change.lines, ["-     pub id: String,", "+     pub id: u64,"]);
        assert_eq!(change.changed, 2);
        let shown = change.to_string();
        assert!(shown.starts_with("  stale:   types.rs (struct Account)\n"), "{shown}");
    }

    #[test]
    fn items_are_listed_once_in_file_order_and_long_diffs_are_cut() {
        let old: String = (0..40).map(|i| format!("    a{i}\n")).collect();
        let new: String = (0..40).map(|i| format!("    b{i}\n")).collect();
        let old = format!("impl<T> Fill for Builder<T> where T: X {{\n{old}}}\n[dependencies]\nx = 1\n");
        let new = format!("impl<T> Fill for Builder<T> where T: X {{\n{new}}}\n[dependencies]\nx = 2\n");
        let change = explain("f", &old, &new);
        assert_eq!(change.items, ["impl Fill for Builder<T>", "[dependencies]"]);
        assert_eq!(change.lines.len(), SHOWN_LINES);
        assert_eq!(change.changed, 82);
        assert!(change.to_string().contains("… 70 more changed lines"));
    }

    #[test]
    fn insertions_and_removals_are_matched_line_by_line() {
        let change = explain("f", "a\nb\nc\nd\n", "a\nc\nd\ne\n");
        assert_eq!(change.lines, ["- b", "+ e"]);
        assert!(explain("f", "", "pub enum Status {\n").items == ["enum Status"]);
    }
}
