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
//! `PLAY x,y`. Any other line is ignored and logged, as c-gomoku-cli and
//! GomocupJudge ignore every line that is not a move: a line that is not
//! `x,y`, a line with control characters, a line that is not UTF-8 (see
//! [`read_move_line`]). Engines do print such lines: PentaZen writes its
//! search depth as a raw byte, so at depth 10 its `MESSAGE dep …` line
//! breaks in two at a byte 0x0A. An engine that never sends a move loses on
//! time; a move off the board or on a stone loses at once.

use super::engine::{printable, EngineProcess, EngineSpec, Reply, Transcript};
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
    /// Keep the engines' `MESSAGE` lines in [`GameOutcome::messages`] (`--msgs`).
    pub keep_messages: bool,
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
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::NoStart(why) => write!(f, "no start ({why})"),
            Fault::Crash => f.write_str("crash"),
            Fault::Timeout => f.write_str("time-out"),
            Fault::IllegalMove(what) => write!(f, "illegal move {what}"),
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
    /// The conversation worth keeping, one line each, as c-gomoku-cli's
    /// `-msg` file has it: `PLY) NAME: TEXT` for a `MESSAGE` (only with
    /// [`GameSettings::keep_messages`]), `PLY) NAME ignored (WHY): TEXT` for
    /// an ignored line (always, up to [`MAX_IGNORED_KEPT`] a game). PLY is the
    /// number of the move asked for, counting the opening's stones.
    pub messages: Vec<String>,
    /// Lines ignored while waiting for a move, per colour (Black, White).
    pub ignored: [u32; 2],
    /// The first few of them per colour, as `PLY) (WHY): TEXT`.
    pub ignored_examples: [Vec<String>; 2],
}

/// Ignored lines quoted per colour in [`GameOutcome::ignored_examples`].
const IGNORED_EXAMPLES: usize = 3;

/// Ignored lines kept in a game's messages; later ones are only counted.
pub const MAX_IGNORED_KEPT: u32 = 100;

/// What the referee makes of one line that arrives while it waits for a move.
#[derive(Debug, PartialEq, Eq)]
pub enum MoveLine<'a> {
    /// `MESSAGE text` (the text without the keyword).
    Message(&'a str),
    /// Empty, or `DEBUG`, `OK`, `ERROR`, `UNKNOWN`, `INFO`: skipped.
    Skip,
    /// `SUGGEST x,y` (the text after the keyword).
    Suggest(&'a str),
    /// `x,y`.
    Move(i64, i64),
    /// Anything else: ignored and logged, with the reason.
    Ignored(&'static str),
}

/// Reads a line sent while the engine is asked for a move. `utf8` is false
/// when the bytes were not UTF-8 (`text` is then their lossy decoding).
///
/// The keywords come first, so a `MESSAGE` with control characters or
/// Latin-1 text is still a message. A move must be clean: a line with a
/// control character inside (blanks at either end are trimmed) or with
/// invalid UTF-8 is ignored whatever it looks like, as is a line that does
/// not parse as `x,y`.
pub fn read_move_line(text: &str, utf8: bool) -> MoveLine<'_> {
    let text = text.trim();
    let word = first_word(text);
    let rest = text[word.len()..].trim_start();
    match word.to_ascii_uppercase().as_str() {
        "" | "DEBUG" | "OK" | "ERROR" | "UNKNOWN" | "INFO" => return MoveLine::Skip,
        "MESSAGE" => return MoveLine::Message(rest),
        "SUGGEST" => return MoveLine::Suggest(rest),
        _ => {}
    }
    if !utf8 {
        MoveLine::Ignored("not UTF-8")
    } else if text.chars().any(char::is_control) {
        MoveLine::Ignored("control characters")
    } else {
        match parse_move(text) {
            Some((x, y)) => MoveLine::Move(x, y),
            None => MoveLine::Ignored("not a move"),
        }
    }
}

/// Where `ask_move` records what it skips.
struct MessageLog<'a> {
    keep_messages: bool,
    /// The number of the move asked for.
    ply: usize,
    name: &'a str,
    messages: &'a mut Vec<String>,
    ignored: &'a mut u32,
    examples: &'a mut Vec<String>,
}

impl MessageLog<'_> {
    fn message(&mut self, text: &str) {
        if self.keep_messages {
            self.messages
                .push(format!("{}) {}: {}", self.ply, self.name, printable(text)));
        }
    }

    fn ignored(&mut self, why: &str, text: &str, transcript: Option<&Transcript>) {
        *self.ignored += 1;
        let text = printable(text);
        if *self.ignored <= MAX_IGNORED_KEPT {
            self.messages.push(format!(
                "{}) {} ignored ({why}): {text}",
                self.ply, self.name
            ));
        }
        if self.examples.len() < IGNORED_EXAMPLES {
            self.examples.push(format!("{}) ({why}): {text}", self.ply));
        }
        if let Some(log) = transcript {
            log(self.name, "!", &format!("ignored ({why})"));
        }
    }
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
    let mut outcome = GameOutcome {
        result: GameResult::Draw,
        reason: EndReason::FullBoard,
        moves: opening
            .stones
            .iter()
            .map(|&pos| RecordedMove {
                pos,
                think_ms: None,
            })
            .collect(),
        messages: Vec::new(),
        ignored: [0; 2],
        ignored_examples: [Vec::new(), Vec::new()],
    };
    let (result, reason) = referee(&mut players, settings, &mut outcome, transcript);
    if let EndReason::Fault(_) = reason {
        // The loser's process is in an unknown state: the next game starts a fresh one.
        if let GameResult::Win(winner) = result {
            players[1 - winner.index()].discard();
        }
    }
    outcome.result = result;
    outcome.reason = reason;
    outcome
}

/// The game itself: the moves go into `outcome`, the end is returned.
fn referee(
    players: &mut [&mut Player; 2],
    settings: &GameSettings,
    outcome: &mut GameOutcome,
    transcript: Option<&Transcript>,
) -> (GameResult, EndReason) {
    let lost = |index: usize, fault: Fault| {
        (
            GameResult::Win(color_of(1 - index)),
            EndReason::Fault(fault),
        )
    };
    for (index, player) in players.iter_mut().enumerate() {
        if let Err(fault) = start_engine(player, settings, transcript) {
            return lost(index, fault);
        }
    }

    let mut board = settings.board.clone();
    for stone in &outcome.moves {
        // Openings are checked when the file is read.
        let _ = board.play(stone.pos);
    }
    let mut time_left: [Option<i64>; 2] = [settings.time.match_ms.map(|ms| ms as i64); 2];
    let mut asked_before = [false; 2];

    loop {
        if board.is_full() {
            return (GameResult::Draw, EndReason::FullBoard);
        }
        if settings
            .max_stones
            .is_some_and(|cap| board.stone_count() >= cap)
        {
            return (GameResult::Draw, EndReason::MoveCap);
        }
        let color = board.side_to_move();
        let index = color.index();
        let mut log = MessageLog {
            keep_messages: settings.keep_messages,
            ply: board.stone_count() + 1,
            name: &players[index].spec.name,
            messages: &mut outcome.messages,
            ignored: &mut outcome.ignored[index],
            examples: &mut outcome.ignored_examples[index],
        };
        let answer = ask_move(
            players[index].process.as_mut(),
            &board,
            asked_before[index],
            time_left[index],
            &settings.time,
            &mut log,
            transcript,
        );
        asked_before[index] = true;
        let (pos, elapsed) = match answer {
            MoveAnswer::Move(pos, elapsed) => (pos, elapsed),
            MoveAnswer::Fault(fault) => return lost(index, fault),
        };
        if let Some(left) = time_left[index].as_mut() {
            *left -= elapsed.as_millis() as i64;
            *left += settings.time.increment_ms as i64;
        }
        if !board.is_empty(pos) {
            return lost(index, Fault::IllegalMove(format!("{pos:?} (occupied)")));
        }
        // A five wins even where the point would otherwise be forbidden (RIF).
        let makes_five = board.is_win(pos, color);
        let foul = (board.rule() == Rule::Renju && color == Color::Black && !makes_five)
            .then(|| board.forbidden(pos))
            .flatten();
        let _ = board.play(pos);
        outcome.moves.push(RecordedMove {
            pos,
            think_ms: Some(elapsed.as_millis() as u64),
        });
        if let Some(kind) = foul {
            return (GameResult::Win(Color::White), EndReason::Forbidden(kind));
        }
        if makes_five {
            return (GameResult::Win(color), EndReason::Five);
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

/// How long after an engine's move the next command to it is held back.
/// Rapfi drops every word it reads before it has cleared its busy flag, a
/// few milliseconds after printing its move. When its opponent answers at
/// once (a five, a forced block, a tiny node budget), the `INFO time_left`
/// and even the `TURN` that follow would otherwise be lost, and a lost
/// `TURN` is a game lost on time. The wait is not charged to either clock.
const QUIET_AFTER_MOVE: Duration = Duration::from_millis(10);

/// How long a reused engine is left alone before the next game's `START`.
const SETTLE_BEFORE_START: Duration = Duration::from_millis(50);

/// How long to wait before each new `START` to a reused engine that
/// answered the last one with `ERROR`.
const START_RETRY_WAITS: [Duration; 3] = [
    Duration::from_millis(100),
    Duration::from_millis(200),
    Duration::from_millis(400),
];

/// `START`, wait for `OK`, then the `INFO` lines.
fn start_engine(
    player: &mut Player,
    settings: &GameSettings,
    transcript: Option<&Transcript>,
) -> Result<(), Fault> {
    let info = player.spec.info.clone();
    let reused = player.process.is_some();
    let process = player.ensure_running().map_err(Fault::NoStart)?;
    if reused {
        // An engine whose own move ended the last game may still be closing
        // that turn: Rapfi prints its move before it clears its busy flag,
        // and drops a command that arrives in between, so an immediate
        // `START 15` reaches it as the command `15` and the game is lost at
        // the start (5 % of node-limited games against it).
        std::thread::sleep(SETTLE_BEFORE_START);
    }
    let mut answer = send_start(process, settings, transcript);
    if reused {
        // On a loaded machine the engine can stay busy past the settling
        // pause; a START refused then says nothing about the engine, so it
        // is asked again, later, before the game is called lost.
        for wait in START_RETRY_WAITS {
            if !matches!(answer, StartReply::Refused(_)) {
                break;
            }
            std::thread::sleep(wait);
            answer = send_start(process, settings, transcript);
        }
    }
    match answer {
        StartReply::Ok => {}
        StartReply::Refused(line) => return Err(Fault::NoStart(line)),
        StartReply::Failed(fault) => return Err(fault),
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

/// How an engine answered `START`.
enum StartReply {
    Ok,
    /// An `ERROR` line, kept whole.
    Refused(String),
    Failed(Fault),
}

/// Sends `START` (or `RECTSTART`) and waits for `OK`.
fn send_start(
    process: &mut EngineProcess,
    settings: &GameSettings,
    transcript: Option<&Transcript>,
) -> StartReply {
    process.drain();
    let (width, height) = (settings.board.width(), settings.board.height());
    let start = if width == height {
        format!("START {width}")
    } else {
        format!("RECTSTART {width},{height}")
    };
    if !process.send(&start, transcript) {
        return StartReply::Failed(Fault::Crash);
    }
    let deadline = Instant::now() + Duration::from_millis(settings.time.start_ms);
    loop {
        match process.read_line(deadline, transcript) {
            Reply::Line(line) if line.trim() == "OK" => return StartReply::Ok,
            Reply::Line(line) if first_word(&line).eq_ignore_ascii_case("ERROR") => {
                return StartReply::Refused(line.trim().to_string())
            }
            Reply::Line(_) | Reply::Invalid(_) => continue,
            Reply::Timeout => return StartReply::Failed(Fault::NoStart("no OK in time".into())),
            Reply::Closed => return StartReply::Failed(Fault::Crash),
        }
    }
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Sends the position (or the last move) and waits for a move on the board.
fn ask_move(
    process: Option<&mut EngineProcess>,
    board: &Board,
    asked_before: bool,
    time_left: Option<i64>,
    time: &TimeControl,
    log: &mut MessageLog,
    transcript: Option<&Transcript>,
) -> MoveAnswer {
    let Some(process) = process else {
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
    process.settle_after_move(QUIET_AFTER_MOVE);
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
        let (line, utf8) = match process.read_line(deadline, transcript) {
            Reply::Line(line) => (line, true),
            Reply::Invalid(line) => (line, false),
            Reply::Timeout => return MoveAnswer::Fault(Fault::Timeout),
            Reply::Closed => return MoveAnswer::Fault(Fault::Crash),
        };
        let elapsed = started.elapsed();
        if elapsed > allowed {
            return MoveAnswer::Fault(Fault::Timeout);
        }
        match read_move_line(&line, utf8) {
            MoveLine::Skip => {}
            MoveLine::Message(text) => log.message(text),
            MoveLine::Suggest(suggestion) => {
                if !process.send(&format!("PLAY {suggestion}"), transcript) {
                    return MoveAnswer::Fault(Fault::Crash);
                }
            }
            MoveLine::Ignored(why) => log.ignored(why, &line, transcript),
            MoveLine::Move(x, y) => {
                process.note_move();
                return match board.pos(x, y) {
                    Some(pos) => MoveAnswer::Move(pos, elapsed),
                    None => {
                        MoveAnswer::Fault(Fault::IllegalMove(format!("{x},{y} (off the board)")))
                    }
                };
            }
        }
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

    #[test]
    fn only_clean_moves_count_and_everything_else_is_skipped_or_ignored() {
        use MoveLine::*;
        assert_eq!(read_move_line("7,7", true), Move(7, 7));
        assert_eq!(read_move_line(" 10, 3 \t", true), Move(10, 3));
        assert_eq!(read_move_line("-1,-1", true), Move(-1, -1));
        assert_eq!(
            read_move_line("MESSAGE dep \x09-\x0c ev 12", true),
            Message("dep \x09-\x0c ev 12")
        );
        assert_eq!(
            read_move_line("message caf\u{fffd}", false),
            Message("caf\u{fffd}")
        );
        assert_eq!(read_move_line("SUGGEST 3,4", true), Suggest("3,4"));
        for skipped in ["", "  ", "DEBUG x", "OK", "ERROR bad", "unknown", "INFO x"] {
            assert_eq!(read_move_line(skipped, true), Skip, "{skipped:?}");
        }
        // PentaZen's depth byte 10 breaks its line: the second piece.
        assert_eq!(
            read_move_line("-\x0c ev 34 nd 12k tm 150", true),
            Ignored("control characters")
        );
        assert_eq!(
            read_move_line("- ev 34 nd 12k", true),
            Ignored("not a move")
        );
        for (line, why) in [
            ("hello there", "not a move"),
            ("7,7,7", "not a move"),
            ("7,\x077", "control characters"),
            ("\x01\x02", "control characters"),
            ("7,7\u{fffd}", "not UTF-8"),
        ] {
            let utf8 = !line.contains('\u{fffd}');
            assert_eq!(read_move_line(line, utf8), Ignored(why), "{line:?}");
        }
    }
}
