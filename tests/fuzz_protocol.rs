//! Seeded fuzzing of the protocol layer: random and mutated manager lines.
//!
//! In-process (for volume): 120,000 lines through the block assembler and the
//! session, thinking with the one-ply searcher. After every line:
//! no panic, every reply is a well-formed protocol line, every move is legal
//! and was played on the session's board, and a line answered only with
//! `ERROR`/`UNKNOWN` left the game exactly as it was. Every 500 lines the
//! engine must still answer `START 15` with `OK` and `BEGIN` with a move.
//!
//! Through the binary (smaller, with the real search on short clocks): a few
//! thousand lines, then `START 15` / `BEGIN` must still get `OK` and a move,
//! every line printed must be well-formed, and stderr must stay empty.
//!
//! `WUZI_FUZZ_SEED=N WUZI_FUZZ_SCALE=K cargo test --release --test
//! fuzz_protocol` runs another seed, K times as long (a campaign; the
//! default run is the fixed seed).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
mod protocol_support;

use protocol_support::EngineProcess;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wuzi::board::Pos;
use wuzi::protocol::think::think;
use wuzi::protocol::{Assembler, Effect, Reply, Session, Thought};
use wuzi::search::{OnePlySearcher, Searcher};

const SEED: u64 = 0x5EED_2026;
const IN_PROCESS_LINES: usize = 120_000;
const BINARY_LINES: usize = 3_000;

/// The seed: `SEED` unless `WUZI_FUZZ_SEED` names another, so that a longer
/// campaign can cover new ground (`cargo test` itself stays reproducible).
fn seed() -> u64 {
    std::env::var("WUZI_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEED)
}

/// How many lines a run sends: `lines`, times `WUZI_FUZZ_SCALE` if set.
fn scaled(lines: usize) -> usize {
    let scale: usize = std::env::var("WUZI_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    lines * scale.max(1)
}

/// Valid command lines (with random arguments) the mutations start from.
fn valid_line(rng: &mut SmallRng) -> String {
    let small = |rng: &mut SmallRng| rng.gen_range(-1..22i64);
    let point = |rng: &mut SmallRng| format!("{},{}", small(rng), small(rng));
    let info_keys = [
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "game_type",
        "rule",
        "folder",
        "thread_num",
        "hash_size",
        "max_node",
        "max_depth",
        "time_increment",
        "caution_factor",
        "pondering",
        "show_detail",
        "nbestsym",
        "evaluate",
        "unknown_key",
    ];
    match rng.gen_range(0..25) {
        0 | 1 => format!("START {}", rng.gen_range(3..35)),
        2 => format!(
            "RECTSTART {},{}",
            rng.gen_range(3..35),
            rng.gen_range(3..35)
        ),
        3 => "RESTART".to_string(),
        4 => "BEGIN".to_string(),
        5..=7 => format!("TURN {}", point(rng)),
        8 => ["BOARD", "YXBOARD", "SWAP2BOARD"][rng.gen_range(0..3)].to_string(),
        9 | 10 => format!("{},{}", point(rng), rng.gen_range(0..5)),
        11 => point(rng),
        12 => "DONE".to_string(),
        13 | 14 => {
            let key = info_keys[rng.gen_range(0..info_keys.len())];
            let value = match rng.gen_range(0..4) {
                0 => "0".to_string(),
                1 => "2147483647".to_string(),
                2 => point(rng),
                _ => rng.gen_range(-100..100_000).to_string(),
            };
            format!("INFO {key} {value}")
        }
        15 => format!("TAKEBACK {}", point(rng)),
        16 => format!("PLAY {}", point(rng)),
        17 => "ABOUT".to_string(),
        18 => ["YXSTOP", "STOP", "END"][rng.gen_range(0..3)].to_string(),
        19 => "YXSHOWFORBID".to_string(),
        20 => "YXSHOWINFO".to_string(),
        21 => "YXHASHCLEAR".to_string(),
        22 => format!("YXNBEST {}", rng.gen_range(-1..5)),
        23 => format!(
            "INFO geometry {}",
            ["hex", "square", "HEX", "triangle", ""][rng.gen_range(0..5)]
        ),
        _ => "SUGGEST 1,1".to_string(),
    }
}

const NOISE: &[char] = &[
    ' ', ' ', ',', ',', '-', '+', '0', '1', '9', 'x', '\t', '\r', '\n', '\0', 'é', '〇', '"', '\\',
];

fn mutate(line: &str, rng: &mut SmallRng) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..rng.gen_range(1..4) {
        let at = rng.gen_range(0..=chars.len());
        match rng.gen_range(0..9) {
            0 => {
                if let Some(c) = chars.get_mut(at) {
                    *c = if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    };
                }
            }
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 => chars.insert(at, NOISE[rng.gen_range(0..NOISE.len())]),
            3 => chars.truncate(at),
            4 => {
                let extreme = [
                    "-1",
                    "0",
                    "32",
                    "33",
                    "2147483647",
                    "99999999999999999999999",
                    "-9223372036854775808",
                ][rng.gen_range(0..7)];
                let text: String = chars.iter().collect();
                let replaced = match text.find(|c: char| c.is_ascii_digit()) {
                    Some(start) => {
                        let len = text[start..]
                            .chars()
                            .take_while(char::is_ascii_digit)
                            .count();
                        format!("{}{extreme}{}", &text[..start], &text[start + len..])
                    }
                    None => format!("{text} {extreme}"),
                };
                chars = replaced.chars().collect();
            }
            5 => {
                let copy: Vec<char> = chars.clone();
                chars.extend(std::iter::once(' ').chain(copy));
            }
            6 => chars.extend(" trailing junk".chars()),
            7 => chars.splice(at..at, "   ".chars()).for_each(drop),
            _ => chars.reverse(),
        }
    }
    chars.into_iter().collect()
}

fn random_line(rng: &mut SmallRng) -> String {
    let len = rng.gen_range(0..60);
    (0..len)
        .map(|_| match rng.gen_range(0..4) {
            0 => NOISE[rng.gen_range(0..NOISE.len())],
            _ => rng.gen_range(' '..='~'),
        })
        .collect()
}

/// The next fuzz line: mostly valid or mutated commands, some noise, now
/// and then a very long line.
fn fuzz_line(rng: &mut SmallRng) -> String {
    match rng.gen_range(0..100) {
        0..=44 => valid_line(rng),
        45..=89 => {
            let base = valid_line(rng);
            mutate(&base, rng)
        }
        90..=98 => random_line(rng),
        _ => "7,7 ".repeat(rng.gen_range(100..3000)),
    }
}

/// Whether `line` is something a manager can parse: exact keywords, moves
/// alone, non-empty free text, and no control characters.
fn well_formed(line: &str) -> bool {
    if line.chars().any(|c| c.is_control()) {
        return false;
    }
    let is_move = |m: &str| {
        m.split_once(',').is_some_and(|(x, y)| {
            [x, y]
                .iter()
                .all(|n| !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    let text_after = |prefix: &str| {
        line.strip_prefix(prefix)
            .is_some_and(|rest| !rest.trim().is_empty() && rest.trim() == rest)
    };
    line == "OK"
        || line == "SWAP"
        || (line.split(' ').count() <= 3 && line.split(' ').all(is_move))
        || text_after("ERROR ")
        || text_after("UNKNOWN ")
        || text_after("MESSAGE ")
        || line.starts_with("name=\"wuzi\", version=\"")
        || line.strip_prefix("FORBID ").is_some_and(|rest| {
            rest.strip_suffix('.')
                .is_some_and(|g| g.len() % 4 == 0 && g.bytes().all(|b| b.is_ascii_digit()))
        })
        || (line.starts_with("INFO ") && text_after("INFO "))
}

/// A game's identity for the "errors change nothing" check.
fn fingerprint(session: &Session) -> Option<(u64, Vec<Pos>, usize, usize)> {
    session
        .board()
        .map(|b| (b.hash(), b.history().to_vec(), b.width(), b.height()))
}

struct Driver {
    session: Session,
    assembler: Assembler,
    searcher: OnePlySearcher,
}

impl Driver {
    fn new() -> Driver {
        Driver {
            session: Session::new(),
            assembler: Assembler::default(),
            searcher: OnePlySearcher,
        }
    }

    /// Feeds one raw line the way the reader thread does (split on CR/LF)
    /// and returns the rendered replies, checking every invariant.
    fn feed(&mut self, raw: &str) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for line in raw.split(['\r', '\n']) {
            for parsed in self.assembler.feed(line) {
                let before = fingerprint(&self.session);
                let effects = match parsed {
                    Ok(command) => self.session.apply(command, Instant::now()),
                    Err(error) => Session::reject(&error),
                };
                let only_errors = !effects.is_empty()
                    && effects
                        .iter()
                        .all(|e| matches!(e, Effect::Reply(Reply::Error(_) | Reply::Unknown(_))));
                self.carry_out(effects, &mut out)?;
                if only_errors && fingerprint(&self.session) != before {
                    return Err(format!("an error changed the game on {line:?}"));
                }
            }
        }
        Ok(out)
    }

    fn carry_out(&mut self, effects: Vec<Effect>, out: &mut Vec<String>) -> Result<(), String> {
        for effect in effects {
            match effect {
                Effect::Reply(reply) => {
                    if let Reply::Move(pos) = reply {
                        let played = self.session.board().and_then(|b| b.last_move());
                        if played != Some(pos) {
                            return Err(format!("move {pos:?} not played on the board"));
                        }
                    }
                    let text = reply.render();
                    if !well_formed(&text) {
                        return Err(format!("malformed reply {text:?}"));
                    }
                    out.push(text);
                }
                Effect::Think(request) => {
                    let stop = AtomicBool::new(false);
                    let mut lines = Vec::new();
                    let thought: Thought =
                        think(&mut self.searcher, &request, &stop, &mut |p| lines.push(p));
                    if let Thought::Move(Some(p)) = thought {
                        if !request.board.is_empty(p) {
                            return Err(format!("searcher chose occupied {p:?}"));
                        }
                    }
                    let more = self.session.finish(thought, Instant::now());
                    self.carry_out(more, out)?;
                }
                Effect::Configure(options) => self.searcher.configure(&options),
                Effect::ClearHash => self.searcher.clear(),
                Effect::Exit => {}
            }
        }
        Ok(())
    }
}

#[test]
fn the_line_checker_rejects_what_managers_cannot_parse() {
    for good in [
        "OK",
        "7,7",
        "7,7 8,8 9,9",
        "SWAP",
        "ERROR x",
        "MESSAGE a b",
        "FORBID .",
        "FORBID 07070808.",
    ] {
        assert!(well_formed(good), "{good}");
    }
    for bad in [
        "",
        "ok",
        "OK ",
        "7,7,",
        "7, 7",
        "ERROR ",
        "MESSAGE",
        "MESSAGE  ",
        "FORBID 070.",
        "a\rb",
        "7,7 8,8 9,9 1,1",
    ] {
        assert!(!well_formed(bad), "{bad:?}");
    }
}

#[test]
fn fuzz_the_session_in_process() {
    let mut rng = SmallRng::seed_from_u64(seed());
    let mut driver = Driver::new();
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    let mut slowest_line = String::new();
    let mut replies = 0usize;
    let lines = scaled(IN_PROCESS_LINES);
    for index in 0..lines {
        let line = fuzz_line(&mut rng);
        let line_started = Instant::now();
        let out = driver
            .feed(&line)
            .unwrap_or_else(|e| panic!("line {index} {line:?}: {e}"));
        if line_started.elapsed() > slowest {
            slowest = line_started.elapsed();
            slowest_line = line.chars().take(60).collect();
        }
        replies += out.len();
        if index % 500 == 499 {
            let ok = driver.feed("START 15").expect("START after fuzz");
            assert_eq!(
                ok.last().map(String::as_str),
                Some("OK"),
                "line {index}: {ok:?}"
            );
            let moved = driver.feed("BEGIN").expect("BEGIN after fuzz");
            let last = moved.last().expect("a reply to BEGIN");
            assert!(
                last.split_once(',').is_some_and(|(x, y)| {
                    x.parse::<usize>().is_ok_and(|x| x < 15)
                        && y.parse::<usize>().is_ok_and(|y| y < 15)
                }),
                "line {index}: BEGIN answered {moved:?}"
            );
        }
    }
    let took = started.elapsed();
    println!(
        "fuzz in-process: {lines} lines, {replies} replies in {took:?} \
         ({:.0} lines/s), slowest line {slowest:?} ({slowest_line:?})",
        lines as f64 / took.as_secs_f64()
    );
    // A hang detector, not a speed test: the slowest line of the default run
    // takes under a second, and a loaded machine may stretch that severalfold.
    assert!(slowest < Duration::from_secs(60), "a line took {slowest:?}");
}

#[test]
fn fuzz_the_binary() {
    let mut rng = SmallRng::seed_from_u64(seed() ^ 0xB1);
    let mut engine = EngineProcess::spawn(&[]);
    let started = Instant::now();
    // Short clocks so that thousands of moves stay quick; lines that would
    // end the run or lengthen the clock are left to the in-process fuzz.
    let mut script = String::from("INFO timeout_turn 20\nINFO max_depth 2\n");
    let mut sent = 0;
    let lines = scaled(BINARY_LINES);
    while sent < lines {
        let line = fuzz_line(&mut rng);
        let first = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let lower = line.to_ascii_lowercase();
        if first.contains("END")
            || first.contains("ABOUT")
            || ["time", "max_", "show_detail", "thread", "hash", "nbest"]
                .iter()
                .any(|k| lower.contains(k))
        {
            continue;
        }
        script.push_str(&line.replace(['\r', '\n'], " "));
        script.push('\n');
        sent += 1;
    }
    // ABOUT (never sent above) marks the end of the replies.
    script.push_str("START 15\nBEGIN\nABOUT\n");
    engine.send(&script).expect("engine reads");
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !seen.last().is_some_and(|l: &String| l.starts_with("name=")) {
        let wait = deadline.saturating_duration_since(Instant::now());
        match engine.lines.recv_timeout(wait) {
            Ok(line) => {
                assert!(
                    well_formed(&line),
                    "malformed line from the engine: {line:?}"
                );
                if !line.starts_with("MESSAGE ") {
                    seen.push(line);
                }
            }
            Err(_) => panic!(
                "no final ABOUT line; last lines: {:?}",
                &seen[seen.len().saturating_sub(5)..]
            ),
        }
    }
    // START 15 and BEGIN, after all that, still answer OK and a move.
    let n = seen.len();
    assert!(
        n >= 3 && seen[n - 3] == "OK",
        "{:?}",
        &seen[n.saturating_sub(4)..]
    );
    let on_board = |v: &str| v.parse::<u8>().is_ok_and(|v| v < 15);
    assert!(
        seen[n - 2]
            .split_once(',')
            .is_some_and(|(x, y)| on_board(x) && on_board(y)),
        "{:?}",
        &seen[n - 3..]
    );
    let took = started.elapsed();
    drop(engine.stdin.take());
    let exited = engine.exits_within(Duration::from_secs(5));
    let stderr = engine.finish();
    println!(
        "fuzz through the binary: {lines} lines, {} replies in {took:?}",
        seen.len()
    );
    assert!(exited, "the engine did not exit at EOF");
    assert!(stderr.is_empty(), "stderr: {stderr:?}");
}
