//! The board's controller, with no terminal: typed commands in, the game, the
//! engine's jobs and a message out. The terminal (`tui`) draws what is here
//! and feeds it keys; the tests feed it scripted lines and read the board as
//! text.

use super::command::{parse, Command, HELP};
use super::engine::{Answer, Engine, Job};
use super::game::{Actor, Game, GameSetup, Outcome};
use super::render::{board_text, Marks};
use super::review::Review;
use crate::board::{Board, Color, Pos, Rule};
use crate::search::swap2::Swap2Decision;
use crate::search::{IterationInfo, Limits, TimeBudget};
use crate::tools::analyze::format_score;
use crate::tools::cli::rule_name;
use crate::tools::records::{parse_record, GameRecord, GameResult, RecordedMove};
use std::time::{Duration, Instant};

/// How hard the engine thinks. Levels 1 to 8 cap the nodes of a search
/// (500 at level 1, four times more each level); level 9 is the full
/// engine, limited by the time alone. `nodes`, when set, replaces both (for
/// tests and repeatable games).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    pub level: u32,
    pub time_ms: u64,
    pub nodes: Option<u64>,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            level: 9,
            time_ms: 1000,
            nodes: None,
        }
    }
}

impl Strength {
    pub fn limits(&self) -> Limits {
        if let Some(nodes) = self.nodes {
            return Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
        }
        let budget = Duration::from_millis(self.time_ms);
        Limits {
            time: Some(TimeBudget {
                start: Instant::now(),
                soft: budget / 2,
                hard: budget,
            }),
            nodes: (self.level < 9).then(|| 500 * 4u64.pow(self.level.saturating_sub(1))),
            ..Limits::default()
        }
    }
}

/// What the engine is doing for us.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    Move,
    Hint,
    Swap2,
    Review,
}

pub struct Play {
    pub game: Game,
    /// The setup `new` starts from.
    setup: GameSetup,
    engine: Engine,
    pub strength: Strength,
    pub task: Option<Task>,
    /// The running (or last) search's latest iteration.
    pub live: Option<IterationInfo>,
    pub hint: Option<Pos>,
    pub message: String,
    pub review: Option<Review>,
    /// Node budget of each position in a review.
    pub review_nodes: u64,
    pub numbers: bool,
    /// The engine waits for `go` (after `load`).
    pub paused: bool,
    pub quit: bool,
}

impl Play {
    pub fn new(setup: GameSetup, strength: Strength) -> Result<Play, String> {
        let mut play = Play {
            game: Game::new(setup)?,
            setup,
            engine: Engine::new(),
            strength,
            task: None,
            live: None,
            hint: None,
            message: "your move: type h8 or use the cursor keys (help lists the commands)".into(),
            review: None,
            review_nodes: 20_000,
            numbers: false,
            paused: false,
            quit: false,
        };
        play.start_engine_if_its_turn();
        Ok(play)
    }

    /// Runs one typed line.
    pub fn type_line(&mut self, line: &str) {
        match parse(line) {
            Ok(command) => self.apply(command),
            Err(message) => self.message = message,
        }
    }

    pub fn apply(&mut self, command: Command) {
        let outcome = self.run(command);
        match outcome {
            Ok(Some(message)) => self.message = message,
            Ok(None) => {}
            Err(message) => self.message = message,
        }
        self.start_engine_if_its_turn();
    }

    fn run(&mut self, command: Command) -> Result<Option<String>, String> {
        if self.review.is_some()
            && !matches!(
                command,
                Command::Step(_)
                    | Command::Back
                    | Command::Quit
                    | Command::Help
                    | Command::Numbers
                    | Command::Save(_)
                    | Command::Load(_)
                    | Command::New
                    | Command::Analyze
            )
        {
            return Err("in analysis: <- -> step through the game, back returns to it".into());
        }
        match command {
            Command::Move(pos) => {
                if self.game.to_act() != Some(Actor::Human) && !self.paused {
                    return Err("wait: the engine is to move (stop makes it play now)".into());
                }
                self.paused = false;
                self.game.play(pos)?;
                self.after_move(format!("you play {pos}"));
            }
            Command::Undo | Command::Redo => {
                self.give_up_task();
                let count = if command == Command::Undo {
                    self.game.undo()?
                } else {
                    self.game.redo()?
                };
                self.paused = false;
                self.hint = None;
                let verb = if command == Command::Undo {
                    "took back"
                } else {
                    "replayed"
                };
                self.message = format!("{verb} {count} stone{}", if count == 1 { "" } else { "s" });
            }
            Command::Hint => {
                if self.task.is_some() {
                    return Err("the engine is busy".into());
                }
                self.start(
                    Task::Hint,
                    Job::Search(self.game.board().clone(), self.strength.limits()),
                );
                self.message = "thinking about a hint…".into();
            }
            Command::Stop => self.engine.hurry(),
            Command::Go => {
                self.paused = false;
                if self.game.to_act() == Some(Actor::Human) && self.game.human_color().is_some() {
                    self.game.switch_sides();
                    self.message = "the engine takes your side".into();
                }
            }
            Command::New => {
                self.give_up_task();
                self.game = Game::new(self.setup)?;
                self.review = None;
                self.paused = false;
                self.hint = None;
                self.live = None;
                self.message = "new game".into();
            }
            Command::Save(path) => {
                std::fs::write(&path, self.record_text(&path))
                    .map_err(|e| format!("cannot write {path}: {e}"))?;
                self.message = format!("saved {} moves to {path}", self.game.board().stone_count());
            }
            Command::Load(path) => self.load(&path)?,
            Command::Analyze => {
                let moves = self.game.board().history().to_vec();
                if moves.is_empty() {
                    return Err("analyze: no moves to review".into());
                }
                let empty = Game::new(GameSetup {
                    swap2: false,
                    ..self.game.setup
                })?;
                self.review = None;
                self.start(
                    Task::Review,
                    Job::Review(empty.board().clone(), moves, self.review_nodes),
                );
                self.message = format!("reviewing {} moves…", self.game.board().stone_count());
            }
            Command::Back => {
                self.review = None;
                self.message = "back to the game".into();
            }
            Command::Step(by) => {
                let review = self.review.as_mut().ok_or("step: analyze first")?;
                review.ply = review.ply.saturating_add_signed(by).min(review.moves.len());
                self.message = review.describe_ply();
            }
            Command::Take(color) => {
                self.game.choose(color)?;
                self.message = format!("you take {color:?}");
            }
            Command::AddTwo => {
                self.game.add_two()?;
                self.message = "add a White stone, then a Black one".into();
            }
            Command::Numbers => self.numbers = !self.numbers,
            Command::Level(level) => {
                self.strength.level = level;
                self.message = format!("level {level}");
            }
            Command::Time(ms) => {
                self.strength.time_ms = ms;
                self.message = format!("{ms} ms a move");
            }
            Command::Help => self.message = HELP.into(),
            Command::Quit => {
                self.give_up_task();
                self.quit = true;
            }
        }
        Ok(None)
    }

    fn after_move(&mut self, what: String) {
        self.hint = None;
        self.message = match self.game.outcome() {
            Some(Outcome::Five(color)) => format!("{what}: five, {color:?} wins"),
            Some(Outcome::Draw) => format!("{what}: the board is full, a draw"),
            None => what,
        };
    }

    fn start(&mut self, task: Task, job: Job) {
        self.live = None;
        self.task = Some(task);
        self.engine.start(job);
    }

    fn give_up_task(&mut self) {
        self.engine.abandon();
        self.task = None;
    }

    fn start_engine_if_its_turn(&mut self) {
        if self.paused || self.task.is_some() || self.review.is_some() || self.quit {
            return;
        }
        if self.game.to_act() != Some(Actor::Engine) {
            return;
        }
        let board = self.game.board().clone();
        if self.game.swap2_stage().is_some() {
            self.start(Task::Swap2, Job::Swap2(board, self.strength.limits()));
        } else {
            self.start(Task::Move, Job::Search(board, self.strength.limits()));
        }
    }

    /// Takes in what the engine has said; waits for its answer if `wait`.
    /// Returns whether anything changed.
    pub fn update(&mut self, wait: bool) -> bool {
        let mut changed = false;
        while let Some(answer) = self.engine.next_answer(wait) {
            changed = true;
            match answer {
                Answer::Iteration(info) => {
                    self.live = Some(info);
                    continue;
                }
                Answer::Searched(result) => self.searched(result.best_move, result.score),
                Answer::Swap2(decision) => self.swap2(decision),
                Answer::Reviewed(result) => match result {
                    Ok(reviews) => {
                        let review = Review {
                            moves: self.game.board().history().to_vec(),
                            reviews,
                            ply: 0,
                        };
                        self.message = format!(
                            "review: {} blunders; <- -> step through the game, back to return",
                            review.blunder_lines().len()
                        );
                        self.review = Some(review);
                    }
                    Err(message) => self.message = format!("review failed: {message}"),
                },
            }
            self.task = None;
            self.start_engine_if_its_turn();
            if !wait {
                continue;
            }
            break;
        }
        changed
    }

    /// Waits until the engine has nothing left to do (tests, scripts).
    pub fn settle(&mut self) {
        while self.task.is_some() {
            self.update(true);
        }
    }

    fn searched(&mut self, best: Option<Pos>, score: crate::search::Score) {
        match (self.task, best) {
            (Some(Task::Hint), Some(pos)) => {
                self.hint = Some(pos);
                self.message = format!("hint: {pos} ({})", format_score(score));
            }
            (Some(Task::Move), Some(pos)) => match self.game.play(pos) {
                Ok(()) => self.after_move(format!(
                    "the engine plays {pos} (its eval {})",
                    format_score(score)
                )),
                Err(message) => self.message = format!("the engine's move {pos}: {message}"),
            },
            _ => self.message = "no move left".into(),
        }
    }

    fn swap2(&mut self, decision: Swap2Decision) {
        let result = match decision {
            Swap2Decision::PlaceThree(stones) => stones
                .iter()
                .try_for_each(|&p| self.game.play(p))
                .map(|()| {
                    "the engine opens with three stones: take black, white (and play), or add two"
                        .to_string()
                }),
            Swap2Decision::Swap => self
                .game
                .choose(Color::Black)
                .map(|()| "the engine takes Black".to_string()),
            Swap2Decision::Move(pos) => self
                .game
                .choose(Color::White)
                .and_then(|()| self.game.play(pos))
                .map(|()| format!("the engine stays White and plays {pos}")),
            Swap2Decision::TwoMoves(white, black) => self
                .game
                .add_two()
                .and_then(|()| self.game.play(white))
                .and_then(|()| self.game.play(black))
                .map(|()| format!("the engine adds {white} and {black}: take black or white")),
        };
        self.message = result.unwrap_or_else(|e| format!("swap2: {e}"));
    }

    fn load(&mut self, path: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let record = parse_record(&text).map_err(|e| format!("{path}: {e}"))?;
        let setup = GameSetup {
            rule: record.rule.unwrap_or(self.game.setup.rule),
            width: record.width,
            height: record.height,
            ..self.setup
        };
        let moves: Vec<Pos> = record.moves.iter().map(|m| m.pos).collect();
        let game = Game::from_moves(setup, &moves).map_err(|e| format!("{path}: {e}"))?;
        self.give_up_task();
        self.game = game;
        self.review = None;
        self.hint = None;
        self.paused = true;
        self.message = format!(
            "loaded {} moves from {path}: go continues the game, analyze reviews it",
            moves.len()
        );
        Ok(())
    }

    /// The game as an SGF record, or `.psq` when the file name says so.
    pub fn record_text(&self, path: &str) -> String {
        let board = self.game.board();
        let name = |color: Color| {
            if self.game.is_human(color) {
                "human"
            } else {
                "wuzi"
            }
        };
        let record = GameRecord {
            width: board.width(),
            height: board.height(),
            rule: board.rule(),
            black: name(Color::Black).into(),
            white: name(Color::White).into(),
            moves: board
                .history()
                .iter()
                .map(|&pos| RecordedMove {
                    pos,
                    think_ms: Some(0),
                })
                .collect(),
            result: match self.game.outcome() {
                Some(Outcome::Five(color)) => Some(GameResult::Win(color)),
                Some(Outcome::Draw) => Some(GameResult::Draw),
                None => None,
            },
            reason: if self.game.outcome().is_some() {
                "five".into()
            } else {
                "unfinished".into()
            },
            event: "wuzi-play".into(),
            round: 1,
        };
        if path.to_ascii_lowercase().ends_with(".psq") {
            record.to_psq()
        } else {
            record.to_sgf()
        }
    }

    /// The board on show: the game's, or the review's position.
    pub fn shown_board(&self) -> Board {
        match &self.review {
            Some(review) => {
                let mut board = Game::new(GameSetup {
                    swap2: false,
                    ..self.game.setup
                })
                .map(|g| g.board().clone())
                .unwrap_or_else(|_| self.game.board().clone());
                for &pos in &review.moves[..review.ply] {
                    let _ = board.play(pos);
                }
                board
            }
            None => self.game.board().clone(),
        }
    }

    pub fn marks(&self, board: &Board) -> Marks {
        Marks {
            forbidden: if board.rule() == Rule::Renju {
                board.forbidden_points()
            } else {
                Vec::new()
            },
            hint: self.hint.filter(|_| self.review.is_none()),
            numbers: self.numbers,
        }
    }

    pub fn board_text(&self) -> String {
        let board = self.shown_board();
        board_text(&board, &self.marks(&board))
    }

    /// One line: rule, size, who plays what, whose turn.
    pub fn status(&self) -> String {
        let board = self.game.board();
        let player = |color: Color| {
            if self.game.is_human(color) {
                "you"
            } else {
                "wuzi"
            }
        };
        let turn = match (self.game.outcome(), self.game.swap2_stage()) {
            (Some(Outcome::Five(color)), _) => format!("{color:?} won"),
            (Some(Outcome::Draw), _) => "draw".into(),
            (None, Some(stage)) => format!("swap2: {stage:?}"),
            (None, None) => format!("{:?} to move", board.side_to_move()),
        };
        format!(
            "{} {}x{}{}  Black: {}  White: {}  move {}  {turn}{}",
            rule_name(board.rule()),
            board.width(),
            board.height(),
            if board.geometry() == crate::board::Geometry::Hex {
                " hex"
            } else {
                ""
            },
            player(Color::Black),
            player(Color::White),
            board.stone_count() + 1,
            if self.paused { "  (paused: go)" } else { "" }
        )
    }

    /// The engine's latest search line: depth, evaluation, principal variation.
    pub fn search_line(&self) -> Option<String> {
        let info = self.live.as_ref()?;
        let pv: Vec<String> = info.pv.iter().take(10).map(|p| p.to_string()).collect();
        Some(format!(
            "depth {} ({}) eval {} nodes {} pv {}",
            info.depth,
            info.seldepth,
            format_score(info.score),
            info.nodes,
            pv.join(" ")
        ))
    }
}
