//! `wuzi-play`: play Gomoku or Renju against wuzi in the terminal, or review
//! a game (see `wuzi::play` and `wuzi-play --help`). A binary of its own, so
//! that the terminal library stays out of the Gomocup engine.

use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;
use wuzi::play::options::PlayArgs;
use wuzi::play::session::Play;

fn main() -> ExitCode {
    let args = PlayArgs::parse();
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        eprintln!(
            "wuzi-play draws a board in a terminal, and its input or output is not one.\n\
             Run it in a terminal (over ssh: ssh -t host wuzi-play). To review a game \
             without one, use `pbrain-wuzi analyze GAME.sgf`; to drive the engine from a \
             program, run `pbrain-wuzi` and speak the pbrain protocol."
        );
        return ExitCode::from(2);
    }
    let mut play = match Play::new(args.setup(), args.strength()) {
        Ok(play) => play,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    play.review_nodes = args.review_nodes;
    for (command, file) in [("load", &args.load), ("load", &args.analyze)] {
        if let Some(file) = file {
            play.type_line(&format!("{command} {file}"));
        }
    }
    if args.analyze.is_some() && play.game.board().stone_count() > 0 {
        play.type_line("analyze");
    }
    match wuzi::play::tui::run(play) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: the terminal failed: {error}");
            ExitCode::FAILURE
        }
    }
}
