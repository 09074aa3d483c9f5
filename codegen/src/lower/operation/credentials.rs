//! The credentials an operation asks for, from its security requirements and the document's
//! schemes.

use openapiv3::ReferenceOr;

use crate::diagnostic::Pointer;
use crate::ir::Credential;
use crate::lower::Lowerer;

impl<'a> Lowerer<'a> {
    /// The credentials an operation may send and, when the document accepts several sets, each
    /// set. A set with a scheme the generator cannot carry is left out with a warning; the
    /// operation is left out only when no set is left.
    pub(super) fn operation_credentials(
        &mut self,
        ptr: &Pointer,
        security: Option<&Vec<openapiv3::SecurityRequirement>>,
        credentials: &[Credential],
    ) -> Option<(Vec<usize>, Vec<Vec<usize>>)> {
        let (requirements, sptr) = match security {
            Some(s) => (s, ptr.push("security")),
            None => match &self.doc.security {
                Some(s) => (s, Pointer::root().push("security")),
                None => return Some(Default::default()),
            },
        };
        // An empty requirement makes credentials optional: nothing is sent or checked.
        if requirements.is_empty() || requirements.iter().any(|r| r.is_empty()) {
            if requirements.len() > 1 {
                self.warn(
                    &sptr,
                    "credentials are optional here, so the generated code neither sends nor requires them",
                );
            }
            return Some(Default::default());
        }
        let mut sets: Vec<Vec<usize>> = Vec::new();
        let mut problems = Vec::new();
        for (n, requirement) in requirements.iter().enumerate() {
            let found: Result<Vec<usize>, String> = requirement
                .keys()
                .map(|scheme| credentials.iter().position(|c| &c.scheme == scheme).ok_or_else(|| scheme.clone()))
                .collect();
            match found {
                Ok(found) if !sets.contains(&found) => sets.push(found),
                Ok(_) => {}
                Err(scheme) => problems.push((n, scheme)),
            }
        }
        for (n, scheme) in problems {
            let why = self.scheme_problem(&scheme);
            let at = sptr.push(n).push(&scheme);
            if sets.is_empty() {
                self.report(&at, format!("security scheme `{scheme}` is {why}"));
                return None;
            }
            self.warn(&at, format!("security scheme `{scheme}` is {why}, so this alternative is not accepted"));
        }
        let mut all: Vec<usize> = sets.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        if sets.len() == 1 {
            sets.clear();
        }
        Some((all, sets))
    }

    /// Why a security scheme cannot be used, as the end of a sentence, for diagnostics.
    fn scheme_problem(&self, scheme: &str) -> String {
        use openapiv3::{APIKeyLocation, SecurityScheme};
        let unsupported = |what: String| format!("{what}, which is not supported yet");
        match self.doc.components.as_ref().and_then(|c| c.security_schemes.get(scheme)) {
            Some(ReferenceOr::Item(SecurityScheme::APIKey { location: APIKeyLocation::Header, name, .. }))
                if !crate::lower::is_header_name(name) =>
            {
                format!("an API key in `{name}`, which is not a valid header name")
            }
            Some(ReferenceOr::Item(SecurityScheme::HTTP { scheme, .. })) => {
                format!("HTTP authentication named `{scheme}`, which is no valid scheme name")
            }
            Some(_) => unsupported("a scheme of another kind".to_string()),
            None => "not declared in #/components/securitySchemes".to_string(),
        }
    }
}
