//! The command loop's promptness and ordering guarantees, in-process with
//! searchers that misbehave on purpose, plus the same exits against the built
//! binary with the real search. Bounds are generous (CI machines are noisy)
//! but still catch a hang; the measured times are printed.

mod protocol_support;

use protocol_support::EngineProcess;
use std::io::{BufReader, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use wuzi::board::{Board, Pos};
use wuzi::protocol::{run, Exit};
use wuzi::search::{EngineOptions, Limits, SearchEvent, SearchResult, Searcher};

/// Upper bound for "at once" in these tests: the requirement is 100 ms, the
/// slack is for a loaded CI machine.
const PROMPT: Duration = Duration::from_millis(1000);

/// Reports `best` at once, then thinks until told to stop.
struct UntilStopped {
    best: Pos,
}

impl Searcher for UntilStopped {
    fn search(
        &mut self,
        board: &Board,
        _limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchEvent),
    ) -> SearchResult {
        let best = if board.is_empty(self.best) {
            self.best
        } else {
            board.empty_cells().next().expect("room")
        };
        report(&SearchEvent::BestMove(best));
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(1));
        }
        SearchResult {
            best_move: Some(best),
            score: 0,
            depth: 1,
            nodes: 1,
            pv: vec![best],
        }
    }
    fn clear(&mut self) {}
    fn configure(&mut self, _options: &EngineOptions) {}
}

/// Reports `best`, then ignores the stop flag and every limit until the test
/// releases it: the worst searcher the loop must survive.
struct Stubborn {
    best: Pos,
    release: Arc<AtomicBool>,
}

impl Searcher for Stubborn {
    fn search(
        &mut self,
        _board: &Board,
        _limits: &Limits,
        _stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchEvent),
    ) -> SearchResult {
        report(&SearchEvent::BestMove(self.best));
        while !self.release.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(2));
        }
        SearchResult {
            best_move: Some(self.best),
            score: 0,
            depth: 1,
            nodes: 1,
            pv: vec![self.best],
        }
    }
    fn clear(&mut self) {}
    fn configure(&mut self, _options: &EngineOptions) {}
}

/// Engine output, split into lines as they are written.
struct LineSink {
    partial: Vec<u8>,
    lines: Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(bytes);
        while let Some(at) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=at).collect();
            let text = String::from_utf8_lossy(&line[..line.len() - 1]).to_string();
            let _ = self.lines.send(text);
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A loop running on a thread, fed through a pipe.
struct Harness {
    input: Option<std::io::PipeWriter>,
    lines: Receiver<String>,
    exit: Receiver<(Exit, Instant)>,
}

impl Harness {
    fn start(searcher: Box<dyn Searcher>) -> Harness {
        let (reader, writer) = std::io::pipe().expect("pipe");
        let (line_tx, lines) = mpsc::channel();
        let (exit_tx, exit) = mpsc::channel();
        thread::spawn(move || {
            let sink = LineSink {
                partial: Vec::new(),
                lines: line_tx,
            };
            let result = run(BufReader::new(reader), sink, searcher).expect("loop runs");
            let _ = exit_tx.send((result, Instant::now()));
        });
        Harness {
            input: Some(writer),
            lines,
            exit,
        }
    }

    fn send(&mut self, text: &str) -> Instant {
        let input = self.input.as_mut().expect("input open");
        input
            .write_all(format!("{text}\n").as_bytes())
            .expect("loop reads");
        Instant::now()
    }

    /// The next line that is not a MESSAGE.
    fn reply(&self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .expect("a reply within 10 s");
            if !line.starts_with("MESSAGE ") {
                return line;
            }
        }
    }

    fn silent_for(&self, time: Duration) -> bool {
        loop {
            match self.lines.recv_timeout(time) {
                Ok(line) if line.starts_with("MESSAGE ") => continue,
                Ok(_) => return false,
                Err(_) => return true,
            }
        }
    }

    fn exited(&self) -> (Exit, Instant) {
        self.exit
            .recv_timeout(Duration::from_secs(10))
            .expect("the loop ends")
    }
}

/// A game where nothing limits the search by time (a node limit stands in
/// for "analysis"), so only a stop ends it.
fn unlimited_game(h: &mut Harness) {
    for line in [
        "START 15",
        "INFO timeout_turn 0",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO max_node 1000000000000",
    ] {
        h.send(line);
    }
    assert_eq!(h.reply(), "OK");
}

#[test]
fn end_exits_mid_search() {
    let mut h = Harness::start(Box::new(UntilStopped {
        best: Pos::new(7, 7),
    }));
    unlimited_game(&mut h);
    h.send("BEGIN");
    thread::sleep(Duration::from_millis(50));
    let sent = h.send("END");
    let (exit, at) = h.exited();
    let took = at.duration_since(sent);
    println!("END mid-search: loop returned after {took:?}");
    assert_eq!(exit, Exit::End);
    assert!(took < PROMPT, "{took:?}");
}

#[test]
fn eof_exits_mid_search_even_if_the_searcher_never_stops() {
    let release = Arc::new(AtomicBool::new(false));
    let mut h = Harness::start(Box::new(Stubborn {
        best: Pos::new(7, 7),
        release: Arc::clone(&release),
    }));
    unlimited_game(&mut h);
    h.send("BEGIN");
    thread::sleep(Duration::from_millis(50));
    let sent = Instant::now();
    drop(h.input.take());
    let (exit, at) = h.exited();
    release.store(true, Ordering::Relaxed);
    let took = at.duration_since(sent);
    println!("EOF mid-search: loop returned after {took:?}");
    assert_eq!(exit, Exit::Eof);
    assert!(took < PROMPT, "{took:?}");
}

#[test]
fn stop_answers_with_the_best_move_so_far() {
    let mut h = Harness::start(Box::new(UntilStopped {
        best: Pos::new(3, 4),
    }));
    unlimited_game(&mut h);
    h.send("BEGIN");
    assert!(
        h.silent_for(Duration::from_millis(200)),
        "no move before the stop"
    );
    let sent = h.send("YXSTOP");
    let reply = h.reply();
    let took = sent.elapsed();
    println!("YXSTOP: move after {took:?}");
    assert_eq!(reply, "3,4");
    assert!(took < PROMPT, "{took:?}");
    // STOP works the same way.
    h.send("TURN 0,0");
    assert!(h.silent_for(Duration::from_millis(100)));
    h.send("STOP");
    assert_eq!(h.reply(), "1,0", "3,4 is taken: the first empty point");
    h.send("END");
    assert_eq!(h.exited().0, Exit::End);
}

#[test]
fn commands_during_a_search_run_after_the_move() {
    let mut h = Harness::start(Box::new(UntilStopped {
        best: Pos::new(7, 7),
    }));
    unlimited_game(&mut h);
    h.send("BEGIN");
    h.send("ABOUT");
    h.send("INFO rule 3");
    h.send("TAKEBACK 7,7");
    h.send("FROBNICATE");
    assert!(
        h.silent_for(Duration::from_millis(150)),
        "nothing before the move"
    );
    h.send("YXSTOP");
    assert_eq!(h.reply(), "7,7");
    assert!(h.reply().starts_with("name=\"wuzi\""));
    // The queued INFO's MESSAGE is skipped by `reply`; TAKEBACK saw our move.
    assert_eq!(h.reply(), "OK");
    assert!(h.reply().starts_with("UNKNOWN "));
    h.send("END");
    assert_eq!(h.exited().0, Exit::End);
}

#[test]
fn a_searcher_that_overruns_its_time_still_yields_a_move_in_time() {
    let release = Arc::new(AtomicBool::new(false));
    let mut h = Harness::start(Box::new(Stubborn {
        best: Pos::new(5, 5),
        release: Arc::clone(&release),
    }));
    h.send("START 15");
    h.send("INFO timeout_turn 1000");
    assert_eq!(h.reply(), "OK");
    let sent = h.send("BEGIN");
    let reply = h.reply();
    let took = sent.elapsed();
    println!("overrunning searcher: move after {took:?} (turn limit 1000 ms)");
    assert_eq!(reply, "5,5");
    assert!(took < Duration::from_millis(1000) + PROMPT, "{took:?}");
    // The worker is still stuck; the next move comes from the fallback.
    h.send("TURN 0,0");
    let next = h.reply();
    assert!(next != "5,5" && next != "0,0", "{next}");
    release.store(true, Ordering::Relaxed);
    h.send("END");
    assert_eq!(h.exited().0, Exit::End);
}

/// The built engine with the real search: END and EOF while it thinks on a
/// long clock, and nothing on stderr. Returns how long the exit took.
fn engine_exit_after(close: fn(&mut EngineProcess)) -> Duration {
    let mut engine = EngineProcess::spawn(&[]);
    let setup = "START 20\nINFO timeout_turn 1000000\nINFO timeout_match 0\n\
                 INFO time_left 2147483647\nBOARD\n9,9,2\n10,10,1\n10,9,2\n11,9,1\n\
                 9,10,2\n8,11,1\n9,11,2\n9,8,1\nDONE\n";
    engine.send(setup).expect("engine reads");
    let ok = engine.lines.recv_timeout(Duration::from_secs(10));
    assert_eq!(ok.as_deref(), Ok("OK"));
    thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    close(&mut engine);
    let exited = engine.exits_within(Duration::from_secs(5));
    let took = sent.elapsed();
    let stderr = engine.finish();
    assert!(exited, "still running after {took:?}");
    assert!(stderr.is_empty(), "stderr: {stderr:?}");
    took
}

#[test]
fn the_engine_exits_on_end_mid_search() {
    let took = engine_exit_after(|engine| engine.send("END\n").expect("engine reads"));
    println!("binary, END mid-search: exit after {took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn the_engine_exits_on_eof_mid_search() {
    let took = engine_exit_after(|engine| drop(engine.stdin.take()));
    println!("binary, EOF mid-search: exit after {took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn logging_goes_only_where_asked() {
    let dir = std::env::temp_dir().join(format!("wuzi-log-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let log_file = dir.join("engine.log");
    let session = |env: &[(&str, &str)]| {
        let mut engine = EngineProcess::spawn(env);
        engine.send("START 15\nEND\n").expect("engine reads");
        let reply = engine.lines.recv_timeout(Duration::from_secs(10));
        assert_eq!(reply.as_deref(), Ok("OK"));
        assert!(engine.exits_within(Duration::from_secs(5)));
        engine.finish()
    };
    let stderr = session(&[("WUZI_LOG_FILE", log_file.to_str().expect("utf-8 path"))]);
    assert!(stderr.is_empty(), "{stderr:?}");
    let logged = std::fs::read_to_string(&log_file).expect("log file written");
    assert!(logged.contains("START 15"), "{logged:?}");
    let stderr = session(&[("WUZI_LOG", "debug")]);
    assert!(stderr.contains("START 15"), "{stderr:?}");
    assert!(session(&[]).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
