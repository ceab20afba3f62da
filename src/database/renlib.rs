//! RenLib `.lib` files into the database (`pbrain-wuzi db import FILE.lib`).
//!
//! A `.lib` file is a 20-byte header (`FF 'RenLib' FF`, then the version)
//! and a game tree written depth first, two bytes a node: the move (low
//! nibble = column + 1, high nibble = row; 0 = no move) and flags:
//!
//! | flag | meaning |
//! |---|---|
//! | `0x80` | a sibling (another move in the same position) follows the subtree |
//! | `0x40` | no child: the next node is not a reply to this one |
//! | `0x08` | a comment follows |
//! | `0x01` | a board text follows (after two bytes of extension) |
//!
//! Comment, then text, are zero-terminated strings read two bytes at a time.
//! A first node without a move is the old format's root and is skipped.
//! Texts become labels (`W` win, `L` loss for the side that moved; `v`/`m`
//! then a number: a value) or, otherwise, the board text of the move in the
//! position before it; comments become the position's comment. The boards
//! are 15x15. The tree is walked without recursion, so no file can exhaust
//! the stack.

use super::record::{clipped, Bound};
use super::Database;
use crate::board::{Board, Rule};

const HEADER_BYTES: usize = 20;
const SIBLING: u8 = 0x80;
const NO_CHILD: u8 = 0x40;
const COMMENT: u8 = 0x08;
const TEXT: u8 = 0x01;
/// RenLib's board side.
pub const SIZE: usize = 15;

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportStats {
    pub nodes: usize,
    pub positions: usize,
    /// Nodes whose move is off the board or on a stone (their subtrees are
    /// read and dropped).
    pub skipped: usize,
}

struct Node {
    /// Column and row; `None` for a node without a move.
    pos: Option<(i64, i64)>,
    flags: u8,
    text: Option<String>,
    comment: Option<String>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| format!("the file ends inside a node (byte {})", self.at))?;
        self.at += 1;
        Ok(byte)
    }

    fn has_node(&self) -> bool {
        self.at + 2 <= self.bytes.len()
    }

    /// A zero-terminated string read in pairs of bytes (Latin-1 bytes kept
    /// as characters).
    fn string(&mut self) -> Result<String, String> {
        let mut out = Vec::new();
        loop {
            let (a, b) = (self.byte()?, self.byte()?);
            out.extend([a, b].into_iter().take_while(|&c| c != 0));
            if a == 0 || b == 0 {
                break;
            }
        }
        Ok(clipped(&out.iter().map(|&c| c as char).collect::<String>()))
    }

    fn node(&mut self) -> Result<Node, String> {
        let (mv, flags) = (self.byte()?, self.byte()?);
        let pos = (mv != 0).then(|| {
            let column = (mv & 0x0f) as i64 - 1;
            let row = (mv >> 4) as i64;
            (column, row)
        });
        if flags & TEXT != 0 {
            self.byte()?;
            self.byte()?;
        }
        let comment = (flags & COMMENT != 0).then(|| self.string()).transpose()?;
        let text = (flags & TEXT != 0).then(|| self.string()).transpose()?;
        Ok(Node {
            pos,
            flags,
            text,
            comment,
        })
    }
}

/// Imports the `.lib` file's bytes into `database` for `rule`.
pub fn import(bytes: &[u8], rule: Rule, database: &mut Database) -> Result<ImportStats, String> {
    if bytes.len() < HEADER_BYTES || bytes.get(1..7) != Some(b"RenLib".as_slice()) {
        return Err("not a RenLib file (no 'RenLib' header)".to_string());
    }
    let mut reader = Reader {
        bytes,
        at: HEADER_BYTES,
    };
    if !reader.has_node() {
        return Err("no game tree after the header".to_string());
    }
    let mut stats = ImportStats::default();
    let mut board = Board::new(SIZE, SIZE, rule).map_err(|e| e.to_string())?;
    let mut node = reader.node()?;
    stats.nodes += 1;
    if node.pos.is_none() && reader.has_node() {
        node = reader.node()?;
        stats.nodes += 1;
    }
    // For each node whose children are being read: whether it has a
    // sibling still to come, and whether its move was played.
    let mut open: Vec<(bool, bool)> = Vec::new();
    // Open nodes whose move could not be played: their subtrees are dropped.
    let mut dropped = 0usize;
    loop {
        let playable = node.pos.and_then(|(x, y)| board.pos(x, y));
        let played = match (node.pos, playable) {
            (_, Some(p)) if dropped == 0 && board.is_empty(p) => {
                board.make(p);
                record(&node, &board, database);
                stats.positions += 1;
                true
            }
            (Some(_), _) => {
                stats.skipped += usize::from(dropped == 0);
                false
            }
            (None, _) => false,
        };
        if node.flags & NO_CHILD == 0 {
            open.push((node.flags & SIBLING != 0, played));
            dropped += usize::from(!played);
        } else {
            if played {
                board.unmake();
            }
            let mut has_sibling = node.flags & SIBLING != 0;
            while !has_sibling {
                let Some((sibling, was_played)) = open.pop() else {
                    return Ok(stats);
                };
                if was_played {
                    board.unmake();
                } else {
                    dropped -= 1;
                }
                has_sibling = sibling;
            }
        }
        if !reader.has_node() {
            return Err(format!("the tree is cut short after {} nodes", stats.nodes));
        }
        node = reader.node()?;
        stats.nodes += 1;
    }
}

/// The node's text and comment into the record of the position after its
/// move (and a plain text onto the position before it).
fn record(node: &Node, board: &Board, database: &mut Database) {
    let entry = database.entry(board);
    if let Some(comment) = node.comment.as_deref().filter(|c| !c.is_empty()) {
        let comment = comment.replace("\r\n", "\n");
        if entry.comment.is_empty() {
            entry.comment = comment;
        } else if !entry.comment.contains(&comment) {
            entry.comment = clipped(&format!("{}\n{comment}", entry.comment));
        }
    }
    let Some(text) = node.text.as_deref().filter(|t| !t.is_empty()) else {
        return;
    };
    let number = |t: &str| t.trim().parse::<i32>().ok();
    match (text.as_bytes()[0], number(&text[1..])) {
        (b'W', _) => entry.label = Some(b'w'),
        (b'L', _) => entry.label = Some(b'l'),
        // `v`: the value for the side that moved; `m`: for the side to move.
        (b'v' | b'm', Some(value)) => {
            let value = value.clamp(
                -crate::eval::score::MATE_BOUND,
                crate::eval::score::MATE_BOUND,
            );
            entry.value = if text.starts_with('v') { -value } else { value };
            entry.bound = Bound::Exact;
        }
        _ => {
            let mut before = board.clone();
            if let Some(last) = before.last_move() {
                before.unmake();
                database.set_board_text(&before, last, text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;

    /// `FF 'RenLib' FF`, version 3.4, padding to 20 bytes.
    fn header() -> Vec<u8> {
        let mut bytes = vec![0xFF];
        bytes.extend_from_slice(b"RenLib");
        bytes.extend_from_slice(&[0xFF, 3, 4]);
        bytes.resize(HEADER_BYTES, 0);
        bytes
    }

    /// The move byte of column `x`, row `y`.
    fn mv(x: u8, y: u8) -> u8 {
        (y << 4) | (x + 1)
    }

    /// A tree: root h8 (7,7) → i9 (8,8) [text "W", comment "good"] → j10
    /// (9,9) leaf; sibling of i9: g9 (6,8) [text "A"] leaf.
    fn sample() -> Vec<u8> {
        let mut bytes = header();
        bytes.extend_from_slice(&[0, 0]); // old-format root: no move
        bytes.extend_from_slice(&[mv(7, 7), 0]);
        bytes.extend_from_slice(&[mv(8, 8), SIBLING | COMMENT | TEXT, 0, 1]);
        bytes.extend_from_slice(b"good\0\0");
        bytes.extend_from_slice(b"W\0");
        bytes.extend_from_slice(&[mv(9, 9), NO_CHILD]);
        bytes.extend_from_slice(&[mv(6, 8), NO_CHILD | TEXT, 0, 1]);
        bytes.extend_from_slice(b"A\0");
        bytes
    }

    fn board(stones: &[(usize, usize)]) -> Board {
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        for &(x, y) in stones {
            board.play(Pos::new(x, y)).unwrap();
        }
        board
    }

    #[test]
    fn a_small_library_becomes_records() {
        let mut database = Database::default();
        let stats = import(&sample(), Rule::Renju, &mut database).unwrap();
        assert_eq!(stats.nodes, 5);
        assert_eq!(stats.positions, 4);
        let won = database.get(&board(&[(7, 7), (8, 8)])).unwrap();
        assert_eq!(won.label, Some(b'w'));
        assert_eq!(won.comment, "good");
        assert!(database.get(&board(&[(7, 7), (8, 8), (9, 9)])).is_some());
        assert!(database.get(&board(&[(7, 7), (6, 8)])).is_some());
        assert_eq!(
            database.board_text(&board(&[(7, 7)]), Pos::new(6, 8)),
            Some("A")
        );
    }

    #[test]
    fn broken_libraries_are_errors_not_panics() {
        assert!(import(b"hello", Rule::Renju, &mut Database::default()).is_err());
        assert!(import(&header(), Rule::Renju, &mut Database::default()).is_err());
        let full = sample();
        for cut in HEADER_BYTES + 1..full.len() {
            let result = import(&full[..cut], Rule::Renju, &mut Database::default());
            assert!(result.is_err(), "cut at {cut}");
        }
        // A stone played twice drops its subtree; a deep chain is no threat.
        let mut bytes = header();
        bytes.extend_from_slice(&[mv(7, 7), 0, mv(7, 7), 0, mv(8, 8), NO_CHILD]);
        let mut database = Database::default();
        let stats = import(&bytes, Rule::Renju, &mut database).unwrap();
        assert_eq!((stats.positions, stats.skipped), (1, 1));
        let mut deep = header();
        for _ in 0..100_000 {
            deep.extend_from_slice(&[mv(7, 7), 0]);
        }
        deep.extend_from_slice(&[mv(8, 8), NO_CHILD]);
        assert!(import(&deep, Rule::Renju, &mut Database::default()).is_ok());
    }
}
