//! The error bodies operations document: the server crate's `errors.rs` (each operation's list)
//! and the types crate's `server.rs` (how an `ApiError` becomes each body).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::emit::split::TypesCrate;
use crate::emit::{doc, ident};
use crate::ir::{Api, ErrorList, ErrorShape, ErrorStatus, ErrorsDef, Fill, Operation};

/// The types crate's `server.rs`: `From<Errors> for ApiError` for every operation's error enum;
/// `None` when no operation documents error replies.
pub fn error_replies(api: &Api, part: TypesCrate<'_>) -> Option<TokenStream> {
    let impls: Vec<TokenStream> = crate::emit::split::error_enums(api, part).map(error_into_api_error).collect();
    (!impls.is_empty()).then(|| {
        quote! {
            //! The documented error replies, returned by a server implementation as an `ApiError`.

            use apigen_runtime::codegen::server::reply;
            use apigen_runtime::server::ApiError;

            use crate::types;

            #(#impls)*
        }
    })
}

/// `From<Errors> for ApiError`: each documented error reply with its status and JSON body.
fn error_into_api_error(errors: &ErrorsDef) -> TokenStream {
    let ty = ident(&errors.name);
    let arms = errors.cases.iter().map(|case| {
        let variant = ident(&case.name);
        match case.status {
            ErrorStatus::Exact(status) => {
                let status = Literal::u16_unsuffixed(status);
                quote! { types::#ty::#variant(body) => ApiError::json(reply::error_status(#status), &body), }
            }
            ErrorStatus::Class(_) | ErrorStatus::Default => {
                quote! { types::#ty::#variant(status, body) => ApiError::json(reply::error_status(status), &body), }
            }
        }
    });
    quote! {
        impl From<types::#ty> for ApiError {
            fn from(error: types::#ty) -> Self {
                match error {
                    #(#arms)*
                }
            }
        }
    }
}

/// The name of the static holding an operation's error bodies in `errors.rs`: that of the first
/// operation with the same.
pub(super) fn shapes_name(api: &Api, op: &Operation) -> proc_macro2::Ident {
    let owner = op.error_shapes_of.map_or(op, |index| &api.operations[index]);
    format_ident!("{}", crate::naming::snake(&owner.type_name).to_ascii_uppercase())
}

/// `errors.rs`: the error bodies the document gives, per operation, and the ones used for
/// requests no operation serves (for each status, the body most operations give).
pub fn errors_module(api: &Api) -> TokenStream {
    let list = |shapes: &[&ErrorShape]| {
        let items = shapes.iter().map(|shape| {
            let statuses = match shape.status {
                ErrorStatus::Exact(code) => {
                    let code = Literal::u16_unsuffixed(code);
                    quote! { Statuses::Exact(#code) }
                }
                ErrorStatus::Class(class) => {
                    let class = Literal::u16_unsuffixed(class);
                    quote! { Statuses::Class(#class) }
                }
                ErrorStatus::Default => quote! { Statuses::Default },
            };
            let (content_type, template) = (&shape.content_type, &shape.template);
            let fills = shape.fills.iter().map(|(pointer, fill)| {
                let fill = match fill {
                    Fill::Detail => quote! { Fill::Detail },
                    Fill::Title => quote! { Fill::Title },
                    Fill::Status => quote! { Fill::Status },
                    Fill::StatusText => quote! { Fill::StatusText },
                    Fill::Code => quote! { Fill::Code },
                    Fill::Type => quote! { Fill::Type },
                    Fill::Instance => quote! { Fill::Instance },
                    Fill::Errors(ErrorList::Strings) => quote! { Fill::Errors(ErrorList::Strings) },
                    Fill::Errors(ErrorList::Map) => quote! { Fill::Errors(ErrorList::Map) },
                    Fill::Errors(ErrorList::MapOfLists) => quote! { Fill::Errors(ErrorList::MapOfLists) },
                    Fill::Errors(ErrorList::Objects { name, message }) => {
                        quote! { Fill::Errors(ErrorList::Objects { name: #name, message: #message }) }
                    }
                    Fill::Errors(ErrorList::Messages { message }) => {
                        quote! { Fill::Errors(ErrorList::Messages { message: #message }) }
                    }
                };
                quote! { (#pointer, #fill) }
            });
            quote! {
                ErrorShape {
                    statuses: #statuses,
                    content_type: #content_type,
                    template: #template,
                    fills: &[#(#fills),*],
                }
            }
        });
        quote! { &[#(#items),*] }
    };
    let mut sharing = vec![0usize; api.operations.len()];
    api.operations.iter().filter_map(|op| op.error_shapes_of).for_each(|owner| sharing[owner] += 1);
    let owners = api.operations.iter().zip(sharing);
    let owners = owners.filter(|(op, _)| !op.error_shapes.is_empty() && op.error_shapes_of.is_none());
    let per_operation = owners.map(|(op, sharing)| {
        let name = shapes_name(api, op);
        let docs = doc(&match sharing {
            0 => format!("`{} {}`.", op.method.as_str(), op.path),
            n => format!("`{} {}`, and {n} more operations that document the same.", op.method.as_str(), op.path),
        });
        let shapes = list(&op.error_shapes.iter().collect::<Vec<_>>());
        quote! { #docs pub(crate) static #name: &[ErrorShape] = #shapes; }
    });
    // For each status, the body most operations give it (the first such in document order).
    let mut counts: Vec<(&ErrorShape, usize)> = Vec::new();
    for shape in api.operations.iter().flat_map(|op| &op.error_shapes) {
        match counts.iter_mut().find(|(seen, _)| *seen == shape) {
            Some((_, n)) => *n += 1,
            None => counts.push((shape, 1)),
        }
    }
    let mut unrouted: Vec<&ErrorShape> = Vec::new();
    for &(shape, n) in &counts {
        let best = counts.iter().filter(|(s, _)| s.status == shape.status).map(|(_, n)| *n).max();
        if best == Some(n) && !unrouted.iter().any(|s| s.status == shape.status) {
            unrouted.push(shape);
        }
    }
    unrouted.sort_by_key(|s| s.status);
    let unrouted = list(&unrouted);
    let shapes = || api.operations.iter().flat_map(|op| &op.error_shapes);
    let used = |name: &str| match name {
        "ErrorList" => shapes().flat_map(|s| &s.fills).any(|(_, f)| matches!(f, Fill::Errors(_))),
        "Fill" => shapes().any(|s| !s.fills.is_empty()),
        "Statuses" => shapes().next().is_some(),
        _ => true,
    };
    let imports: Vec<proc_macro2::Ident> =
        ["ErrorList", "ErrorShape", "Fill", "Statuses"].into_iter().filter(|n| used(n)).map(ident).collect();
    quote! {
        //! The error bodies the document gives, in which the server writes its own rejections and
        //! an implementation's errors ([`ErrorReply::render`](crate::ErrorReply::render)).

        use apigen_runtime::server::{#(#imports),*};

        #(#per_operation)*

        /// Requests no operation serves (an unknown path, a method a path does not serve).
        pub(crate) static UNROUTED: &[ErrorShape] = #unrouted;
    }
}
