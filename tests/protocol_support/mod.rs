//! Shared by the protocol test binaries: the engine binary as a child process
//! with its stdout read line by line on a thread and its stderr collected.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

pub struct EngineProcess {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    stderr: thread::JoinHandle<String>,
}

impl EngineProcess {
    /// Starts `pbrain-wuzi` with logging off plus the given environment.
    pub fn spawn(env: &[(&str, &str)]) -> EngineProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"));
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("WUZI_LOG")
            .env_remove("WUZI_LOG_FILE");
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("engine starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
        }
    }

    /// Writes `text` as is and flushes.
    pub fn send(&mut self, text: &str) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(text.as_bytes())?;
        stdin.flush()
    }

    /// Whether the process has ended within `limit`.
    pub fn exits_within(&mut self, limit: Duration) -> bool {
        let started = Instant::now();
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            if started.elapsed() >= limit {
                return false;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Ends the process if it still runs and returns everything it wrote to
    /// stderr.
    pub fn finish(mut self) -> String {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.stderr.join().unwrap_or_default()
    }
}
