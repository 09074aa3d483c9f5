//! The file lists of the generated crates: which emitter or support module goes where.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::config::{Config, CrateConfig, Runtime};
use crate::emit::facts::TypeItem;
use crate::emit::split::{self, Split, TypesCrate};
use crate::emit::{client, server};
use crate::ir::{Api, TagFeatures, TypeId};
use crate::render::encode::markdown;
use crate::render::encode::toml::{self, Value};
use crate::render::{self, GeneratedFile, RustJob};

/// What one crate needs: files ready as they are, and Rust modules still to emit and format.
pub struct Plan<'a> {
    pub files: Vec<GeneratedFile>,
    pub jobs: Vec<RustJob<'a>>,
}

/// The runtime crate's files, written beside crates that must build on their own: byte for byte
/// the crate in `codegen/runtime`, so a copy is always exactly the tested one.
pub const RUNTIME_FILES: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../../runtime/Cargo.toml")),
    ("src/client/builder.rs", include_str!("../../runtime/src/client/builder.rs")),
    ("src/client/download.rs", include_str!("../../runtime/src/client/download.rs")),
    ("src/client/encoding.rs", include_str!("../../runtime/src/client/encoding.rs")),
    ("src/client/error.rs", include_str!("../../runtime/src/client/error.rs")),
    ("src/client/hooks.rs", include_str!("../../runtime/src/client/hooks.rs")),
    ("src/client/mod.rs", include_str!("../../runtime/src/client/mod.rs")),
    ("src/client/multipart.rs", include_str!("../../runtime/src/client/multipart.rs")),
    ("src/client/operation.rs", include_str!("../../runtime/src/client/operation.rs")),
    ("src/client/paging.rs", include_str!("../../runtime/src/client/paging.rs")),
    ("src/client/policy.rs", include_str!("../../runtime/src/client/policy.rs")),
    ("src/client/stream.rs", include_str!("../../runtime/src/client/stream.rs")),
    ("src/client/transport.rs", include_str!("../../runtime/src/client/transport.rs")),
    ("src/client/upgrade.rs", include_str!("../../runtime/src/client/upgrade.rs")),
    ("src/date_time.rs", include_str!("../../runtime/src/date_time.rs")),
    ("src/enums.rs", include_str!("../../runtime/src/enums.rs")),
    ("src/file.rs", include_str!("../../runtime/src/file.rs")),
    ("src/format.rs", include_str!("../../runtime/src/format.rs")),
    ("src/framing.rs", include_str!("../../runtime/src/framing.rs")),
    ("src/json_schema.rs", include_str!("../../runtime/src/json_schema.rs")),
    ("src/lib.rs", include_str!("../../runtime/src/lib.rs")),
    ("src/nullable.rs", include_str!("../../runtime/src/nullable.rs")),
    ("src/pattern.rs", include_str!("../../runtime/src/pattern.rs")),
    ("src/record.rs", include_str!("../../runtime/src/record.rs")),
    ("src/request_json.rs", include_str!("../../runtime/src/request_json.rs")),
    ("src/server/api_error.rs", include_str!("../../runtime/src/server/api_error.rs")),
    ("src/server/body.rs", include_str!("../../runtime/src/server/body.rs")),
    ("src/server/budget.rs", include_str!("../../runtime/src/server/budget.rs")),
    ("src/server/config.rs", include_str!("../../runtime/src/server/config.rs")),
    ("src/server/download.rs", include_str!("../../runtime/src/server/download.rs")),
    ("src/server/error_reply.rs", include_str!("../../runtime/src/server/error_reply.rs")),
    ("src/server/extract/bodies.rs", include_str!("../../runtime/src/server/extract/bodies.rs")),
    ("src/server/extract/checks.rs", include_str!("../../runtime/src/server/extract/checks.rs")),
    ("src/server/extract/headers.rs", include_str!("../../runtime/src/server/extract/headers.rs")),
    ("src/server/extract/mod.rs", include_str!("../../runtime/src/server/extract/mod.rs")),
    ("src/server/extract/path.rs", include_str!("../../runtime/src/server/extract/path.rs")),
    ("src/server/extract/query.rs", include_str!("../../runtime/src/server/extract/query.rs")),
    ("src/server/extract/tests.rs", include_str!("../../runtime/src/server/extract/tests.rs")),
    ("src/server/form.rs", include_str!("../../runtime/src/server/form.rs")),
    ("src/server/mock.rs", include_str!("../../runtime/src/server/mock.rs")),
    ("src/server/mod.rs", include_str!("../../runtime/src/server/mod.rs")),
    ("src/server/multipart.rs", include_str!("../../runtime/src/server/multipart.rs")),
    ("src/server/operation.rs", include_str!("../../runtime/src/server/operation.rs")),
    ("src/server/pairs.rs", include_str!("../../runtime/src/server/pairs.rs")),
    ("src/server/problems.rs", include_str!("../../runtime/src/server/problems.rs")),
    ("src/server/reply.rs", include_str!("../../runtime/src/server/reply.rs")),
    ("src/server/serve.rs", include_str!("../../runtime/src/server/serve.rs")),
    ("src/server/stream.rs", include_str!("../../runtime/src/server/stream.rs")),
    ("src/server/upgrade.rs", include_str!("../../runtime/src/server/upgrade.rs")),
    ("src/setters.rs", include_str!("../../runtime/src/setters.rs")),
    ("src/xml.rs", include_str!("../../runtime/src/xml.rs")),
];

/// The bytes of the runtime crate's copy, which does not grow with the spec.
pub const RUNTIME_BYTES: usize = {
    let mut total = 0;
    let mut i = 0;
    while i < RUNTIME_FILES.len() {
        total += RUNTIME_FILES[i].1.len();
        i += 1;
    }
    total
};

/// The version of the runtime generated crates pin: the one this generator was built with.
const RUNTIME_VERSION: &str = "0.1.0";

/// [`RUNTIME_VERSION`], for the generator's check of a copy already on disk.
pub fn runtime_version() -> &'static str {
    RUNTIME_VERSION
}

/// The runtime copied to `dir`, for crates that build on their own.
pub fn vendored_runtime(dir: &str) -> Vec<GeneratedFile> {
    RUNTIME_FILES.iter().map(|(path, contents)| render::plain(format!("{dir}/{path}"), contents)).collect()
}

/// The name of the list of files the generator wrote, in each directory it owns.
pub const WRITTEN_LIST: &str = ".apigen-files";

/// `dir/.apigen-files`: the files of `files` under `dir`, relative to it, one per line. Regenerating
/// removes a file only when the list says the generator wrote it and it is no longer generated; any
/// other file in the directory is the user's.
pub fn written_list(dir: &str, files: &[GeneratedFile]) -> GeneratedFile {
    let prefix = format!("{dir}/");
    let mut paths: Vec<&str> = files.iter().filter_map(|f| f.path.strip_prefix(&prefix)).collect();
    paths.push(WRITTEN_LIST);
    paths.sort_unstable();
    let mut contents =
        "# The files apigen wrote here. Regenerating removes only these, and only when they are no longer generated.\n"
            .to_string();
    for path in paths {
        contents.push_str(path);
        contents.push('\n');
    }
    GeneratedFile { path: format!("{prefix}{WRITTEN_LIST}"), contents }
}

/// The dependency of a crate written at `crate_dir` on the runtime, with `features`.
fn runtime_dependency(crate_dir: &str, runtime: &Runtime, features: &[&str]) -> Value {
    match runtime {
        Runtime::Path { dir, .. } => path_dependency(crate_dir, dir, RUNTIME_VERSION, features, true),
        Runtime::Git { url, rev } => {
            let mut table = vec![("git".to_string(), Value::str(url))];
            table.extend(rev.iter().map(|rev| ("rev".to_string(), Value::str(rev))));
            table.push(("version".to_string(), Value::str(format!("={RUNTIME_VERSION}"))));
            if !features.is_empty() {
                table.push(("features".to_string(), Value::list(features.iter().copied())));
            }
            Value::Table(table)
        }
        // The workspace's declaration names the source and the version; a member adds features.
        Runtime::Workspace => {
            let mut table = vec![("workspace".to_string(), Value::Bool(true))];
            if !features.is_empty() {
                table.push(("features".to_string(), Value::list(features.iter().copied())));
            }
            Value::Table(table)
        }
    }
}

/// A path dependency of a crate written at `crate_dir` on the crate at `target_dir` (both relative
/// to the output root), pinned to `version`, with `features`, and with its default features only
/// when `defaults` says so.
fn path_dependency(crate_dir: &str, target_dir: &str, version: &str, features: &[&str], defaults: bool) -> Value {
    let up = "../".repeat(crate_dir.split('/').filter(|part| !part.is_empty()).count());
    let mut table = vec![
        ("path".to_string(), Value::str(format!("{up}{target_dir}"))),
        ("version".to_string(), Value::str(format!("={version}"))),
    ];
    if !features.is_empty() {
        table.push(("features".to_string(), Value::list(features.iter().copied())));
    }
    if !defaults {
        table.push(("default-features".to_string(), Value::Bool(false)));
    }
    Value::Table(table)
}

/// A dependency from crates.io: `version`, with `features`, and with its default features only
/// when `defaults` says so.
fn registry(version: &str, features: &[&str], defaults: bool) -> Value {
    if features.is_empty() && defaults {
        return Value::str(version);
    }
    let mut table = vec![("version".to_string(), Value::str(version))];
    if !defaults {
        table.push(("default-features".to_string(), Value::Bool(false)));
    }
    if !features.is_empty() {
        table.push(("features".to_string(), Value::list(features.iter().copied())));
    }
    Value::Table(table)
}

/// The dependencies a crate of a spec has on the runtime and, for client and server, on the
/// spec's types crate, each with `feature` turned on (none for the types crate's own), and the
/// runtime with `runtime_feature` too.
fn shared_dependencies(
    crate_dir: &str,
    options: &Config,
    feature: Option<&str>,
    runtime_feature: Option<&str>,
) -> Vec<(String, Value)> {
    let features: Vec<&str> = feature.into_iter().collect();
    let runtime_features: Vec<&str> = feature.into_iter().chain(runtime_feature).collect();
    let runtime = runtime_dependency(crate_dir, &options.runtime, &runtime_features);
    let mut out = vec![("apigen-runtime".to_string(), runtime)];
    if let (Some(types), Some(side)) = (&options.types, feature) {
        // The client turns on the types of the tags it is built with, not all of them.
        let defaults = !(options.tag_features && side == "client");
        out.push((
            types.name.clone(),
            path_dependency(crate_dir, &types.dir, &options.crate_version, &features, defaults),
        ));
    }
    out
}

/// The runtime's feature that matches a spec's patterns: `fancy-regex` as well where some pattern
/// needs it.
fn pattern_feature(api: &Api) -> &'static str {
    if api.fancy_patterns { "fancy-pattern" } else { "pattern" }
}

/// `dependencies` and `shared`, in name order.
fn all_dependencies(mut dependencies: Vec<(String, Value)>, shared: Vec<(String, Value)>) -> Vec<(String, Value)> {
    dependencies.extend(shared);
    dependencies.sort_by(|a, b| a.0.cmp(&b.0));
    dependencies
}

/// A feature and what it turns on.
type Feature = (String, Vec<String>);

/// `all-tags` turning on every tag, then one feature per tag with what `enables`
/// says it turns on elsewhere, then the one for schemas no operation reaches, for manifests with
/// [`Config::tag_features`].
fn tag_features(tags: &TagFeatures, enables: impl Fn(&str) -> Vec<String>) -> Vec<Feature> {
    let mut out = vec![("all-tags".to_string(), tags.features.clone())];
    out.extend(tags.features.iter().map(|tag| {
        // A parent tag (OpenAPI 3.2) turns on its children.
        let children = tags.children.get(tag).into_iter().flatten().cloned();
        (tag.clone(), children.chain(enables(tag)).collect())
    }));
    out.extend(tags.unused.iter().map(|unused| (unused.clone(), enables(unused))));
    out
}

/// A generated crate's `Cargo.toml`.
struct Manifest<'a> {
    name: &'a str,
    version: &'a str,
    description: &'a str,
    dependencies: Vec<(String, Value)>,
    dev_dependencies: Vec<(String, Value)>,
    features: Vec<Feature>,
    /// Declares an empty `[workspace]`, so the crate builds where it is written.
    standalone: bool,
}

impl Manifest<'_> {
    /// The manifest as a file at `path`: every value encoded as TOML, so nothing a document says
    /// (its title and version are in the description) can add a key.
    fn file(self, path: String) -> GeneratedFile {
        let mut doc = toml::Document::default();
        doc.comment(concat!(
            "Generated by apigen ",
            env!("CARGO_PKG_VERSION"),
            " from the OpenAPI document named in README.md. Do not edit by hand."
        ));
        doc.table(
            "package",
            vec![
                ("name".to_string(), Value::str(self.name)),
                ("version".to_string(), Value::str(self.version)),
                ("edition".to_string(), Value::str("2024")),
                ("description".to_string(), Value::str(self.description)),
                ("publish".to_string(), Value::Bool(false)),
            ],
        );
        // Generated code holds no unit tests: without this, `cargo test` compiles each crate a
        // second time into an empty test binary (its doctests still run).
        doc.table("lib", vec![("test".to_string(), Value::Bool(false))]);
        if self.standalone {
            doc.table("workspace", Vec::new());
        }
        doc.table("dependencies", self.dependencies);
        if !self.dev_dependencies.is_empty() {
            doc.table("dev-dependencies", self.dev_dependencies);
        }
        if !self.features.is_empty() {
            let features = self.features.into_iter().map(|(name, on)| (name, Value::List(on))).collect();
            doc.table("features", features);
        }
        GeneratedFile { path, contents: doc.render() }
    }
}

/// Generated code is formatted by prettyplease; `cargo fmt` leaves it alone so the check stays exact.
const RUSTFMT_TOML: &str =
    "# Generated code is formatted by the generator; cargo fmt leaves it as it is.\ndisable_all_formatting = true\n";

/// Dependencies of the server crate besides the runtime: what its generated code names.
fn server_dependencies() -> Vec<(String, Value)> {
    vec![
        ("axum".to_string(), registry("0.8", &["http1", "tokio"], false)),
        ("serde".to_string(), registry("1", &["derive"], true)),
        ("serde_json".to_string(), registry("1", &[], true)),
        ("tracing".to_string(), registry("0.1", &["std"], false)),
        ("uuid".to_string(), registry("1", &["serde"], true)),
    ]
}

/// Dependencies of the server crate's doctests.
fn server_dev_dependencies() -> Vec<(String, Value)> {
    vec![("tokio".to_string(), registry("1", &["macros", "net", "rt-multi-thread"], true))]
}

/// Dependencies of the client crate besides the runtime: what its generated code names.
fn client_dependencies() -> Vec<(String, Value)> {
    vec![
        ("reqwest".to_string(), registry("0.13", &[], false)),
        ("serde".to_string(), registry("1", &["derive"], true)),
        ("serde_json".to_string(), registry("1", &[], true)),
        ("uuid".to_string(), registry("1", &["serde"], true)),
    ]
}

/// `(name, turns on)` as a [`Feature`].
fn feature(name: &str, on: &[&str]) -> Feature {
    (name.to_string(), on.iter().map(|f| f.to_string()).collect())
}

/// Features of the client crate: TLS is on by default and can be left out (and its build time
/// saved) by callers who bring their own `reqwest::Client` or call plain HTTP.
fn client_features() -> Vec<Feature> {
    vec![feature("default", &["rustls"]), feature("rustls", &["apigen-runtime/rustls"]), time_feature()]
}

/// A feature of the client and server crates: `DateTime`'s conversions to and from the `time`
/// crate, and `time` re-exported. Off by default, since most callers never need it and it is a
/// large part of a cold build.
fn time_feature() -> Feature {
    feature("time", &["apigen-runtime/time"])
}

pub fn client<'a>(api: &'a Api, config: &CrateConfig, options: &Config, split: &Split) -> Result<Plan<'a>, String> {
    let standalone = options.standalone;
    let dir = &config.dir;
    let mut shared = shared_dependencies(dir, options, Some("client"), None);
    let types = options.types.as_ref().ok_or("generator misconfigured: a client crate needs a types crate")?;
    // A tag's crate of types is built only with its tag.
    shared.extend(tag_crate_dependencies(dir, options, split, "client", |_| true));
    let dependencies = all_dependencies(client_dependencies(), shared);
    let mut features = client_features();
    if let Some(tags) = &api.tag_features {
        features.retain(|(name, _)| name != "default");
        features.insert(0, feature("default", &["all-tags", "rustls"]));
        features.extend(tag_features(tags, |tag| tag_turns_on(types, split, tag)));
    }
    let types_module = split.reexport(&types.name, |tag| Some(tag.to_string()));
    let src = |name: &str| format!("{dir}/src/{name}");
    let crate_ident = config.name.replace('-', "_");
    let description = format!(
        "Typed async client for {} (API version {}), generated from its OpenAPI document.",
        api.title, api.version
    );
    let credentials: Vec<String> = api.credentials.iter().map(|c| rust_string(&c.field)).collect();
    let usage = format!(
        "## Use\n\n```rust,no_run\nuse {crate_ident}::{{Client, Credentials}};\n\n# async fn run() -> Result<(), {crate_ident}::Error> {{\nlet client = Client::new(\"https://api.example.com\", Credentials::new({}))?;\n# Ok(())\n# }}\n```\n\nEach operation is a method of `Client` named after its operationId in snake_case; see the crate docs.",
        credentials.join(", ")
    );
    let manifest = Manifest {
        name: &config.name,
        version: &options.crate_version,
        description: &description,
        dependencies,
        dev_dependencies: Vec::new(),
        features,
        standalone,
    };
    let mut files = vec![manifest.file(format!("{dir}/Cargo.toml"))];
    files.extend(readme_and_rustfmt(api, config, options, &description, &usage, crate::emit::facts::item_count(api)));
    let usual = crate::emit::facts::usual_credentials(api);
    let mut jobs = vec![
        RustJob::parts(src("client.rs"), client::client_module(api)),
        RustJob::new(src("lib.rs"), move || Some(client::lib_module(api, &crate_ident, &types_module))),
    ];
    // The builders, in `builders.rs` and, with features per tag, a file per tag.
    let builder_files = Arc::new(client::builder_files(api));
    for index in 0..builder_files.len() {
        let path = match &builder_files[index].tag {
            Some((_, module)) => src(&format!("builders/{module}.rs")),
            None => src("builders.rs"),
        };
        let (head, items, usual) = (builder_files.clone(), builder_files.clone(), usual.clone());
        let count = items[index].ops.len();
        jobs.push(RustJob::chunked(
            vec![path],
            count,
            move || client::builders_header(api, &head, index),
            move |i| client::builder(api, &usual, items[index].ops[i], index == 0),
        ));
    }
    Ok(Plan { files, jobs })
}

/// The crate of `tag`'s types in a split: named after the types crate and the tag, under the
/// types crate's directory, so the generator owns it with that crate.
fn tag_crate(types: &CrateConfig, tag: &str) -> CrateConfig {
    // A directory every system can hold, whatever the tag is called.
    let dir = if crate::naming::is_device_name(tag) { format!("{tag}-tag") } else { tag.to_string() };
    CrateConfig { name: split::tag_crate_name(&types.name, tag), dir: format!("{}/tags/{dir}", types.dir) }
}

/// What a tag's feature of a client or server crate turns on: the feature of the types crate and,
/// in a split, the crate of the tag's own types.
fn tag_turns_on(types: &CrateConfig, split: &Split, tag: &str) -> Vec<String> {
    let own = split.tags.iter().any(|t| t == tag).then(|| format!("dep:{}", tag_crate(types, tag).name));
    std::iter::once(format!("{}/{tag}", types.name)).chain(own).collect()
}

/// The dependencies of a client or server crate written at `crate_dir` on the crates of the tags'
/// types of `split`, with the feature `side`; optional where `optional` says so for the tag.
fn tag_crate_dependencies(
    crate_dir: &str,
    options: &Config,
    split: &Split,
    side: &str,
    optional: impl Fn(&str) -> bool,
) -> Vec<(String, Value)> {
    let Some(types) = &options.types else { return Vec::new() };
    let dependency = |tag: &String| {
        let krate = tag_crate(types, tag);
        let mut value = path_dependency(crate_dir, &krate.dir, &options.crate_version, &[side], true);
        if let (Value::Table(table), true) = (&mut value, optional(tag)) {
            table.push(("optional".to_string(), Value::Bool(true)));
        }
        (krate.name, value)
    };
    split.tags.iter().map(dependency).collect()
}

/// Dependencies of the types crate besides the runtime.
fn types_dependencies() -> Vec<(String, Value)> {
    vec![
        ("serde".to_string(), registry("1", &["derive"], true)),
        ("serde_json".to_string(), registry("1", &[], true)),
        ("uuid".to_string(), registry("1", &["serde"], true)),
    ]
}

/// The types crates: one Rust type per schema, which the client and server crates both
/// re-export, in one crate or split into the core and a crate per tag. The impls that need the
/// client's or the server's runtime are behind features of those names.
pub fn types<'a>(
    api: &'a Api,
    config: &CrateConfig,
    options: &'a Config,
    split: &'a Split,
) -> Result<Plan<'a>, String> {
    // What every part asks of the whole API, worked out once.
    let validated = Arc::new(crate::emit::facts::validated_types(api));
    let items = crate::emit::facts::items(api);
    let whole = if split.tags.is_empty() { TypesCrate::Whole } else { TypesCrate::Core };
    let mut plan = types_crate(api, config, options, whole, whole.select(api, &items), &validated)?;
    for tag in &split.tags {
        let part = TypesCrate::Tag(tag);
        let part = types_crate(api, &tag_crate(config, tag), options, part, part.select(api, &items), &validated)?;
        plan.files.extend(part.files);
        plan.jobs.extend(part.jobs);
    }
    Ok(plan)
}

/// The features of a types crate that turn on what its `client.rs` and `server.rs` need.
fn types_side_features(api: &Api, core: Option<&str>) -> Vec<Feature> {
    let mut client = vec!["apigen-runtime/client".to_string()];
    let mut server = vec!["apigen-runtime/server".to_string()];
    // Regular expressions only for a spec with patterns for the server to check.
    if server::has_patterns(api) || api.schema_checks.is_some() {
        server.push(format!("apigen-runtime/{}", pattern_feature(api)));
    }
    if api.schema_checks.is_some() {
        server.push("apigen-runtime/json-schema".to_string());
    }
    // The server crate reads XML bodies through the runtime too, which this turns on for it.
    if api.reads_xml() {
        server.push("apigen-runtime/xml".to_string());
    }
    match core {
        // A tag's crate calls the core's checks, and its error enums name the core's types.
        Some(core) => {
            client.push(format!("{core}/client"));
            server.push(format!("{core}/server"));
        }
        // The server implements every operation, so it needs every type.
        None if api.tag_features.is_some() => server.push("all-tags".to_string()),
        None => {}
    }
    vec![("client".to_string(), client), ("server".to_string(), server)]
}

/// One types crate of `part`, configured as `config`.
fn types_crate<'a>(
    api: &'a Api,
    config: &CrateConfig,
    options: &'a Config,
    part: TypesCrate<'a>,
    items: Vec<TypeItem<'a>>,
    validated: &Arc<BTreeSet<TypeId>>,
) -> Result<Plan<'a>, String> {
    let standalone = options.standalone;
    let dir = &config.dir;
    let src = |name: &str| format!("{dir}/src/{name}");
    let mut dependencies = shared_dependencies(dir, options, None, None);
    let core = options.types.as_ref().ok_or("generator misconfigured: no types crate")?;
    let mut features = match part {
        TypesCrate::Tag(tag) => {
            // Its types name the core's, which this tag's feature compiles.
            dependencies
                .push((core.name.clone(), path_dependency(dir, &core.dir, &options.crate_version, &[tag], false)));
            types_side_features(api, Some(&core.name))
        }
        TypesCrate::Whole | TypesCrate::Core => types_side_features(api, None),
    };
    if let (Some(tags), true) = (&api.tag_features, part.is_core()) {
        features.insert(0, feature("default", &["all-tags"]));
        features.extend(tag_features(tags, |_| Vec::new()));
    }
    let dependencies = all_dependencies(types_dependencies(), dependencies);
    let description = match part {
        TypesCrate::Tag(tag) => format!(
            "Request and reply types of {} (API version {}) that only its feature `{tag}` compiles, shared by its client and server crates.",
            api.title, api.version
        ),
        TypesCrate::Whole | TypesCrate::Core => format!(
            "Request and reply types of {} (API version {}), shared by its client and server crates.",
            api.title, api.version
        ),
    };
    let usage = "## Use\n\nThe client and server crates re-export these types as their `types` module; depend on\nthis crate directly only for code that uses the types alone.".to_string();
    let manifest = Manifest {
        name: &config.name,
        version: &options.crate_version,
        description: &description,
        dependencies,
        dev_dependencies: Vec::new(),
        features,
        standalone,
    };
    let mut files = vec![manifest.file(format!("{dir}/Cargo.toml"))];
    files.extend(readme_and_rustfmt(api, config, options, &description, &usage, items.len()));
    let core_checks = api.schema_checks.as_ref().filter(|_| part.is_core());
    if let Some(checks) = core_checks {
        let json = serde_json::to_string_pretty(&checks.0).map_err(|e| e.to_string())? + "\n";
        files.push(render::plain(format!("{dir}/src/schema_checks.json"), &json));
    }
    let checked = server::validate_items(api, validated, part);
    let validated = validated.clone();
    let errors = crate::emit::split::error_enums(api, part).next().is_some();
    let lib = crate::emit::types::LibModule {
        client_crate: options.client.as_ref().map(|c| c.name.as_str()),
        server_crate: options.server.as_ref().map(|c| c.name.as_str()),
        part,
        client_mod: errors,
        server_mod: errors,
        validate_mod: !checked.is_empty(),
    };
    let core_ident = core.name.replace('-', "_");
    let items = Arc::new(items);
    let header_items = items.clone();
    let mut jobs = vec![
        RustJob::chunked(
            vec![src("types.rs")],
            items.len(),
            move || crate::emit::types::header(api, &header_items, part, &core_ident),
            move |i| crate::emit::types::item(api, &items[i], part),
        ),
        RustJob::new(src("lib.rs"), move || Some(crate::emit::types::lib_module(api, &lib))),
        RustJob::new(src("client.rs"), move || client::error_readers(api, part)),
        RustJob::new(src("server.rs"), move || server::error_replies(api, part)),
    ];
    if core_checks.is_some() {
        jobs.push(RustJob::new(src("schema_checks.rs"), move || Some(crate::emit::types::schema_checks_module(api))));
    }
    // Written whenever a type is validated, as the crate's `lib.rs` then declares the module.
    if !checked.is_empty() {
        jobs.push(RustJob::chunked(
            vec![src("validate.rs")],
            checked.len(),
            move || server::validate_header(api),
            move |i| server::validate_item(api, &validated, checked[i]),
        ));
    }
    Ok(Plan { files, jobs })
}

/// A generated crate's `README.md` (what it is, how to use it) and its `rustfmt.toml`. Every value
/// from the document or the configuration is encoded for where it stands in the Markdown; `usage`
/// is the generator's own.
fn readme_and_rustfmt(
    api: &Api,
    config: &CrateConfig,
    options: &Config,
    description: &str,
    usage: &str,
    types: usize,
) -> [GeneratedFile; 2] {
    let dir = &config.dir;
    let readme = format!(
        "<!-- Generated by apigen {} from {}. Do not edit by hand. -->\n# {}\n\n{}\n\n- API: {}, version {}\n- Operations: {}\n- Types: {}\n\n{usage}\n\nThis crate is generated by apigen from {}; {} regenerates it.\nEdits made here are overwritten: change the spec (or the generator) and regenerate.",
        env!("CARGO_PKG_VERSION"),
        markdown::comment(&options.spec_path),
        markdown::text(&config.name),
        markdown::text(description),
        markdown::text(&api.title),
        markdown::code(&api.version),
        api.operations.len(),
        types,
        markdown::code(&options.spec_path),
        markdown::code(&options.command),
    );
    [render::plain(format!("{dir}/README.md"), &readme), render::plain(format!("{dir}/rustfmt.toml"), RUSTFMT_TOML)]
}

/// `text` as a Rust string literal, quotes and all.
fn rust_string(text: &str) -> String {
    proc_macro2::Literal::string(text).to_string()
}

/// The trait name for a server crate: `petstore-server` → `PetstoreApi`.
pub fn trait_name(crate_name: &str) -> String {
    let base = crate_name.strip_suffix("-server").or_else(|| crate_name.strip_suffix("_server")).unwrap_or(crate_name);
    format!("{}Api", crate::naming::camel(base))
}

/// The server crate's features: the document, `time`, and the types crate's feature for schemas no
/// operation reaches, which the server itself never needs.
fn server_features(api: &Api, options: &Config, split: &Split) -> Vec<Feature> {
    let mut features = vec![feature("document", &[]), time_feature()];
    if let (Some(unused), Some(types)) = (unused_feature(api), &options.types) {
        features.push((unused.to_string(), tag_turns_on(types, split, unused)));
    }
    features
}

/// The feature of the schemas no operation reaches, when there are such schemas.
fn unused_feature(api: &Api) -> Option<&str> {
    api.tag_features.as_ref().and_then(|tags| tags.unused.as_deref())
}

pub fn server<'a>(api: &'a Api, config: &CrateConfig, options: &Config, split: &Split) -> Result<Plan<'a>, String> {
    let standalone = options.standalone;
    let dir = &config.dir;
    // Regular expressions only for a spec whose parameters have patterns to check (a body's are
    // checked in the types crate).
    let patterns = server::has_param_patterns(api).then(|| pattern_feature(api));
    let mut shared = shared_dependencies(dir, options, Some("server"), patterns);
    let types = options.types.as_ref().ok_or("generator misconfigured: a server crate needs a types crate")?;
    // The server implements every operation, so it needs every tag's types; only the schemas no
    // operation reaches stay behind their feature.
    let unused = unused_feature(api);
    shared.extend(tag_crate_dependencies(dir, options, split, "server", |tag| Some(tag) == unused));
    let types_module = split.reexport(&types.name, |tag| (Some(tag) == unused).then(|| tag.to_string()));
    let src = |name: &str| format!("{dir}/src/{name}");
    let crate_ident = config.name.replace('-', "_");
    let trait_name = trait_name(&config.name);
    let description = format!(
        "Axum server stubs for {} (API version {}), generated from its OpenAPI document.",
        api.title, api.version
    );
    let usage = format!(
        "## Use\n\nImplement `{trait_name}` (one method per operation) and serve it with `{crate_ident}::router(api)`;\nsee the crate docs."
    );
    let manifest = Manifest {
        name: &config.name,
        version: &options.crate_version,
        description: &description,
        dependencies: all_dependencies(server_dependencies(), shared),
        dev_dependencies: server_dev_dependencies(),
        features: server_features(api, options, split),
        standalone,
    };
    let mut files = vec![manifest.file(format!("{dir}/Cargo.toml"))];
    files.extend(readme_and_rustfmt(api, config, options, &description, &usage, crate::emit::facts::item_count(api)));
    if let Some(document) = &api.document {
        files.push(render::plain(src(server::document_file(document)), &document.text));
    }
    let (for_api, for_mock, for_lib, for_router, for_handlers) =
        (trait_name.clone(), trait_name.clone(), trait_name.clone(), trait_name.clone(), trait_name);
    let validated = crate::emit::facts::validated_types(api);
    let jobs = vec![
        RustJob::parts(src("api.rs"), server::api_module(api, for_api)),
        RustJob::parts(src("mock.rs"), server::mock_module(api, for_mock)),
        RustJob::new(src("errors.rs"), move || Some(server::errors_module(api))),
        RustJob::new(src("samples.rs"), move || Some(crate::emit::samples::samples_module(api))),
        RustJob::chunked(
            vec![src("inputs.rs")],
            api.operations.len(),
            move || server::inputs_header(api),
            move |i| server::input_struct(api, &api.operations[i]),
        ),
        RustJob::new(src("lib.rs"), move || Some(server::lib_module(api, &for_lib, &crate_ident, &types_module))),
        RustJob::chunked(
            vec![src("router.rs")],
            api.operations.len(),
            move || server::router_header(api, &for_router),
            move |i| server::handler(api, &api.operations[i], &for_handlers, &validated),
        ),
    ];
    Ok(Plan { files, jobs })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every file of the runtime crate, relative to its root, `/`-separated.
    fn files_under(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files_under(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn the_vendored_runtime_is_every_file_of_the_runtime_crate() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
        let mut on_disk = Vec::new();
        files_under(&root, &root, &mut on_disk);
        on_disk.sort();
        let vendored: Vec<&str> = super::RUNTIME_FILES.iter().map(|(path, _)| *path).collect();
        assert_eq!(on_disk, vendored, "RUNTIME_FILES must list the runtime crate's files, in order");
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(manifest.contains(&format!("\nversion = \"{}\"\n", super::RUNTIME_VERSION)), "the pinned version");
    }
}
