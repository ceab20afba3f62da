//! Yixin-Board's database commands on the session's position database:
//! `INFO usedatabase` / `database_readonly`, `yxsetdatabase`,
//! `yxsavedatabase`, the queries and edits (each on a position given as
//! moves) and their `MESSAGE DATABASE …` replies (the formats Rapfi uses).
//!
//! The only part of the session that touches a file: the database file,
//! read when the database is first used and written (by rename) on
//! `yxsavedatabase`, when another file is named, when the database is
//! switched off, and on exit. A file that is not a wuzi database, or is
//! corrupt, is announced with a `MESSAGE` and never written. Messages that
//! are not replies Yixin-Board parses start `MESSAGE Position database`,
//! never `MESSAGE DATABASE`.

use super::game::checked_empty;
use super::{Effect, Outcome, Session};
use crate::board::{Board, Pos};
use crate::database::{file, Bound, Database, Record, DEFAULT_FILE};
use crate::protocol::command::Point;
use crate::protocol::database_command::{quote, DatabaseRequest};
use crate::protocol::reply::Reply;
use crate::search::Score;
use std::path::PathBuf;

/// The database settings and, once used, its contents.
#[derive(Default)]
pub struct DatabaseDesk {
    /// `INFO usedatabase`: off by default, so that no manager but one that
    /// asks for it ever finds a file written.
    enabled: bool,
    /// `INFO database_readonly`: queries only.
    readonly: bool,
    /// `yxsetdatabase`; the default file otherwise.
    path: Option<PathBuf>,
    open: Option<OpenDatabase>,
}

struct OpenDatabase {
    path: PathBuf,
    records: Database,
    /// Changed since read or saved.
    dirty: bool,
    /// Why this file must never be written (it is not ours, or corrupt).
    refused: Option<String>,
}

fn message(text: String) -> Effect {
    Effect::Reply(Reply::Message(text))
}

impl DatabaseDesk {
    fn path(&self) -> PathBuf {
        self.path
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_FILE))
    }

    /// Reads the file if the database is on and not read yet.
    fn ensure_open(&mut self, out: &mut Vec<Effect>) {
        if !self.enabled || self.open.is_some() {
            return;
        }
        let path = self.path();
        let (records, refused) = match file::load(&path) {
            Ok(records) => (records, None),
            Err(error) => {
                out.push(message(format!(
                    "Position database {} is {error}: it is left as it is and never written",
                    path.display()
                )));
                (Database::default(), Some(error.to_string()))
            }
        };
        self.open = Some(OpenDatabase {
            path,
            records,
            dirty: false,
            refused,
        });
    }

    /// Writes the file if it changed; `announce` reports the outcome either way.
    fn save(&mut self, announce: bool, out: &mut Vec<Effect>) {
        let Some(open) = self.open.as_mut() else {
            if announce {
                out.push(message(
                    "Position database is off: nothing to save".to_string(),
                ));
            }
            return;
        };
        if let Some(reason) = &open.refused {
            if announce {
                out.push(message(format!(
                    "Position database {} is not saved: the file is {reason}",
                    open.path.display()
                )));
            }
            return;
        }
        if !open.dirty {
            if announce {
                out.push(message(format!(
                    "Position database {} is unchanged ({} positions)",
                    open.path.display(),
                    open.records.len()
                )));
            }
            return;
        }
        match file::save(&open.records, &open.path) {
            Ok(()) => {
                open.dirty = false;
                if announce {
                    out.push(message(format!(
                        "Position database: saved {} positions to {}",
                        open.records.len(),
                        open.path.display()
                    )));
                }
            }
            Err(error) => out.push(message(format!(
                "Position database could not be saved to {}: {error}",
                open.path.display()
            ))),
        }
    }

    /// Saves what changed and forgets the contents.
    fn close(&mut self, out: &mut Vec<Effect>) {
        self.save(false, out);
        self.open = None;
    }
}

impl Session {
    pub(super) fn use_database(&mut self, on: bool) -> Vec<Effect> {
        let mut out = Vec::new();
        let desk = &mut self.database;
        desk.enabled = on;
        if on {
            desk.ensure_open(&mut out);
        } else {
            desk.close(&mut out);
        }
        out
    }

    pub(super) fn set_database_readonly(&mut self, readonly: bool) {
        self.database.readonly = readonly;
    }

    /// `yxsetdatabase`: saves the current file and opens the named one.
    pub(super) fn set_database(&mut self, path: &str) -> Outcome {
        let path = path.trim();
        if path.is_empty() {
            return Err("yxsetdatabase needs a path on the next line".to_string());
        }
        let mut out = Vec::new();
        let desk = &mut self.database;
        desk.close(&mut out);
        desk.path = Some(PathBuf::from(path));
        desk.ensure_open(&mut out);
        Ok(out)
    }

    pub(super) fn save_database(&mut self) -> Vec<Effect> {
        let mut out = Vec::new();
        self.database.save(true, &mut out);
        out
    }

    /// Saves the database if it changed (on `END` and at the end of input).
    pub fn shutdown(&mut self) -> Vec<Effect> {
        let mut out = Vec::new();
        self.database.save(false, &mut out);
        out
    }

    /// Records a finished search of the current position (its score for
    /// the side to move, exact, and its depth) when the database is on and
    /// writable, unless the record is labelled or holds a deeper value.
    pub fn record_search(&mut self, score: Score, depth: u32) {
        let Some(board) = self.board.as_ref().filter(|b| b.stone_count() > 0) else {
            return;
        };
        let desk = &mut self.database;
        let Some(open) = desk.open.as_mut().filter(|o| o.refused.is_none()) else {
            return;
        };
        if desk.readonly {
            return;
        }
        let depth = depth.min(i32::MAX as u32) as i32;
        let record = open.records.entry(board);
        let deeper_known = record.bound == Bound::Exact && record.depth > depth;
        if record.label.is_none() && !deeper_known {
            record.value = score;
            record.depth = depth;
            record.bound = Bound::Exact;
            open.dirty = true;
        }
    }

    /// The moves of `board` the database marks as not to be played (label
    /// `x`), when it is on.
    pub(super) fn database_blocked_moves(&self, board: &Board) -> Vec<Pos> {
        let Some(open) = self.database.open.as_ref() else {
            return Vec::new();
        };
        open.records
            .children(board)
            .into_iter()
            .filter(|(_, record)| record.label == Some(b'x'))
            .map(|(pos, _)| pos)
            .collect()
    }

    pub(super) fn database_command(
        &mut self,
        request: DatabaseRequest,
        moves: &[Point],
    ) -> Outcome {
        let board = self.database_position(moves)?;
        let mut out = Vec::new();
        let desk = &mut self.database;
        desk.ensure_open(&mut out);
        let readonly = desk.readonly;
        let Some(open) = desk.open.as_mut() else {
            out.push(message(
                "Position database is off (INFO usedatabase 1 turns it on)".to_string(),
            ));
            return Ok(out);
        };
        let edits = !matches!(
            request,
            DatabaseRequest::QueryAll | DatabaseRequest::QueryOne | DatabaseRequest::QueryText
        );
        if edits && readonly {
            out.push(message(
                "Position database is read-only: nothing changed".to_string(),
            ));
            return Ok(out);
        }
        let records = &mut open.records;
        match request {
            DatabaseRequest::QueryAll => out.extend(query_all(records, &board)),
            DatabaseRequest::QueryOne => out.push(query_one(records, &board)),
            DatabaseRequest::QueryText => {
                let comment = records.get(&board).map_or("", |r| r.comment.as_str());
                out.push(message(format!("DATABASE TEXT {}", quote(comment))));
            }
            DatabaseRequest::EditLabel { point, text } => {
                let pos = checked_empty(&board, point)?;
                records.set_board_text(&board, pos, &text);
            }
            DatabaseRequest::EditTvd {
                mask,
                label,
                value,
                depth,
            } => {
                let label = label_from_code(label)?;
                let record = records.entry(&board);
                if mask & 1 != 0 {
                    record.label = label;
                }
                if mask & 2 != 0 {
                    record.value = value.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
                }
                if mask & 4 != 0 {
                    record.depth = depth.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
                    record.bound = Bound::Exact;
                }
                out.push(query_one(records, &board));
            }
            DatabaseRequest::EditText(text) => {
                records.entry(&board).comment = crate::database::record::clipped(&text);
            }
            DatabaseRequest::DeleteOne => {
                records.remove(&board);
            }
            DatabaseRequest::DeleteAll(filter) => {
                let removed = records.remove_descendants(&board, |r| !filter.removes(r.label));
                out.push(message(format!(
                    "Position database: deleted {removed} records"
                )));
                out.extend(query_all(records, &board));
            }
        }
        open.dirty |= edits;
        Ok(out)
    }

    /// The position of a database command: the moves in order, from an
    /// empty board of the current game's size, rule and geometry.
    fn database_position(&self, moves: &[Point]) -> Result<Board, String> {
        let current = self.game()?;
        let mut board = self.empty_board(current.width(), current.height())?;
        for &point in moves {
            let pos = checked_empty(&board, point)?;
            board
                .play(pos)
                .map_err(|e| format!("{},{}: {e}", point.x, point.y))?;
        }
        Ok(board)
    }
}

/// A label code from `yxedittvddatabase`: Yixin-Board sends `W`, `L`, `D`,
/// `X` for win, loss, draw and a move not to play; 0 or -1 is undetermined.
fn label_from_code(code: i64) -> Result<Option<u8>, String> {
    match u8::try_from(code) {
        _ if code == 0 || code == -1 => Ok(None),
        Ok(byte @ (b'W' | b'L' | b'D' | b'X')) => Ok(Some(byte.to_ascii_lowercase())),
        Ok(byte) if crate::database::record::is_label(byte) => Ok(Some(byte)),
        _ => Err(format!("{code} is not a label")),
    }
}

/// `DATABASE ONE label value depth bound display`, or `DATABASE ONE 0 0 0 0`.
fn query_one(records: &Database, board: &Board) -> Effect {
    message(match records.get(board) {
        Some(r) => format!(
            "DATABASE ONE {} {} {} {} {}",
            r.label_code(),
            r.value,
            r.depth,
            r.bound.code(),
            r.display_label()
        ),
        None => "DATABASE ONE 0 0 0 0".to_string(),
    })
}

/// `DATABASE REFRESH`, one line per point with a child record or a board
/// text, `DATABASE DONE`.
fn query_all(records: &Database, board: &Board) -> Vec<Effect> {
    let children = records.children(board);
    let mut lines = vec![message("DATABASE REFRESH".to_string())];
    let empty = Record::default();
    for pos in board.empty_cells() {
        let child = children.iter().find(|(p, _)| *p == pos).map(|(_, r)| *r);
        let text = records.board_text(board, pos);
        if child.is_none() && text.is_none() {
            continue;
        }
        let record = child.unwrap_or(&empty);
        lines.push(message(child_line(pos, record, text.unwrap_or(""))));
    }
    lines.push(message("DATABASE DONE".to_string()));
    lines
}

fn child_line(pos: Pos, record: &Record, text: &str) -> String {
    format!(
        "DATABASE {} {} {} {} {} {} {} {}",
        pos.x(),
        pos.y(),
        record.packed_display_label(),
        record.value,
        record.depth,
        record.bound.code(),
        u8::from(!record.comment.is_empty()),
        text
    )
}
