//! Yixin-Board starts its engine as `engine.exe --force-utf8` (on Windows):
//! the flag must start the protocol engine, not a tool.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn force_utf8_starts_the_protocol_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .arg("--force-utf8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env_remove("WUZI_LOG")
        .env_remove("WUZI_LOG_FILE")
        .spawn()
        .expect("engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"START 15\r\nBEGIN\r\n")
        .expect("engine reads");
    // Without a time limit the engine moves within 300 ms.
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let lines: Vec<String> = stdout
        .lines()
        .map_while(Result::ok)
        .filter(|line| !line.starts_with("MESSAGE"))
        .take(2)
        .collect();
    drop(stdin);
    let _ = child.wait();
    assert_eq!(lines.first().map(String::as_str), Some("OK"), "{lines:?}");
    let is_move = |line: &str| {
        line.split_once(',')
            .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
    };
    assert!(lines.get(1).is_some_and(|l| is_move(l)), "{lines:?}");
}
