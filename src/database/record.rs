//! What the database knows about one position: a label, a value, a depth, a
//! bound, a comment, and short texts on the board's points.

use super::key::Point;
use std::collections::BTreeMap;

/// The longest comment or board text kept (bytes); longer ones are cut.
pub const MAX_TEXT_BYTES: usize = 4096;

/// How far a stored value is to be trusted (as in a transposition table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    #[default]
    None,
    /// The true value is at most `value`.
    Upper,
    /// The true value is at least `value`.
    Lower,
    Exact,
}

impl Bound {
    /// The number Yixin-Board and Rapfi use (0 none, 1 upper, 2 lower, 3 exact).
    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn name(self) -> &'static str {
        match self {
            Bound::None => "none",
            Bound::Upper => "upper",
            Bound::Lower => "lower",
            Bound::Exact => "exact",
        }
    }

    pub fn from_name(name: &str) -> Option<Bound> {
        [Bound::None, Bound::Upper, Bound::Lower, Bound::Exact]
            .into_iter()
            .find(|b| b.name() == name)
    }
}

/// One position's entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The result for the side that played the last stone: `w` win, `l`
    /// loss, `d` draw, `x` a move not to play, `!` a forced move, or any
    /// other printable ASCII mark. `None`: undetermined.
    pub label: Option<u8>,
    /// The score for the side to move in this position.
    pub value: i32,
    pub depth: i32,
    pub bound: Bound,
    pub comment: String,
    /// Texts shown on empty points of this position, by canonical point.
    pub board_texts: BTreeMap<Point, String>,
}

/// Whether `byte` may be a label.
pub fn is_label(byte: u8) -> bool {
    byte.is_ascii_graphic()
}

/// `text` cut to at most `MAX_TEXT_BYTES`, on a character boundary.
pub fn clipped(text: &str) -> String {
    let mut end = text.len().min(MAX_TEXT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

impl Record {
    /// The label as Yixin-Board's `DATABASE ONE` reports it: the character
    /// code, or -1 for an undetermined position.
    pub fn label_code(&self) -> i32 {
        self.label.map_or(-1, i32::from)
    }

    /// The short mark shown on the point of the move leading here, from the
    /// mover's view: the label (with the moves to mate for a win or loss,
    /// `*` if unknown), or for an undetermined exact value the mover's
    /// expected score in percent. Empty when there is nothing to show.
    pub fn display_label(&self) -> String {
        let mover_value = -i64::from(self.value);
        match self.label {
            Some(mark @ (b'w' | b'l')) => {
                let mate = crate::eval::score::MATE_BOUND as i64;
                let steps = crate::eval::score::MATE as i64 - mover_value.abs();
                let proven =
                    (mark == b'w' && mover_value > mate) || (mark == b'l' && mover_value < -mate);
                match proven {
                    true => format!("{}{steps}", mark as char),
                    false => format!("{}*", mark as char),
                }
            }
            Some(mark) => (mark as char).to_string(),
            None if self.bound == Bound::Exact => {
                format!(
                    "{}%",
                    (win_rate(mover_value) * 100.0).clamp(0.0, 99.0) as i32
                )
            }
            None => String::new(),
        }
    }

    /// Up to four characters of `display_label` packed into an integer,
    /// first character highest, as `DATABASE` lines carry it; -1 if empty.
    pub fn packed_display_label(&self) -> i32 {
        let label = self.display_label();
        if label.is_empty() {
            return -1;
        }
        label
            .bytes()
            .take(4)
            .fold(0i32, |packed, byte| (packed << 8) | i32::from(byte))
    }
}

/// The expected score of a value: the evaluation's logistic fit (see the
/// README, Evaluation), `1 / (1 + e^(-value / 420))`.
fn win_rate(value: i64) -> f64 {
    1.0 / (1.0 + (-(value as f64) / 420.0).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_labels_follow_rapfi() {
        let win = Record {
            label: Some(b'w'),
            value: -(crate::eval::score::MATE - 7),
            ..Record::default()
        };
        assert_eq!(win.display_label(), "w7");
        assert_eq!(
            win.packed_display_label(),
            (i32::from(b'w') << 8) | i32::from(b'7')
        );
        let loss = Record {
            label: Some(b'l'),
            ..Record::default()
        };
        assert_eq!(loss.display_label(), "l*");
        let even = Record {
            bound: Bound::Exact,
            ..Record::default()
        };
        assert_eq!(even.display_label(), "50%");
        assert_eq!(Record::default().packed_display_label(), -1);
        assert_eq!(Record::default().label_code(), -1);
    }

    #[test]
    fn long_texts_are_cut_on_a_character_boundary() {
        let text = "é".repeat(MAX_TEXT_BYTES);
        let cut = clipped(&text);
        assert!(cut.len() <= MAX_TEXT_BYTES && cut.chars().all(|c| c == 'é'));
    }
}
