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
            "client/src/types.rs",
            "server/src/api.rs",
            "server/src/inputs.rs",
            "server/src/router.rs",
        ];
        if golden.contains(&file.path.as_str()) {
            expect_file![format!("golden/naming/{}", file.path)].assert_eq(&file.contents);
        }
    }
}
