//! One game between a person and the engine (or two people): the board, who
//! plays which colour, undo and redo, the swap2 opening and the result. No
//! search and no terminal here: the controller (`session`) asks the engine.

use crate::board::{Board, Color, Geometry, Pos, Rule};

/// Who makes the next decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Human,
    Engine,
}

/// The steps of a swap2 opening. The opener places three stones (Black,
/// White, Black); the other player then takes Black, stays White and plays
/// the fourth stone, or adds a White and a Black stone and lets the opener
/// choose the colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Stage {
    OpenerPlaces,
    SecondChooses,
    SecondAddsTwo,
    OpenerChooses,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Five(Color),
    Draw,
}

/// What the board is and who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    pub geometry: Geometry,
    /// The colours a person plays: one of them, or both (the engine then
    /// only gives hints).
    pub human: [bool; 2],
    /// Swap2 opening; the person opens when they chose Black.
    pub swap2: bool,
}

impl Default for GameSetup {
    fn default() -> Self {
        GameSetup {
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            geometry: Geometry::Square,
            human: [true, false],
            swap2: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    pub setup: GameSetup,
    board: Board,
    redo: Vec<Pos>,
    /// Which colours a person plays now (swap2 may change them).
    human: [bool; 2],
    swap2: Option<Swap2Stage>,
    /// Whether the person is the swap2 opener.
    human_opens: bool,
    /// Stones of the swap2 opening, which undo does not take back.
    opening_len: usize,
}

impl Game {
    pub fn new(setup: GameSetup) -> Result<Game, String> {
        let board = Board::with_geometry(setup.width, setup.height, setup.rule, setup.geometry)
            .map_err(|e| e.to_string())?;
        let human_opens = setup.human[Color::Black.index()];
        Ok(Game {
            setup,
            board,
            redo: Vec::new(),
            human: setup.human,
            swap2: setup.swap2.then_some(Swap2Stage::OpenerPlaces),
            human_opens,
            opening_len: 0,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn swap2_stage(&self) -> Option<Swap2Stage> {
        self.swap2
    }

    pub fn is_human(&self, color: Color) -> bool {
        self.human[color.index()]
    }

    /// The colour the person plays, when they play exactly one.
    pub fn human_color(&self) -> Option<Color> {
        match self.human {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(color) = self.board.winner() {
            Some(Outcome::Five(color))
        } else if self.board.is_full() || !self.board.empty_cells().any(|p| self.board.is_legal(p))
        {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Who acts next, `None` once the game is over.
    pub fn to_act(&self) -> Option<Actor> {
        if self.outcome().is_some() {
            return None;
        }
        let person = |yes: bool| if yes { Actor::Human } else { Actor::Engine };
        let both = self.human == [true, true];
        Some(match self.swap2 {
            Some(Swap2Stage::OpenerPlaces | Swap2Stage::OpenerChooses) => {
                person(both || self.human_opens)
            }
            Some(Swap2Stage::SecondChooses | Swap2Stage::SecondAddsTwo) => {
                person(both || !self.human_opens)
            }
            None => person(self.is_human(self.board.side_to_move())),
        })
    }

    /// Plays a stone for the side to move (or the swap2 step's colour).
    pub fn play(&mut self, pos: Pos) -> Result<(), String> {
        if self.outcome().is_some() {
            return Err("the game is over: new, undo or load".into());
        }
        match self.swap2 {
            Some(Swap2Stage::SecondChooses) => {
                return Err("swap2: choose black, white (and play) or add".into())
            }
            Some(Swap2Stage::OpenerChooses) => return Err("swap2: choose black or white".into()),
            _ => {}
        }
        if pos.x() >= self.board.width() || pos.y() >= self.board.height() {
            return Err(format!("{pos} is off the board"));
        }
        if !self.board.is_empty(pos) {
            return Err(format!("{pos} is taken"));
        }
        if let Some(kind) = self.board.forbidden(pos) {
            if self.board.side_to_move() == Color::Black {
                return Err(format!("{pos} is forbidden for Black ({kind:?})"));
            }
        }
        self.board.play(pos).map_err(|e| e.to_string())?;
        self.redo.clear();
        self.after_stone();
        Ok(())
    }

    fn after_stone(&mut self) {
        let stones = self.board.stone_count();
        self.swap2 = match self.swap2 {
            Some(Swap2Stage::OpenerPlaces) if stones == 3 => Some(Swap2Stage::SecondChooses),
            Some(Swap2Stage::SecondAddsTwo) if stones == 5 => Some(Swap2Stage::OpenerChooses),
            other => other,
        };
        if self.swap2.is_some() {
            self.opening_len = stones;
        }
    }

    /// The chooser's swap2 answer: take `color`. Staying White after three
    /// stones means playing the fourth stone next.
    pub fn choose(&mut self, color: Color) -> Result<(), String> {
        let chooser_is_human = match self.swap2 {
            Some(Swap2Stage::SecondChooses) => !self.human_opens,
            Some(Swap2Stage::OpenerChooses) => self.human_opens,
            _ => return Err("there is no colour to choose now".into()),
        };
        if self.human != [true, true] {
            let human = if chooser_is_human {
                color
            } else {
                color.opponent()
            };
            self.human = [human == Color::Black, human == Color::White];
        }
        self.swap2 = None;
        self.opening_len = self.board.stone_count();
        Ok(())
    }

    /// After three stones: the second player adds a White and a Black stone.
    pub fn add_two(&mut self) -> Result<(), String> {
        if self.swap2 != Some(Swap2Stage::SecondChooses) {
            return Err("add: only after the opener's three stones".into());
        }
        self.swap2 = Some(Swap2Stage::SecondAddsTwo);
        Ok(())
    }

    /// Takes stones back until a person is to move again (at least one,
    /// never into the swap2 opening). Returns how many.
    pub fn undo(&mut self) -> Result<usize, String> {
        if self.swap2.is_some() {
            return Err("undo: not during the swap2 opening".into());
        }
        let mut taken = 0;
        while self.board.stone_count() > self.opening_len {
            let Some(pos) = self.board.undo() else { break };
            self.redo.push(pos);
            taken += 1;
            if self.is_human(self.board.side_to_move()) {
                break;
            }
        }
        if taken == 0 {
            return Err("nothing to undo".into());
        }
        Ok(taken)
    }

    /// Replays taken-back stones until a person is to move again.
    pub fn redo(&mut self) -> Result<usize, String> {
        let mut replayed = 0;
        while let Some(pos) = self.redo.pop() {
            self.board.play(pos).map_err(|e| e.to_string())?;
            replayed += 1;
            if self.is_human(self.board.side_to_move()) || self.outcome().is_some() {
                break;
            }
        }
        if replayed == 0 {
            return Err("nothing to redo".into());
        }
        Ok(replayed)
    }

    /// The person plays the other colour (the engine takes theirs).
    pub fn switch_sides(&mut self) {
        if self.human != [true, true] {
            self.human = [self.human[1], self.human[0]];
        }
    }

    /// A game set up from a record's stones (no swap2 step left).
    pub fn from_moves(setup: GameSetup, moves: &[Pos]) -> Result<Game, String> {
        let mut game = Game::new(GameSetup {
            swap2: false,
            ..setup
        })?;
        for (ply, &pos) in moves.iter().enumerate() {
            game.board
                .play(pos)
                .map_err(|e| format!("move {} ({pos}): {e}", ply + 1))?;
        }
        Ok(game)
    }
}
