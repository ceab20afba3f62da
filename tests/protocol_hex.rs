//! The hex extension end to end in-process: two protocol sessions with the
//! real search play each other on the triangle-mesh board (`INFO geometry
//! hex`), for every rule, under node limits (no clock, so the games do not
//! depend on the machine's load). A referee board checks every move (on the
//! board, empty, for Black in renju not forbidden unless it makes five) and
//! the games end with a five or a full board, never a fault, and the side
//! with ten times the nodes wins more games than it loses.

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use wuzi::board::{Board, Color, Geometry, Pos, Rule};
use wuzi::protocol::think::think;
use wuzi::protocol::{Assembler, Effect, Reply, Session};
use wuzi::search::{new_searcher, Searcher};

/// A session with its searcher, as the command loop would run it.
struct Player {
    session: Session,
    assembler: Assembler,
    searcher: Box<dyn Searcher>,
}

impl Player {
    fn new() -> Player {
        Player {
            session: Session::new(),
            assembler: Assembler::default(),
            searcher: new_searcher(),
        }
    }

    /// Sends lines and returns the replies, thinking synchronously.
    fn send(&mut self, text: &str) -> Vec<Reply> {
        let mut out = Vec::new();
        for line in text.lines() {
            for parsed in self.assembler.feed(line) {
                let effects = match parsed {
                    Ok(command) => self.session.apply(command, Instant::now()),
                    Err(error) => Session::reject(&error),
                };
                self.carry_out(effects, &mut out);
            }
        }
        out
    }

    fn carry_out(&mut self, effects: Vec<Effect>, out: &mut Vec<Reply>) {
        for effect in effects {
            match effect {
                Effect::Reply(reply) => out.push(reply),
                Effect::Think(request) => {
                    let stop = AtomicBool::new(false);
                    let thought = think(self.searcher.as_mut(), &request, &stop, &mut |_| {});
                    let more = self.session.finish(thought, Instant::now());
                    self.carry_out(more, out);
                }
                Effect::Configure(options) => self.searcher.configure(&options),
                Effect::ClearHash => self.searcher.clear(),
                Effect::Exit => {}
            }
        }
    }

    fn move_reply(&mut self, text: &str) -> Pos {
        match self.send(text).as_slice() {
            [Reply::Move(pos)] => *pos,
            other => panic!("{text:?} -> {other:?}"),
        }
    }
}

/// Plays one game from `opening`, Black searching `nodes[0]` nodes a move
/// and White `nodes[1]`, and returns the winner (`None`: full board).
fn play(rule_code: u8, rule: Rule, size: usize, opening: &[Pos], nodes: [u32; 2]) -> Option<Color> {
    let mut referee = Board::with_geometry(size, size, rule, Geometry::Hex).unwrap();
    let mut players = [Player::new(), Player::new()];
    for (player, nodes) in players.iter_mut().zip(nodes) {
        let setup = format!(
            "INFO geometry hex\nINFO rule {rule_code}\nINFO max_node {nodes}\nSTART {size}"
        );
        assert!(matches!(player.send(&setup).as_slice(), [Reply::Ok]));
        assert_eq!(player.session.board().unwrap().geometry(), Geometry::Hex);
    }
    for &pos in opening {
        referee.play(pos).unwrap();
    }
    // Each side gets the opening as a BOARD on its first move, then TURNs.
    let mut first_request = [true, true];
    loop {
        if referee.is_full() {
            return None;
        }
        let color = referee.side_to_move();
        // Black left with only forbidden points cannot move: a draw.
        if !referee.empty_cells().any(|p| referee.is_legal(p)) {
            return None;
        }
        let me = color.index();
        let request = if first_request[me] {
            first_request[me] = false;
            let mut text = String::from("BOARD\n");
            for &pos in referee.history() {
                let field = if referee.cell(pos) == wuzi::board::Cell::Stone(color) {
                    1
                } else {
                    2
                };
                text.push_str(&format!("{},{},{field}\n", pos.x(), pos.y()));
            }
            text + "DONE"
        } else {
            let last = referee.last_move().expect("a stone was played");
            format!("TURN {},{}", last.x(), last.y())
        };
        let pos = players[me].move_reply(&request);
        assert!(referee.is_empty(pos), "{rule:?}: {pos:?} is taken");
        let five = referee.is_win(pos, color);
        if rule == Rule::Renju && color == Color::Black && !five {
            assert_eq!(
                referee.forbidden(pos),
                None,
                "Black played a foul at {pos:?}"
            );
        }
        referee.play(pos).unwrap();
        if five {
            return Some(color);
        }
    }
}

#[test]
fn hex_games_are_legal_and_the_stronger_side_wins() {
    // A three-stone opening near the centre of an 11x11 board.
    let opening = [Pos::new(5, 5), Pos::new(6, 4), Pos::new(4, 6)];
    let rules = [
        (0, Rule::Freestyle),
        (1, Rule::Standard),
        (4, Rule::Renju),
        (8, Rule::Caro),
        (9, Rule::CaroExact),
    ];
    let mut results = Vec::new();
    for (code, rule) in rules {
        for nodes in [[3000, 3000], [3000, 300], [300, 3000]] {
            results.push((rule, nodes, play(code, rule, 11, &opening, nodes)));
        }
    }
    // Between equals on this small board the games are mostly full-board
    // draws. Ten times the nodes must show in the total: more games won
    // than lost. Any single game may go either way (a search change that is
    // neutral in matches can flip one), so no game is asserted alone.
    let stronger = |nodes: [u32; 2]| match nodes[0].cmp(&nodes[1]) {
        std::cmp::Ordering::Greater => Some(Color::Black),
        std::cmp::Ordering::Less => Some(Color::White),
        std::cmp::Ordering::Equal => None,
    };
    let mut won_by_stronger = 0;
    let mut lost_by_stronger = 0;
    for &(_, nodes, winner) in &results {
        if let Some(strong) = stronger(nodes) {
            won_by_stronger += (winner == Some(strong)) as usize;
            lost_by_stronger += (winner == Some(strong.opponent())) as usize;
        }
    }
    assert!(won_by_stronger > lost_by_stronger, "{results:?}");
}

#[test]
fn the_engine_takes_a_hex_five_and_blocks_one() {
    // Our four along the rising diagonal (1,-1), open at 7,7 only; the
    // opponent's open three on the column must wait.
    let mut player = Player::new();
    player.send("INFO geometry hex\nINFO max_node 20000\nSTART 15");
    let reply = player
        .move_reply("BOARD\n3,11,1\n2,12,2\n4,10,1\n12,3,2\n5,9,1\n12,4,2\n6,8,1\n12,5,2\nDONE");
    assert_eq!(reply, Pos::new(7, 7));
    // Not our five: the opponent's four along the rising diagonal, with
    // 9,5 ours, must be blocked at 4,10.
    let reply =
        player.move_reply("BOARD\n5,9,2\n9,5,1\n6,8,2\n0,0,1\n7,7,2\n14,0,1\n8,6,2\n0,14,1\nDONE");
    assert_eq!(reply, Pos::new(4, 10));
}
