//! Each crate's integration tests are one binary (`tests/main.rs` declaring one module per
//! file, with `autotests = false`): a file in `tests/` that `main.rs` does not declare would
//! never be built or run, so every one must be declared.

use std::fs;
use std::path::Path;

/// The `tests/*.rs` files of `crate_dir` that its `tests/main.rs` does not declare as
/// `mod NAME;`.
fn undeclared(crate_dir: &Path) -> Vec<String> {
    let tests = crate_dir.join("tests");
    let Ok(entries) = fs::read_dir(&tests) else {
        return Vec::new();
    };
    let main = fs::read_to_string(tests.join("main.rs")).unwrap_or_default();
    let declared: Vec<&str> = main
        .lines()
        .filter_map(|l| l.trim().strip_prefix("mod "))
        .filter_map(|l| l.strip_suffix(';'))
        .collect();
    let mut missing: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter_map(|name| name.strip_suffix(".rs").map(str::to_owned))
        .filter(|stem| stem != "main" && !declared.contains(&stem.as_str()))
        .collect();
    missing.sort();
    missing
}

#[test]
fn every_test_file_is_built() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    let mut dirs: Vec<_> = fs::read_dir(&crates)
        .expect("the crates folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    dirs.sort();
    for dir in dirs {
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
        let has_tests = fs::read_dir(dir.join("tests")).is_ok_and(|mut e| {
            e.any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "rs")))
        });
        if !has_tests {
            continue;
        }
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if !manifest.contains("autotests = false") || !dir.join("tests/main.rs").is_file() {
            problems.push(format!(
                "crates/{name}: its tests are not one binary (autotests = false and a \
                 [[test]] at tests/main.rs)"
            ));
            continue;
        }
        for stem in undeclared(&dir) {
            problems.push(format!(
                "crates/{name}/tests/{stem}.rs is never built: add `mod {stem};` to tests/main.rs"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_undeclared_file_is_found() {
    let dir = std::env::temp_dir().join(format!("tapete-layout-{}", std::process::id()));
    fs::create_dir_all(dir.join("tests")).expect("a scratch folder");
    fs::write(dir.join("tests/main.rs"), "mod one;\n").expect("main.rs");
    fs::write(dir.join("tests/one.rs"), "").expect("one.rs");
    fs::write(dir.join("tests/two.rs"), "").expect("two.rs");
    let missing = undeclared(&dir);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(missing, vec!["two".to_string()]);
}
