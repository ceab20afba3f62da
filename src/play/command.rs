//! What a person types on the board's command line.

use crate::board::{Color, Pos};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Move(Pos),
    Undo,
    Redo,
    Hint,
    /// The engine plays its best move so far at once.
    Stop,
    /// The engine moves now (after `load`, or to let it play the person's side).
    Go,
    New,
    Save(String),
    Load(String),
    /// Review the game: every move's evaluation, the blunders.
    Analyze,
    /// Leave the review.
    Back,
    /// Step through the review (plies, negative = back).
    Step(isize),
    /// Swap2: take this colour.
    Take(Color),
    /// Swap2: add a White and a Black stone.
    AddTwo,
    Numbers,
    Level(u32),
    Time(u64),
    Help,
    Quit,
}

/// The commands, for `help`.
pub const HELP: &str = "\
h8: play there (or the cursor keys and Enter)   undo (u) / redo (r)   hint (?)
go: the engine moves now   stop: it plays its best move so far   new: new game
save FILE / load FILE (.sgf or .psq)   analyze (a): review the game, <- -> step, back
swap2: black / white (take that colour), add (two more stones)
numbers: move numbers on/off   level 1-9   time MS (per move)   quit (q)";

pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let word = word.to_ascii_lowercase();
    let number = |what: &str| {
        rest.parse::<u64>()
            .map_err(|_| format!("{word}: {what} expected, not '{rest}'"))
    };
    let file = || {
        if rest.is_empty() {
            Err(format!("{word}: which file?"))
        } else {
            Ok(rest.to_string())
        }
    };
    Ok(match word.as_str() {
        "u" | "undo" => Command::Undo,
        "r" | "redo" => Command::Redo,
        "?" | "hint" => Command::Hint,
        "stop" => Command::Stop,
        "go" => Command::Go,
        "new" => Command::New,
        "save" => Command::Save(file()?),
        "load" => Command::Load(file()?),
        "a" | "analyze" | "review" => Command::Analyze,
        "back" | "play" => Command::Back,
        "next" => Command::Step(1),
        "prev" => Command::Step(-1),
        "black" | "swap" => Command::Take(Color::Black),
        "white" => Command::Take(Color::White),
        "add" => Command::AddTwo,
        "numbers" => Command::Numbers,
        "level" => match number("1 to 9")? {
            level @ 1..=9 => Command::Level(level as u32),
            _ => return Err("level: 1 to 9".into()),
        },
        "time" => Command::Time(number("milliseconds")?.max(1)),
        "help" | "h" => Command::Help,
        "q" | "quit" | "exit" => Command::Quit,
        "" => return Err("type a move (h8) or help".into()),
        _ => match Pos::from_notation(&word) {
            Some(pos) if rest.is_empty() => Command::Move(pos),
            _ => {
                return Err(format!(
                    "'{line}': not a move nor a command (help lists them)"
                ))
            }
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_commands_are_read() {
        assert_eq!(parse("h8"), Ok(Command::Move(Pos::new(7, 7))));
        assert_eq!(parse(" H10 "), Ok(Command::Move(Pos::new(7, 9))));
        assert_eq!(parse("u"), Ok(Command::Undo));
        assert_eq!(
            parse("save /tmp/g.sgf"),
            Ok(Command::Save("/tmp/g.sgf".into()))
        );
        assert_eq!(parse("level 3"), Ok(Command::Level(3)));
        assert!(parse("level 12").is_err());
        assert!(parse("save").is_err());
        assert!(parse("h0").is_err());
        assert!(parse("8h").is_err());
        assert!(parse("jump").unwrap_err().contains("not a move"));
    }
}
