//! One game between two engine processes, refereed with the crate's own
//! `Board`: the command sequence of a manager, the clocks, and adjudication.
//!
//! Sequence per engine (as c-gomoku-cli does it, with Piskvork's `BOARD` for
//! openings): `START n` (or `RECTSTART w,h`) answered by exactly `OK` within
//! the start time-out, the `INFO` lines, then before every move `INFO time_left`
//! followed by `BEGIN` (empty board, first request), `BOARD … DONE` (first
//! request with stones: the opening and any moves so far, in game order, 1 =
//! the receiver's stones), or `TURN x,y` (later requests).
//!
//! While waiting for a move, `MESSAGE`, `DEBUG`, `OK`, `ERROR`, `UNKNOWN`
//! and `INFO` lines are skipped, and `SUGGEST x,y` is answered with
//! `PLAY x,y`. Any other line that is not exactly `x,y` is garbage and loses.

use super::engine::{EngineProcess, EngineSpec, Reply, Transcript};
use crate::board::{Board, Color, Forbidden, Geometry, Pos, Rule};
use crate::protocol::command::geometry_name;
use crate::tools::openings::Opening;
use crate::tools::records::{gomocup_rule_code, GameResult, RecordedMove};
use std::fmt;
use std::time::{Duration, Instant};

/// `time_left` when the match clock is unlimited (Piskvork, c-gomoku-cli).
const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;
/// How long a move may take when no clock limits it at all.
const NO_LIMIT_WAIT: Duration = Duration::from_secs(24 * 3600);

/// The time control of both engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move limit in ms (`None` = no per-move limit).
    pub turn_ms: Option<u64>,
    /// Per-game limit in ms for each engine (`None` = no match limit).
    pub match_ms: Option<u64>,
    /// Added to an engine's match clock after each of its moves.
    pub increment_ms: u64,
    /// Grace on top of every limit (pipe latency, scheduling).
    pub tolerance_ms: u64,
    /// How long an engine may take to answer `START` with `OK` (loading,
    /// allocating its hash); not charged to any clock.
    pub start_ms: u64,
}

#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The empty board: size, rule and geometry.
    pub board: Board,
    pub time: TimeControl,
    pub max_memory: u64,
    /// Draw once this many stones are on the board (`None` = play to a full board).
    pub max_stones: Option<usize>,
}

/// A way an engine broke the protocol; it loses the game and is restarted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not be started, or did not answer `START` with `OK`.
    NoStart(String),
    /// It exited or closed its output.
    Crash,
    /// It overstepped its time.
    Timeout,
    /// It played off the board or on an occupied point.
    IllegalMove(String),
    /// It answered something that is not a move.
    Garbage(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::NoStart(why) => write!(f, "no start ({why})"),
            Fault::Crash => f.write_str("crash"),
            Fault::Timeout => f.write_str("time-out"),
            Fault::IllegalMove(what) => write!(f, "illegal move {what}"),
            Fault::Garbage(what) => write!(f, "garbage '{what}'"),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    Five,
    /// Black played a renju forbidden point.
    Forbidden(Forbidden),
    FullBoard,
    MoveCap,
    Fault(Fault),
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Five => f.write_str("five"),
            EndReason::Forbidden(kind) => write!(f, "forbidden move ({kind:?})"),
            EndReason::FullBoard => f.write_str("full board"),
            EndReason::MoveCap => f.write_str("move cap"),
            EndReason::Fault(fault) => write!(f, "{fault}"),
        }
    }
}

/// An engine slot: how to start it, and the process while it runs.
pub struct Player {
    pub spec: EngineSpec,
    process: Option<EngineProcess>,
    /// Processes started after the first (after faults).
    pub restarts: u32,
    started: u32,
}

impl Player {
    pub fn new(spec: EngineSpec) -> Player {
        Player {
            spec,
            process: None,
            restarts: 0,
            started: 0,
        }
    }

    /// Starts the process if it is not running.
    pub fn ensure_running(&mut self) -> Result<&mut EngineProcess, String> {
        if self.process.is_none() {
            let process = EngineProcess::spawn(&self.spec)
                .map_err(|e| format!("cannot start '{}': {e}", self.spec.command.join(" ")))?;
            if self.started > 0 {
                self.restarts += 1;
            }
            self.started += 1;
            self.process = Some(process);
        }
        Ok(self.process.as_mut().expect("just started"))
    }

    /// Kills the process; the next game starts a fresh one.
    pub fn discard(&mut self) {
        if let Some(process) = self.process.take() {
            process.kill();
        }
    }

    /// Sends `END` and lets the process exit.
    pub fn shut_down(&mut self, grace: Duration, transcript: Option<&Transcript>) {
        if let Some(process) = self.process.take() {
            process.quit(grace, transcript);
        }
    }
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub result: GameResult,
    pub reason: EndReason,
    /// Opening stones first (no time), then the engines' moves.
    pub moves: Vec<RecordedMove>,
}

/// What happened when an engine was asked for a move.
enum MoveAnswer {
    Move(Pos, Duration),
    Fault(Fault),
}

/// Plays one game. `players[0]` is Black, `players[1]` White.
pub fn play_game(
    players: [&mut Player; 2],
    opening: &Opening,
    settings: &GameSettings,
    transcript: Option<&Transcript>,
) -> GameOutcome {
    let [black, white] = players;
    let mut players = [black, white];
    let mut moves: Vec<RecordedMove> = opening
        .stones
        .iter()
        .map(|&pos| RecordedMove {
            pos,
            think_ms: None,
        })
        .collect();
    let faulted =
        |index: usize, fault: Fault, moves: Vec<RecordedMove>, players: &mut [&mut Player; 2]| {
            players[index].discard();
            GameOutcome {
                result: GameResult::Win(color_of(1 - index)),
                reason: EndReason::Fault(fault),
                moves,
            }
        };

    for index in 0..2 {
        if let Err(fault) = start_engine(players[index], settings, transcript) {
            return faulted(index, fault, moves, &mut players);
        }
    }

    let mut board = settings.board.clone();
    for stone in &moves {
        // Openings are checked when the file is read.
        let _ = board.play(stone.pos);
    }
    let mut time_left: [Option<i64>; 2] = [settings.time.match_ms.map(|ms| ms as i64); 2];
    let mut asked_before = [false; 2];

    loop {
        if board.is_full() {
            return draw(EndReason::FullBoard, moves);
        }
        if settings
            .max_stones
            .is_some_and(|cap| board.stone_count() >= cap)
        {
            return draw(EndReason::MoveCap, moves);
        }
        let color = board.side_to_move();
        let index = color.index();
        let answer = ask_move(
            players[index],
            &board,
            asked_before[index],
            time_left[index],
            &settings.time,
            transcript,
        );
        asked_before[index] = true;
        let (pos, elapsed) = match answer {
            MoveAnswer::Move(pos, elapsed) => (pos, elapsed),
            MoveAnswer::Fault(fault) => return faulted(index, fault, moves, &mut players),
        };
        if let Some(left) = time_left[index].as_mut() {
            *left -= elapsed.as_millis() as i64;
            *left += settings.time.increment_ms as i64;
        }
        if !board.is_empty(pos) {
            return faulted(
                index,
                Fault::IllegalMove(format!("{pos:?} (occupied)")),
                moves,
                &mut players,
            );
        }
        // A five wins even where the point would otherwise be forbidden (RIF).
        let makes_five = board.is_win(pos, color);
        let foul = (board.rule() == Rule::Renju && color == Color::Black && !makes_five)
            .then(|| board.forbidden(pos))
            .flatten();
        let _ = board.play(pos);
        moves.push(RecordedMove {
            pos,
            think_ms: Some(elapsed.as_millis() as u64),
        });
        if let Some(kind) = foul {
            return GameOutcome {
                result: GameResult::Win(Color::White),
                reason: EndReason::Forbidden(kind),
                moves,
            };
        }
        if makes_five {
            return GameOutcome {
                result: GameResult::Win(color),
                reason: EndReason::Five,
                moves,
            };
        }
    }
}

fn color_of(index: usize) -> Color {
    if index == 0 {
        Color::Black
    } else {
        Color::White
    }
}

fn draw(reason: EndReason, moves: Vec<RecordedMove>) -> GameOutcome {
    GameOutcome {
        result: GameResult::Draw,
        reason,
        moves,
    }
}

/// `START`, wait for `OK`, then the `INFO` lines.
fn start_engine(
    player: &mut Player,
    settings: &GameSettings,
    transcript: Option<&Transcript>,
) -> Result<(), Fault> {
    let info = player.spec.info.clone();
    let process = player.ensure_running().map_err(Fault::NoStart)?;
    process.drain();
    let (width, height) = (settings.board.width(), settings.board.height());
    let start = if width == height {
        format!("START {width}")
    } else {
        format!("RECTSTART {width},{height}")
    };
    if !process.send(&start, transcript) {
        return Err(Fault::Crash);
    }
    let deadline = Instant::now() + Duration::from_millis(settings.time.start_ms);
    loop {
        match process.read_line(deadline, transcript) {
            Reply::Line(line) if line.trim() == "OK" => break,
            Reply::Line(line) if first_word(&line).eq_ignore_ascii_case("ERROR") => {
                return Err(Fault::NoStart(line.trim().to_string()))
            }
            Reply::Line(_) => continue,
            Reply::Timeout => return Err(Fault::NoStart("no OK in time".into())),
            Reply::Closed => return Err(Fault::Crash),
        }
    }
    let time = &settings.time;
    let mut lines = Vec::new();
    if let Some(turn) = time.turn_ms {
        lines.push(format!("INFO timeout_turn {turn}"));
    }
    lines.push(format!("INFO timeout_match {}", time.match_ms.unwrap_or(0)));
    lines.push(format!("INFO max_memory {}", settings.max_memory));
    lines.push("INFO game_type 1".to_string());
    lines.push(format!(
        "INFO rule {}",
        gomocup_rule_code(settings.board.rule())
    ));
    if time.increment_ms > 0 {
        lines.push(format!("INFO time_increment {}", time.increment_ms));
    }
    // wuzi's extension; a square board needs no line (and engines without
    // the extension get nothing they do not know).
    if settings.board.geometry() != Geometry::Square {
        lines.push(format!(
            "INFO geometry {}",
            geometry_name(settings.board.geometry())
        ));
    }
    lines.extend(
        info.iter()
            .map(|(key, value)| format!("INFO {key} {value}")),
    );
    for line in &lines {
        if !process.send(line, transcript) {
            return Err(Fault::Crash);
        }
    }
    Ok(())
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Sends the position (or the last move) and waits for a legal-looking reply.
fn ask_move(
    player: &mut Player,
    board: &Board,
    asked_before: bool,
    time_left: Option<i64>,
    time: &TimeControl,
    transcript: Option<&Transcript>,
) -> MoveAnswer {
    let Some(process) = player.process.as_mut() else {
        return MoveAnswer::Fault(Fault::Crash);
    };
    let mut lines = vec![format!(
        "INFO time_left {}",
        time_left.unwrap_or(UNLIMITED_TIME_LEFT)
    )];
    match (asked_before, board.last_move()) {
        (true, Some(last)) => lines.push(format!("TURN {},{}", last.x(), last.y())),
        (_, None) => lines.push("BEGIN".to_string()),
        (false, Some(_)) => {
            let me = board.side_to_move();
            lines.push("BOARD".to_string());
            for &pos in board.history() {
                let mine = board.cell(pos) == crate::board::Cell::Stone(me);
                lines.push(format!(
                    "{},{},{}",
                    pos.x(),
                    pos.y(),
                    if mine { 1 } else { 2 }
                ));
            }
            lines.push("DONE".to_string());
        }
    }
    for line in &lines {
        if !process.send(line, transcript) {
            return MoveAnswer::Fault(Fault::Crash);
        }
    }
    let started = Instant::now();
    let limit_ms = match (time.turn_ms, time_left) {
        (Some(turn), Some(left)) => Some((turn as i64).min(left)),
        (Some(turn), None) => Some(turn as i64),
        (None, Some(left)) => Some(left),
        (None, None) => None,
    };
    let allowed = limit_ms.map_or(NO_LIMIT_WAIT, |ms| {
        Duration::from_millis((ms.max(0) as u64).saturating_add(time.tolerance_ms))
    });
    let deadline = started + allowed;
    loop {
        let line = match process.read_line(deadline, transcript) {
            Reply::Line(line) => line,
            Reply::Timeout => return MoveAnswer::Fault(Fault::Timeout),
            Reply::Closed => return MoveAnswer::Fault(Fault::Crash),
        };
        let elapsed = started.elapsed();
        if elapsed > allowed {
            return MoveAnswer::Fault(Fault::Timeout);
        }
        let text = line.trim();
        let word = first_word(text).to_ascii_uppercase();
        match word.as_str() {
            "" | "MESSAGE" | "DEBUG" | "OK" | "ERROR" | "UNKNOWN" | "INFO" => continue,
            "SUGGEST" => {
                let suggestion = text[word.len()..].trim();
                if !process.send(&format!("PLAY {suggestion}"), transcript) {
                    return MoveAnswer::Fault(Fault::Crash);
                }
                continue;
            }
            _ => {}
        }
        return match parse_move(text) {
            Some((x, y)) => match board.pos(x, y) {
                Some(pos) => MoveAnswer::Move(pos, elapsed),
                None => MoveAnswer::Fault(Fault::IllegalMove(format!("{x},{y} (off the board)"))),
            },
            None => MoveAnswer::Fault(Fault::Garbage(text.chars().take(40).collect())),
        };
    }
}

/// `x,y` with optional spaces around the numbers, nothing else.
pub fn parse_move(text: &str) -> Option<(i64, i64)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_move_accepts_only_a_coordinate_pair() {
        assert_eq!(parse_move("7,7"), Some((7, 7)));
        assert_eq!(parse_move("10, 3"), Some((10, 3)));
        assert_eq!(parse_move("-1,-1"), Some((-1, -1)));
        for bad in ["7,7,7", "7;7", "seven,7", "7,", "7"] {
            assert_eq!(parse_move(bad), None, "{bad}");
        }
    }
}
