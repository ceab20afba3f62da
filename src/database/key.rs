//! The canonical key of a position: the same for every rotation and
//! reflection of the board that maps the board onto itself (the geometry's
//! symmetries about the board's centre), so a position is stored once.

use crate::board::{Board, Cell, Color, Geometry, Rule};

/// A point as stored: column, row.
pub type Point = (u8, u8);

/// A position as the database stores it: board shape, rule, and the stones
/// and walls in the canonical frame, each list sorted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub width: u8,
    pub height: u8,
    pub rule: Rule,
    pub geometry: Geometry,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub walls: Vec<Point>,
}

/// A linear map `(dx, dy) -> (a·dx + b·dy, c·dx + d·dy)` about the centre.
pub type Symmetry = [isize; 4];

/// A position's key and the symmetries that carry the position to it.
pub struct Canonical {
    pub key: Key,
    width: usize,
    height: usize,
    to_key: Vec<Symmetry>,
}

/// The symmetries of the geometry that map a `width`x`height` board onto
/// itself, the identity first.
pub fn board_symmetries(width: usize, height: usize, geometry: Geometry) -> Vec<Symmetry> {
    let corners = [
        (0, 0),
        (width - 1, 0),
        (0, height - 1),
        (width - 1, height - 1),
    ];
    geometry
        .symmetries()
        .iter()
        .copied()
        .filter(|&s| {
            corners
                .iter()
                .all(|&(x, y)| apply(s, width, height, x, y).is_some())
        })
        .collect()
}

/// `(x, y)` moved by `s` about the centre of the board, if it lands on a cell.
fn apply(s: Symmetry, width: usize, height: usize, x: usize, y: usize) -> Option<(usize, usize)> {
    let (w, h) = (width as isize - 1, height as isize - 1);
    let (dx, dy) = (2 * x as isize - w, 2 * y as isize - h);
    let (nx, ny) = (s[0] * dx + s[1] * dy + w, s[2] * dx + s[3] * dy + h);
    let on_board = nx >= 0 && ny >= 0 && nx % 2 == 0 && ny % 2 == 0;
    let (nx, ny) = ((nx / 2) as usize, (ny / 2) as usize);
    (on_board && nx < width && ny < height).then_some((nx, ny))
}

impl Canonical {
    pub fn of(board: &Board) -> Canonical {
        let (width, height) = (board.width(), board.height());
        let sets = stone_sets(board);
        let mut best: Option<[Vec<Point>; 3]> = None;
        let mut to_key = Vec::new();
        for s in board_symmetries(width, height, board.geometry()) {
            let mapped = map_sets(&sets, s, width, height);
            match &best {
                Some(b) if mapped > *b => {}
                Some(b) if mapped == *b => to_key.push(s),
                _ => {
                    best = Some(mapped);
                    to_key = vec![s];
                }
            }
        }
        Canonical {
            key: make_key(board, best.unwrap_or_default()),
            width,
            height,
            to_key,
        }
    }

    /// The key of `board`'s image under `s` (not the canonical one unless
    /// `s` gives it).
    pub fn with_symmetry(board: &Board, s: Symmetry) -> Key {
        let sets = stone_sets(board);
        make_key(board, map_sets(&sets, s, board.width(), board.height()))
    }

    /// Where a point of the board is stored: its image in the canonical frame
    /// (the smallest one when several symmetries give the key).
    pub fn point(&self, x: usize, y: usize) -> Option<Point> {
        self.to_key
            .iter()
            .filter_map(|&s| apply(s, self.width, self.height, x, y))
            .map(|(x, y)| (x as u8, y as u8))
            .min()
    }
}

fn make_key(board: &Board, [black, white, walls]: [Vec<Point>; 3]) -> Key {
    Key {
        width: board.width() as u8,
        height: board.height() as u8,
        rule: board.rule(),
        geometry: board.geometry(),
        black,
        white,
        walls,
    }
}

/// Black stones, white stones and walls.
fn stone_sets(board: &Board) -> [Vec<(usize, usize)>; 3] {
    let mut sets: [Vec<(usize, usize)>; 3] = Default::default();
    for pos in board.cells() {
        let set = match board.cell(pos) {
            Cell::Stone(Color::Black) => 0,
            Cell::Stone(Color::White) => 1,
            Cell::Wall => 2,
            Cell::Empty => continue,
        };
        sets[set].push((pos.x(), pos.y()));
    }
    sets
}

fn map_sets(
    sets: &[Vec<(usize, usize)>; 3],
    s: Symmetry,
    width: usize,
    height: usize,
) -> [Vec<Point>; 3] {
    sets.clone().map(|set| {
        let mut mapped: Vec<Point> = set
            .iter()
            .filter_map(|&(x, y)| apply(s, width, height, x, y))
            .map(|(x, y)| (x as u8, y as u8))
            .collect();
        mapped.sort_unstable();
        mapped
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;

    fn board(stones: &[(usize, usize)], width: usize, height: usize) -> Board {
        let mut board = Board::new(width, height, Rule::Freestyle).unwrap();
        for &(x, y) in stones {
            board.play(Pos::new(x, y)).unwrap();
        }
        board
    }

    #[test]
    fn rotations_and_reflections_share_a_key() {
        let original = Canonical::of(&board(&[(7, 7), (8, 6), (9, 8)], 15, 15));
        let mirrored = Canonical::of(&board(&[(7, 7), (6, 6), (5, 8)], 15, 15));
        let turned = Canonical::of(&board(&[(7, 7), (8, 8), (6, 9)], 15, 15));
        assert_eq!(original.key, mirrored.key);
        assert_eq!(original.key, turned.key);
        let other = Canonical::of(&board(&[(7, 7), (8, 6), (9, 9)], 15, 15));
        assert_ne!(original.key, other.key);
        // Colours matter.
        let swapped = Canonical::of(&board(&[(8, 6), (7, 7), (9, 8)], 15, 15));
        assert_ne!(original.key, swapped.key);
    }

    #[test]
    fn points_follow_the_position_into_the_canonical_frame() {
        let original = Canonical::of(&board(&[(7, 7), (8, 6)], 15, 15));
        let mirrored = Canonical::of(&board(&[(7, 7), (6, 6)], 15, 15));
        assert_eq!(original.point(9, 5), mirrored.point(5, 5));
        assert_ne!(original.point(9, 5), mirrored.point(9, 5));
    }

    #[test]
    fn rectangles_and_hex_boards_keep_only_their_own_symmetries() {
        assert_eq!(board_symmetries(15, 15, Geometry::Square).len(), 8);
        assert_eq!(board_symmetries(20, 15, Geometry::Square).len(), 4);
        let hex = board_symmetries(15, 15, Geometry::Hex);
        assert!(hex.len() >= 2 && hex.len() < 12, "{}", hex.len());
        for s in hex {
            for (x, y) in [(0, 0), (14, 0), (3, 9)] {
                assert!(apply(s, 15, 15, x, y).is_some());
            }
        }
    }
}
