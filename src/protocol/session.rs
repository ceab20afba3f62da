//! The session: what the manager has told us (the board and its history, the
//! rule, the clock, search limits, memory and threads) and how each command
//! changes it. No I/O and no threads: `apply` turns a command into effects
//! (replies, searcher settings, a request to think), and `finish` turns the
//! result of thinking into our move. Every command is validated in full before
//! anything changes, so an `ERROR` leaves the game exactly as it was.

use super::command::{BoardEntry, Command, Field, Info, ParseError, Point};
use super::reply::Reply;
use super::report::Notation;
use crate::board::{Board, Cell, Color, Geometry, Pos, Rule};
use crate::search::swap2::Swap2Decision;
use crate::search::time::Clock;
use crate::search::{EngineOptions, Limits, TimeBudget};
use std::time::{Duration, Instant};

/// `max_memory 0` means "no limit"; we still stay within what Gomocup grants.
pub const DEFAULT_MEMORY_BYTES: u64 = 350 << 20;
/// The most threads we accept (`thread_num`), announced by `YXSHOWINFO`.
pub const MAX_THREADS: usize = 64;
/// log2 of the largest hash in KB we accept (`YXSHOWINFO`): 2^22 KB = 4 GiB.
pub const MAX_HASH_SIZE_LOG2: u32 = 22;
/// The longest `START` waits for the rule tables before its `OK` (managers
/// allow 3 s; on a quiet machine the tables take a quarter of a second).
const TABLE_WAIT: Duration = Duration::from_millis(1_000);

/// Piskvork, c-gomoku-cli and wuzi-match keep `START` off the move clock,
/// but a move right after it would wait for a rule's tables (or share the
/// CPU with their building): let them finish before the `OK`, within
/// `TABLE_WAIT`, so that a starved machine does not miss the manager's
/// start time-out instead. Once the tables are built this returns at once.
fn wait_for_tables() {
    let (done, finished) = std::sync::mpsc::channel();
    let builder = std::thread::Builder::new().spawn(move || {
        crate::board::prepare_tables();
        let _ = done.send(());
    });
    if builder.is_ok() {
        let _ = finished.recv_timeout(TABLE_WAIT);
    }
}

/// Smallest memory budget handed to the searcher, whatever the manager says.
const MIN_MEMORY_BYTES: u64 = 1 << 20;
/// The budget of a move when nothing limits it (no per-move limit, no match
/// clock, no node or depth limit): the protocol document's "as fast as
/// possible", and a guarantee that a move always comes.
const QUICK_MOVE: Duration = Duration::from_millis(300);

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
}

impl Task {
    /// Whether the answer is one ordinary move (which a stand-in can give if
    /// the searcher overruns).
    pub fn answers_with_a_move(self) -> bool {
        matches!(self, Task::Move | Task::Nbest(_))
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
    detail: Detail,
    /// Root moves the engine must not play (`YXBLOCK`), as the GUI wrote
    /// them; applied to whatever board is current.
    blocked: Vec<Point>,
    /// The settings the searcher last received.
    configured: Option<EngineOptions>,
    /// The task being thought about and when its command arrived.
    thinking: Option<(Task, Instant)>,
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
            detail: Detail::default(),
            blocked: Vec::new(),
            configured: None,
            thinking: None,
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
                    Thought::Swap2(_) => None,
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

    /// An empty board of that size under the current rule and geometry.
    fn empty_board(&self, width: usize, height: usize) -> Result<Board, String> {
        Board::with_geometry(width, height, self.rule, self.geometry).map_err(|e| e.to_string())
    }

    fn game(&self) -> Result<&Board, String> {
        self.board
            .as_ref()
            .ok_or_else(|| "no game: send START first".to_string())
    }

    fn start(&mut self, width: i64, height: i64) -> Outcome {
        wait_for_tables();
        let size = |n: i64| usize::try_from(n).unwrap_or(usize::MAX);
        let board = self.empty_board(size(width), size(height)).map_err(|_| {
            // Piskvork falls back to 20x20 by itself when the refusal names 20.
            format!("unsupported board size {width}x{height}: sides of 5 to 32 are supported (e.g. 15 or 20)")
        })?;
        self.board = Some(board);
        Ok(vec![Effect::Reply(Reply::Ok)])
    }

    fn restart(&mut self) -> Outcome {
        let board = self.game()?;
        let (width, height) = (board.width(), board.height());
        self.board = self.empty_board(width, height).ok();
        Ok(vec![Effect::Reply(Reply::Ok)])
    }

    fn begin(&mut self, received: Instant) -> Outcome {
        let board = self.game()?;
        if board.stone_count() > 0 {
            return Err("BEGIN on a board that is not empty".to_string());
        }
        has_room(board)?;
        Ok(self.think(Task::Move, received))
    }

    fn turn(&mut self, point: Point, received: Instant) -> Outcome {
        let board = self.game()?;
        let pos = checked_empty(board, point)?;
        if board.empty_cells().count() <= 1 {
            return Err("no empty point would be left for our move".to_string());
        }
        if let Some(board) = self.board.as_mut() {
            board
                .play(pos)
                .map_err(|e| format!("{},{}: {e}", point.x, point.y))?;
        }
        Ok(self.think(Task::Move, received))
    }

    fn play(&mut self, point: Point) -> Outcome {
        let board = self.game()?;
        let pos = checked_empty(board, point)?;
        if let Some(board) = self.board.as_mut() {
            board
                .play(pos)
                .map_err(|e| format!("{},{}: {e}", point.x, point.y))?;
        }
        Ok(vec![Effect::Reply(Reply::Move(pos))])
    }

    fn takeback(&mut self, point: Point) -> Outcome {
        let board = self.game()?;
        let pos = board
            .pos(point.x, point.y)
            .ok_or_else(|| off_board(board, point))?;
        if !matches!(board.cell(pos), Cell::Stone(_)) {
            return Err(format!("no stone on {},{} to take back", point.x, point.y));
        }
        if let Some(board) = self.board.as_mut() {
            // Piskvork takes back newest first, so this is normally the last
            // move; any other stone is removed where it stands.
            board
                .remove(pos)
                .map_err(|e| format!("{},{}: {e}", point.x, point.y))?;
        }
        Ok(vec![Effect::Reply(Reply::Ok)])
    }

    /// Builds the position a `BOARD` / `YXBOARD` block describes, or says
    /// what is wrong with it. `to_move` is set for `BOARD`, which asks us to
    /// move as field 1 and so needs counts that put field 1 on turn.
    fn set_position(&self, entries: &[BoardEntry], to_move: bool) -> Result<Board, String> {
        let current = self.game()?;
        let count = |field| entries.iter().filter(|e| e.field == field).count();
        let (own, opponent) = (count(Field::Own), count(Field::Opponent));
        // The counts, not the order, say who is Black. Black moves first, so
        // it never has fewer stones: the side with more stones is Black, and
        // on a tie the side to move (field 1) is. In a real game that means
        // "one stone more: the opponent started; equal: we did". A `YXBOARD`
        // may describe any position (a forbidden-point query, an analysis),
        // so it may also be irregular; a `BOARD` may not, since we must move.
        let own_color = if own >= opponent {
            Color::Black
        } else {
            Color::White
        };
        let regular = own == opponent || opponent == own + 1;
        if to_move && !regular {
            return Err(format!(
                "{own} stones of the side to move against {opponent} of the opponent"
            ));
        }
        let mut board = self.empty_board(current.width(), current.height())?;
        for entry in entries {
            let pos = board
                .pos(entry.point.x, entry.point.y)
                .ok_or_else(|| off_board(&board, entry.point))?;
            let placed = match entry.field {
                Field::Own => board.place(pos, own_color),
                Field::Opponent => board.place(pos, own_color.opponent()),
                Field::Wall => board.place_wall(pos),
            };
            placed.map_err(|_| format!("{},{} is given twice", entry.point.x, entry.point.y))?;
        }
        Ok(board)
    }

    fn swap2(&mut self, points: &[Point], received: Instant) -> Outcome {
        let current = self.game()?;
        if ![0, 3, 5].contains(&points.len()) {
            return Err(format!(
                "SWAP2BOARD needs 0, 3 or 5 stones, not {}",
                points.len()
            ));
        }
        let mut board = self.empty_board(current.width(), current.height())?;
        for &point in points {
            let pos = checked_empty(&board, point)?;
            board
                .play(pos)
                .map_err(|e| format!("{},{}: {e}", point.x, point.y))?;
        }
        self.board = Some(board);
        Ok(self.think(Task::Swap2, received))
    }

    /// Yixin-Board's own swap2 flow: step 1 opens on an empty board; steps
    /// 2 and 3 answer the 3- and 5-stone position set by `yxboard`.
    fn yx_swap2(&mut self, step: u8, received: Instant) -> Outcome {
        let current = self.game()?;
        let board = match step {
            1 => self.empty_board(current.width(), current.height())?,
            _ => {
                let wanted = if step == 2 { 3 } else { 5 };
                if current.stone_count() != wanted {
                    return Err(format!(
                        "yxswap2step{step} needs {wanted} stones on the board, not {}",
                        current.stone_count()
                    ));
                }
                current.clone()
            }
        };
        Ok(self.think_on(Task::YxSwap2(step), board, received))
    }

    fn block(&mut self, points: &[Point]) -> Result<(), String> {
        let board = self.game()?;
        if let Some(&point) = points.iter().find(|p| board.pos(p.x, p.y).is_none()) {
            return Err(off_board(board, point));
        }
        for &point in points {
            if !self.blocked.contains(&point) {
                self.blocked.push(point);
            }
        }
        Ok(())
    }

    fn nbest(&mut self, count: i64, received: Instant) -> Outcome {
        let board = self.game()?;
        if count < 1 {
            return Err(format!("YXNBEST needs a positive count, not {count}"));
        }
        let legal = board.empty_cells().filter(|&p| board.is_legal(p)).count();
        let lines = (count as usize).min(legal.max(1));
        has_room(board)?;
        Ok(self.think(Task::Nbest(lines), received))
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
        }
        effects.push(Effect::Think(Box::new(Think {
            task,
            board,
            limits,
            detail: Detail {
                notation: self.notation(),
                ..self.detail
            },
        })));
        self.thinking = Some((task, received));
        effects
    }

    fn limits(&self, received: Instant) -> Limits {
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
    fn excluded(&self, board: &Board) -> Vec<Pos> {
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

    fn engine_options(&self) -> EngineOptions {
        let hash_bytes = self.hash_kb.map_or(u64::MAX, |kb| kb.saturating_mul(1024));
        EngineOptions {
            memory_bytes: self.memory_bytes.min(hash_bytes).max(MIN_MEMORY_BYTES),
            threads: self.threads,
        }
    }

    fn info(&mut self, info: Info) -> Vec<Effect> {
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
            Info::Rule(code) => return self.set_rule(code),
            Info::Geometry(geometry) => {
                self.geometry = geometry;
                self.rebuild_board();
            }
            Info::GameType(_)
            | Info::Evaluate(_)
            | Info::Folder(_)
            | Info::CautionFactor(_)
            | Info::Pondering(_)
            | Info::VcThread(_)
            | Info::ThreadSplitDepth(_)
            | Info::StartDepth(_)
            | Info::NbestSym(_)
            | Info::UseDatabase(_)
            | Info::DatabaseReadonly(_)
            | Info::Ignored { .. }
            | Info::Unknown(_) => {}
        }
        Vec::new()
    }

    fn set_rule(&mut self, code: i64) -> Vec<Effect> {
        let (rule, note) = rule_from_code(code);
        self.rule = rule;
        self.rebuild_board();
        note.map(|text| Effect::Reply(Reply::Message(text)))
            .into_iter()
            .collect()
    }

    /// A rule or geometry set mid-game applies to the stones already there.
    fn rebuild_board(&mut self) {
        if let Some(board) = self.board.as_ref() {
            self.board = Some(rebuilt(board, self.rule, self.geometry));
        }
    }

    fn notation(&self) -> Notation {
        match (&self.board, self.yixin_board) {
            (Some(board), true) => Notation::YixinBoard {
                rows: board.width(),
            },
            _ => Notation::Protocol,
        }
    }

    /// Black's forbidden points in a renju game. Listed whoever is to move
    /// (Rapfi lists them only on Black's turn): a GUI or a test asks about a
    /// position, and the answer does not depend on the turn.
    fn forbidden_points(&self) -> Vec<Pos> {
        self.board
            .as_ref()
            .map(Board::forbidden_points)
            .unwrap_or_default()
    }

    fn show_info(&self) -> Vec<Effect> {
        [
            format!("wuzi {}", env!("CARGO_PKG_VERSION")),
            format!("INFO MAX_THREAD_NUM {MAX_THREADS}"),
            format!("INFO MAX_HASH_SIZE {MAX_HASH_SIZE_LOG2}"),
        ]
        .into_iter()
        .map(|text| Effect::Reply(Reply::Message(text)))
        .collect()
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

/// Yixin-Board's swap2 answers: `MESSAGE SWAP2 …` lines, coordinates as
/// `first second` in the GUI's own frame (row col for Yixin-Board).
fn yx_swap2_replies(step: u8, decision: Swap2Decision) -> Vec<Effect> {
    let stone = |label: &str, p: Pos| format!("SWAP2 {label} {} {}", p.x(), p.y());
    let lines = match (step, decision) {
        (1, Swap2Decision::PlaceThree([a, b, c])) => {
            vec![stone("MOVE1", a), stone("MOVE2", b), stone("MOVE3", c)]
        }
        (2, Swap2Decision::Swap) => vec!["SWAP2 SWAP1 YES".to_string()],
        (2, Swap2Decision::TwoMoves(a, b)) => vec![stone("MOVE4", a), stone("MOVE5", b)],
        (2, _) => vec!["SWAP2 SWAP1 NO".to_string()],
        (_, Swap2Decision::Swap) => vec!["SWAP2 SWAP2 YES".to_string()],
        _ => vec!["SWAP2 SWAP2 NO".to_string()],
    };
    lines
        .into_iter()
        .map(|text| Effect::Reply(Reply::Message(text)))
        .collect()
}

/// The same stones, walls and history under another rule or geometry.
fn rebuilt(board: &Board, rule: Rule, geometry: Geometry) -> Board {
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

fn has_room(board: &Board) -> Result<(), String> {
    match board.empty_cells().next() {
        Some(_) => Ok(()),
        None => Err("no empty point left to play".to_string()),
    }
}

fn on_board(board: &Board, pos: Pos) -> bool {
    board.pos(pos.x() as i64, pos.y() as i64) == Some(pos)
}

fn off_board(board: &Board, point: Point) -> String {
    format!(
        "{},{} is off the {}x{} board",
        point.x,
        point.y,
        board.width(),
        board.height()
    )
}

fn checked_empty(board: &Board, point: Point) -> Result<Pos, String> {
    let pos = board
        .pos(point.x, point.y)
        .ok_or_else(|| off_board(board, point))?;
    if !board.is_empty(pos) {
        return Err(format!("{},{} is not empty", point.x, point.y));
    }
    Ok(pos)
}

/// A legal point next to the action, used only if the searcher fails to give
/// one: the manager must get a move in any case.
fn fallback_move(board: &Board) -> Option<Pos> {
    let (cx, cy) = (board.width() / 2, board.height() / 2);
    let distance = |p: &Pos| p.x().abs_diff(cx).max(p.y().abs_diff(cy));
    board
        .empty_cells()
        .filter(|&p| board.is_legal(p))
        .min_by_key(distance)
        .or_else(|| board.empty_cells().min_by_key(distance))
}

#[cfg(test)]
mod tests {
    use super::super::block::Assembler;
    use super::*;
    use crate::search::{OnePlySearcher, Searcher};
    use std::sync::atomic::AtomicBool;

    /// Drives a session synchronously with the one-ply searcher
    /// (instant and deterministic) and returns the rendered replies.
    struct Harness {
        session: Session,
        assembler: Assembler,
        searcher: Box<dyn Searcher>,
    }

    impl Harness {
        fn new() -> Harness {
            Harness {
                session: Session::new(),
                assembler: Assembler::default(),
                searcher: Box::new(OnePlySearcher),
            }
        }

        fn send(&mut self, text: &str) -> Vec<String> {
            let mut out = Vec::new();
            for line in text.lines() {
                for parsed in self.assembler.feed(line) {
                    let effects = match parsed {
                        Ok(command) => self.session.apply(command, Instant::now()),
                        Err(e) => Session::reject(&e),
                    };
                    self.run(effects, &mut out);
                }
            }
            out
        }

        fn run(&mut self, effects: Vec<Effect>, out: &mut Vec<String>) {
            for effect in effects {
                match effect {
                    Effect::Reply(r) => out.push(r.render()),
                    Effect::Think(think) => {
                        let result = self.searcher.search(
                            &think.board,
                            &think.limits,
                            &AtomicBool::new(false),
                            &mut |_| {},
                        );
                        let more = self
                            .session
                            .finish(Thought::Move(result.best_move), Instant::now());
                        self.run(more, out);
                    }
                    Effect::Configure(_) | Effect::ClearHash | Effect::Exit => {}
                }
            }
        }

        fn board(&self) -> &Board {
            self.session.board().expect("a game")
        }
    }

    #[test]
    fn start_begin_plays_the_centre_and_turn_answers() {
        let mut h = Harness::new();
        assert_eq!(h.send("START 15"), ["OK"]);
        assert_eq!(h.send("BEGIN"), ["7,7"]);
        let reply = h.send("TURN 8,8");
        assert_eq!(reply.len(), 1);
        assert_eq!(h.board().stone_count(), 3);
    }

    #[test]
    fn errors_leave_the_game_unchanged() {
        let mut h = Harness::new();
        h.send("START 15\nBEGIN");
        let before = format!("{:?}", h.board());
        for bad in [
            "TURN 7,7",
            "TURN 15,0",
            "TURN -1,3",
            "BEGIN",
            "START 4",
            "START 33",
            "RECTSTART 40,10",
            "TAKEBACK 0,0",
            "PLAY 7,7",
            "BOARD\n1,1,1\n2,2,x\nDONE",
            "BOARD\n1,1,1\n1,1,2\nDONE",
            "BOARD\n1,1,1\n2,2,1\nDONE",
            "SWAP2BOARD\n1,1\nDONE",
            "YXNBEST 0",
        ] {
            let replies = h.send(bad);
            assert!(
                replies.iter().all(|r| r.starts_with("ERROR ")),
                "{bad:?} -> {replies:?}"
            );
            assert_eq!(
                format!("{:?}", h.board()),
                before,
                "{bad:?} changed the board"
            );
        }
    }

    #[test]
    fn board_colours_come_from_the_counts() {
        let mut h = Harness::new();
        h.send("START 15");
        // The opponent has one stone more, so the opponent is Black, even
        // though our stone is listed first.
        h.send("YXBOARD\n7,7,1\n8,8,2\n9,9,2\nDONE");
        assert_eq!(h.board().cell(Pos::new(7, 7)), Cell::Stone(Color::White));
        assert_eq!(h.board().cell(Pos::new(8, 8)), Cell::Stone(Color::Black));
        assert_eq!(h.board().side_to_move(), Color::White);
        h.send("YXBOARD\n7,7,2\n8,8,1\nDONE");
        assert_eq!(h.board().cell(Pos::new(8, 8)), Cell::Stone(Color::Black));
        assert_eq!(h.board().side_to_move(), Color::Black);
    }

    #[test]
    fn an_irregular_yxboard_makes_the_larger_side_black() {
        let mut h = Harness::new();
        h.send("START 15");
        // Three stones of field 1 against none: only Black can have them.
        assert_eq!(
            h.send("YXBOARD\n7,7,1\n8,8,1\n9,9,1\nDONE"),
            Vec::<String>::new()
        );
        assert_eq!(h.board().cell(Pos::new(9, 9)), Cell::Stone(Color::Black));
        // The same stones as field 2.
        h.send("YXBOARD\n7,7,2\n8,8,2\n9,9,2\nDONE");
        assert_eq!(h.board().cell(Pos::new(9, 9)), Cell::Stone(Color::Black));
        // Black (field 1) with one stone more than White.
        h.send("YXBOARD\n7,7,1\n8,8,1\n9,9,2\nDONE");
        assert_eq!(h.board().cell(Pos::new(7, 7)), Cell::Stone(Color::Black));
        assert_eq!(h.board().cell(Pos::new(9, 9)), Cell::Stone(Color::White));
    }

    #[test]
    fn an_irregular_board_is_refused_because_we_must_move() {
        let mut h = Harness::new();
        h.send("START 15");
        let replies = h.send("BOARD\n7,7,1\n8,8,1\n9,9,1\nDONE");
        assert_eq!(replies.len(), 1);
        assert!(replies[0].starts_with("ERROR "), "{replies:?}");
        assert_eq!(h.board().stone_count(), 0);
    }

    #[test]
    fn showforbid_lists_black_points_whoever_is_to_move() {
        let mut h = Harness::new();
        h.send("START 15");
        h.send("INFO rule 4");
        // . X X + .   on row 8, and the same vertically through 7,8: 7,8 is
        // a double three for Black. White has one stone more than needed
        // for Black to be on turn.
        h.send("YXBOARD\n5,8,2\n6,8,2\n7,9,2\n7,10,2\n0,0,1\n14,14,1\n0,14,1\nDONE");
        assert_eq!(h.board().side_to_move(), Color::White);
        assert_eq!(h.send("YXSHOWFORBID"), ["FORBID 0708."]);
    }

    #[test]
    fn an_empty_board_means_we_move_first() {
        let mut h = Harness::new();
        h.send("START 15");
        assert_eq!(h.send("BOARD\nDONE"), ["7,7"]);
    }

    #[test]
    fn field_three_is_a_wall() {
        let mut h = Harness::new();
        h.send("START 15");
        h.send("YXBOARD\n7,7,3\nDONE");
        assert_eq!(h.board().cell(Pos::new(7, 7)), Cell::Wall);
        assert_eq!(h.board().stone_count(), 0);
    }

    #[test]
    fn the_one_ply_searcher_takes_a_five_and_blocks_a_four() {
        // . X X X X .     we are X (field 1), to move: take the five.
        let mut h = Harness::new();
        h.send("START 15");
        let take = h.send("BOARD\n1,0,1\n1,5,2\n2,0,1\n2,5,2\n3,0,1\n3,5,2\n4,0,1\n4,5,2\nDONE");
        assert!(take == ["0,0"] || take == ["5,0"], "{take:?}");
        // The opponent's four on row 5 must be blocked when we have none.
        let block = h.send("BOARD\n1,5,2\n9,9,1\n2,5,2\n9,11,1\n3,5,2\n12,12,1\n4,5,2\nDONE");
        assert!(block == ["0,5"] || block == ["5,5"], "{block:?}");
    }

    #[test]
    fn takeback_removes_the_named_stone() {
        let mut h = Harness::new();
        h.send("START 15\nBEGIN\nTURN 8,8");
        let last = h.board().last_move().unwrap();
        assert_eq!(h.send(&format!("TAKEBACK {:?}", last)), ["OK"]);
        assert_eq!(h.send("TAKEBACK 8,8"), ["OK"]);
        assert_eq!(h.board().history(), &[Pos::new(7, 7)]);
        assert!(h.send("TAKEBACK 8,8")[0].starts_with("ERROR "));
        // A stone that is not the last one is removed where it stands.
        h.send("TURN 8,8");
        assert_eq!(h.send("TAKEBACK 7,7"), ["OK"]);
        assert!(h.board().is_empty(Pos::new(7, 7)));
    }

    #[test]
    fn restart_keeps_size_and_rule() {
        let mut h = Harness::new();
        h.send("RECTSTART 20,12\nINFO rule 4\nBEGIN");
        assert_eq!(h.send("RESTART"), ["OK"]);
        assert_eq!((h.board().width(), h.board().height()), (20, 12));
        assert_eq!(h.board().rule(), Rule::Renju);
        assert_eq!(h.board().stone_count(), 0);
    }

    #[test]
    fn start_is_idempotent() {
        let mut h = Harness::new();
        for _ in 0..3 {
            assert_eq!(h.send("start 15"), ["OK"]);
            assert_eq!(h.send("begin"), ["7,7"]);
        }
    }

    #[test]
    fn rule_codes() {
        assert_eq!(rule_from_code(0), (Rule::Freestyle, None));
        assert_eq!(rule_from_code(1), (Rule::Standard, None));
        assert_eq!(rule_from_code(2), (Rule::Renju, None));
        assert_eq!(rule_from_code(4), (Rule::Renju, None));
        assert_eq!(rule_from_code(8), (Rule::Caro, None));
        assert_eq!(rule_from_code(9), (Rule::CaroExact, None));
        assert_eq!(rule_from_code(3).0, Rule::Standard);
        assert!(rule_from_code(3).1.is_some());
        assert_eq!(rule_from_code(6).0, Rule::Renju);
        assert_eq!(rule_from_code(-7).0, Rule::Freestyle);
    }

    #[test]
    fn an_unsupported_rule_is_announced() {
        let mut h = Harness::new();
        let replies = h.send("INFO rule 3");
        assert_eq!(replies.len(), 1);
        assert!(replies[0].starts_with("MESSAGE rule 3 "), "{replies:?}");
        assert!(h.send("INFO rule 1").is_empty());
    }

    #[test]
    fn info_is_silent_and_sets_limits() {
        let mut s = Session::new();
        let now = Instant::now();
        for line in [
            "INFO timeout_turn 5000",
            "INFO timeout_match 100000",
            "INFO time_left 2147483647",
            "INFO max_node -1",
            "INFO max_depth 9",
            "INFO folder C:\\a b",
            "INFO who_knows 3",
        ] {
            assert!(s.apply(Command::parse(line).unwrap(), now).is_empty());
        }
        let limits = s.limits(now);
        assert_eq!(limits.nodes, None);
        assert_eq!(limits.depth, Some(9));
        let hard = limits.time.unwrap().hard;
        assert!(hard < Duration::from_millis(5000) && hard > Duration::from_millis(3000));
    }

    #[test]
    fn timeout_turn_zero_defers_to_the_match_clock_or_plays_quickly() {
        let mut s = Session::new();
        let now = Instant::now();
        s.apply(Command::Info(Info::TimeoutTurn(0)), now);
        s.apply(Command::Info(Info::TimeoutMatch(0)), now);
        assert_eq!(s.limits(now).time.unwrap().hard, QUICK_MOVE);
        s.apply(Command::Info(Info::TimeLeft(60_000)), now);
        let hard = s.limits(now).time.unwrap().hard;
        assert!(hard > QUICK_MOVE && hard < Duration::from_millis(60_000));
        // With a node limit and no clock, the search may take its time.
        s.apply(Command::Info(Info::TimeLeft(2_147_483_647)), now);
        s.apply(Command::Info(Info::MaxNode(1000)), now);
        assert!(s.limits(now).time.is_none());
    }

    #[test]
    fn memory_settings_reach_the_searcher_once() {
        let mut s = Session::new();
        let now = Instant::now();
        s.apply(
            Command::Start {
                width: 15,
                height: 15,
            },
            now,
        );
        s.apply(Command::Info(Info::MaxMemory(0)), now);
        s.apply(Command::Info(Info::HashSize(65536)), now);
        let effects = s.apply(Command::Begin, now);
        let configured: Vec<_> = effects
            .iter()
            .filter_map(|e| match e {
                Effect::Configure(o) => Some(o.memory_bytes),
                _ => None,
            })
            .collect();
        assert_eq!(configured, [64 << 20]);
        s.finish(Thought::Move(None), now);
        let again = s.apply(Command::Turn(Point { x: 0, y: 0 }), now);
        assert!(!again.iter().any(|e| matches!(e, Effect::Configure(_))));
    }

    #[test]
    fn showforbid_lists_nothing_outside_renju() {
        let mut h = Harness::new();
        h.send("START 15");
        assert_eq!(h.send("YXSHOWFORBID"), ["FORBID ."]);
    }

    #[test]
    fn commands_before_start_are_errors() {
        let mut h = Harness::new();
        for line in ["BEGIN", "TURN 1,1", "RESTART", "TAKEBACK 1,1", "PLAY 1,1"] {
            let replies = h.send(line);
            assert!(replies[0].starts_with("ERROR "), "{line} -> {replies:?}");
        }
        assert_eq!(h.send("ABOUT").len(), 1);
    }

    #[test]
    fn blocked_points_are_excluded_while_another_move_exists() {
        let mut s = Session::new();
        let now = Instant::now();
        s.apply(
            Command::Start {
                width: 5,
                height: 5,
            },
            now,
        );
        let all: Vec<Point> = (0..5)
            .flat_map(|y| (0..5).map(move |x| Point { x, y }))
            .collect();
        s.apply(Command::Block(all[..24].to_vec()), now);
        let excluded = |s: &mut Session| match s.apply(Command::Begin, now).pop() {
            Some(Effect::Think(think)) => think.limits.excluded.len(),
            other => panic!("{other:?}"),
        };
        assert_eq!(excluded(&mut s), 24);
        s.finish(Thought::Move(None), now);
        s.apply(Command::Restart, now);
        s.apply(Command::Block(all[24..].to_vec()), now);
        assert_eq!(
            excluded(&mut s),
            0,
            "everything blocked: the block is ignored"
        );
        s.finish(Thought::Move(None), now);
        s.apply(Command::Restart, now);
        s.apply(Command::BlockUndo(all[..10].to_vec()), now);
        assert_eq!(excluded(&mut s), 15);
    }

    #[test]
    fn yixin_swap2_answers_are_messages() {
        let render = |step, decision| -> Vec<String> {
            yx_swap2_replies(step, decision)
                .into_iter()
                .map(|e| match e {
                    Effect::Reply(r) => r.render(),
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        let (a, b, c) = (Pos::new(7, 7), Pos::new(8, 6), Pos::new(9, 8));
        assert_eq!(
            render(1, Swap2Decision::PlaceThree([a, b, c])),
            [
                "MESSAGE SWAP2 MOVE1 7 7",
                "MESSAGE SWAP2 MOVE2 8 6",
                "MESSAGE SWAP2 MOVE3 9 8"
            ]
        );
        assert_eq!(render(2, Swap2Decision::Swap), ["MESSAGE SWAP2 SWAP1 YES"]);
        assert_eq!(
            render(2, Swap2Decision::Move(a)),
            ["MESSAGE SWAP2 SWAP1 NO"]
        );
        assert_eq!(
            render(2, Swap2Decision::TwoMoves(a, b)),
            ["MESSAGE SWAP2 MOVE4 7 7", "MESSAGE SWAP2 MOVE5 8 6"]
        );
        assert_eq!(render(3, Swap2Decision::Swap), ["MESSAGE SWAP2 SWAP2 YES"]);
        assert_eq!(
            render(3, Swap2Decision::Move(a)),
            ["MESSAGE SWAP2 SWAP2 NO"]
        );
    }

    #[test]
    fn geometry_is_a_setting_that_outlives_games() {
        let mut h = Harness::new();
        assert!(h.send("INFO geometry hex").is_empty());
        h.send("START 15");
        assert_eq!(h.board().geometry(), Geometry::Hex);
        h.send("INFO rule 4\nBEGIN\nRESTART");
        assert_eq!(h.board().geometry(), Geometry::Hex);
        assert_eq!(h.board().rule(), Rule::Renju);
        h.send("RECTSTART 20,12\nYXBOARD\n1,1,1\nDONE");
        assert_eq!(h.board().geometry(), Geometry::Hex);
        h.send("INFO geometry square\nSTART 15");
        assert_eq!(h.board().geometry(), Geometry::Square);
    }

    #[test]
    fn geometry_set_mid_game_keeps_the_stones() {
        let mut h = Harness::new();
        h.send("START 15\nBEGIN\nTURN 8,8");
        let history = h.board().history().to_vec();
        assert_eq!(history.len(), 3);
        h.send("INFO geometry hex");
        assert_eq!(h.board().geometry(), Geometry::Hex);
        assert_eq!(h.board().history(), &history[..]);
        assert_eq!(h.board().side_to_move(), Color::White);
    }

    #[test]
    fn an_unknown_geometry_is_a_message_and_changes_nothing() {
        let mut h = Harness::new();
        h.send("INFO geometry hex\nSTART 15");
        let replies = h.send("INFO geometry triangle");
        assert_eq!(replies.len(), 1);
        assert!(
            replies[0].starts_with("MESSAGE INFO ignored: geometry"),
            "{replies:?}"
        );
        assert_eq!(h.board().geometry(), Geometry::Hex);
    }

    #[test]
    fn hex_lines_decide_wins_and_forbidden_points() {
        // Black (field 1) on 7,7's row and on the square diagonal through
        // it: two threes on a square board, one on the hex board, whose
        // lines are the row, the column and the rising diagonal (1,-1).
        let mut h = Harness::new();
        h.send("INFO rule 4\nSTART 15");
        h.send("YXBOARD\n5,7,1\n6,7,1\n8,8,1\n9,9,1\n0,0,2\n14,0,2\n0,14,2\nDONE");
        assert_eq!(h.send("YXSHOWFORBID"), ["FORBID 0707."]);
        h.send("INFO geometry hex");
        assert_eq!(h.send("YXSHOWFORBID"), ["FORBID ."]);
        // The rising diagonal is a hex line: the same shape along it is a
        // double three again.
        h.send("YXBOARD\n5,7,1\n6,7,1\n8,6,1\n9,5,1\n0,0,2\n14,0,2\n0,14,2\nDONE");
        assert_eq!(h.send("YXSHOWFORBID"), ["FORBID 0707."]);
    }

    #[test]
    fn pv_notation_follows_yixin_board_once_it_introduces_itself() {
        let mut s = Session::new();
        let now = Instant::now();
        let notation = |s: &mut Session| {
            let notation = match s.apply(Command::Begin, now).pop() {
                Some(Effect::Think(think)) => think.detail.notation,
                other => panic!("{other:?}"),
            };
            s.finish(Thought::Move(None), now);
            s.apply(Command::Restart, now);
            notation
        };
        s.apply(
            Command::Start {
                width: 15,
                height: 15,
            },
            now,
        );
        assert_eq!(notation(&mut s), Notation::Protocol);
        s.apply(Command::ShowInfo, now);
        assert_eq!(notation(&mut s), Notation::YixinBoard { rows: 15 });
    }

    #[test]
    fn play_echoes_the_move() {
        let mut h = Harness::new();
        h.send("START 15");
        assert_eq!(h.send("PLAY 3,4"), ["3,4"]);
        assert_eq!(h.board().cell(Pos::new(3, 4)), Cell::Stone(Color::Black));
    }
}
