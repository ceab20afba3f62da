//! Runs every transcript in `protocol-tests/` against the built engine binary.
//! The format is described in `protocol-tests/README.md`. Each transcript runs
//! in its own engine process, with a timeout on every expected line, so a hang
//! fails the test instead of blocking it.

mod protocol_support;

use protocol_support::EngineProcess;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::thread;
use std::time::Duration;

/// How long any expected line may take. Generous: CI machines are noisy, and
/// a hang still fails.
const LINE_TIMEOUT: Duration = Duration::from_secs(10);

#[test]
fn all_transcripts_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("protocol-tests/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 15,
        "expected the transcript suite, found {files:?}"
    );
    // Two at a time: the transcripts mostly wait on pipes, not the CPU.
    let failures: Vec<String> = files
        .chunks(2)
        .flat_map(|pair| {
            let handles: Vec<_> = pair
                .iter()
                .cloned()
                .map(|file| thread::spawn(move || run_file(&file).err()))
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().expect("runner thread"))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// One step of a transcript, with its line number.
#[derive(Debug)]
enum Step {
    Send(String),
    Expect(String),
    LineEnding(&'static str),
    Env(String, String),
    Pause(Duration),
    Eof,
    Exit(Duration),
    Silent(Duration),
    Drain(Duration),
    IgnoreRest,
    Chatter(String),
}

fn parse_transcript(text: &str) -> Result<Vec<(usize, Step)>, String> {
    let mut steps = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim_end();
        let millis = |arg: &str| {
            arg.trim()
                .parse::<u64>()
                .map(Duration::from_millis)
                .map_err(|_| format!("line {number}: bad milliseconds '{arg}'"))
        };
        let step = if line.is_empty() || line.starts_with('#') {
            continue;
        } else if let Some(rest) = line.strip_prefix('>') {
            Step::Send(rest.strip_prefix(' ').unwrap_or(rest).to_string())
        } else if let Some(rest) = line.strip_prefix('<') {
            Step::Expect(rest.strip_prefix(' ').unwrap_or(rest).to_string())
        } else if line == "@crlf" {
            Step::LineEnding("\r\n")
        } else if line == "@lf" {
            Step::LineEnding("\n")
        } else if let Some(rest) = line.strip_prefix("@env ") {
            let (key, value) = rest
                .split_once('=')
                .ok_or(format!("line {number}: @env needs KEY=VALUE"))?;
            Step::Env(key.trim().to_string(), value.trim().to_string())
        } else if let Some(rest) = line.strip_prefix("@pause ") {
            Step::Pause(millis(rest)?)
        } else if let Some(rest) = line.strip_prefix("@chatter ") {
            Step::Chatter(format!("{} ", rest.trim()))
        } else if line == "@ignore-rest" {
            Step::IgnoreRest
        } else if line == "@eof" {
            Step::Eof
        } else if let Some(rest) = line.strip_prefix("@exit ") {
            Step::Exit(millis(rest)?)
        } else if let Some(rest) = line.strip_prefix("@silent ") {
            Step::Silent(millis(rest)?)
        } else if let Some(rest) = line.strip_prefix("@drain ") {
            Step::Drain(millis(rest)?)
        } else {
            return Err(format!("line {number}: cannot read '{line}'"));
        };
        steps.push((number, step));
    }
    Ok(steps)
}

/// The points the transcript has filled, so that `<move>` can check that the
/// engine answered on an empty point of the board.
#[derive(Default)]
struct BoardModel {
    width: i64,
    height: i64,
    stones: HashSet<(i64, i64)>,
    in_block: bool,
}

impl BoardModel {
    fn sent(&mut self, line: &str) {
        let words: Vec<String> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(|w| w.to_ascii_uppercase())
            .collect();
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
        let point = || Some((number(1)?, number(2)?));
        match words.first().map(String::as_str) {
            Some("START") => {
                if let Some(n) = number(1) {
                    self.width = n;
                    self.height = number(2).unwrap_or(n);
                    self.stones.clear();
                }
            }
            Some("RECTSTART") => {
                if let (Some(w), Some(h)) = (number(1), number(2)) {
                    (self.width, self.height) = (w, h);
                    self.stones.clear();
                }
            }
            Some("RESTART") => self.stones.clear(),
            Some("BOARD" | "YXBOARD" | "SWAP2BOARD") => {
                self.stones.clear();
                self.in_block = true;
            }
            Some("DONE") => self.in_block = false,
            Some("TURN" | "PLAY") => {
                if let Some(p) = point() {
                    self.stones.insert(p);
                }
            }
            Some("TAKEBACK") => {
                if let Some(p) = point() {
                    self.stones.remove(&p);
                }
            }
            _ if self.in_block => {
                if let (Some(x), Some(y)) = (number(0), number(1)) {
                    self.stones.insert((x, y));
                }
            }
            _ => {}
        }
    }

    /// Checks an engine move and records it.
    fn answered(&mut self, x: i64, y: i64) -> Result<(), String> {
        if !(0..self.width).contains(&x) || !(0..self.height).contains(&y) {
            return Err(format!(
                "move {x},{y} is off the {}x{} board",
                self.width, self.height
            ));
        }
        if !self.stones.insert((x, y)) {
            return Err(format!("move {x},{y} is on an occupied point"));
        }
        Ok(())
    }
}

/// Matches `line` against `pattern`: literal text with placeholders `<move>`
/// (an `x,y` on an empty point, recorded as played), `<int>` (an integer) and
/// `<text>` (any non-empty rest of line); ` || ` separates alternatives.
fn matches(pattern: &str, line: &str, board: &mut BoardModel) -> Result<bool, String> {
    matches_capturing(pattern, line, board, &mut HashMap::new())
}

/// `matches`, also storing the moves of `<move=NAME>` placeholders in `vars`.
fn matches_capturing(
    pattern: &str,
    line: &str,
    board: &mut BoardModel,
    vars: &mut HashMap<String, String>,
) -> Result<bool, String> {
    for alternative in pattern.split(" || ") {
        let mut moves = Vec::new();
        if match_from(alternative, line, &mut moves) {
            for (name, x, y) in moves {
                board.answered(x, y)?;
                if let Some(name) = name {
                    vars.insert(name, format!("{x},{y}"));
                }
            }
            return Ok(true);
        }
    }
    Ok(false)
}

type Captured = (Option<String>, i64, i64);

fn match_from(pattern: &str, line: &str, moves: &mut Vec<Captured>) -> bool {
    let digits = |s: &str| {
        let negative = s.starts_with('-') as usize;
        let count = s[negative..].bytes().take_while(u8::is_ascii_digit).count();
        (count > 0).then_some(negative + count)
    };
    let placeholder = pattern.strip_prefix("<move").and_then(|rest| {
        let end = rest.find('>')?;
        let name = rest[..end].strip_prefix('=').map(str::to_string);
        (end == 0 || name.is_some()).then(|| (name, &rest[end + 1..]))
    });
    if let Some((name, rest)) = placeholder {
        let Some(xl) = digits(line) else { return false };
        let Some(after_comma) = line[xl..].strip_prefix(',') else {
            return false;
        };
        let Some(yl) = digits(after_comma) else {
            return false;
        };
        let (x, y) = (
            line[..xl].parse().unwrap_or(-1),
            after_comma[..yl].parse().unwrap_or(-1),
        );
        moves.push((name, x, y));
        return match_from(rest, &after_comma[yl..], moves);
    }
    if let Some(rest) = pattern.strip_prefix("<int>") {
        return digits(line).is_some_and(|n| match_from(rest, &line[n..], moves));
    }
    if let Some(rest) = pattern.strip_prefix("<text>") {
        if rest.is_empty() {
            return !line.trim().is_empty();
        }
        // Some text, then the rest of the pattern.
        return line
            .char_indices()
            .skip(1)
            .any(|(at, _)| match_from(rest, &line[at..], moves));
    }
    match (pattern.chars().next(), line.chars().next()) {
        (None, None) => true,
        (Some(p), Some(l)) if p == l => {
            match_from(&pattern[p.len_utf8()..], &line[l.len_utf8()..], moves)
        }
        _ => false,
    }
}

/// Lines skipped while waiting for a pattern that is not itself chatter.
fn is_chatter(line: &str, extra: &[String]) -> bool {
    ["MESSAGE ", "DEBUG "]
        .iter()
        .any(|prefix| line.starts_with(prefix))
        || extra.iter().any(|prefix| line.starts_with(prefix.as_str()))
}

fn run_file(path: &Path) -> Result<(), String> {
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let steps = parse_transcript(&text).map_err(|e| format!("{name}: {e}"))?;
    let env: Vec<(&str, &str)> = steps
        .iter()
        .filter_map(|(_, s)| match s {
            Step::Env(k, v) => Some((k.as_str(), v.as_str())),
            _ => None,
        })
        .collect();
    let mut engine = EngineProcess::spawn(&env);
    let mut transcript = Vec::new();
    let result = execute(&steps, &mut engine, &mut transcript);
    // Whatever happened, the engine must not be left running.
    let stderr = engine.finish();
    let outcome = result.and_then(|()| {
        if stderr.is_empty() {
            Ok(())
        } else {
            Err(format!("engine wrote to stderr: {stderr:?}"))
        }
    });
    outcome.map_err(|e| {
        format!(
            "{name}: {e}\n  engine said:\n    {}",
            transcript.join("\n    ")
        )
    })
}

fn execute(
    steps: &[(usize, Step)],
    engine: &mut EngineProcess,
    seen: &mut Vec<String>,
) -> Result<(), String> {
    let mut ending = "\n";
    let mut board = BoardModel::default();
    let mut exited = false;
    let mut vars = HashMap::new();
    let mut check_rest = true;
    let mut chatter: Vec<String> = Vec::new();
    for (number, step) in steps {
        let at = |e: String| format!("line {number}: {e}");
        match step {
            Step::Send(line) => {
                let line = &substitute(line, &vars).map_err(at)?;
                board.sent(line);
                engine
                    .send(&format!("{line}{ending}"))
                    .map_err(|e| at(format!("engine stopped reading: {e}")))?;
            }
            Step::Expect(pattern) => {
                let wants_chatter = is_chatter(pattern, &chatter);
                loop {
                    let line = next_line(engine, LINE_TIMEOUT)
                        .map_err(|e| at(format!("expected '{pattern}': {e}")))?;
                    seen.push(line.clone());
                    if !wants_chatter && is_chatter(&line, &chatter) {
                        continue;
                    }
                    if matches_capturing(pattern, &line, &mut board, &mut vars).map_err(at)? {
                        break;
                    }
                    return Err(at(format!("expected '{pattern}', got '{line}'")));
                }
            }
            Step::LineEnding(e) => ending = e,
            Step::Env(..) => {}
            Step::IgnoreRest => check_rest = false,
            Step::Chatter(prefix) => chatter.push(prefix.clone()),
            Step::Pause(d) => thread::sleep(*d),
            Step::Eof => drop(engine.stdin.take()),
            Step::Silent(d) => {
                if let Ok(line) = next_line(engine, *d) {
                    seen.push(line.clone());
                    return Err(at(format!("expected silence, got '{line}'")));
                }
            }
            Step::Drain(d) => {
                while let Ok(line) = next_line(engine, *d) {
                    seen.push(line);
                }
            }
            Step::Exit(limit) => {
                exited = engine.exits_within(*limit);
                if !exited {
                    return Err(at(format!("engine still running after {limit:?}")));
                }
            }
        }
    }
    // Closing stdin ends the engine (EOF is END), and nothing but chatter
    // may follow the last expected line.
    drop(engine.stdin.take());
    exited = exited || engine.exits_within(Duration::from_secs(2));
    while let Ok(line) = next_line(engine, Duration::from_millis(200)) {
        seen.push(line.clone());
        if check_rest && !is_chatter(&line, &chatter) {
            return Err(format!("unexpected line after the transcript: '{line}'"));
        }
    }
    if !exited {
        return Err("engine did not exit within 2 s of EOF".to_string());
    }
    Ok(())
}

/// Replaces `$NAME` in a line to send with the move captured as `NAME`.
fn substitute(line: &str, vars: &HashMap<String, String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let name_len = rest[at + 1..]
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len() - at - 1);
        let name = &rest[at + 1..at + 1 + name_len];
        out.push_str(
            vars.get(name)
                .ok_or(format!("no move captured as '{name}'"))?,
        );
        rest = &rest[at + 1 + name_len..];
    }
    out.push_str(rest);
    Ok(out)
}

fn next_line(engine: &EngineProcess, timeout: Duration) -> Result<String, String> {
    engine.lines.recv_timeout(timeout).map_err(|e| match e {
        RecvTimeoutError::Timeout => format!("no line within {timeout:?}"),
        RecvTimeoutError::Disconnected => "engine closed stdout".to_string(),
    })
}

#[test]
fn the_pattern_matcher_can_fail() {
    let mut board = BoardModel {
        width: 15,
        height: 15,
        ..BoardModel::default()
    };
    let mut check = |p: &str, l: &str| matches(p, l, &mut board);
    assert_eq!(check("OK", "OK"), Ok(true));
    assert_eq!(check("OK", "OK "), Ok(false));
    assert_eq!(check("<move>", "7,7"), Ok(true));
    assert!(
        check("<move>", "7,7").is_err(),
        "an occupied point is refused"
    );
    assert!(
        check("<move>", "15,0").is_err(),
        "an off-board point is refused"
    );
    assert_eq!(check("<move>", "7, 8"), Ok(false));
    assert_eq!(check("<move>", "7,8 "), Ok(false));
    assert_eq!(check("<move> <move>", "1,1 2,2"), Ok(true));
    assert_eq!(check("ERROR <text>", "ERROR "), Ok(false));
    assert_eq!(check("ERROR <text>", "ERROR bad size"), Ok(true));
    assert_eq!(check("MESSAGE depth <int>", "MESSAGE depth -3"), Ok(true));
    assert_eq!(check("a=\"<text>\", b", "a=\"1.0\", b"), Ok(true));
    assert_eq!(check("a=\"<text>\", b", "a=\"\", b"), Ok(false));
    assert_eq!(check("a=\"<text>\", b", "a=\"1.0\", c"), Ok(false));
    assert_eq!(check("SWAP || <move>", "SWAP"), Ok(true));
    assert_eq!(check("SWAP || <move>", "3,3"), Ok(true));
    assert_eq!(check("SWAP || <move>", "SWAP2"), Ok(false));
    let mut vars = HashMap::new();
    assert_eq!(
        matches_capturing("<move=a>", "3,4", &mut board, &mut vars),
        Ok(true)
    );
    assert_eq!(
        substitute("TAKEBACK $a", &vars).as_deref(),
        Ok("TAKEBACK 3,4")
    );
    assert!(substitute("TAKEBACK $b", &vars).is_err());
}
