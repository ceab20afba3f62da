//! Line patterns and cell threats read off drawn positions, at the edges and
//! corners of small and rectangular boards. In a drawing `X` is black, `O`
//! white, `#` a wall, `.` empty, and `?` the empty cell being asked about.
//! The last tests draw single lines the same way, read from the board's edge
//! inward, and lay each along every edge and into every corner.

use wuzi::board::{Board, Color, Geometry, Pattern, Pos, Rule, Threat};

const HORIZONTAL: usize = 0;
const VERTICAL: usize = 1;
const DIAGONAL: usize = 2;
const ANTI_DIAGONAL: usize = 3;

/// The board and the cell marked `?`.
fn drawn(rule: Rule, geometry: Geometry, text: &str) -> (Board, Pos) {
    let board = Board::from_diagram(text, rule, geometry).expect("a valid drawing");
    let rows = text.lines().map(str::trim).filter(|row| !row.is_empty());
    let probe = rows
        .enumerate()
        .find_map(|(y, row)| {
            let x = row
                .chars()
                .filter(|c| !c.is_whitespace())
                .position(|c| c == '?')?;
            Some(Pos::new(x, y))
        })
        .expect("a ? in the drawing");
    (board, probe)
}

fn pattern(rule: Rule, dir: usize, color: Color, text: &str) -> Pattern {
    let (board, probe) = drawn(rule, Geometry::Square, text);
    board.pattern(probe, color, dir)
}

fn black(rule: Rule, dir: usize, text: &str) -> Pattern {
    pattern(rule, dir, Color::Black, text)
}

fn threat(rule: Rule, color: Color, text: &str) -> Threat {
    let (board, probe) = drawn(rule, Geometry::Square, text);
    board.threat(probe, color)
}

#[test]
fn fives_in_the_corners_of_the_smallest_board() {
    let row = "X X X X ?
               . . . . .
               . . . . .
               . . . . .
               . . . . .";
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, row), Pattern::Five);
    assert_eq!(black(Rule::Freestyle, VERTICAL, row), Pattern::None);
    let diagonal = "? . . . .
                    . X . . .
                    . . X . .
                    . . . X .
                    . . . . X";
    assert_eq!(black(Rule::Standard, DIAGONAL, diagonal), Pattern::Five);
    let anti = ". . . . X
                . . . X .
                . . X . .
                . X . . .
                ? . . . .";
    assert_eq!(black(Rule::Renju, ANTI_DIAGONAL, anti), Pattern::Five);
    assert_eq!(
        pattern(Rule::Renju, ANTI_DIAGONAL, Color::White, anti),
        Pattern::None
    );
}

#[test]
fn the_edge_closes_a_line() {
    // Open in the middle of the row, closed against the left edge.
    let open = ". ? X X X . .
                . . . . . . .
                . . . . . . .
                . . . . . . .
                . . . . . . .";
    let closed = "? X X X . . .
                  . . . . . . .
                  . . . . . . .
                  . . . . . . .
                  . . . . . . .";
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, open), Pattern::OpenFour);
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, closed), Pattern::Four);
    let open_two = ". ? X . . . .
                    . . . . . . .
                    . . . . . . .
                    . . . . . . .
                    . . . . . . .";
    let closed_two = "? X . . . . .
                      . . . . . . .
                      . . . . . . .
                      . . . . . . .
                      . . . . . . .";
    assert_eq!(
        black(Rule::Freestyle, HORIZONTAL, open_two),
        Pattern::OpenTwo
    );
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, closed_two), Pattern::Two);
    // A wall closes a line exactly as the edge does.
    let walled = "# ? X X X . .
                  . . . . . . .
                  . . . . . . .
                  . . . . . . .
                  . . . . . . .";
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, walled), Pattern::Four);
}

#[test]
fn short_lines_of_rectangular_boards() {
    // Columns five tall: a three can only ever become a closed four.
    let column = ". . . ? . . . . .
                  . . . X . . . . .
                  . . . X . . . . .
                  . . . . . . . . .
                  . . . . . . . . .";
    assert_eq!(black(Rule::Freestyle, VERTICAL, column), Pattern::Three);
    // A corner diagonal of five cells: never an open three.
    let corner = ". . . . .
                  . . . ? .
                  . . X . .
                  . X . . .
                  . . . . .";
    assert_eq!(
        black(Rule::Freestyle, ANTI_DIAGONAL, corner),
        Pattern::Three
    );
    // A diagonal of four cells can hold no five at all.
    let too_short = ". . . . . .
                     . . . . . .
                     . X . . . .
                     ? . . . . .
                     . . . . . .";
    assert_eq!(
        black(Rule::Freestyle, ANTI_DIAGONAL, too_short),
        Pattern::None
    );
}

#[test]
fn every_line_class_in_the_open() {
    let cases = [
        (". . X X ? X X . .", Pattern::Five),
        (". . X X X ? . . .", Pattern::OpenFour),
        ("O X X X ? . . . .", Pattern::Four),
        ("X . X ? X . X . .", Pattern::DoubleFour),
        (". . . X ? X . . .", Pattern::OpenThree),
        (". . O X ? X . . .", Pattern::Three),
        (". . . . ? X . . .", Pattern::OpenTwo),
        (". . . O ? X . . .", Pattern::Two),
        (". . . . ? . . . .", Pattern::None),
        ("O . . . ? O . . .", Pattern::None),
    ];
    for (row, expected) in cases {
        let text = format!("{row}\n{}", ". . . . . . . . .\n".repeat(4));
        assert_eq!(black(Rule::Freestyle, HORIZONTAL, &text), expected, "{row}");
        // The same row for White, colours swapped.
        let swapped: String = row
            .chars()
            .map(|c| match c {
                'X' => 'O',
                'O' => 'X',
                c => c,
            })
            .collect();
        let text = format!("{swapped}\n{}", ". . . . . . . . .\n".repeat(4));
        assert_eq!(
            pattern(Rule::Freestyle, HORIZONTAL, Color::White, &text),
            expected,
            "{swapped}"
        );
    }
}

#[test]
fn overlines_depend_on_rule_and_colour() {
    let black_six = "X X X ? X X . .
                     . . . . . . . .
                     . . . . . . . .
                     . . . . . . . .
                     . . . . . . . .";
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, black_six), Pattern::Five);
    assert_eq!(
        black(Rule::Standard, HORIZONTAL, black_six),
        Pattern::Overline
    );
    assert_eq!(black(Rule::Renju, HORIZONTAL, black_six), Pattern::Overline);
    assert_eq!(black(Rule::Caro, HORIZONTAL, black_six), Pattern::Five);
    assert_eq!(
        black(Rule::CaroExact, HORIZONTAL, black_six),
        Pattern::Overline
    );
    let white_six = black_six.replace('X', "O");
    assert_eq!(
        pattern(Rule::Renju, HORIZONTAL, Color::White, &white_six),
        Pattern::Five
    );
    assert_eq!(
        pattern(Rule::Standard, HORIZONTAL, Color::White, &white_six),
        Pattern::Overline
    );
}

#[test]
fn caro_needs_one_end_free_of_enemy_stones_and_the_edge_is_free() {
    let blocked = "O X X ? X X O
                   . . . . . . .
                   . . . . . . .
                   . . . . . . .
                   . . . . . . .";
    let at_edge = "X X ? X X O .
                   . . . . . . .
                   . . . . . . .
                   . . . . . . .
                   . . . . . . .";
    for rule in [Rule::Caro, Rule::CaroExact] {
        assert_eq!(black(rule, HORIZONTAL, blocked), Pattern::None, "{rule:?}");
        assert_eq!(black(rule, HORIZONTAL, at_edge), Pattern::Five, "{rule:?}");
    }
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, blocked), Pattern::Five);
    // The only completion of this four makes a five blocked at both ends.
    let dead_four = "O X X X ? . O
                     . . . . . . .
                     . . . . . . .
                     . . . . . . .
                     . . . . . . .";
    assert_eq!(black(Rule::Caro, HORIZONTAL, dead_four), Pattern::None);
    assert_eq!(black(Rule::Freestyle, HORIZONTAL, dead_four), Pattern::Four);
}

#[test]
fn threats_combine_the_lines() {
    let four_three = ". . . . . . .
                      . . . X . . .
                      . . . X . . .
                      X X X ? . . .
                      . . . . . . .
                      . . . . . . .
                      . . . . . . .";
    assert_eq!(
        threat(Rule::Freestyle, Color::Black, four_three),
        Threat::FourThree
    );
    assert_eq!(
        threat(Rule::Freestyle, Color::White, four_three),
        Threat::None
    );
    let double_three = ". . . . . . .
                        . . . X . . .
                        . . . X . . .
                        . X X ? . . .
                        . . . . . . .
                        . . . . . . .
                        . . . . . . .";
    assert_eq!(
        threat(Rule::Freestyle, Color::Black, double_three),
        Threat::DoubleThree
    );
    assert_eq!(
        threat(Rule::Renju, Color::Black, double_three),
        Threat::Forbidden
    );
    let double_four = ". . . X . . .
                       . . . X . . .
                       . . . X . . .
                       X X X ? . . .
                       . . . . . . .
                       . . . . . . .
                       . . . . . . .";
    assert_eq!(
        threat(Rule::Freestyle, Color::Black, double_four),
        Threat::DoubleFour
    );
    assert_eq!(
        threat(Rule::Renju, Color::Black, double_four),
        Threat::Forbidden
    );
    assert_eq!(threat(Rule::Renju, Color::White, double_four), Threat::None);
}

#[test]
fn counts_and_lists_of_threats() {
    let board = Board::from_diagram(
        ". . . . . . . .
         . . X X X . . .
         . . . . . . . .
         . . . . . O O .
         . . . . . . . .",
        Rule::Freestyle,
        Geometry::Square,
    )
    .unwrap();
    // ..XXX... on row 1: two open-four points and two closed ones.
    assert_eq!(board.threat_count(Color::Black, Threat::OpenFour), 2);
    assert_eq!(board.threat_count_at_least(Color::Black, Threat::Four), 4);
    let fours: Vec<Pos> = board
        .cells_with_threat(Color::Black, Threat::Four)
        .collect();
    let row_one = |xs: [usize; 4]| xs.map(|x| Pos::new(x, 1)).to_vec();
    assert_eq!(fours, row_one([0, 1, 5, 6]));
    // ....OO.. on row 3: open threes at 3 and 4, closed threes at 2 and 7.
    assert_eq!(board.threat_count_at_least(Color::White, Threat::Four), 0);
    assert_eq!(
        board.cells_with_threat(Color::White, Threat::Three).count(),
        4
    );
    assert!(board.is_candidate(Pos::new(3, 3)));
    assert!(
        !board.is_candidate(Pos::new(0, 4)),
        "three steps from every stone"
    );
}

#[test]
fn hex_boards_have_three_lines_through_a_cell() {
    // On the hex grid (1, 1) is no line but (1, -1) is.
    let along_missing_axis = "X . . . . . .
                              . X . . . . .
                              . . X . . . .
                              . . . X . . .
                              . . . . ? . .
                              . . . . . . .
                              . . . . . . .";
    let (board, probe) = drawn(Rule::Freestyle, Geometry::Hex, along_missing_axis);
    assert_eq!(board.threat(probe, Color::Black), Threat::None);
    let along_axis = ". . . . . . X
                      . . . . . X .
                      . . . . X . .
                      . . . X . . .
                      . . ? . . . .
                      . . . . . . .
                      . . . . . . .";
    let (board, probe) = drawn(Rule::Freestyle, Geometry::Hex, along_axis);
    assert_eq!(board.threat(probe, Color::Black), Threat::Five);
    assert_eq!(board.pattern(probe, Color::Black, 2), Pattern::Five);
}

/// The cells of a line that starts at the board's edge, in order from the
/// edge, and the direction it runs along: rows from the left and right
/// edges, columns from the top and bottom, diagonals from all four corners.
fn lines_from_every_edge(width: usize, height: usize) -> Vec<(usize, Vec<Pos>)> {
    let (row, column, corner) = (height / 2, width / 2, width.min(height));
    let line = |dir: usize, cell: &dyn Fn(usize) -> (usize, usize), length: usize| {
        let cells = (0..length).map(|i| {
            let (x, y) = cell(i);
            Pos::new(x, y)
        });
        (dir, cells.collect())
    };
    vec![
        line(HORIZONTAL, &|i| (i, row), width),
        line(HORIZONTAL, &|i| (width - 1 - i, row), width),
        line(VERTICAL, &|i| (column, i), height),
        line(VERTICAL, &|i| (column, height - 1 - i), height),
        line(DIAGONAL, &|i| (i, i), corner),
        line(DIAGONAL, &|i| (width - 1 - i, height - 1 - i), corner),
        line(ANTI_DIAGONAL, &|i| (width - 1 - i, i), corner),
        line(ANTI_DIAGONAL, &|i| (i, height - 1 - i), corner),
    ]
}

/// A board of `rule` with the line `text` (as in the tests below) drawn
/// along `cells`, colours exchanged if `swapped`, and the cell marked `?`.
fn along_line(
    rule: Rule,
    width: usize,
    height: usize,
    cells: &[Pos],
    text: &str,
    swapped: bool,
) -> (Board, Pos) {
    let mut board = Board::new(width, height, rule).expect("a valid size");
    let mut probe = None;
    for (&pos, mark) in cells.iter().zip(text.split_whitespace()) {
        let stone = match (mark, swapped) {
            ("X", false) | ("O", true) => Some(Color::Black),
            ("O", false) | ("X", true) => Some(Color::White),
            ("?", _) => {
                probe = Some(pos);
                None
            }
            _ => None,
        };
        if let Some(stone) = stone {
            board.place(pos, stone).expect("an empty cell");
        }
    }
    (board, probe.expect("a ? in the line"))
}

#[test]
fn every_line_class_against_every_edge_and_into_every_corner() {
    // Each line is read from the edge inward (the edge is on the left of
    // the text); the cells past its end are empty.
    let cases = [
        ("X X ? X X", Pattern::Five),
        ("? X X X . .", Pattern::Four),
        ("O X ? X X .", Pattern::Four),
        (". X X ? . .", Pattern::OpenThree),
        ("X X ? . . .", Pattern::Three),
        (". ? X . . .", Pattern::OpenTwo),
        ("? X . . . .", Pattern::Two),
        ("X . X ? X . X", Pattern::DoubleFour),
        ("? . . . . .", Pattern::None),
        ("O . ? X . O", Pattern::None),
    ];
    let boards = [(7, 7), (7, 11), (11, 7), (8, 13)];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        for (width, height) in boards {
            for (dir, cells) in lines_from_every_edge(width, height) {
                for (text, expected) in cases {
                    for (color, swapped) in [(Color::Black, false), (Color::White, true)] {
                        let (board, probe) = along_line(rule, width, height, &cells, text, swapped);
                        assert_eq!(
                            board.pattern(probe, color, dir),
                            expected,
                            "{rule:?} {width}x{height}, {color:?}, '{text}' from {:?} along direction {dir}",
                            cells[0]
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn fives_overlines_and_blocked_fives_at_every_edge_follow_the_rule() {
    // Black's pattern under freestyle, standard, renju and caro. The edge
    // (left of the text) never blocks a caro five.
    let rules = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];
    let cases = [
        (
            "X X X ? X X",
            [
                Pattern::Five,
                Pattern::Overline,
                Pattern::Overline,
                Pattern::Five,
            ],
        ),
        (
            "O X X ? X X O",
            [Pattern::Five, Pattern::Five, Pattern::Five, Pattern::None],
        ),
        ("X X ? X X O", [Pattern::Five; 4]),
    ];
    for (width, height) in [(6, 6), (7, 11), (11, 7)] {
        for (dir, cells) in lines_from_every_edge(width, height) {
            for (text, expected) in cases {
                if text.split_whitespace().count() > cells.len() {
                    continue;
                }
                for (rule, expected) in rules.into_iter().zip(expected) {
                    let (board, probe) = along_line(rule, width, height, &cells, text, false);
                    assert_eq!(
                        board.pattern(probe, Color::Black, dir),
                        expected,
                        "{rule:?} {width}x{height}, '{text}' from {:?} along direction {dir}",
                        cells[0]
                    );
                }
            }
        }
    }
}
