//! The session: what the manager has told us (the board and its history, the
//! rule, the clock, search limits, memory and threads) and how each command
//! changes it. No I/O and no threads: `apply` turns a command into effects
//! (replies, searcher settings, a request to think), and `finish` turns the
//! result of thinking into our move. Every command is validated in full before
//! anything changes, so an `ERROR` leaves the game exactly as it was.
//!
//! This module owns the `Session` value, the dispatch of commands and the
//! hand-over to and from the searcher (`Think`, `finish`). The parts:
//!
//! - `game`: the game state: the commands that set or change the position
//!   (`START` … `TAKEBACK`, `BOARD`, `SWAP2BOARD`, `YXBLOCK`) and their checks;
//! - `settings`: what outlives a game (`INFO` keys, the rule and geometry
//!   codes) and the limits, exclusions and engine options of a search;
//! - `answers`: the answers that need no search (`YXSHOWFORBID`,
//!   `YXSHOWINFO`, Yixin-Board's swap2 lines);
//! - `database`: Yixin-Board's database commands on the position database
//!   (the one part that reads and writes a file: the database's).

mod answers;
mod database;
mod game;
mod settings;
#[cfg(test)]
mod tests;

pub use settings::{
    rule_from_code, rule_name, DEFAULT_MEMORY_BYTES, MAX_HASH_SIZE_LOG2, MAX_THREADS,
};

use super::command::{Command, ParseError, Point};
use super::reply::Reply;
use super::report::Notation;
use crate::board::{Board, Geometry, Pos, Rule};
use crate::search::swap2::Swap2Decision;
use crate::search::time::Clock;
use crate::search::{CandidateRange, EngineOptions, Limits, Score};
use answers::yx_swap2_replies;
use game::{fallback_move, has_room, on_board};
use std::time::Instant;

/// What the command loop must do after a command.
#[derive(Debug)]
pub enum Effect {
    Reply(Reply),
    /// New memory / thread settings for the searcher (sent before a search).
    Configure(EngineOptions),
    ClearHash,
    /// Run a search on the worker, then pass its outcome to `Session::finish`.
    /// (Boxed: it carries a whole board.)
    Think(Box<Think>),
    Exit,
}

/// A request to think: the position, the limits and what the answer is for.
#[derive(Debug)]
pub struct Think {
    pub task: Task,
    pub board: Board,
    pub limits: Limits,
    pub detail: Detail,
    /// The cells the search considers (`INFO caution_factor`).
    pub candidate_range: CandidateRange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Find our move (`BEGIN`, `TURN`, `BOARD`).
    Move,
    /// Report the best `n` lines, then play the best (`YXNBEST`).
    Nbest(usize),
    /// Answer `SWAP2BOARD`.
    Swap2,
    /// Answer Yixin-Board's `yxswap2step1` … `3` (with `MESSAGE SWAP2 …`).
    YxSwap2(u8),
    /// Answer `yxbalanceone` (1 stone) or `yxbalancetwo` (2 stones): the
    /// move(s) after which the side to move's score is nearest `bias`.
    Balance { bias: Score, stones: u8 },
    /// Think on the opponent's time (`INFO pondering 1`) on the position
    /// after the reply we expect, silently, until any command arrives.
    Ponder,
}

impl Task {
    /// Whether the answer is one ordinary move (which a stand-in can give if
    /// the searcher overruns).
    pub fn answers_with_a_move(self) -> bool {
        matches!(
            self,
            Task::Move | Task::Nbest(_) | Task::Balance { stones: 1, .. }
        )
    }
}

/// Which optional search output the GUI asked for (`INFO show_detail`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// Bit 1: `MESSAGE REALTIME …` board hints.
    pub realtime: bool,
    /// Bit 2: structured `INFO PV …` blocks.
    pub pv_blocks: bool,
    /// How principal variations are written for people.
    pub notation: Notation,
}

/// The outcome of a `Think`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thought {
    Move(Option<Pos>),
    Swap2(Swap2Decision),
    /// Two stones, the side to move's then the opponent's (`yxbalancetwo`).
    Pair(Option<(Pos, Pos)>),
}

pub struct Session {
    /// `None` until the first `START`.
    board: Option<Board>,
    rule: Rule,
    /// `INFO geometry` (wuzi's extension); like the rule, a setting that
    /// outlives games.
    geometry: Geometry,
    /// Set by `YXSHOWINFO`, which only Yixin-Board sends: the GUI's frame is
    /// (row, column), so PVs are written the way its board is labelled.
    yixin_board: bool,
    clock: Clock,
    memory_bytes: u64,
    hash_kb: Option<u64>,
    threads: usize,
    max_nodes: Option<u64>,
    max_depth: Option<u32>,
    /// `INFO caution_factor`; the default is the search's usual range.
    candidate_range: CandidateRange,
    detail: Detail,
    /// Root moves the engine must not play (`YXBLOCK`), as the GUI wrote
    /// them; applied to whatever board is current.
    blocked: Vec<Point>,
    /// The settings the searcher last received.
    configured: Option<EngineOptions>,
    /// The task being thought about and when its command arrived.
    thinking: Option<(Task, Instant)>,
    /// The position database and its settings.
    database: database::DatabaseDesk,
    /// `INFO pondering`: think on the opponent's time after our moves.
    pondering: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            board: None,
            rule: Rule::Freestyle,
            geometry: Geometry::Square,
            yixin_board: false,
            clock: Clock::default(),
            memory_bytes: DEFAULT_MEMORY_BYTES,
            hash_kb: None,
            threads: 1,
            max_nodes: None,
            max_depth: None,
            candidate_range: CandidateRange::default(),
            detail: Detail::default(),
            blocked: Vec::new(),
            configured: None,
            thinking: None,
            database: database::DatabaseDesk::default(),
            pondering: false,
        }
    }
}

type Outcome = Result<Vec<Effect>, String>;

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// The current position, once a game has started.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Whether a `Think` is out and `finish` has not been called yet.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Carries out one command that arrived at `received` (the start of the
    /// move's clock). The loop must not pass commands other than `END` while
    /// thinking; it queues them and applies them after `finish`.
    pub fn apply(&mut self, command: Command, received: Instant) -> Vec<Effect> {
        let outcome = match command {
            Command::Start { width, height } => self.start(width, height),
            Command::Restart => self.restart(),
            Command::Begin => self.begin(received),
            Command::Turn(point) => self.turn(point, received),
            Command::OpenBlock(kind) => Err(format!("{} header without its lines", kind.name())),
            Command::Board(entries) => self.set_position(&entries, true).and_then(|board| {
                has_room(&board)?;
                self.board = Some(board);
                Ok(self.think(Task::Move, received))
            }),
            Command::YxBoard(entries) => self.set_position(&entries, false).map(|board| {
                self.board = Some(board);
                Vec::new()
            }),
            Command::Swap2Board(points) => self.swap2(&points, received),
            Command::Info(info) => Ok(self.info(info)),
            Command::Takeback(point) => self.takeback(point),
            Command::Play(point) => self.play(point),
            Command::About => Ok(vec![Effect::Reply(Reply::About)]),
            Command::End => Ok(vec![Effect::Exit]),
            // Nothing to stop: the loop handles a stop during a search.
            Command::Stop => Ok(Vec::new()),
            Command::ShowForbid => Ok(vec![Effect::Reply(Reply::Forbid(self.forbidden_points()))]),
            Command::ShowInfo => {
                self.yixin_board = true;
                Ok(self.show_info())
            }
            Command::HashClear => Ok(vec![Effect::ClearHash]),
            Command::Nbest(count) => self.nbest(count, received),
            Command::Block(points) => self.block(&points).map(|()| Vec::new()),
            Command::BlockUndo(points) => {
                self.blocked.retain(|p| !points.contains(p));
                Ok(Vec::new())
            }
            Command::BlockReset => {
                self.blocked.clear();
                Ok(Vec::new())
            }
            Command::YxSwap2(step) => self.yx_swap2(step, received),
            Command::Balance { bias, stones } => self.balance(bias, stones, received),
            Command::OpenDatabase(_) => Err("database command without its position".to_string()),
            Command::Database(request, moves) => self.database_command(request, &moves),
            Command::SetDatabase(path) => self.set_database(&path),
            Command::SaveDatabase => Ok(self.save_database()),
            Command::Unsupported(name) => Ok(vec![Effect::Reply(Reply::Unknown(format!(
                "{name} is not supported"
            )))]),
        };
        outcome.unwrap_or_else(|reason| vec![Effect::Reply(Reply::Error(reason))])
    }

    /// The reply to a line that did not parse. `INFO` problems become a
    /// `MESSAGE`: managers do not read replies to `INFO`, and an `ERROR`
    /// arriving later, while Piskvork waits for a move, would lose the game.
    pub fn reject(error: &ParseError) -> Vec<Effect> {
        let reply = match error {
            ParseError::UnknownCommand(_) => Reply::Unknown(error.to_string()),
            ParseError::BadInfo(_) => Reply::Message(error.to_string()),
            _ => Reply::Error(error.to_string()),
        };
        vec![Effect::Reply(reply)]
    }

    /// Takes the outcome of the last `Think` that arrived at `now` and plays
    /// it on the session's board.
    pub fn finish(&mut self, thought: Thought, now: Instant) -> Vec<Effect> {
        let Some((task, received)) = self.thinking.take() else {
            return Vec::new();
        };
        self.clock
            .charge(now.saturating_duration_since(received).as_millis() as u64);
        if let (Task::YxSwap2(step), Thought::Swap2(decision)) = (task, thought) {
            return yx_swap2_replies(step, decision);
        }
        let Some(board) = self.board.as_mut() else {
            return Vec::new();
        };
        let reply = match (task, thought) {
            (_, Thought::Pair(pair)) => {
                let mut after = board.clone();
                match pair {
                    Some((a, b)) if after.play(a).is_ok() && after.play(b).is_ok() => {
                        *board = after;
                        Reply::Moves(vec![a, b])
                    }
                    _ => Reply::Error("no two moves left to play".to_string()),
                }
            }
            (Task::Swap2, Thought::Swap2(decision)) => {
                let stones = match decision {
                    Swap2Decision::PlaceThree(stones) => stones.to_vec(),
                    Swap2Decision::Swap => Vec::new(),
                    Swap2Decision::Move(p) => vec![p],
                    Swap2Decision::TwoMoves(a, b) => vec![a, b],
                };
                let mut after = board.clone();
                if stones.iter().all(|&p| after.play(p).is_ok()) {
                    *board = after;
                }
                match decision {
                    Swap2Decision::Swap => Reply::Swap,
                    Swap2Decision::Move(p) => Reply::Move(p),
                    _ => Reply::Moves(stones),
                }
            }
            (_, thought) => {
                let proposed = match thought {
                    Thought::Move(p) => p,
                    Thought::Swap2(_) | Thought::Pair(_) => None,
                };
                // The searcher's move is checked like any other: a bad one
                // must never reach the manager.
                let legal = proposed.filter(|&p| on_board(board, p) && board.is_legal(p));
                match legal.or_else(|| fallback_move(board)) {
                    Some(pos) => {
                        let _ = board.play(pos);
                        Reply::Move(pos)
                    }
                    None => Reply::Error("no empty point left to play".to_string()),
                }
            }
        };
        vec![Effect::Reply(reply)]
    }

    /// After our move, a request to ponder on the position after `expected`
    /// (the opponent's reply our search foresaw), if `INFO pondering` asks
    /// for it and that reply is possible. It is not a `Think` the session
    /// waits for: the command loop stops it when any line arrives and drops
    /// whatever it says. Node and depth limits apply; no time limit does.
    pub fn ponder_request(&self, expected: Pos) -> Option<Box<Think>> {
        let board = self.board.as_ref().filter(|_| self.pondering)?;
        if !on_board(board, expected) || !board.is_empty(expected) || board.winner().is_some() {
            return None;
        }
        let mut after = board.clone();
        after.play(expected).ok()?;
        after.empty_cells().next()?;
        Some(Box::new(Think {
            task: Task::Ponder,
            board: after,
            limits: Limits {
                time: None,
                nodes: self.max_nodes,
                depth: self.max_depth,
                excluded: Vec::new(),
            },
            detail: self.detail,
            candidate_range: self.candidate_range,
        }))
    }

    /// Hands the current position to the searcher with this move's limits.
    /// The caller has checked that there is a game and room to move.
    fn think(&mut self, task: Task, received: Instant) -> Vec<Effect> {
        match self.board.clone() {
            Some(board) => self.think_on(task, board, received),
            None => Vec::new(),
        }
    }

    fn think_on(&mut self, task: Task, board: Board, received: Instant) -> Vec<Effect> {
        let mut effects = Vec::new();
        let options = self.engine_options();
        if self.configured.as_ref() != Some(&options) {
            self.configured = Some(options.clone());
            effects.push(Effect::Configure(options));
        }
        let mut limits = self.limits(received);
        if task.answers_with_a_move() {
            limits.excluded = self.excluded(&board);
            for pos in self.database_blocked_moves(&board) {
                if !limits.excluded.contains(&pos) {
                    limits.excluded.push(pos);
                }
            }
            if !board
                .empty_cells()
                .any(|p| board.is_legal(p) && !limits.excluded.contains(&p))
            {
                limits.excluded = self.excluded(&board);
            }
        }
        effects.push(Effect::Think(Box::new(Think {
            task,
            board,
            limits,
            detail: Detail {
                notation: self.notation(),
                ..self.detail
            },
            candidate_range: self.candidate_range,
        })));
        self.thinking = Some((task, received));
        effects
    }
}
