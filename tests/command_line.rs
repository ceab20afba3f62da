//! The command lines of `pbrain-wuzi` and `wuzi-match`: help and version on
//! every command, exit code 2 with a message on a bad one, and protocol mode
//! (no arguments) untouched by the parser.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Output, Stdio};

const ENGINE: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");
const MATCH: &str = env!("CARGO_BIN_EXE_wuzi-match");

fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .env_remove("WUZI_LOG")
        .env_remove("WUZI_LOG_FILE")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_command_has_help_and_a_version() {
    let commands: &[&[&str]] = &[
        &[],
        &["bench"],
        &["bench", "time"],
        &["bench", "board"],
        &["opengen"],
        &["analyze"],
        &["tune"],
        &["tune-order"],
        &["tune-order", "label"],
        &["tune-order", "fit"],
        &["db"],
        &["db", "import"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let output = run(ENGINE, &args);
        let usage = format!(
            "Usage: {}",
            ["pbrain-wuzi"]
                .iter()
                .chain(command.iter())
                .copied()
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert!(output.status.success(), "{args:?}");
        assert!(
            text(&output.stdout).contains(&usage),
            "{args:?}: {}",
            text(&output.stdout)
        );
        assert!(output.stderr.is_empty(), "{args:?}");
    }
    let version = run(ENGINE, &["--version"]);
    assert_eq!(
        text(&version.stdout),
        format!("pbrain-wuzi {}\n", env!("CARGO_PKG_VERSION"))
    );
    let version = run(MATCH, &["--version"]);
    assert_eq!(
        text(&version.stdout),
        format!("wuzi-match {}\n", env!("CARGO_PKG_VERSION"))
    );
    let help = run(MATCH, &["--help"]);
    assert!(help.status.success());
    for flag in ["--engine1", "--openings", "--turn", "--sprt", "--sgf"] {
        assert!(text(&help.stdout).contains(flag), "{flag}");
    }
}

#[test]
fn a_bad_command_line_says_what_is_wrong_and_exits_2() {
    let cases: &[(&str, &[&str], &str)] = &[
        (ENGINE, &["--bogus"], "--bogus"),
        (ENGINE, &["benhc"], "benhc"),
        (ENGINE, &["bench", "0"], "0"),
        (
            ENGINE,
            &["analyze", "game.sgf", "--rule", "2"],
            "not a rule code",
        ),
        (
            ENGINE,
            &["analyze", "game.sgf", "--nodes", "many"],
            "--nodes",
        ),
        (ENGINE, &["opengen", "--to-move", "red"], "--to-move"),
        (ENGINE, &["db", "import"], "FILE.lib"),
        (MATCH, &["--engine1", "a"], "--engine2"),
        (
            MATCH,
            &["--engine1", "a", "--engine2", "b", "--rule", "renjuu"],
            "not a rule",
        ),
        (
            MATCH,
            &["--engine1", "a", "--engine2", "b", "--size", "40"],
            "board size",
        ),
        (
            MATCH,
            &["--engine1", "a", "--engine2", "b", "--info1", "nokey"],
            "KEY=VALUE",
        ),
    ];
    for (program, args, needle) in cases {
        let output = run(program, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let said = text(&output.stderr);
        assert!(
            said.contains("error:") && said.contains(needle),
            "{args:?}: {said}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn the_documented_spellings_still_work() {
    // `--rule` by Gomocup code, as scripts/sprt.sh and the docs write it, and
    // by name, as `db import` always read it.
    let output = run(
        ENGINE,
        &["bench", "board", "--make-unmake-rounds", "1", "renju"],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("make+unmake (Renju)"));
    let output = run(
        ENGINE,
        &[
            "opengen", "--rule", "4", "--size", "9", "--count", "1", "--stones", "3", "--nodes",
            "200", "--margin", "100000", "--format", "pos",
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).lines().count(), 1);
}

/// The engine in protocol mode, and every byte it printed so far.
struct Engine {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    transcript: Vec<u8>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(ENGINE)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("WUZI_LOG")
            .env_remove("WUZI_LOG_FILE")
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends `text` and reads lines up to the first that is not a `MESSAGE`.
    fn say(&mut self, text: &str) -> String {
        self.send(text);
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the engine ended early"
            );
            self.transcript.extend_from_slice(line.as_bytes());
            if !line.starts_with("MESSAGE ") {
                return line;
            }
        }
    }
}

#[test]
fn protocol_mode_prints_nothing_new() {
    let mut engine = Engine::start();
    let about = format!(
        "name=\"wuzi\", version=\"{}\", author=\"wuzi developers\", geometry=\"square hex\"\n",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(engine.say("START 15\n"), "OK\n");
    assert_eq!(engine.say("ABOUT\n"), about);
    // INFO has no reply: the next line read is ABOUT's.
    assert_eq!(
        engine.say("INFO max_node 3000\nINFO rule 4\nABOUT\n"),
        about
    );
    assert_eq!(engine.say("BEGIN\n"), "7,7\n");
    let reply = engine.say("TURN 8,8\n");
    let (x, y) = reply.trim_end().split_once(',').expect("a move");
    assert!(
        x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok(),
        "{reply}"
    );
    engine.send("END\n");
    let mut rest = Vec::new();
    engine.stdout.read_to_end(&mut rest).unwrap();
    let mut errors = Vec::new();
    let mut stderr = engine.child.stderr.take().unwrap();
    stderr.read_to_end(&mut errors).unwrap();
    assert!(engine.child.wait().unwrap().success());
    assert!(rest.is_empty(), "after END: {:?}", text(&rest));
    assert!(errors.is_empty(), "stderr: {:?}", text(&errors));
    // Byte for byte, the transcript is the replies above and the search's
    // MESSAGE lines between them, each ended by a bare LF.
    let expected_replies = ["OK\n", &about, &about, "7,7\n", &reply].concat();
    let replies: String = text(&engine.transcript)
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("MESSAGE "))
        .collect();
    assert_eq!(replies, expected_replies);
    assert!(!engine.transcript.contains(&b'\r'));
}
