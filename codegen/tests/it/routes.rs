//! Every corpus document's generated router can be built: its routes insert, without a conflict
//! or a refused segment, into the router axum builds routes with (axum panics on either as the
//! router is built, which `cargo check` cannot see).

use apigen::{Config, generate};

use crate::common;

fn config() -> Config {
    Config { client: None, strict: false, ..common::config("corpus", "corpus.yaml") }
}

/// The paths of the `.route("…", …)` calls of a generated `router.rs`.
fn routes(router: &str) -> Vec<&str> {
    router.split(".route(").skip(1).filter_map(|call| call.trim_start().strip_prefix('"')?.split('"').next()).collect()
}

/// Routes given a handler for one method twice (axum panics on it too): each `.route(…)` call's
/// method routers (`get(`, `.post(`) counted.
fn repeated_methods(router: &str) -> Vec<(String, &'static str)> {
    const METHODS: [&str; 8] = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
    let mut repeated = Vec::new();
    // The chain of routes ends where the fallbacks begin.
    let chain = router.split("\n        .fallback(").next().unwrap_or(router);
    for call in chain.split(".route(").skip(1) {
        let route = call.trim_start().strip_prefix('"').and_then(|c| c.split('"').next()).unwrap_or("");
        for method in METHODS {
            let count = call
                .match_indices(&format!("{method}("))
                .filter(|(at, _)| call[..*at].ends_with(|c: char| c == '.' || c == '(' || c.is_whitespace()))
                .count();
            if count > 1 {
                repeated.push((route.to_string(), method));
            }
        }
    }
    repeated
}

#[test]
fn every_corpus_router_can_be_built() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut specs: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "yaml" || x == "yml"))
        .collect();
    specs.sort();
    assert!(specs.len() > 50, "the corpus holds {} documents", specs.len());
    let mut refused = Vec::new();
    for spec in &specs {
        let text = std::fs::read_to_string(spec).expect("readable");
        let Ok(generated) = generate(&text, &config()) else { continue };
        let router = generated.files.iter().find(|f| f.path.ends_with("src/router.rs")).expect("a router");
        let mut matcher = matchit::Router::new();
        for route in routes(&router.contents) {
            if let Err(e) = matcher.insert(route, ()) {
                refused.push(format!("{}: {route}: {e}", spec.display()));
            }
        }
        for (route, method) in repeated_methods(&router.contents) {
            refused.push(format!("{}: {route}: `{method}` twice on one route", spec.display()));
        }
    }
    assert!(refused.is_empty(), "routes axum would refuse:\n{}", refused.join("\n"));
}

#[test]
fn route_calls_are_found_in_a_router() {
    let router =
        "Router::new()\n    .route(\"/a/{id}\", get(x))\n    .route(\n        \"/b\",\n        post(y),\n    )";
    assert_eq!(routes(router), ["/a/{id}", "/b"]);
    // What the check catches: two spellings of one route, and a parameter beside literal text.
    let mut matcher = matchit::Router::new();
    matcher.insert("/a/{x}", ()).expect("the first spelling");
    assert!(matcher.insert("/a/{y}", ()).is_err());
    assert!(matcher.insert("/s/{index}.ts", ()).is_err());
    let twice = "    .route(\"/r/{id}\", post(a::<A>).post(b::<A>))\n    .route(\"/s\", get(get_s::<A>))";
    assert_eq!(repeated_methods(twice), [("/r/{id}".to_string(), "post")]);
}
