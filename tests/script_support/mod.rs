//! Running one of `scripts/*.py` over a folder of records written for the
//! test, as the script tests do.

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
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    let output = Command::new("python3")
        .arg(script)
        .args(args)
        .arg(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{out}");
    out
}
