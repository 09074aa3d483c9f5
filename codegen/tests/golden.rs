//! Golden tests: the emitted code for small fixture specs, compared with files under `tests/golden/`.
//! Refresh them after an intended change with `UPDATE_EXPECT=1 cargo test -p apigen`.

use apigen::generate;
use expect_test::expect_file;

mod common;

fn files_of(fixture: &str) -> Vec<apigen::GeneratedFile> {
    let path = format!("{}/tests/fixtures/{fixture}.yaml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let config = common::config(fixture, &format!("{fixture}.yaml"));
    generate(&text, &config).unwrap_or_else(|d| panic!("{d}")).files
}

#[test]
fn naming_fixture() {
    for file in files_of("naming") {
        let golden = [
            "client/src/builders.rs",
            "client/src/client.rs",
            "types/src/types.rs",
            "server/src/api.rs",
            "server/src/inputs.rs",
            "server/src/router.rs",
        ];
        if golden.contains(&file.path.as_str()) {
            expect_file![format!("golden/naming/{}", file.path)].assert_eq(&file.contents);
        }
    }
}

/// Serde's derive sits on a private twin of each struct, so the struct's own page lists no
/// `serialize` or `deserialize` functions of serde's beside its methods (a derive with
/// `remote = "Self"` on the struct itself gives it public ones).
#[test]
fn serde_derives_sit_on_private_twins() {
    let files = files_of("naming");
    let types = files.iter().find(|f| f.path == "types/src/types.rs").expect("types");
    let text = &types.contents;
    assert!(!text.contains(r#"remote = "Self""#));
    let structs = text.matches("\npub struct ").count();
    let twins = text.matches("\n    struct Wire {").count();
    assert!(structs > 0);
    assert_eq!(twins, structs, "a twin per struct");
    let file = syn::parse_file(text).expect("parses");
    for item in &file.items {
        if let syn::Item::Struct(s) = item {
            let serde =
                s.attrs.iter().chain(s.fields.iter().flat_map(|f| &f.attrs)).any(|a| a.path().is_ident("serde"));
            assert!(!serde, "`{}` carries serde attributes itself", s.ident);
        }
    }
}
