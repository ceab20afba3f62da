//! The game state: the commands that set or change the position (`START`,
//! `RESTART`, `BEGIN`, `TURN`, `PLAY`, `TAKEBACK`, `BOARD`, `YXBOARD`,
//! `SWAP2BOARD`, Yixin-Board's swap2 steps, `YXBLOCK`, `YXNBEST`) and the
//! checks each runs before anything changes.

use super::{Effect, Outcome, Session, Task};
use crate::board::{Board, Cell, Color, Pos};
use crate::protocol::command::{BoardEntry, Field, Point};
use crate::protocol::reply::Reply;
use crate::search::{Score, MATE_BOUND};
use std::time::{Duration, Instant};

/// The longest `START` waits for the rule tables before its `OK` (managers
/// allow 3 s; on a quiet machine the tables take a quarter of a second).
const TABLE_WAIT: Duration = Duration::from_millis(1_000);

/// Piskvork, c-gomoku-cli and wuzi-match keep `START` off the move clock,
/// but a move right after it would wait for a rule's tables (or share the
/// CPU with their building): let them finish before the `OK`, within
/// `TABLE_WAIT`, so that a starved machine does not miss the manager's
/// start time-out instead. Once the tables are built this returns at once.
pub(super) fn wait_for_tables() {
    let (done, finished) = std::sync::mpsc::channel();
    let builder = std::thread::Builder::new().spawn(move || {
        crate::board::prepare_tables();
        let _ = done.send(());
    });
    if builder.is_ok() {
        let _ = finished.recv_timeout(TABLE_WAIT);
    }
}

impl Session {
    /// An empty board of that size under the current rule and geometry.
    pub(super) fn empty_board(&self, width: usize, height: usize) -> Result<Board, String> {
        Board::with_geometry(width, height, self.rule, self.geometry).map_err(|e| e.to_string())
    }

    pub(super) fn game(&self) -> Result<&Board, String> {
        self.board
            .as_ref()
            .ok_or_else(|| "no game: send START first".to_string())
    }

    pub(super) fn start(&mut self, width: i64, height: i64) -> Outcome {
        wait_for_tables();
        let size = |n: i64| usize::try_from(n).unwrap_or(usize::MAX);
        let board = self.empty_board(size(width), size(height)).map_err(|_| {
            // Piskvork falls back to 20x20 by itself when the refusal names 20.
            format!("unsupported board size {width}x{height}: sides of 5 to 32 are supported (e.g. 15 or 20)")
        })?;
        self.board = Some(board);
        Ok(vec![Effect::Reply(Reply::Ok)])
    }

    pub(super) fn restart(&mut self) -> Outcome {
        let board = self.game()?;
        let (width, height) = (board.width(), board.height());
        self.board = self.empty_board(width, height).ok();
        Ok(vec![Effect::Reply(Reply::Ok)])
    }

    pub(super) fn begin(&mut self, received: Instant) -> Outcome {
        let board = self.game()?;
        if board.stone_count() > 0 {
            return Err("BEGIN on a board that is not empty".to_string());
        }
        has_room(board)?;
        Ok(self.think(Task::Move, received))
    }

    pub(super) fn turn(&mut self, point: Point, received: Instant) -> Outcome {
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

    pub(super) fn play(&mut self, point: Point) -> Outcome {
        let board = self.game()?;
        let pos = checked_empty(board, point)?;
        if let Some(board) = self.board.as_mut() {
            board
                .play(pos)
                .map_err(|e| format!("{},{}: {e}", point.x, point.y))?;
        }
        Ok(vec![Effect::Reply(Reply::Move(pos))])
    }

    pub(super) fn takeback(&mut self, point: Point) -> Outcome {
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
    pub(super) fn set_position(
        &self,
        entries: &[BoardEntry],
        to_move: bool,
    ) -> Result<Board, String> {
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

    pub(super) fn swap2(&mut self, points: &[Point], received: Instant) -> Outcome {
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
    pub(super) fn yx_swap2(&mut self, step: u8, received: Instant) -> Outcome {
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

    /// `yxbalanceone` / `yxbalancetwo`: a search on the current position.
    pub(super) fn balance(&mut self, bias: i64, stones: u8, received: Instant) -> Outcome {
        let board = self.game()?;
        let legal = board.empty_cells().filter(|&p| board.is_legal(p)).count();
        if legal < usize::from(stones) {
            return Err(format!("no room for {stones} more stones"));
        }
        let bias = bias.clamp(-i64::from(MATE_BOUND), i64::from(MATE_BOUND)) as Score;
        Ok(self.think(Task::Balance { bias, stones }, received))
    }

    pub(super) fn block(&mut self, points: &[Point]) -> Result<(), String> {
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

    pub(super) fn nbest(&mut self, count: i64, received: Instant) -> Outcome {
        let board = self.game()?;
        if count < 1 {
            return Err(format!("YXNBEST needs a positive count, not {count}"));
        }
        let legal = board.empty_cells().filter(|&p| board.is_legal(p)).count();
        let lines = (count as usize).min(legal.max(1));
        has_room(board)?;
        Ok(self.think(Task::Nbest(lines), received))
    }
}

pub(super) fn has_room(board: &Board) -> Result<(), String> {
    match board.empty_cells().next() {
        Some(_) => Ok(()),
        None => Err("no empty point left to play".to_string()),
    }
}

pub(super) fn on_board(board: &Board, pos: Pos) -> bool {
    board.pos(pos.x() as i64, pos.y() as i64) == Some(pos)
}

pub(super) fn off_board(board: &Board, point: Point) -> String {
    format!(
        "{},{} is off the {}x{} board",
        point.x,
        point.y,
        board.width(),
        board.height()
    )
}

pub(super) fn checked_empty(board: &Board, point: Point) -> Result<Pos, String> {
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
pub(super) fn fallback_move(board: &Board) -> Option<Pos> {
    let (cx, cy) = (board.width() / 2, board.height() / 2);
    let distance = |p: &Pos| p.x().abs_diff(cx).max(p.y().abs_diff(cy));
    board
        .empty_cells()
        .filter(|&p| board.is_legal(p))
        .min_by_key(distance)
        .or_else(|| board.empty_cells().min_by_key(distance))
}
