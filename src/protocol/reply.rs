//! Engine → manager lines as values, and their exact text. Pure.
//!
//! Managers parse replies strictly: Piskvork compares `OK` to the whole line
//! and reads moves with `%d,%d`, GomocupJudge drops any move line with extra
//! text, and Piskvork only recognises `MESSAGE ` with the trailing space. So
//! every free text is kept on one line and is never empty.

use super::command::GEOMETRY_NAMES;
use crate::board::Pos;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok,
    /// A move: `x,y` alone on its line.
    Move(Pos),
    /// Several moves on one line (swap2 answers): `x,y x,y …`.
    Moves(Vec<Pos>),
    /// The swap2 colour choice.
    Swap,
    /// A known command that cannot be carried out.
    Error(String),
    /// A command we do not implement.
    Unknown(String),
    Message(String),
    About,
    /// Renju forbidden points (`YXSHOWFORBID`).
    Forbid(Vec<Pos>),
    /// A structured search-info line for Yixin-Board (`show_detail` bit 2):
    /// `INFO <KEY> <value>`.
    Detail {
        key: &'static str,
        value: String,
    },
}

/// The answer to `ABOUT`. The recommended `country` and `www` are left out
/// rather than filled with made-up values: the project has neither a country
/// nor a home page (`www` appears once Cargo.toml names a `homepage`).
/// `geometry` lists the boards `INFO geometry` offers, so that a manager can
/// discover the extension.
pub fn about_line() -> String {
    let homepage = env!("CARGO_PKG_HOMEPAGE");
    let www = if homepage.is_empty() {
        String::new()
    } else {
        format!(", www=\"{homepage}\"")
    };
    let geometries: Vec<&str> = GEOMETRY_NAMES.iter().map(|(name, _)| *name).collect();
    format!(
        "name=\"wuzi\", version=\"{}\", author=\"wuzi developers\"{www}, geometry=\"{}\"",
        env!("CARGO_PKG_VERSION"),
        geometries.join(" ")
    )
}

/// A move as the protocol writes it.
pub fn move_text(pos: Pos) -> String {
    format!("{},{}", pos.x(), pos.y())
}

impl Reply {
    /// The exact line to send, without the line ending.
    pub fn render(&self) -> String {
        match self {
            Reply::Ok => "OK".to_string(),
            Reply::Move(pos) => move_text(*pos),
            Reply::Moves(moves) => moves
                .iter()
                .map(|&p| move_text(p))
                .collect::<Vec<_>>()
                .join(" "),
            Reply::Swap => "SWAP".to_string(),
            Reply::Error(reason) => format!("ERROR {}", one_line(reason)),
            Reply::Unknown(reason) => format!("UNKNOWN {}", one_line(reason)),
            Reply::Message(text) => format!("MESSAGE {}", one_line(text)),
            Reply::About => about_line(),
            Reply::Forbid(points) => {
                // Yixin-Board reads fixed 4-digit groups from character 7 on.
                let groups: String = points
                    .iter()
                    .map(|p| format!("{:02}{:02}", p.x(), p.y()))
                    .collect();
                format!("FORBID {groups}.")
            }
            Reply::Detail { key, value } => format!("INFO {key} {}", one_line(value)),
        }
    }
}

/// Free text made safe for one protocol line: control characters become
/// spaces, and an empty text becomes `-` so the keyword is always followed by
/// a space and something.
fn one_line(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let trimmed = cleaned.trim();
    if trimmed.is_empty() {
        "-".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_render_exactly() {
        assert_eq!(Reply::Ok.render(), "OK");
        assert_eq!(Reply::Move(Pos::new(7, 11)).render(), "7,11");
        assert_eq!(
            Reply::Moves(vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(9, 9)]).render(),
            "7,7 8,7 9,9"
        );
        assert_eq!(Reply::Swap.render(), "SWAP");
        assert_eq!(Reply::Error("bad".into()).render(), "ERROR bad");
        assert_eq!(Reply::Unknown("x".into()).render(), "UNKNOWN x");
    }

    #[test]
    fn free_text_stays_on_one_line_and_is_never_empty() {
        assert_eq!(Reply::Message("a\r\nb".into()).render(), "MESSAGE a  b");
        assert_eq!(Reply::Message("".into()).render(), "MESSAGE -");
        assert_eq!(Reply::Error(" \n ".into()).render(), "ERROR -");
    }

    #[test]
    fn forbid_uses_two_digit_groups() {
        assert_eq!(Reply::Forbid(vec![]).render(), "FORBID .");
        assert_eq!(
            Reply::Forbid(vec![Pos::new(9, 12), Pos::new(10, 11)]).render(),
            "FORBID 09121011."
        );
    }

    #[test]
    fn about_names_the_engine_and_version() {
        let line = Reply::About.render();
        assert!(line.starts_with("name=\"wuzi\", version=\""), "{line}");
        assert!(line.contains(env!("CARGO_PKG_VERSION")));
        assert!(line.contains("author=\"wuzi developers\""));
        assert!(line.ends_with(", geometry=\"square hex\""), "{line}");
    }
}
