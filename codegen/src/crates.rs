//! The file lists of the generated crates: which emitter or support module goes where.

use crate::CrateConfig;
use crate::emit::{client, server};
use crate::ir::{Api, BodyEncoding, Reply};
use crate::render::{self, CargoToml, GeneratedFile, Readme, RustJob};

/// What one crate needs: files ready as they are, and Rust modules still to emit and format.
pub struct Plan<'a> {
    pub files: Vec<GeneratedFile>,
    pub jobs: Vec<RustJob<'a>>,
}

/// Hand-written modules that every generated crate carries, identical across specs.
const DATE_TIME: &str = include_str!("../runtime/common/date_time.rs");
const ENUMS: &str = include_str!("../runtime/common/enums.rs");
const OBJECT_ONLY: &str = include_str!("../runtime/common/object_only.rs");
const CLIENT_DOWNLOAD: &str = include_str!("../runtime/client/download.rs");
const CLIENT_ENCODING: &str = include_str!("../runtime/client/encoding.rs");
const CLIENT_ERROR: &str = include_str!("../runtime/client/error.rs");
const CLIENT_TRANSPORT: &str = include_str!("../runtime/client/transport.rs");
const CLIENT_MULTIPART: &str = include_str!("../runtime/client/multipart.rs");
const CLIENT_PAGING: &str = include_str!("../runtime/client/paging.rs");
const CLIENT_POLICY: &str = include_str!("../runtime/client/policy.rs");

/// Generated code is formatted by prettyplease; `cargo fmt` leaves it alone so the check stays exact.
const RUSTFMT_TOML: &str =
    "# Generated code is formatted by the generator; cargo fmt leaves it as it is.\ndisable_all_formatting = true\n";

const SERVER_DOWNLOAD: &str = include_str!("../runtime/server/download.rs");
const SERVER_EXTRACT: &str = include_str!("../runtime/server/extract.rs");
const SERVER_FORM: &str = include_str!("../runtime/server/form.rs");
const SERVER_MULTIPART: &str = include_str!("../runtime/server/multipart.rs");
const SERVER_PROBLEM: &str = include_str!("../runtime/server/problem.rs");
const SERVER_REPLY: &str = include_str!("../runtime/server/reply.rs");
const SERVER_SERVE: &str = include_str!("../runtime/server/serve.rs");

/// Dependencies of the server crate.
const SERVER_DEPENDENCIES: &[(&str, &str)] = &[
    ("axum", "{ version = \"0.8\", default-features = false, features = [\"http1\", \"tokio\"] }"),
    ("futures-util", "{ version = \"0.3\", default-features = false }"),
    ("http-body-util", "\"0.1\""),
    ("hyper", "{ version = \"1\", features = [\"http1\", \"server\"] }"),
    ("hyper-util", "{ version = \"0.1\", features = [\"tokio\"] }"),
    ("percent-encoding", "\"2.3\""),
    ("serde", "{ version = \"1\", features = [\"derive\"] }"),
    ("serde_json", "\"1\""),
    ("serde_path_to_error", "\"0.1\""),
    ("time", "{ version = \"0.3\", features = [\"parsing\", \"formatting\", \"macros\"] }"),
    (
        "tokio",
        "{ version = \"1\", default-features = false, features = [\"macros\", \"net\", \"rt\", \"signal\", \"sync\", \"time\"] }",
    ),
    ("tower-service", "\"0.3\""),
    ("tracing", "{ version = \"0.1\", default-features = false, features = [\"std\"] }"),
    ("uuid", "{ version = \"1\", features = [\"serde\"] }"),
];

/// Dependencies of the server crate's doctests.
const SERVER_DEV_DEPENDENCIES: &[(&str, &str)] =
    &[("tokio", "{ version = \"1\", features = [\"macros\", \"net\", \"rt-multi-thread\"] }")];

/// Dependencies of the client crate, with the versions and features it is tested with.
const CLIENT_DEPENDENCIES: &[(&str, &str)] = &[
    ("bytes", "\"1\""),
    ("futures-core", "\"0.3\""),
    ("futures-util", "{ version = \"0.3\", default-features = false }"),
    ("percent-encoding", "\"2.3\""),
    ("reqwest", "{ version = \"0.13\", default-features = false, features = [\"http2\"] }"),
    ("serde", "{ version = \"1\", features = [\"derive\"] }"),
    ("serde_json", "\"1\""),
    ("time", "{ version = \"0.3\", features = [\"parsing\", \"formatting\", \"macros\"] }"),
    ("tokio", "{ version = \"1\", default-features = false, features = [\"time\"] }"),
    ("tracing", "{ version = \"0.1\", default-features = false, features = [\"std\"] }"),
    ("uuid", "{ version = \"1\", features = [\"serde\"] }"),
];

/// Features of the client crate: TLS is on by default and can be left out (and its build time
/// saved) by callers who bring their own `reqwest::Client` or call plain HTTP.
const CLIENT_FEATURES: &[(&str, &str)] = &[("default", "[\"rustls\"]"), ("rustls", "[\"reqwest/rustls\"]")];

pub fn client<'a>(api: &'a Api, config: &CrateConfig, spec_path: &str, standalone: bool) -> Result<Plan<'a>, String> {
    let dir = &config.dir;
    let src = |name: &str| format!("{dir}/src/{name}");
    let crate_ident = config.name.replace('-', "_");
    let description = format!(
        "Typed async client for {} (API version {}), generated from its OpenAPI document.",
        api.title, api.version
    );
    let usage = format!(
        "## Use\n\n```rust,no_run\nuse {crate_ident}::{{Client, Credentials}};\n\n# async fn run() -> Result<(), {crate_ident}::Error> {{\nlet client = Client::new(\"https://api.example.com\", Credentials::new({}))?;\n# Ok(())\n# }}\n```\n\nEach operation is a method of `Client` named after its operationId in snake_case; see the crate docs.",
        api.credentials.iter().map(|c| format!("\"{}\"", c.field)).collect::<Vec<_>>().join(", ")
    );
    let mut files = vec![
        render::template(
            format!("{dir}/Cargo.toml"),
            &CargoToml {
                spec_path,
                name: &config.name,
                version: "0.1.0",
                description: &description,
                dependencies: CLIENT_DEPENDENCIES,
                dev_dependencies: &[],
                features: CLIENT_FEATURES,
                standalone,
            },
        )?,
        render::template(
            format!("{dir}/README.md"),
            &Readme {
                spec_path,
                name: &config.name,
                summary: &description,
                title: &api.title,
                api_version: &api.version,
                operation_count: api.operations.len(),
                type_count: api.types.len(),
                usage: &usage,
            },
        )?,
        render::plain(format!("{dir}/rustfmt.toml"), RUSTFMT_TOML),
        render::support(src("date_time.rs"), spec_path, DATE_TIME),
        render::support(src("encoding.rs"), spec_path, CLIENT_ENCODING),
        render::support(src("enums.rs"), spec_path, ENUMS),
        render::support(src("object_only.rs"), spec_path, OBJECT_ONLY),
        render::support(src("error.rs"), spec_path, CLIENT_ERROR),
        render::support(src("policy.rs"), spec_path, CLIENT_POLICY),
        render::support(src("transport.rs"), spec_path, CLIENT_TRANSPORT),
    ];
    if api.operations.iter().any(|op| matches!(op.reply, Reply::Download { .. })) {
        files.push(render::support(src("download.rs"), spec_path, CLIENT_DOWNLOAD));
    }
    if api.operations.iter().any(|op| op.paging.is_some()) {
        files.push(render::support(src("paging.rs"), spec_path, CLIENT_PAGING));
    }
    if has_multipart(api) {
        files.push(render::support(src("multipart.rs"), spec_path, CLIENT_MULTIPART));
    }
    let jobs = vec![
        RustJob::chunked(
            vec![src("builders.rs")],
            api.operations.len(),
            move || client::builders_header(api),
            move |i| client::builder(api, &api.operations[i]),
        ),
        RustJob::new(src("client.rs"), move || Some(client::client_module(api))),
        RustJob::new(src("lib.rs"), move || Some(client::lib_module(api, &crate_ident))),
    ];
    Ok(Plan { files, jobs })
}

/// Whether the server reads name/value pairs into types: form and multipart bodies and objects
/// in the query.
pub fn needs_form_reader(api: &Api) -> bool {
    has_multipart(api)
        || api.operations.iter().any(|op| {
            op.body.as_ref().is_some_and(|b| b.encoding == BodyEncoding::Form)
                || op.params.iter().any(|p| p.object_style.is_some())
        })
}

/// Whether any operation takes a multipart body.
pub fn has_multipart(api: &Api) -> bool {
    api.operations.iter().any(|op| op.body.as_ref().is_some_and(|b| b.encoding == BodyEncoding::Multipart))
}

/// The trait name for a server crate: `portfolio-server` → `PortfolioApi`.
pub fn trait_name(crate_name: &str) -> String {
    let base = crate_name.strip_suffix("-server").or_else(|| crate_name.strip_suffix("_server")).unwrap_or(crate_name);
    format!("{}Api", crate::naming::camel(base))
}

pub fn server<'a>(api: &'a Api, config: &CrateConfig, spec_path: &str, standalone: bool) -> Result<Plan<'a>, String> {
    let dir = &config.dir;
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
    // Regular expressions only for a spec with patterns to check.
    let mut server_dependencies = SERVER_DEPENDENCIES.to_vec();
    if server::has_patterns(api) {
        server_dependencies.push(("regex-lite", "\"0.1\""));
        server_dependencies.sort();
    }
    let mut files = vec![
        render::template(
            format!("{dir}/Cargo.toml"),
            &CargoToml {
                spec_path,
                name: &config.name,
                version: "0.1.0",
                description: &description,
                dependencies: &server_dependencies,
                dev_dependencies: SERVER_DEV_DEPENDENCIES,
                features: &[],
                standalone,
            },
        )?,
        render::template(
            format!("{dir}/README.md"),
            &Readme {
                spec_path,
                name: &config.name,
                summary: &description,
                title: &api.title,
                api_version: &api.version,
                operation_count: api.operations.len(),
                type_count: api.types.len(),
                usage: &usage,
            },
        )?,
        render::plain(format!("{dir}/rustfmt.toml"), RUSTFMT_TOML),
        render::support(src("date_time.rs"), spec_path, DATE_TIME),
        render::support(src("enums.rs"), spec_path, ENUMS),
        render::support(src("object_only.rs"), spec_path, OBJECT_ONLY),
        render::support(src("extract.rs"), spec_path, SERVER_EXTRACT),
        render::support(src("problem.rs"), spec_path, SERVER_PROBLEM),
        render::support(src("reply.rs"), spec_path, SERVER_REPLY),
        render::support(src("serve.rs"), spec_path, SERVER_SERVE),
    ];
    if api.operations.iter().any(|op| matches!(op.reply, Reply::Download { .. })) {
        files.push(render::support(src("download.rs"), spec_path, SERVER_DOWNLOAD));
    }
    if needs_form_reader(api) {
        files.push(render::support(src("form.rs"), spec_path, SERVER_FORM));
    }
    if has_multipart(api) {
        files.push(render::support(src("multipart.rs"), spec_path, SERVER_MULTIPART));
    }
    let (for_api, for_mock, for_lib, for_router, for_handlers) =
        (trait_name.clone(), trait_name.clone(), trait_name.clone(), trait_name.clone(), trait_name);
    let validated = server::validated_types(api);
    let jobs = vec![
        RustJob::new(src("api.rs"), move || Some(server::api_module(api, &for_api))),
        RustJob::new(src("mock.rs"), move || Some(server::mock_module(api, &for_mock))),
        RustJob::chunked(
            vec![src("inputs.rs")],
            api.operations.len(),
            move || server::inputs_header(api),
            move |i| server::input_struct(&api.operations[i]),
        ),
        RustJob::new(src("lib.rs"), move || Some(server::lib_module(api, &for_lib, &crate_ident))),
        RustJob::chunked(
            vec![src("router.rs")],
            api.operations.len(),
            move || server::router_header(api, &for_router),
            move |i| server::handler(api, &api.operations[i], &crate::emit::ident(&for_handlers), &validated),
        ),
        RustJob::new(src("validate.rs"), move || server::validate_module(api)),
    ];
    Ok(Plan { files, jobs })
}
