//! The shape of the generator's and the runtime's source, read with syn: stages import only the
//! stages below them (a stage that reached up, lowering into an emitter or any stage into the
//! crate root, would make the pipeline run both ways; a path inside `quote!` or a doc link is not
//! an import), and files and functions stay short enough to read whole.

use std::collections::BTreeMap;
use std::path::Path;

use syn::visit::Visit;

/// Each top-level module of `codegen/src` and the modules it may use; `root` is the crate root's
/// own items (`crate::Config`, `crate::generate_files`), for the entry points only.
const ALLOWED: &[(&str, &[&str])] = &[
    ("diagnostic", &[]),
    ("naming", &[]),
    ("config", &[]),
    ("render", &[]),
    ("ir", &["diagnostic", "naming"]),
    ("front", &["diagnostic", "ir", "naming"]),
    ("sample", &["diagnostic", "front", "ir", "naming"]),
    ("diff", &["diagnostic", "ir", "naming", "config"]),
    ("lower", &["diagnostic", "naming", "config", "front", "ir", "sample"]),
    ("emit", &["diagnostic", "naming", "config", "ir", "render", "sample", "diff"]),
    ("disk", &["root", "diagnostic", "naming", "config", "front", "ir", "lower", "emit", "render", "diff"]),
    ("generator", &["root", "diagnostic", "config", "disk", "render"]),
    ("build_script", &["root", "diagnostic", "config", "disk", "render", "generator"]),
    ("tools", &["root", "diagnostic", "config", "ir", "lower", "sample", "diff", "disk", "render", "generator"]),
];

/// The first segment after `crate::` of every path and `use` in a file, outside macros.
#[derive(Default)]
struct Uses(Vec<String>);

impl Uses {
    fn add(&mut self, name: &syn::Ident) {
        self.0.push(name.to_string());
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segments = path.segments.iter();
        if let (Some(first), Some(second)) = (segments.next(), segments.next())
            && first.ident == "crate"
        {
            self.add(&second.ident);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        fn after_crate(tree: &syn::UseTree, uses: &mut Uses) {
            match tree {
                syn::UseTree::Path(p) => uses.add(&p.ident),
                syn::UseTree::Name(n) => uses.add(&n.ident),
                syn::UseTree::Rename(r) => uses.add(&r.ident),
                syn::UseTree::Group(g) => g.items.iter().for_each(|t| after_crate(t, uses)),
                syn::UseTree::Glob(_) => uses.0.push("*".to_string()),
            }
        }
        if let syn::UseTree::Path(p) = &item.tree
            && p.ident == "crate"
        {
            after_crate(&p.tree, self);
        }
    }
}

/// The longest a source file may be, tests in their own files not counted, and a function.
const FILE_LINES: usize = 900;
const FN_LINES: usize = 150;

fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn no_stage_imports_a_later_stage_or_the_entry_point() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let modules: Vec<&str> = allowed.keys().copied().collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).expect("under src");
        let first = relative.components().next().expect("a path").as_os_str().to_str().expect("UTF-8");
        let stage = first.strip_suffix(".rs").unwrap_or(first);
        // The crate root and the binary are the entry points: they may use everything.
        if matches!(stage, "lib" | "main") {
            continue;
        }
        let may = allowed.get(stage).unwrap_or_else(|| panic!("`{stage}` is in no layer of ALLOWED"));
        let text = std::fs::read_to_string(&file).expect("readable");
        let mut uses = Uses::default();
        uses.visit_file(&syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display())));
        for used in uses.0 {
            let module = if modules.contains(&used.as_str()) { used.as_str() } else { "root" };
            if module != stage && !may.contains(&module) {
                wrong.push(format!("{}: `crate::{used}` ({module})", relative.display()));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
}

#[test]
fn the_layers_name_every_module_and_allow_only_modules_listed_before_them() {
    let mut seen: Vec<&str> = vec!["root"];
    for (module, may) in ALLOWED {
        for used in *may {
            assert!(seen.contains(used), "`{module}` may use `{used}`, which is not listed before it");
        }
        seen.push(module);
    }
}

/// Every function and method of `file` with its first and last line.
#[derive(Default)]
struct Functions(Vec<(String, usize, usize)>);

impl Functions {
    fn add(&mut self, name: &syn::Ident, span: proc_macro2::Span) {
        self.0.push((name.to_string(), span.start().line, span.end().line));
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let span = syn::spanned::Spanned::span(f);
        self.add(&f.sig.ident, span);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let span = syn::spanned::Spanned::span(f);
        self.add(&f.sig.ident, span);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        // A test module's functions are tests, which may be as long as the case they spell out.
        let test = m.attrs.iter().any(|a| {
            a.path().is_ident("cfg") && quote::ToTokens::to_token_stream(&a.meta).to_string().contains("test")
        });
        if !test {
            syn::visit::visit_item_mod(self, m);
        }
    }
}

/// The source files of the generator and the runtime, with their paths from the package roots.
fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("runtime/src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable");
            (path.strip_prefix(root).expect("in the package").display().to_string(), text)
        })
        .collect()
}

#[test]
fn no_source_file_is_longer_than_a_reader_can_hold() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|(path, _)| !path.ends_with("/tests.rs"))
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|(_, lines)| *lines > FILE_LINES)
        .map(|(path, lines)| format!("{path}: {lines} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "files over {FILE_LINES} lines (tests go in a `tests.rs` beside them):\n{}",
        long.join("\n")
    );
}

#[test]
fn no_function_is_longer_than_a_screenful_or_two() {
    let mut long = Vec::new();
    for (path, text) in sources().into_iter().filter(|(path, _)| !path.ends_with("/tests.rs")) {
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut functions = Functions::default();
        functions.visit_file(&file);
        for (name, first, last) in functions.0 {
            let lines = last - first + 1;
            if lines > FN_LINES {
                long.push(format!("{path}:{first}: `{name}`, {lines} lines"));
            }
        }
    }
    assert!(long.is_empty(), "functions over {FN_LINES} lines:\n{}", long.join("\n"));
}
