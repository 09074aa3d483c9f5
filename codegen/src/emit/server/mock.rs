//! `mock.rs`: the mock, which answers each operation from a handler it was given, a sample of
//! the reply, or 501.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::api::add_reply_imports;
use super::{input_name, method_signature, server_reply_type};

use crate::emit::{Imports, doc, ident};
use crate::ir::{Api, Operation, Reply};
use crate::render::{Block, Part};

/// `mock.rs`: [`MockApi`], the trait implemented by handlers set per operation at run time, and
/// `serve_mock`, which serves it through the real router on a loopback port.
pub fn mock_module(api: &Api, trait_name: String) -> Vec<Part<'_>> {
    let ops = &api.operations;
    let named = trait_name.clone();
    vec![
        Part::items(move || mock_head(api, &named)),
        Part::block(
            || quote! { impl MockApi {} },
            Block::Impl,
            ops.len() + 1,
            move |i| match i.checked_sub(1) {
                Some(i) => mock_setters(api, &ops[i]),
                None => mock_constructors(),
            },
        ),
        Part::block(
            move || {
                let name = ident(&trait_name);
                quote! { impl #name for MockApi {} }
            },
            Block::Impl,
            ops.len(),
            move |i| mock_method(api, &ops[i]),
        ),
    ]
}

/// The head of `mock.rs`: docs, imports and the mock, whose handlers the runtime's `MockState` keeps.
fn mock_head(api: &Api, trait_name: &str) -> TokenStream {
    let mut imports = Imports::default();
    imports
        .add("std::future::Future")
        .add("std::sync::Arc")
        .add("crate::api::RequestContext")
        .add("crate::{ApiResult, ServerConfig, inputs}")
        .add("apigen_runtime::codegen::server::mock::MockState")
        .add(&format!("crate::{trait_name}"));
    if api.operations.iter().any(crate::emit::samples::has_sample) {
        imports.add("crate::samples");
    }
    add_reply_imports(api, &mut imports);
    let imports = imports.tokens();
    let docs = doc(&format!(
        "A stand-in for the service in tests of code that calls it: [`{trait_name}`] answered by a\n\
         handler or a canned reply set per operation, run behind the real router, so requests are\n\
         validated against the contract. An operation without a handler answers 501 naming it\n\
         ([`MockApi::new`]) or the document's example or a sampled value ([`MockApi::sampled`]),\n\
         and every call is recorded. Start it with [`MockApi::serve`]."
    ));
    quote! {
        //! A mock of the API for tests of code that calls it.

        #imports

        #docs
        #[derive(Default)]
        pub struct MockApi {
            state: MockState,
        }

        impl std::fmt::Debug for MockApi {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("MockApi").field("calls", &self.calls()).finish_non_exhaustive()
            }
        }
    }
}

/// The mock's own methods: its constructors, `serve` and `calls`.
fn mock_constructors() -> TokenStream {
    quote! {
        /// A mock on which every operation answers 501 until given a handler.
        pub fn new() -> Arc<Self> {
            Arc::new(MockApi::default())
        }

        /// A mock on which every operation without a handler answers as the document shows: its
        /// example where that is valid, else a value sampled from the reply's schema (the same
        /// on every run). Operations it cannot answer (a protocol switch, a schema no value
        /// satisfies) answer 501.
        pub fn sampled() -> Arc<Self> {
            Arc::new(MockApi { state: MockState::sampled() })
        }

        /// Serves the mock on an ephemeral port of 127.0.0.1 for as long as the runtime runs,
        /// and returns its base URL, such as `http://127.0.0.1:49152`.
        pub async fn serve(self: &Arc<Self>) -> std::io::Result<String> {
            let router = crate::router_with(self.clone(), ServerConfig::default());
            apigen_runtime::codegen::server::serve::serve_on_loopback(router, crate::errors::UNROUTED).await
        }

        /// The operations called so far, by operationId, in the order they were called.
        pub fn calls(&self) -> Vec<&'static str> {
            self.state.calls()
        }
    }
}

/// The mock's `on_<operation>` and, for a reply that can be given twice, `returns_<operation>`.
fn mock_setters(api: &Api, op: &Operation) -> TokenStream {
    let (bare, id) = (&op.fn_name, &op.id);
    let (on, input, reply) = (format_ident!("on_{bare}"), input_name(op), server_reply_type(api, op));
    let on_doc = doc(&format!("Answers `{id}` with `handler`, replacing any handler set before."));
    // A download, a stream or a switch is consumed as it is sent, so it cannot be answered twice.
    let canned =
        (!matches!(op.reply, Reply::Download { .. } | Reply::Stream { .. } | Reply::Upgrade { .. })).then(|| {
            let returns = format_ident!("returns_{bare}");
            let docs = doc(&format!("Answers every `{id}` request with `reply`."));
            quote! {
                #docs
                pub fn #returns(&self, reply: ApiResult<#reply>) -> &Self {
                    self.#on(move |_, _| std::future::ready(reply.clone()))
                }
            }
        });
    quote! {
        #on_doc
        pub fn #on<F, Fut>(&self, handler: F) -> &Self
        where
            F: Fn(RequestContext, inputs::#input) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = ApiResult<#reply>> + Send + 'static,
        {
            self.state.set(handler);
            self
        }

        #canned
    }
}

/// The mock's method for `op`: its handler, else its sample or 501.
fn mock_method(api: &Api, op: &Operation) -> TokenStream {
    let (signature, id) = (method_signature(api, op), &op.id);
    let sample = match crate::emit::samples::has_sample(op) {
        true => {
            let name = ident(&op.fn_name);
            quote! { Some(samples::#name) }
        }
        false => quote! { None },
    };
    quote! {
        #signature {
            self.state.answer(#id, #sample, ctx, input)
        }
    }
}
