//! `wuzi-play`'s command line.

use super::game::GameSetup;
use super::session::Strength;
use crate::board::{Geometry, Rule};
use crate::tools::cli::{parse_geometry, parse_rule, parse_size};
use clap::Parser;

/// Play Gomoku or Renju against wuzi in the terminal, or review a game.
#[derive(Parser, Debug)]
#[command(
    name = "wuzi-play",
    version,
    args_override_self = true,
    after_help = "On the board: type a move (h8) or a command and Enter, or move the cursor \
                  with the arrow keys and press Enter. 'help' lists the commands; Ctrl-C quits."
)]
pub struct PlayArgs {
    /// freestyle, standard, renju, caro, caro-exact (or Gomocup codes 0 1 4 8 9)
    #[arg(long, default_value = "freestyle", value_parser = parse_rule)]
    pub rule: Rule,
    /// Board size, N or WxH (5 to 32)
    #[arg(long, value_name = "N|WxH", default_value = "15", value_parser = parse_size)]
    pub size: (usize, usize),
    /// square, or hex (a triangle mesh: six neighbours, three lines through each cell)
    #[arg(long, default_value = "square", value_parser = parse_geometry)]
    pub geometry: Geometry,
    /// The colour you play: black, white, or both (the engine then only gives hints)
    #[arg(long, default_value = "black", value_parser = ["black", "white", "both"])]
    pub color: String,
    /// Open with swap2 (you open when you play Black)
    #[arg(long)]
    pub swap2: bool,
    /// The engine's time per move, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub time: u64,
    /// The engine's strength, 1 (weakest) to 9 (full strength)
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=9))]
    pub level: u32,
    /// A fixed node budget per search instead of time and level (repeatable games)
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Node budget of each position in analysis mode
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub review_nodes: u64,
    /// Start with this SGF or .psq record loaded
    #[arg(long, value_name = "FILE")]
    pub load: Option<String>,
    /// Start reviewing this SGF or .psq record (analysis mode)
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    pub analyze: Option<String>,
}

impl PlayArgs {
    pub fn setup(&self) -> GameSetup {
        GameSetup {
            rule: self.rule,
            width: self.size.0,
            height: self.size.1,
            geometry: self.geometry,
            human: match self.color.as_str() {
                "white" => [false, true],
                "both" => [true, true],
                _ => [true, false],
            },
            swap2: self.swap2,
        }
    }

    pub fn strength(&self) -> Strength {
        Strength {
            level: self.level,
            time_ms: self.time.max(1),
            nodes: self.nodes,
        }
    }
}
