//! Game records: SGF (`GM[4]`, as c-gomoku-cli writes it) and Piskvork's
//! `.psq`, written by the match runner and read back by `analyze`.
//!
//! SGF coordinates are two letters, `a`+x then `a`+y; each engine move carries
//! `C[<ms>ms]`, each opening stone `C[opening move]`. In `.psq`, coordinates
//! are 1-based and every line ends with the thinking time (0 for openings).

use crate::board::{Color, Geometry, Pos, Rule};
use crate::protocol::command::GEOMETRY_NAMES;
use std::fmt::Write as _;

/// One stone of a record. `think_ms` is `None` for opening stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    pub pos: Pos,
    pub think_ms: Option<u64>,
}

/// How a game ended, from the board's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win(Color),
    Draw,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub black: String,
    pub white: String,
    pub moves: Vec<RecordedMove>,
    /// `None` while a record is read back without a result.
    pub result: Option<GameResult>,
    /// Why the game ended, in words (`five`, `time-out`, …).
    pub reason: String,
    /// Event name and round for the SGF header.
    pub event: String,
    pub round: usize,
}

/// The Gomocup `INFO rule` code of a rule (Caro is 8, exact Caro 9).
pub fn gomocup_rule_code(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
        Rule::Caro => 8,
        Rule::CaroExact => 9,
    }
}

/// The rule for a Gomocup `INFO rule` code; `None` for codes we do not play
/// (continuous games, Yixin's 2).
pub fn rule_from_gomocup_code(code: u32) -> Option<Rule> {
    Rule::ALL
        .into_iter()
        .find(|&rule| gomocup_rule_code(rule) == code)
}

/// The geometry a tool's `--geometry` names (as `INFO geometry` does).
pub fn geometry_from_name(name: &str) -> Result<Geometry, String> {
    GEOMETRY_NAMES
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name.trim()))
        .map(|&(_, geometry)| geometry)
        .ok_or_else(|| format!("--geometry: '{name}' is not square or hex"))
}

fn sgf_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn sgf_point(pos: Pos) -> String {
    let letter = |v: usize| (b'a' + v as u8) as char;
    format!("{}{}", letter(pos.x()), letter(pos.y()))
}

impl GameRecord {
    pub fn to_sgf(&self) -> String {
        let mut sgf = String::from("(;FF[4]GM[4]CA[UTF-8]AP[wuzi-match]");
        let size = if self.width == self.height {
            self.width.to_string()
        } else {
            format!("{}:{}", self.width, self.height)
        };
        let result = match self.result {
            Some(GameResult::Win(Color::Black)) => "B+1",
            Some(GameResult::Win(Color::White)) => "W+1",
            Some(GameResult::Draw) => "0",
            None => "?",
        };
        let _ = write!(
            sgf,
            "GN[{} vs {}]EV[{}]RO[{}]RU[{}]SZ[{}]PB[{}]PW[{}]RE[{}]TE[{}]",
            sgf_escape(&self.black),
            sgf_escape(&self.white),
            sgf_escape(&self.event),
            self.round,
            gomocup_rule_code(self.rule),
            size,
            sgf_escape(&self.black),
            sgf_escape(&self.white),
            result,
            sgf_escape(&self.reason),
        );
        for (ply, stone) in self.moves.iter().enumerate() {
            let colour = if ply % 2 == 0 { 'B' } else { 'W' };
            let comment = match stone.think_ms {
                Some(ms) => format!("{ms}ms"),
                None => "opening move".to_string(),
            };
            let _ = write!(sgf, ";{colour}[{}]C[{comment}]", sgf_point(stone.pos));
        }
        sgf.push_str(")\n");
        sgf
    }

    /// Piskvork's `.psq`: header, `x,y,ms` lines (1-based), the two names, `-1`.
    pub fn to_psq(&self) -> String {
        let mut psq = format!("Piskvorky {}x{}, 11:11, 0\n", self.width, self.height);
        for stone in &self.moves {
            let _ = writeln!(
                psq,
                "{},{},{}",
                stone.pos.x() + 1,
                stone.pos.y() + 1,
                stone.think_ms.unwrap_or(0)
            );
        }
        let _ = writeln!(psq, "{}\n{}\n-1", self.black, self.white);
        psq
    }
}

/// What a record file tells a reader: the board and the stones in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedRecord {
    pub width: usize,
    pub height: usize,
    /// The rule, when the record names it (SGF `RU`).
    pub rule: Option<Rule>,
    pub moves: Vec<RecordedMove>,
}

/// Reads an SGF or `.psq` record, telling them apart by content.
pub fn parse_record(text: &str) -> Result<ParsedRecord, String> {
    if text.trim_start().starts_with('(') {
        parse_sgf(text)
    } else {
        parse_psq(text)
    }
}

/// Reads the first game of an SGF file (main line only).
pub fn parse_sgf(text: &str) -> Result<ParsedRecord, String> {
    let properties = sgf_properties(text)?;
    let mut width = 15;
    let mut height = 15;
    let mut rule = None;
    let mut moves = Vec::new();
    for (name, value) in &properties {
        match name.as_str() {
            "SZ" => {
                let (w, h) = match value.split_once(':') {
                    Some((w, h)) => (w, h),
                    None => (value.as_str(), value.as_str()),
                };
                width = w.trim().parse().map_err(|_| format!("bad SZ[{value}]"))?;
                height = h.trim().parse().map_err(|_| format!("bad SZ[{value}]"))?;
            }
            "RU" => rule = value.trim().parse().ok().and_then(rule_from_gomocup_code),
            "B" | "W" => {
                let bytes = value.as_bytes();
                if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_lowercase) {
                    return Err(format!("bad move {name}[{value}]"));
                }
                let (x, y) = ((bytes[0] - b'a') as usize, (bytes[1] - b'a') as usize);
                if x >= width || y >= height {
                    return Err(format!("move {name}[{value}] is off the board"));
                }
                moves.push(RecordedMove {
                    pos: Pos::new(x, y),
                    think_ms: None,
                });
            }
            "C" => {
                if let (Some(last), Some(ms)) = (moves.last_mut(), value.strip_suffix("ms")) {
                    last.think_ms = ms.trim().parse().ok();
                }
            }
            _ => {}
        }
    }
    Ok(ParsedRecord {
        width,
        height,
        rule,
        moves,
    })
}

/// The (name, value) pairs of the first game tree's main line (the first
/// variation at every branch), in order.
fn sgf_properties(text: &str) -> Result<Vec<(String, String)>, String> {
    let start = text.find('(').ok_or("no SGF game tree")?;
    let mut properties = Vec::new();
    let mut name = String::new();
    let mut name_complete = false;
    let mut depth = 0usize;
    // Whether a tree was already opened at each depth: later siblings are
    // side variations, skipped until we climb back out of them.
    let mut opened_at_depth = vec![false];
    let mut skipping_from: Option<usize> = None;
    let mut chars = text[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '(' => {
                depth += 1;
                if opened_at_depth.len() <= depth {
                    opened_at_depth.push(false);
                }
                if skipping_from.is_none() {
                    if opened_at_depth[depth] {
                        skipping_from = Some(depth);
                    }
                    opened_at_depth[depth] = true;
                }
            }
            ')' => {
                if skipping_from == Some(depth) {
                    skipping_from = None;
                }
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(properties);
                }
            }
            '[' => {
                let mut value = String::new();
                loop {
                    match chars.next() {
                        Some('\\') => value.extend(chars.next()),
                        Some(']') => break,
                        Some(v) => value.push(v),
                        None => return Err("unterminated SGF value".into()),
                    }
                }
                if skipping_from.is_none() {
                    properties.push((name.clone(), value));
                }
                // Further `[...]` reuse the name; a letter starts a new one.
                name_complete = true;
            }
            ';' => name.clear(),
            c if c.is_ascii_uppercase() => {
                if name_complete {
                    name.clear();
                    name_complete = false;
                }
                name.push(c);
            }
            _ => {}
        }
    }
    Err("unterminated SGF game tree".into())
}

/// Reads a Piskvork `.psq` file.
pub fn parse_psq(text: &str) -> Result<ParsedRecord, String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty .psq file")?;
    let size = header
        .split_whitespace()
        .nth(1)
        .map(|s| s.trim_end_matches(','))
        .ok_or("no board size in the .psq header")?;
    let (w, h) = size
        .split_once('x')
        .ok_or("no board size in the .psq header")?;
    let width: usize = w.parse().map_err(|_| format!("bad size '{size}'"))?;
    let height: usize = h.parse().map_err(|_| format!("bad size '{size}'"))?;
    let mut moves = Vec::new();
    // Readers stop at the first line that does not start with a digit.
    for line in lines.take_while(|l| l.starts_with(|c: char| c.is_ascii_digit())) {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let coordinate = |i: usize, limit: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<usize>().ok())
                .filter(|&v| (1..=limit).contains(&v))
                .ok_or_else(|| format!("bad .psq move line '{line}'"))
        };
        let (x, y) = (coordinate(0, width)?, coordinate(1, height)?);
        moves.push(RecordedMove {
            pos: Pos::new(x - 1, y - 1),
            think_ms: fields.get(2).and_then(|t| t.parse().ok()),
        });
    }
    Ok(ParsedRecord {
        width,
        height,
        rule: None,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            width: 15,
            height: 15,
            rule: Rule::Renju,
            black: "alpha".into(),
            white: "beta]".into(),
            moves: vec![
                RecordedMove {
                    pos: Pos::new(7, 7),
                    think_ms: None,
                },
                RecordedMove {
                    pos: Pos::new(8, 7),
                    think_ms: Some(12),
                },
                RecordedMove {
                    pos: Pos::new(0, 14),
                    think_ms: Some(3),
                },
            ],
            result: Some(GameResult::Win(Color::White)),
            reason: "time-out".into(),
            event: "test".into(),
            round: 4,
        }
    }

    #[test]
    fn sgf_has_the_cgc_layout_and_reads_back() {
        let sgf = sample().to_sgf();
        assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
        assert!(
            sgf.contains("RU[4]SZ[15]PB[alpha]PW[beta\\]]RE[W+1]"),
            "{sgf}"
        );
        assert!(
            sgf.contains(";B[hh]C[opening move];W[ih]C[12ms];B[ao]C[3ms])"),
            "{sgf}"
        );
        let parsed = parse_record(&sgf).unwrap();
        assert_eq!((parsed.width, parsed.height), (15, 15));
        assert_eq!(parsed.rule, Some(Rule::Renju));
        assert_eq!(parsed.moves, sample().moves);
    }

    #[test]
    fn psq_is_one_based_and_reads_back() {
        let psq = sample().to_psq();
        assert_eq!(
            psq,
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,12\n1,15,3\nalpha\nbeta]\n-1\n"
        );
        let parsed = parse_record(&psq).unwrap();
        assert_eq!(parsed.moves.len(), 3);
        assert_eq!(parsed.moves[2].pos, Pos::new(0, 14));
        assert_eq!(parsed.moves[1].think_ms, Some(12));
    }

    #[test]
    fn sgf_reader_skips_variations_and_other_properties() {
        let text = "(;GM[4]SZ[20]PB[x];B[jj](;W[kk];B[ll])(;W[aa]))";
        let parsed = parse_sgf(text).unwrap();
        assert_eq!(parsed.width, 20);
        let main_line: Vec<Pos> = parsed.moves.iter().map(|m| m.pos).collect();
        assert_eq!(
            main_line,
            vec![Pos::new(9, 9), Pos::new(10, 10), Pos::new(11, 11)]
        );
    }

    #[test]
    fn malformed_records_are_errors_not_panics() {
        for text in [
            "(;SZ[15];B[zz])",
            "(;SZ[15];B[h",
            "Piskvorky 15x15, 1:1, 0\n16,1,0\n",
            "",
        ] {
            assert!(parse_record(text).is_err(), "{text:?}");
        }
    }
}
