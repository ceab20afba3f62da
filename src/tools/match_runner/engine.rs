//! One engine process seen from the manager's side: spawning it, writing
//! command lines, and reading its replies with deadlines.
//!
//! A reader thread owns the child's stdout and forwards every line over a
//! channel, so a silent or hung engine can never block the runner: every read
//! is a `recv_timeout` against a deadline.
//!
//! Lines are split on LF alone and read as bytes: a line that is not valid
//! UTF-8 arrives as [`Reply::Invalid`] (decoded lossily, for the logs) instead
//! of ending the conversation, as c-gomoku-cli and Piskvork read bytes too.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How to start an engine and what to tell it besides the standard `INFO` keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Shown in progress lines, tables and records.
    pub name: String,
    /// Program and arguments, already split.
    pub command: Vec<String>,
    /// Extra `INFO <key> <value>` lines sent after the standard ones.
    pub info: Vec<(String, String)>,
}

/// What a read from the engine produced.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    Line(String),
    /// A line that is not valid UTF-8, decoded with U+FFFD for the bad bytes.
    Invalid(String),
    /// The deadline passed without a line.
    Timeout,
    /// The engine closed its stdout (it exited or crashed).
    Closed,
}

/// Optional sink for the raw conversation (`--log`): (engine name, direction, line).
pub type Transcript = dyn Fn(&str, &str, &str) + Send + Sync;

pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<RawLine>,
    /// When the engine's last move was read.
    moved_at: Option<Instant>,
}

/// One line as the reader thread saw it.
enum RawLine {
    Text(String),
    Invalid(String),
}

impl RawLine {
    /// Splits off the line ending (LF, and any CRs before it).
    fn from_bytes(mut bytes: Vec<u8>) -> RawLine {
        while matches!(bytes.last(), Some(b'\n' | b'\r')) {
            bytes.pop();
        }
        match String::from_utf8(bytes) {
            Ok(text) => RawLine::Text(text),
            Err(error) => RawLine::Invalid(String::from_utf8_lossy(error.as_bytes()).into_owned()),
        }
    }
}

/// The line with every control character written as `\xNN` (`\u{NN}` past
/// ASCII), so logs and reports stay one readable line.
pub fn printable(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if c.is_control() {
            let code = c as u32;
            if code < 0x80 {
                out.push_str(&format!("\\x{code:02x}"));
            } else {
                out.push_str(&format!("\\u{{{code:x}}}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl EngineProcess {
    /// Starts the engine. Its stderr is discarded: only stdout is protocol.
    pub fn spawn(spec: &EngineSpec) -> std::io::Result<EngineProcess> {
        let (program, args) = spec.command.split_first().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty engine command")
        })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut bytes = Vec::new();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if sender.send(RawLine::from_bytes(bytes)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            moved_at: None,
        })
    }

    /// Writes one command line. `false` when the pipe is broken (the engine died).
    pub fn send(&mut self, line: &str, transcript: Option<&Transcript>) -> bool {
        if let Some(log) = transcript {
            log(&self.name, "<", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .is_ok()
    }

    /// The next line, without its line ending, or why there is none before `deadline`.
    pub fn read_line(&mut self, deadline: Instant, transcript: Option<&Transcript>) -> Reply {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                let (reply, text) = match line {
                    RawLine::Text(text) => (Reply::Line(text.clone()), text),
                    RawLine::Invalid(text) => (Reply::Invalid(text.clone()), text),
                };
                if let Some(log) = transcript {
                    log(&self.name, ">", &printable(&text));
                }
                reply
            }
            Err(RecvTimeoutError::Timeout) => Reply::Timeout,
            Err(RecvTimeoutError::Disconnected) => Reply::Closed,
        }
    }

    /// Marks the line just read as the engine's move.
    pub fn note_move(&mut self) {
        self.moved_at = Some(Instant::now());
    }

    /// Waits until `quiet` has passed since the engine's last move, for an
    /// engine that is still closing that turn when its opponent answers at
    /// once (see `QUIET_AFTER_MOVE` in `game.rs`).
    pub fn settle_after_move(&self, quiet: Duration) {
        if let Some(moved_at) = self.moved_at {
            let rest = quiet.saturating_sub(moved_at.elapsed());
            if !rest.is_zero() {
                thread::sleep(rest);
            }
        }
    }

    /// Throws away lines the engine sent after its last answer (a late
    /// `MESSAGE`, say), so they are not taken as the answer to the next command.
    pub fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Sends `END`, gives the engine `grace` to exit, then kills it.
    pub fn quit(mut self, grace: Duration, transcript: Option<&Transcript>) {
        self.send("END", transcript);
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Ends the process at once (after a crash, a time-out or a bad move).
    pub fn kill(mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Never leave a child behind, whatever path dropped us.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Splits a command line into words: whitespace separates, single or double
/// quotes group, a backslash escapes the next character (outside single quotes).
pub fn split_command(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_command_handles_quotes_and_escapes() {
        assert_eq!(split_command("  a  b "), vec!["a", "b"]);
        assert_eq!(
            split_command(r#"python3 "my engine.py" 'x y' a\ b"#),
            vec!["python3", "my engine.py", "x y", "a b"]
        );
        assert_eq!(split_command(r#"a "" b"#), vec!["a", "", "b"]);
        assert!(split_command("   ").is_empty());
    }

    #[test]
    fn raw_lines_lose_their_ending_and_keep_bad_bytes_visible() {
        let text = |bytes: &[u8]| match RawLine::from_bytes(bytes.to_vec()) {
            RawLine::Text(text) => Ok(text),
            RawLine::Invalid(text) => Err(text),
        };
        assert_eq!(text(b"7,7\r\n"), Ok("7,7".to_string()));
        assert_eq!(
            text(b"MESSAGE dep \x09-\x0b ev 3\n"),
            Ok("MESSAGE dep \t-\x0b ev 3".into())
        );
        assert_eq!(text(b"a\xffb\n"), Err("a\u{fffd}b".to_string()));
        assert_eq!(
            printable("dep \x0b-\u{85}\x7f ok"),
            "dep \\x0b-\\u{85}\\x7f ok"
        );
    }
}
