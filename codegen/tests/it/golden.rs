//! Golden tests: the emitted code for small fixture specs, compared with files under `tests/golden/`.
//! Refresh them after an intended change with `UPDATE_EXPECT=1 cargo test -p apigen`.

use apigen::generate;
use expect_test::expect_file;

use crate::common;

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
            expect_file![format!("../golden/naming/{}", file.path)].assert_eq(&file.contents);
        }
    }
}

/// Serde's derive sits on each struct itself: no private twin, and no `remote = "Self"`, which
/// would give the struct public `serialize` and `deserialize` functions of serde's beside its
/// methods. The runtime's reader, not each type, refuses a JSON array where a struct is wanted.
#[test]
fn every_wire_struct_is_written_by_one_record_invocation() {
    let files = files_of("naming");
    let types = files.iter().find(|f| f.path == "types/src/types.rs").expect("types");
    let text = &types.contents;
    assert!(!text.contains("remote ="));
    assert!(!text.contains("struct Wire"));
    let file = syn::parse_file(text).expect("parses");
    let records: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m) if m.mac.path.segments.last().is_some_and(|s| s.ident == "record") => {
                let tokens = m.mac.tokens.clone().into_iter().next().expect("a name");
                Some(tokens.to_string())
            }
            _ => None,
        })
        .collect();
    let structs: Vec<&syn::ItemStruct> =
        file.items.iter().filter_map(|item| if let syn::Item::Struct(s) = item { Some(s) } else { None }).collect();
    assert!(!structs.is_empty());
    for s in structs {
        let derives: Vec<String> = s
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("derive"))
            .map(|a| a.meta.require_list().expect("a list").tokens.to_string())
            .collect();
        let derives = derives.join(", ");
        assert!(!derives.contains("Serialize") && !derives.contains("Deserialize"), "`{}`: {derives}", s.ident);
        // Reply headers are read and written by the generated code, not by serde.
        let wire = !s.ident.to_string().ends_with("Headers");
        let written = records.iter().filter(|name| s.ident == name).count();
        assert_eq!(written, usize::from(wire), "`{}` has {written} record! invocations", s.ident);
    }
}
