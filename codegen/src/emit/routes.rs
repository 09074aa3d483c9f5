//! How operations' paths become axum routes. axum captures whole segments only, and refuses two
//! spellings of one route, so a segment that holds a parameter beside literal text
//! (`{index}.ts`, `v{major}.{minor}`) is captured whole as `{__segmentN}` and split by the
//! handler, and paths that match the same requests share the route of the first of them, each
//! handler reading the captures under its own names. A query a path template fixes
//! (`/items?beta=true`) is no part of the route: it tells operations on the same route apart.

use crate::ir::Operation;

/// The name a segment captured whole is known by in the route: its position.
fn capture(index: usize) -> String {
    format!("__segment{index}")
}

/// A segment's parameter name when it is exactly one parameter (`{id}`) whose name axum can
/// capture it under. One it cannot (`{}`, or `{*rest}`, which axum reads as the rest of the path)
/// is captured by position, as a mixed segment is.
fn whole(segment: &str) -> Option<&str> {
    let name = segment.strip_prefix('{')?.strip_suffix('}')?;
    let capturable = !name.is_empty() && !name.starts_with('*') && !name.starts_with("__segment");
    (capturable && !name.contains(['{', '}', '/'])).then_some(name)
}

/// A segment that holds parameters among literal text.
fn is_mixed(segment: &str) -> bool {
    segment.contains('{') && whole(segment).is_none()
}

/// The name of the capture of segment `index` as `path` writes it, when it captures.
fn captured(segment: &str, index: usize) -> Option<String> {
    match whole(segment) {
        Some(name) => Some(name.to_string()),
        None if is_mixed(segment) => Some(capture(index)),
        None => None,
    }
}

/// The part of a path template before any query it fixes (`/items` of `/items?beta=true`).
fn path_only(path: &str) -> &str {
    path.split_once('?').map_or(path, |(path, _)| path)
}

/// `path` as an axum route: each mixed segment captured whole.
fn axum_path(path: &str) -> String {
    let segments = path_only(path)
        .split('/')
        .enumerate()
        .map(|(i, s)| if is_mixed(s) { format!("{{{}}}", capture(i)) } else { s.to_string() });
    segments.collect::<Vec<_>>().join("/")
}

/// The route serving `op`: the axum form of the first operation's path that matches the same
/// requests.
pub fn route(op: &Operation) -> String {
    axum_path(&op.route)
}

/// Each capture's name in `op`'s route and in its own path, where they differ.
pub fn renames(op: &Operation) -> Vec<(String, String)> {
    let route = route(op);
    let pairs = route.split('/').zip(path_only(&op.path).split('/')).enumerate();
    pairs
        .filter_map(|(i, (routed, own))| Some((captured(routed, i)?, captured(own, i)?)))
        .filter(|(routed, own)| routed != own)
        .collect()
}

/// One mixed segment of a path to split: its capture, the literal pieces around and between
/// its parameters (one more than the parameters), and the parameters' names.
pub struct Split {
    /// The segment's place in the path (`/` splits, the empty text before the first is 0).
    pub index: usize,
    pub capture: String,
    pub literals: Vec<String>,
    pub names: Vec<String>,
}

/// The mixed segments of a path.
pub fn splits(path: &str) -> Vec<Split> {
    let mixed = path_only(path).split('/').enumerate().filter(|(_, s)| is_mixed(s));
    mixed
        .map(|(i, segment)| {
            let (mut literals, mut names) = (Vec::new(), Vec::new());
            let mut rest = segment;
            while let Some((literal, after)) = rest.split_once('{') {
                literals.push(literal.to_string());
                let (name, after) = after.split_once('}').unwrap_or((after, ""));
                names.push(name.to_string());
                rest = after;
            }
            literals.push(rest.to_string());
            Split { index: i, capture: capture(i), literals, names }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_segments_are_captured_whole_and_split_by_their_literals() {
        assert_eq!(axum_path("/stream/{id}/{index}.ts"), "/stream/{id}/{__segment3}");
        assert_eq!(crate::ir::route_key("/a/{x}.ts"), crate::ir::route_key("/a/{y}"));
        let split = &splits("/v{major}.{minor}/x")[0];
        assert_eq!(split.capture, "__segment1");
        assert_eq!(split.literals, ["v", ".", ""]);
        assert_eq!(split.names, ["major", "minor"]);
    }

    #[test]
    fn names_axum_reads_otherwise_are_captured_by_position() {
        assert_eq!(axum_path("/k/{}"), "/k/{__segment2}");
        assert_eq!(axum_path("/files/{*rest}/meta"), "/files/{__segment2}/meta");
        assert_eq!(splits("/k/{}")[0].names, [""]);
        assert_eq!(splits("/files/{*rest}")[0].names, ["*rest"]);
    }

    #[test]
    fn a_query_in_a_path_is_no_part_of_its_route() {
        assert_eq!(axum_path("/r/{id}?beta=true"), "/r/{id}");
        assert_eq!(crate::ir::route_key("/r/{id}?beta=true"), crate::ir::route_key("/r/{x}"));
        assert!(splits("/r/{id}?beta=true").is_empty());
    }
}
