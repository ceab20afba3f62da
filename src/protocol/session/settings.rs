//! What outlives a game: the `INFO` keys (clock, memory, threads, node and
//! depth limits, detail, rule, geometry), the rule codes, and what a search
//! is given from them: its limits, the excluded root moves and the engine
//! options.

use super::{Detail, Effect, Session};
use crate::board::{Board, Cell, Geometry, Pos, Rule};
use crate::protocol::command::Info;
use crate::protocol::reply::Reply;
use crate::protocol::report::Notation;
use crate::search::{CandidateRange, EngineOptions, Limits, TimeBudget};
use std::time::{Duration, Instant};

/// `max_memory 0` means "no limit"; we still stay within what Gomocup grants.
pub const DEFAULT_MEMORY_BYTES: u64 = 350 << 20;
/// The most threads we accept (`thread_num`), announced by `YXSHOWINFO`.
pub const MAX_THREADS: usize = 64;
/// log2 of the largest hash in KB we accept (`YXSHOWINFO`): 2^22 KB = 4 GiB.
pub const MAX_HASH_SIZE_LOG2: u32 = 22;

/// Smallest memory budget handed to the searcher, whatever the manager says.
const MIN_MEMORY_BYTES: u64 = 1 << 20;
/// The budget of a move when nothing limits it (no per-move limit, no match
/// clock, no node or depth limit): the protocol document's "as fast as
/// possible", and a guarantee that a move always comes.
pub(super) const QUICK_MOVE: Duration = Duration::from_millis(300);

impl Session {
    pub(super) fn limits(&self, received: Instant) -> Limits {
        let time = self.clock.budget(received).or_else(|| {
            let unbounded = self.max_nodes.is_none() && self.max_depth.is_none();
            unbounded.then_some(TimeBudget {
                start: received,
                soft: QUICK_MOVE / 2,
                hard: QUICK_MOVE,
            })
        });
        Limits {
            time,
            nodes: self.max_nodes,
            depth: self.max_depth,
            excluded: Vec::new(),
        }
    }

    /// The blocked points that are empty on `board`, unless they would leave
    /// no legal move at all (a move must come whatever the GUI blocked).
    pub(super) fn excluded(&self, board: &Board) -> Vec<Pos> {
        let excluded: Vec<Pos> = self
            .blocked
            .iter()
            .filter_map(|p| board.pos(p.x, p.y))
            .filter(|&p| board.is_empty(p))
            .collect();
        let room = board
            .empty_cells()
            .any(|p| board.is_legal(p) && !excluded.contains(&p));
        if room {
            excluded
        } else {
            Vec::new()
        }
    }

    pub(super) fn engine_options(&self) -> EngineOptions {
        let hash_bytes = self.hash_kb.map_or(u64::MAX, |kb| kb.saturating_mul(1024));
        EngineOptions {
            memory_bytes: self.memory_bytes.min(hash_bytes).max(MIN_MEMORY_BYTES),
            threads: self.threads,
        }
    }

    pub(super) fn info(&mut self, info: Info) -> Vec<Effect> {
        match info {
            Info::TimeoutTurn(ms) => self.clock.set_turn(ms),
            Info::TimeoutMatch(ms) => self.clock.set_match(ms),
            Info::TimeLeft(ms) => self.clock.set_left(ms),
            Info::TimeIncrement(ms) => self.clock.set_increment(ms),
            Info::MaxMemory(bytes) => {
                self.memory_bytes = match bytes {
                    b if b > 0 => b as u64,
                    _ => DEFAULT_MEMORY_BYTES,
                }
            }
            Info::HashSize(kb) => self.hash_kb = (kb > 0).then_some(kb as u64),
            Info::ThreadNum(n) => self.threads = n.clamp(1, MAX_THREADS as i64) as usize,
            Info::MaxNode(n) => self.max_nodes = (n > 0).then_some(n as u64),
            Info::MaxDepth(n) => self.max_depth = (n > 0).then(|| n.min(u32::MAX as i64) as u32),
            Info::ShowDetail(bits) => {
                self.detail = Detail {
                    realtime: bits & 1 != 0,
                    pv_blocks: bits & 2 != 0,
                    notation: Notation::default(),
                }
            }
            Info::CautionFactor(factor) => {
                self.candidate_range = CandidateRange::from_caution(factor)
            }
            Info::Rule(code) => return self.set_rule(code),
            Info::Pondering(on) => self.pondering = on != 0,
            Info::UseDatabase(on) => return self.use_database(on != 0),
            Info::DatabaseReadonly(on) => self.set_database_readonly(on != 0),
            Info::Geometry(geometry) => {
                self.geometry = geometry;
                self.rebuild_board();
            }
            Info::GameType(_)
            | Info::Evaluate(_)
            | Info::Folder(_)
            | Info::VcThread(_)
            | Info::ThreadSplitDepth(_)
            | Info::StartDepth(_)
            | Info::NbestSym(_)
            | Info::Ignored { .. }
            | Info::Unknown(_) => {}
        }
        Vec::new()
    }

    pub(super) fn set_rule(&mut self, code: i64) -> Vec<Effect> {
        let (rule, note) = rule_from_code(code);
        self.rule = rule;
        self.rebuild_board();
        note.map(|text| Effect::Reply(Reply::Message(text)))
            .into_iter()
            .collect()
    }

    /// A rule or geometry set mid-game applies to the stones already there.
    pub(super) fn rebuild_board(&mut self) {
        if let Some(board) = self.board.as_ref() {
            self.board = Some(rebuilt(board, self.rule, self.geometry));
        }
    }

    pub(super) fn notation(&self) -> Notation {
        match (&self.board, self.yixin_board) {
            (Some(board), true) => Notation::YixinBoard {
                rows: board.width(),
            },
            _ => Notation::Protocol,
        }
    }
}

/// The rule for an `INFO rule` code, and a note when we play something other
/// than what was asked. The codes are Piskvork's bits (1 exactly five,
/// 2 continuous, 4 renju, 8 caro), except that 2 alone is renju as
/// Yixin-Board, Rapfi and AlphaGomoku read it: Gomocup managers never send 2,
/// and nobody implements continuous games.
pub fn rule_from_code(code: i64) -> (Rule, Option<String>) {
    let exact = match code {
        0 => Some(Rule::Freestyle),
        1 => Some(Rule::Standard),
        2 | 4 => Some(Rule::Renju),
        8 => Some(Rule::Caro),
        9 => Some(Rule::CaroExact),
        _ => None,
    };
    if let Some(rule) = exact {
        return (rule, None);
    }
    let rule = match code {
        c if !(0..16).contains(&c) => Rule::Freestyle,
        c if c & 8 != 0 && c & 1 != 0 => Rule::CaroExact,
        c if c & 8 != 0 => Rule::Caro,
        c if c & 4 != 0 => Rule::Renju,
        c if c & 1 != 0 => Rule::Standard,
        _ => Rule::Freestyle,
    };
    let note = format!(
        "rule {code} is not supported (no continuous games); playing {} instead",
        rule_name(rule)
    );
    (rule, Some(note))
}

pub fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Standard => "standard (exactly five)",
        Rule::Renju => "renju",
        Rule::Caro => "caro",
        Rule::CaroExact => "caro with exactly five",
    }
}

/// The same stones, walls and history under another rule or geometry.
pub(super) fn rebuilt(board: &Board, rule: Rule, geometry: Geometry) -> Board {
    let Ok(mut rebuilt) = Board::with_geometry(board.width(), board.height(), rule, geometry)
    else {
        return board.clone();
    };
    for pos in board.cells() {
        if board.cell(pos) == Cell::Wall {
            let _ = rebuilt.place_wall(pos);
        }
    }
    for &pos in board.history() {
        if let Cell::Stone(color) = board.cell(pos) {
            let _ = rebuilt.place(pos, color);
        }
    }
    rebuilt
}
