//! Every shared renju vector (tests/data/renju-forbidden.txt) must get its
//! exact class from `Board::forbidden`, and `forbidden_points` must agree.

use wuzi::board::{Board, Color, Forbidden, Pos, Rule};

struct Vector {
    line_number: usize,
    black: Vec<Pos>,
    white: Vec<Pos>,
    probe: Pos,
    expected: Option<Forbidden>,
    text: String,
}

fn parse_points(list: &str) -> Vec<Pos> {
    list.split_whitespace()
        .map(|xy| {
            let (x, y) = xy.split_once(',').expect("point is x,y");
            Pos::new(x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

fn parse_answer(answer: &str) -> Option<Forbidden> {
    match answer {
        "none" => None,
        "overline" => Some(Forbidden::Overline),
        "double-four" => Some(Forbidden::DoubleFour),
        "double-three" => Some(Forbidden::DoubleThree),
        other => panic!("unknown answer {other:?}"),
    }
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("data/renju-forbidden.txt");
    text.lines()
        .enumerate()
        .filter_map(|(index, line)| {
            let data = line.split('#').next().unwrap_or("").trim();
            if data.is_empty() {
                return None;
            }
            let fields: Vec<&str> = data.split('|').collect();
            assert_eq!(fields.len(), 4, "line {}: {line}", index + 1);
            let field = |prefix: &str, i: usize| {
                fields[i]
                    .strip_prefix(prefix)
                    .unwrap_or_else(|| panic!("line {}: field {prefix}", index + 1))
            };
            Some(Vector {
                line_number: index + 1,
                black: parse_points(field("B:", 0)),
                white: parse_points(field("W:", 1)),
                probe: parse_points(field("P:", 2))[0],
                expected: parse_answer(field("forbidden=", 3)),
                text: line.to_string(),
            })
        })
        .collect()
}

fn setup(vector: &Vector) -> Board {
    setup_with_rule(vector, Rule::Renju)
}

fn setup_with_rule(vector: &Vector, rule: Rule) -> Board {
    let mut board = Board::new(15, 15, rule).unwrap();
    for &p in &vector.black {
        board.place(p, Color::Black).unwrap();
    }
    for &p in &vector.white {
        board.place(p, Color::White).unwrap();
    }
    board
}

#[test]
fn every_shared_vector_gets_its_exact_class() {
    let vectors = vectors();
    assert!(
        vectors.len() > 1000,
        "only {} vectors parsed",
        vectors.len()
    );
    let failures: Vec<String> = vectors
        .iter()
        .filter_map(|v| {
            let got = setup(v).forbidden(v.probe);
            (got != v.expected)
                .then(|| format!("line {}: got {got:?}\n  {}", v.line_number, v.text))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} vectors wrong:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}

#[test]
fn forbidden_points_lists_exactly_the_forbidden_probes() {
    for v in vectors().iter().step_by(7) {
        let board = setup(v);
        let listed = board.forbidden_points().contains(&v.probe);
        assert_eq!(
            listed,
            v.expected.is_some(),
            "line {}: {}",
            v.line_number,
            v.text
        );
    }
}

#[test]
fn only_renju_has_forbidden_points() {
    let forbidden: Vec<Vector> = vectors()
        .into_iter()
        .filter(|v| v.expected.is_some())
        .collect();
    for rule in Rule::ALL.into_iter().filter(|&r| r != Rule::Renju) {
        for v in forbidden.iter().step_by(10) {
            let board = setup_with_rule(v, rule);
            assert_eq!(
                board.forbidden(v.probe),
                None,
                "{rule:?} line {}",
                v.line_number
            );
            assert!(board.forbidden_points().is_empty());
            assert!(board.is_empty(v.probe));
        }
    }
}

#[test]
fn black_may_not_play_a_forbidden_point_but_white_may() {
    // The first hand-made vector: a plain 3-3 at 7,8, far from row 0.
    let v = &vectors()[0];
    assert_eq!(v.expected, Some(Forbidden::DoubleThree));
    let mut board = setup(v);
    assert_eq!(board.side_to_move(), Color::White);
    assert!(board.is_legal(v.probe), "White has no forbidden points");
    for x in (0..2 * v.black.len()).step_by(2) {
        board.place(Pos::new(x, 0), Color::White).unwrap();
    }
    assert_eq!(board.side_to_move(), Color::Black);
    assert!(!board.is_legal(v.probe));
    assert_eq!(board.forbidden_points(), vec![v.probe]);
}
