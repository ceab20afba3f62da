//! Opening files: one opening per line, in either of the two formats managers
//! use, plus the checks that an opening is playable under a rule.
//!
//! * pos format (c-gomoku-cli, GomocupJudge): `h8i9j10`: a letter for x
//!   (`a` = 0) then y + 1, counted from the top row.
//! * offset format (Piskvork, Gomocup): `dx,dy, dx,dy, ...`: offsets from the
//!   centre (`width/2`, `height/2`).
//!
//! Stones alternate colours, Black first. Blank lines and lines starting with
//! `#` are skipped.

use crate::board::{Board, Color, Pos, Rule};
use std::fmt;

/// An opening: stones in the order they are played, Black first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub stones: Vec<Pos>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "opening line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningError {}

/// Parses a whole openings file for a board of `width` x `height`, checking
/// that every opening can be set up under `rule`.
pub fn parse_openings(
    text: &str,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |message: String| OpeningError {
            line: index + 1,
            message,
        };
        let points = if line.contains(',') {
            parse_offsets(line, width, height)
        } else {
            parse_pos(line)
        }
        .map_err(error)?;
        let opening = to_opening(&points, width, height, rule).map_err(error)?;
        openings.push(opening);
    }
    Ok(openings)
}

/// `dx,dy, dx,dy, ...` to absolute (x, y).
fn parse_offsets(line: &str, width: usize, height: usize) -> Result<Vec<(i64, i64)>, String> {
    let numbers = line
        .split(',')
        .map(|field| field.trim())
        .filter(|field| !field.is_empty())
        .map(|field| {
            field
                .parse::<i64>()
                .map_err(|_| format!("'{field}' is not a number"))
        })
        .collect::<Result<Vec<i64>, String>>()?;
    if numbers.len() % 2 != 0 {
        return Err("odd number of offsets".into());
    }
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    Ok(numbers
        .chunks(2)
        .map(|pair| (cx + pair[0], cy + pair[1]))
        .collect())
}

/// `h8i9j10` to absolute (x, y).
fn parse_pos(line: &str) -> Result<Vec<(i64, i64)>, String> {
    let mut points = Vec::new();
    let mut chars = line.chars().filter(|c| !c.is_whitespace()).peekable();
    while let Some(letter) = chars.next() {
        if !letter.is_ascii_alphabetic() {
            return Err(format!("expected a column letter, found '{letter}'"));
        }
        let x = (letter.to_ascii_lowercase() as u8 - b'a') as i64;
        let mut digits = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(d);
            chars.next();
        }
        let row: i64 = digits
            .parse()
            .map_err(|_| format!("column '{letter}' has no row number"))?;
        points.push((x, row - 1));
    }
    Ok(points)
}

/// Places the points on an empty board, checking each one.
fn to_opening(
    points: &[(i64, i64)],
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Opening, String> {
    let mut board = Board::new(width, height, rule).map_err(|e| e.to_string())?;
    let mut stones = Vec::with_capacity(points.len());
    for &(x, y) in points {
        let pos = board
            .pos(x, y)
            .ok_or_else(|| format!("stone {x},{y} is off the {width}x{height} board"))?;
        check_stone(&board, pos)?;
        board.play(pos).map_err(|e| format!("stone {x},{y}: {e}"))?;
    }
    stones.extend_from_slice(board.history());
    Ok(Opening { stones })
}

/// Whether the side to move may put an opening stone on `pos`: empty, not a
/// five (the game would be over), and for Black in renju not forbidden.
pub fn check_stone(board: &Board, pos: Pos) -> Result<(), String> {
    let color = board.side_to_move();
    if !board.is_empty(pos) {
        return Err(format!("stone {pos:?} is on an occupied point"));
    }
    if board.is_win(pos, color) {
        return Err(format!("stone {pos:?} completes a five"));
    }
    if board.rule() == Rule::Renju && color == Color::Black {
        if let Some(kind) = board.forbidden(pos) {
            return Err(format!("black stone {pos:?} is forbidden ({kind:?})"));
        }
    }
    Ok(())
}

/// The opening in offset format, for a board of `width` x `height`.
pub fn format_offsets(opening: &Opening, width: usize, height: usize) -> String {
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    opening
        .stones
        .iter()
        .map(|p| format!("{},{}", p.x() as i64 - cx, p.y() as i64 - cy))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The opening in pos format (`h8i9j10`).
pub fn format_pos(opening: &Opening) -> String {
    opening.stones.iter().map(|p| p.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats_give_the_same_stones() {
        // h8 = (7,7) is the centre of 15x15; i9 = (8,8); j10 = (9,9).
        let pos = parse_openings("h8i9j10\n", 15, 15, Rule::Freestyle).unwrap();
        let offsets =
            parse_openings("# comment\n\n0,0, 1,1, 2,2\n", 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(pos, offsets);
        assert_eq!(
            pos[0].stones,
            vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(9, 9)]
        );
    }

    #[test]
    fn offsets_are_relative_to_the_centre_of_each_size() {
        let on_20 = parse_openings("-7,-8, -6,-9, -3,-9", 20, 20, Rule::Freestyle).unwrap();
        assert_eq!(
            on_20[0].stones,
            vec![Pos::new(3, 2), Pos::new(4, 1), Pos::new(7, 1)]
        );
        assert_eq!(format_offsets(&on_20[0], 20, 20), "-7,-8, -6,-9, -3,-9");
        assert_eq!(format_pos(&on_20[0]), "d3e2h2");
    }

    #[test]
    fn bad_openings_are_refused_with_their_line() {
        let cases = [
            ("h8h8", "occupied"),
            ("z30", "off the"),
            ("0,0, 1", "odd"),
            ("8h", "column letter"),
            ("h8i", "no row number"),
            ("a1a2b1b2c1c2d1d2e1", "five"),
        ];
        for (text, needle) in cases {
            let error = parse_openings(&format!("\n{text}"), 15, 15, Rule::Freestyle).unwrap_err();
            assert_eq!(error.line, 2, "{text}");
            assert!(error.message.contains(needle), "{text}: {error}");
        }
    }
}
