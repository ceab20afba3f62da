//! Line shapes read by scanning the board: what a stone on an empty cell would
//! make along each line, and the threat those lines combine into.
//!
//! This is a small non-incremental stand-in for the board's incremental line
//! patterns: every query scans four cells each way. The classification of a
//! nine-cell line is computed once per rule family into a lookup table.

use crate::board::{Board, Cell, Color, Pos, Rule};
use std::sync::OnceLock;

/// What one line through a cell becomes when a stone is placed on the cell,
/// from the weakest to the strongest.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// No five can ever be made through the cell on this line.
    Dead,
    /// Six or more in a row where only exactly five wins.
    Overline,
    One,
    Two,
    OpenTwo,
    /// One move from a four.
    Three,
    /// One move from an open four.
    OpenThree,
    /// One move from five, in one way.
    Four,
    /// Two or more ways to five on this line: cannot be stopped.
    OpenFour,
    Five,
}

/// What a stone on a cell makes once its four lines are combined, from the
/// weakest to the strongest.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Threat {
    /// Black may not play here under renju.
    Forbidden,
    Quiet,
    OpenThree,
    DoubleThree,
    Four,
    FourThree,
    DoubleFour,
    OpenFour,
    Five,
}

impl Threat {
    /// Whether the stone threatens to make five on the next move.
    pub fn is_four(self) -> bool {
        self >= Threat::Four
    }

    /// A four the opponent cannot answer by blocking one point.
    pub fn wins_by_force(self) -> bool {
        matches!(self, Threat::OpenFour | Threat::DoubleFour)
    }
}

/// Which five counts as a win for a colour under a rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum FiveRule {
    /// Five or more in a row.
    AtLeastFive,
    /// Exactly five; six or more is an overline.
    ExactlyFive,
}

fn five_rule(rule: Rule, color: Color) -> FiveRule {
    match rule {
        Rule::Freestyle | Rule::Caro => FiveRule::AtLeastFive,
        Rule::Standard | Rule::CaroExact => FiveRule::ExactlyFive,
        Rule::Renju if color == Color::Black => FiveRule::ExactlyFive,
        Rule::Renju => FiveRule::AtLeastFive,
    }
}

const EMPTY: u8 = 0;
const OWN: u8 = 1;
const BLOCK: u8 = 2;
/// Cells on each side of the centre that a line key describes.
const REACH: usize = 4;
const CENTRE: usize = REACH;
const LINE: usize = 2 * REACH + 1;

type Line = [u8; LINE];

/// Length of the run of own stones through the centre.
fn run_through_centre(line: &Line) -> usize {
    let left = (0..CENTRE).rev().take_while(|&i| line[i] == OWN).count();
    let right = (CENTRE + 1..LINE).take_while(|&i| line[i] == OWN).count();
    1 + left + right
}

fn is_five(line: &Line, rule: FiveRule) -> bool {
    let run = run_through_centre(line);
    match rule {
        FiveRule::AtLeastFive => run >= 5,
        FiveRule::ExactlyFive => run == 5,
    }
}

/// Empty cells that would complete a five through the centre.
fn five_points(line: &mut Line, rule: FiveRule) -> usize {
    let mut count = 0;
    for i in 0..LINE {
        if line[i] == EMPTY {
            line[i] = OWN;
            count += is_five(line, rule) as usize;
            line[i] = EMPTY;
        }
    }
    count
}

/// The strongest shape reachable by one more own stone, judged by `level`.
fn best_after_one_more(line: &mut Line, level: impl Fn(&mut Line) -> Shape) -> Shape {
    let mut best = Shape::Dead;
    for i in 0..LINE {
        if line[i] == EMPTY {
            line[i] = OWN;
            best = best.max(level(line));
            line[i] = EMPTY;
        }
    }
    best
}

fn four_level(line: &mut Line, rule: FiveRule) -> Shape {
    match five_points(line, rule) {
        0 => Shape::Dead,
        1 => Shape::Four,
        _ => Shape::OpenFour,
    }
}

fn three_level(line: &mut Line, rule: FiveRule) -> Shape {
    match best_after_one_more(line, |l| four_level(l, rule)) {
        Shape::OpenFour => Shape::OpenThree,
        Shape::Four => Shape::Three,
        _ => Shape::Dead,
    }
}

fn two_level(line: &mut Line, rule: FiveRule) -> Shape {
    match best_after_one_more(line, |l| three_level(l, rule)) {
        Shape::OpenThree => Shape::OpenTwo,
        Shape::Three => Shape::Two,
        _ => Shape::Dead,
    }
}

/// Whether some five-cell window through the centre holds no blocker.
fn has_room(line: &Line) -> bool {
    (0..=CENTRE).any(|start| line[start..start + 5].iter().all(|&c| c != BLOCK))
}

fn classify(line: &mut Line, rule: FiveRule) -> Shape {
    let run = run_through_centre(line);
    if is_five(line, rule) {
        return Shape::Five;
    }
    if run > 5 {
        return Shape::Overline;
    }
    let four = four_level(line, rule);
    if four != Shape::Dead {
        return four;
    }
    let three = three_level(line, rule);
    if three != Shape::Dead {
        return three;
    }
    let two = two_level(line, rule);
    if two != Shape::Dead {
        return two;
    }
    if has_room(line) {
        Shape::One
    } else {
        Shape::Dead
    }
}

/// Key of a line: two bits per neighbour, nearest-left first, centre skipped.
fn key_of(line: &Line) -> usize {
    (0..LINE)
        .filter(|&i| i != CENTRE)
        .enumerate()
        .fold(0, |key, (bit, i)| key | (line[i] as usize) << (2 * bit))
}

fn build_table(rule: FiveRule) -> Vec<Shape> {
    let mut table = vec![Shape::Dead; 1 << 16];
    let neighbours = LINE - 1;
    for code in 0..3usize.pow(neighbours as u32) {
        let mut line = [EMPTY; LINE];
        let mut rest = code;
        for i in (0..LINE).filter(|&i| i != CENTRE) {
            line[i] = (rest % 3) as u8;
            rest /= 3;
        }
        line[CENTRE] = OWN;
        let key = key_of(&line);
        table[key] = classify(&mut line, rule);
    }
    table
}

fn table(rule: FiveRule) -> &'static [Shape] {
    static AT_LEAST: OnceLock<Vec<Shape>> = OnceLock::new();
    static EXACTLY: OnceLock<Vec<Shape>> = OnceLock::new();
    match rule {
        FiveRule::AtLeastFive => AT_LEAST.get_or_init(|| build_table(rule)),
        FiveRule::ExactlyFive => EXACTLY.get_or_init(|| build_table(rule)),
    }
}

/// The shapes a stone on `pos` would make for each colour, by direction (the
/// board's geometry order; a hex board leaves the fourth `Dead`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CellShapes {
    pub shapes: [[Shape; 4]; 2],
}

/// Reads the rule's shape tables once, for quick per-cell queries.
#[derive(Clone, Copy)]
pub struct ShapeReader {
    tables: [&'static [Shape]; 2],
}

impl ShapeReader {
    pub fn new(rule: Rule) -> ShapeReader {
        ShapeReader {
            tables: [
                table(five_rule(rule, Color::Black)),
                table(five_rule(rule, Color::White)),
            ],
        }
    }

    /// Both colours' shapes through the empty cell `pos`.
    pub fn cell(&self, board: &Board, pos: Pos) -> CellShapes {
        let mut shapes = [[Shape::Dead; 4]; 2];
        for (d, &delta) in board.geometry().deltas().iter().enumerate().take(4) {
            let mut keys = [0usize; 2];
            let mut bit = 0;
            for step in (-(REACH as isize)..=REACH as isize).filter(|&s| s != 0) {
                let (black, white) = match board.cell(pos.offset(delta, step)) {
                    Cell::Empty => (EMPTY, EMPTY),
                    Cell::Stone(Color::Black) => (OWN, BLOCK),
                    Cell::Stone(Color::White) => (BLOCK, OWN),
                    Cell::Wall => (BLOCK, BLOCK),
                };
                keys[0] |= (black as usize) << bit;
                keys[1] |= (white as usize) << bit;
                bit += 2;
            }
            shapes[0][d] = self.tables[0][keys[0]];
            shapes[1][d] = self.tables[1][keys[1]];
        }
        CellShapes { shapes }
    }
}

/// Combines four line shapes into the cell's threat (renju's forbidden points
/// are decided by the caller, which has the board's exact checker).
pub fn combine(shapes: &[Shape; 4]) -> Threat {
    let count = |s: Shape| shapes.iter().filter(|&&x| x == s).count();
    let fours = count(Shape::Four);
    let open_threes = count(Shape::OpenThree);
    if shapes.contains(&Shape::Five) {
        Threat::Five
    } else if shapes.contains(&Shape::OpenFour) {
        Threat::OpenFour
    } else if fours >= 2 {
        Threat::DoubleFour
    } else if fours == 1 && open_threes >= 1 {
        Threat::FourThree
    } else if fours == 1 {
        Threat::Four
    } else if open_threes >= 2 {
        Threat::DoubleThree
    } else if open_threes == 1 {
        Threat::OpenThree
    } else {
        Threat::Quiet
    }
}

/// Whether renju's exact checker must be asked about a black stone here.
pub fn may_be_forbidden(shapes: &[Shape; 4]) -> bool {
    let count = |pred: fn(Shape) -> bool| shapes.iter().filter(|&&s| pred(s)).count();
    !shapes.contains(&Shape::Five)
        && (shapes.contains(&Shape::Overline)
            || count(|s| s >= Shape::Four) >= 2
            || shapes.contains(&Shape::OpenFour)
            || count(|s| s == Shape::OpenThree) >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a line drawn as text: `X` own, `O` blocker, `.` empty, `*` the
    /// centre (empty now, own once played).
    fn shape_of(drawn: &str, rule: FiveRule) -> Shape {
        let cells: Vec<char> = drawn.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), LINE, "draw nine cells");
        let mut line = [EMPTY; LINE];
        for (i, c) in cells.iter().enumerate() {
            line[i] = match c {
                'X' | '*' => OWN,
                'O' => BLOCK,
                _ => EMPTY,
            };
        }
        assert_eq!(cells[CENTRE], '*');
        table(rule)[key_of(&line)]
    }

    #[test]
    fn lines_are_classified() {
        let free = FiveRule::AtLeastFive;
        assert_eq!(shape_of(". . X X * X X . .", free), Shape::Five);
        assert_eq!(shape_of(". . X X * X . . .", free), Shape::OpenFour);
        assert_eq!(shape_of("O X X X * . . . .", free), Shape::Four);
        assert_eq!(shape_of(". X . X * X . X .", free), Shape::OpenFour);
        assert_eq!(shape_of(". . . X * X . . .", free), Shape::OpenThree);
        assert_eq!(shape_of(". . O X * X . . .", free), Shape::Three);
        assert_eq!(shape_of(". . X . * X . . .", free), Shape::OpenThree);
        assert_eq!(shape_of(". . . . * X . . .", free), Shape::OpenTwo);
        assert_eq!(shape_of(". . . O * X . . .", free), Shape::Two);
        assert_eq!(shape_of("O . . . * . . . O", free), Shape::One);
        assert_eq!(shape_of(". . O . * . O . .", free), Shape::Dead);
    }

    #[test]
    fn exact_five_makes_overlines() {
        let exact = FiveRule::ExactlyFive;
        assert_eq!(shape_of(". X X X * X X . .", exact), Shape::Overline);
        assert_eq!(
            shape_of(". X X X * X X . .", FiveRule::AtLeastFive),
            Shape::Five
        );
        // Filling the gap would make six, so only the far end makes five.
        assert_eq!(shape_of(". X X X * . X . .", exact), Shape::Four);
        assert_eq!(
            shape_of(". X X X * . X . .", FiveRule::AtLeastFive),
            Shape::OpenFour
        );
    }

    #[test]
    fn threats_combine_lines() {
        use Shape::*;
        assert_eq!(combine(&[Four, OpenThree, Dead, One]), Threat::FourThree);
        assert_eq!(combine(&[Four, Four, Dead, One]), Threat::DoubleFour);
        assert_eq!(
            combine(&[OpenThree, OpenThree, Two, One]),
            Threat::DoubleThree
        );
        assert_eq!(combine(&[OpenTwo, Two, Two, One]), Threat::Quiet);
        assert!(may_be_forbidden(&[OpenThree, OpenThree, Two, One]));
        assert!(!may_be_forbidden(&[Five, Overline, Two, One]));
    }
}
