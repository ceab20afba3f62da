//! Running one of `scripts/*.py` over a folder of records written for the
//! test, as the script tests do.
//!
//! Each test binary compiles its own copy and uses only part of it.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Writes `files` (name, contents) into a fresh folder named after `tag`,
/// runs `python3 scripts/<script> <args> <folder>`, removes the folder and
/// returns the standard output, asserting that the script succeeded.
pub fn run_on_records(script: &str, tag: &str, args: &[&str], files: &[(&str, &str)]) -> String {
    let dir = std::env::temp_dir().join(format!("wuzi-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, contents) in files {
        std::fs::write(dir.join(name), contents).unwrap();
    }
    let dir_arg = dir.to_str().unwrap();
    let args: Vec<&str> = args.iter().copied().chain([dir_arg]).collect();
    let (ok, out, _) = run_script(script, &args);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "{out}");
    out
}

/// Runs `python3 scripts/<script> <args>` and returns whether it succeeded,
/// its standard output and its standard error.
pub fn run_script(script: &str, args: &[&str]) -> (bool, String, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    let output = Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}
