//! `pbrain-wuzi opengen`: generates balanced openings with our own search.
//!
//! A candidate is a few random stones near the centre, each one close to the
//! stones before it, Black first. It is kept when it is legal to set up (no
//! five; under renju no Black stone on a forbidden point and a legal move
//! left for the side to move), is not a mirror or rotation of one already
//! kept, and the search at a fixed node budget scores it within a small
//! margin of zero. Node limits (not time) make a run repeatable for a seed.
//!
//! A shallow search flatters the side to move in these young positions (3
//! stones, White to move, looks level at 20k nodes and is a clear Black edge
//! at 300k), so survivors of the cheap check can be re-searched deeper
//! (`--deep-nodes`) before they are kept, or, much cheaper, the first
//! check can be centred on that bias (`--target`) instead of on zero.

use crate::board::{Board, Color, Geometry, Pos, Rule};
use crate::search::{new_searcher, EngineOptions, Limits, Score, Searcher};
use crate::tools::openings::{check_stone, format_offsets, format_pos, Opening};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenGenSettings {
    pub rule: Rule,
    pub size: usize,
    pub geometry: Geometry,
    pub count: usize,
    pub stones: (usize, usize),
    /// Only openings with this side to move (`None`: either).
    pub to_move: Option<Color>,
    pub radius: usize,
    pub nodes: u64,
    pub margin: Score,
    /// Centre of the first check's window, from the side to move's view.
    pub target: Score,
    /// Second, deeper check of the candidates that pass the first.
    pub deep_nodes: Option<u64>,
    pub deep_margin: Score,
    pub seed: u64,
}

impl Default for OpenGenSettings {
    fn default() -> Self {
        OpenGenSettings {
            rule: Rule::Freestyle,
            size: 15,
            geometry: Geometry::Square,
            count: 200,
            stones: (3, 5),
            to_move: None,
            radius: 3,
            nodes: 20_000,
            margin: 60,
            target: 0,
            deep_nodes: None,
            deep_margin: 100,
            seed: 1,
        }
    }
}

/// A kept opening with the score the search gave it (side to move's view).
#[derive(Clone, Debug)]
pub struct GeneratedOpening {
    pub opening: Opening,
    pub score: Score,
}

/// Counters of one run, for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenGenStats {
    pub candidates: usize,
    pub illegal: usize,
    pub duplicates: usize,
    pub unbalanced: usize,
    /// Passed the first check, failed the deep one.
    pub deep_unbalanced: usize,
}

/// Gives up after this many candidates per opening asked for.
const MAX_CANDIDATES_PER_OPENING: usize = 200;
/// Memory for the search: a small table keeps `clear` between candidates cheap.
const SEARCH_MEMORY_BYTES: u64 = 64 << 20;

pub fn generate(
    settings: &OpenGenSettings,
) -> Result<(Vec<GeneratedOpening>, OpenGenStats), String> {
    let empty = Board::with_geometry(
        settings.size,
        settings.size,
        settings.rule,
        settings.geometry,
    )
    .map_err(|e| e.to_string())?;
    let (min_stones, max_stones) = settings.stones;
    // An odd number of stones leaves White to move.
    let stone_counts: Vec<usize> = (min_stones.max(1)..=max_stones)
        .filter(|n| match settings.to_move {
            Some(Color::White) => n % 2 == 1,
            Some(Color::Black) => n % 2 == 0,
            None => true,
        })
        .collect();
    if min_stones == 0 || stone_counts.is_empty() {
        return Err("--stones needs 1 <= MIN <= MAX, with a count that suits --to-move".into());
    }
    let area = (2 * settings.radius + 1).pow(2);
    if max_stones > area || 2 * settings.radius + 1 > settings.size {
        return Err("--radius too small for the stones, or too large for the board".into());
    }
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let mut searcher = new_searcher();
    searcher.configure(&EngineOptions {
        memory_bytes: SEARCH_MEMORY_BYTES,
        threads: 1,
    });
    let mut kept = Vec::new();
    let mut seen = HashSet::new();
    let mut stats = OpenGenStats::default();
    while kept.len() < settings.count {
        if stats.candidates >= settings.count * MAX_CANDIDATES_PER_OPENING {
            return Err(format!(
                "gave up after {} candidates with {} openings kept",
                stats.candidates,
                kept.len()
            ));
        }
        stats.candidates += 1;
        let stones = stone_counts[rng.gen_range(0..stone_counts.len())];
        let Some(board) = random_position(&empty, stones, settings.radius, &mut rng) else {
            stats.illegal += 1;
            continue;
        };
        if !seen.insert(canonical_key(&board)) {
            stats.duplicates += 1;
            continue;
        }
        let mut score = evaluate(searcher.as_mut(), &board, settings.nodes);
        if (score - settings.target).abs() > settings.margin {
            stats.unbalanced += 1;
            continue;
        }
        if let Some(deep_nodes) = settings.deep_nodes {
            score = evaluate(searcher.as_mut(), &board, deep_nodes);
            if score.abs() > settings.deep_margin {
                stats.deep_unbalanced += 1;
                continue;
            }
        }
        kept.push(GeneratedOpening {
            opening: Opening {
                stones: board.history().to_vec(),
            },
            score,
        });
    }
    Ok((kept, stats))
}

/// The search's score of `board` at a fixed node budget, from a clean table.
pub fn evaluate(searcher: &mut dyn Searcher, board: &Board, nodes: u64) -> Score {
    searcher.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    searcher.search(board, &limits, &stop, &mut |_| {}).score
}

/// Random stones within `radius` steps of the centre, each within two steps
/// of an earlier one (steps along the geometry's lines), or `None` when the
/// stones make an illegal opening.
fn random_position(
    empty: &Board,
    stones: usize,
    radius: usize,
    rng: &mut SmallRng,
) -> Option<Board> {
    let (cx, cy) = ((empty.width() / 2) as i64, (empty.height() / 2) as i64);
    let r = radius as i64;
    let steps = |a: (i64, i64), b: (i64, i64)| {
        empty
            .geometry()
            .distance(((a.0 - b.0) as isize, (a.1 - b.1) as isize))
    };
    let mut board = empty.clone();
    for _ in 0..stones {
        let pos = (0..100).find_map(|_| {
            let (x, y) = (cx + rng.gen_range(-r..=r), cy + rng.gen_range(-r..=r));
            let pos = board.pos(x, y)?;
            let xy = |p: Pos| (p.x() as i64, p.y() as i64);
            let near = board.history().is_empty()
                || board.history().iter().any(|&s| steps(xy(s), (x, y)) <= 2);
            let central = steps((x, y), (cx, cy)) <= radius;
            (board.is_empty(pos) && near && central).then_some(pos)
        })?;
        check_stone(&board, pos).ok()?;
        board.play(pos).ok()?;
    }
    let mover_has_a_move = board.empty_cells().any(|p| board.is_legal(p));
    mover_has_a_move.then_some(board)
}

/// The smallest of the symmetric images of the stones (offsets from the
/// centre with their colour) under the geometry's symmetries, so mirrored or
/// rotated openings count once.
fn canonical_key(board: &Board) -> Vec<(u8, i64, i64)> {
    let (cx, cy) = ((board.width() / 2) as i64, (board.height() / 2) as i64);
    let stones: Vec<(u8, i64, i64)> = board
        .history()
        .iter()
        .enumerate()
        .map(|(i, p)| ((i % 2) as u8, p.x() as i64 - cx, p.y() as i64 - cy))
        .collect();
    board
        .geometry()
        .symmetries()
        .iter()
        .map(|&[a, b, c, d]| {
            let [a, b, c, d] = [a, b, c, d].map(|v| v as i64);
            let mut image: Vec<(u8, i64, i64)> = stones
                .iter()
                .map(|&(colour, dx, dy)| (colour, a * dx + b * dy, c * dx + d * dy))
                .collect();
            image.sort_unstable();
            image
        })
        .min()
        .unwrap_or_default()
}

/// `pbrain-wuzi opengen [options]`.
#[derive(clap::Args, Debug)]
pub struct OpengenArgs {
    /// Rule: 0|1|4|8|9 (Gomocup codes) or freestyle|standard|renju|caro|caro-exact
    #[arg(long, default_value = "0", value_parser = super::cli::parse_rule)]
    rule: Rule,
    /// Board size
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// The board's lines: square, or hex (the triangle mesh, as 'INFO geometry hex')
    #[arg(long, default_value = "square", value_parser = super::cli::parse_geometry)]
    geometry: Geometry,
    /// Openings to keep
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// Stones per opening, MIN-MAX (or N)
    #[arg(long, default_value = "3-5", value_parser = parse_stone_range)]
    stones: (usize, usize),
    /// white (odd stone counts), black (even) or either
    #[arg(long, default_value = "either", value_parser = ["white", "black", "either"])]
    to_move: String,
    /// Stones within R steps of the centre
    #[arg(long, default_value_t = 3)]
    radius: usize,
    /// Search budget per candidate
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Keep when |score - target| <= CP
    #[arg(long, value_name = "CP", default_value_t = 60)]
    margin: Score,
    /// Centre of the window, side to move's view
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    target: Score,
    /// Then re-search survivors with N nodes (0 = off)
    #[arg(long, value_name = "N", default_value_t = 0)]
    deep_nodes: u64,
    /// And keep when |deep score| <= CP
    #[arg(long, value_name = "CP", default_value_t = 100)]
    deep_margin: Score,
    /// Random seed
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format
    #[arg(long, default_value = "offset", value_parser = ["offset", "pos"])]
    format: String,
    /// Write the openings to FILE (default: stdout)
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
}

/// `MIN-MAX` or `N`.
fn parse_stone_range(text: &str) -> Result<(usize, usize), String> {
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let number = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{text}' is not MIN-MAX"))
    };
    Ok((number(low)?, number(high)?))
}

impl OpengenArgs {
    fn settings(&self) -> OpenGenSettings {
        OpenGenSettings {
            rule: self.rule,
            size: self.size,
            geometry: self.geometry,
            count: self.count,
            stones: self.stones,
            to_move: match self.to_move.as_str() {
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                _ => None,
            },
            radius: self.radius,
            nodes: self.nodes,
            margin: self.margin,
            target: self.target,
            deep_nodes: Some(self.deep_nodes).filter(|&n| n > 0),
            deep_margin: self.deep_margin,
            seed: self.seed,
        }
    }
}

pub fn main(args: OpengenArgs) -> ExitCode {
    let settings = args.settings();
    let pos_format = args.format == "pos";
    let out = args.out;
    let (openings, stats) = match generate(&settings) {
        Ok(result) => result,
        Err(message) => {
            println!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let text: String = openings
        .iter()
        .map(|g| {
            let line = if pos_format {
                format_pos(&g.opening)
            } else {
                format_offsets(&g.opening, settings.size, settings.size)
            };
            line + "\n"
        })
        .collect();
    match out {
        None => print!("{text}"),
        Some(path) => {
            if let Err(e) = std::fs::write(&path, text) {
                println!("error: cannot write {path}: {e}");
                return ExitCode::FAILURE;
            }
            let black_to_move = openings
                .iter()
                .filter(|g| g.opening.stones.len() % 2 == 0)
                .count();
            let mean =
                openings.iter().map(|g| g.score as f64).sum::<f64>() / openings.len().max(1) as f64;
            println!(
                "{} openings to {path} ({} with {:?} to move); {} candidates: {} illegal, {} duplicates, {} unbalanced, {} unbalanced deeper; mean score {mean:.1}",
                openings.len(),
                black_to_move,
                Color::Black,
                stats.candidates,
                stats.illegal,
                stats.duplicates,
                stats.unbalanced,
                stats.deep_unbalanced
            );
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::openings::parse_openings;

    fn small(rule: Rule) -> OpenGenSettings {
        OpenGenSettings {
            rule,
            count: 4,
            nodes: 500,
            margin: 10_000,
            ..OpenGenSettings::default()
        }
    }

    #[test]
    fn openings_are_legal_local_and_distinct() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let settings = small(rule);
            let (openings, _) = generate(&settings).unwrap();
            assert_eq!(openings.len(), 4);
            let text: String = openings
                .iter()
                .map(|g| format_offsets(&g.opening, 15, 15) + "\n")
                .collect();
            // Reading them back re-checks every stone under the rule.
            let parsed = parse_openings(&text, 15, 15, rule).unwrap();
            let mut keys = HashSet::new();
            for opening in &parsed {
                assert!((3..=5).contains(&opening.stones.len()));
                assert!(opening
                    .stones
                    .iter()
                    .all(|p| p.x().abs_diff(7) <= 3 && p.y().abs_diff(7) <= 3));
                let mut board = Board::new(15, 15, rule).unwrap();
                opening.stones.iter().for_each(|&p| board.play(p).unwrap());
                assert!(
                    keys.insert(canonical_key(&board)),
                    "no two openings are symmetric"
                );
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_openings() {
        let settings = small(Rule::Freestyle);
        let first: Vec<Opening> = generate(&settings)
            .unwrap()
            .0
            .into_iter()
            .map(|g| g.opening)
            .collect();
        let again: Vec<Opening> = generate(&settings)
            .unwrap()
            .0
            .into_iter()
            .map(|g| g.opening)
            .collect();
        assert_eq!(first, again);
    }

    #[test]
    fn a_tight_margin_rejects_lopsided_candidates() {
        let settings = OpenGenSettings {
            margin: 20,
            count: 3,
            ..small(Rule::Freestyle)
        };
        let (openings, stats) = generate(&settings).unwrap();
        assert_eq!(openings.len(), 3);
        assert!(openings.iter().all(|g| g.score.abs() <= 20));
        assert!(stats.unbalanced > 0, "{stats:?}");
        assert_eq!(
            stats.candidates,
            openings.len() + stats.illegal + stats.duplicates + stats.unbalanced
        );

        // A shifted window keeps only scores near its centre.
        let shifted = OpenGenSettings {
            target: 100,
            margin: 40,
            count: 2,
            ..small(Rule::Freestyle)
        };
        let (kept, _) = generate(&shifted).unwrap();
        assert!(
            kept.iter().all(|g| (60..=140).contains(&g.score)),
            "{kept:?}"
        );

        // A second, deeper check only removes openings.
        let deeper = OpenGenSettings {
            deep_nodes: Some(2_000),
            deep_margin: 120,
            ..settings
        };
        let (deep_kept, deep_stats) = generate(&deeper).unwrap();
        assert!(deep_kept.iter().all(|g| g.score.abs() <= 120));
        assert_eq!(
            deep_stats.candidates,
            3 + deep_stats.illegal
                + deep_stats.duplicates
                + deep_stats.unbalanced
                + deep_stats.deep_unbalanced
        );
    }

    #[test]
    fn mirror_images_share_a_key() {
        let place = |stones: &[(usize, usize)]| {
            let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
            stones
                .iter()
                .for_each(|&(x, y)| board.play(Pos::new(x, y)).unwrap());
            board
        };
        let original = place(&[(7, 7), (8, 6), (9, 7)]);
        let mirrored = place(&[(7, 7), (6, 6), (5, 7)]);
        let rotated = place(&[(7, 7), (8, 8), (7, 9)]);
        let other = place(&[(7, 7), (8, 6), (9, 8)]);
        assert_eq!(canonical_key(&original), canonical_key(&mirrored));
        assert_eq!(canonical_key(&original), canonical_key(&rotated));
        assert_ne!(canonical_key(&original), canonical_key(&other));
    }

    #[test]
    fn hex_openings_follow_the_hex_symmetries_and_distances() {
        let place = |geometry, stones: &[(usize, usize)]| {
            let mut board = Board::with_geometry(15, 15, Rule::Freestyle, geometry).unwrap();
            stones
                .iter()
                .for_each(|&(x, y)| board.play(Pos::new(x, y)).unwrap());
            board
        };
        let key = |geometry, stones: &[(usize, usize)]| canonical_key(&place(geometry, stones));
        // Along the axis (1, 0), and turned by 60° onto the axis (1, -1).
        let row = [(7, 7), (8, 7), (9, 7)];
        let turned = [(7, 7), (8, 6), (9, 5)];
        assert_eq!(key(Geometry::Hex, &row), key(Geometry::Hex, &turned));
        assert_ne!(key(Geometry::Square, &row), key(Geometry::Square, &turned));
        // Mirroring x is a symmetry of the square but not of the hexagon:
        // it takes the axis (1, -1) to (-1, -1), which is no line there.
        let on_axis = [(7, 7), (8, 6)];
        let off_axis = [(7, 7), (6, 6)];
        assert_eq!(
            key(Geometry::Square, &on_axis),
            key(Geometry::Square, &off_axis)
        );
        assert_ne!(key(Geometry::Hex, &on_axis), key(Geometry::Hex, &off_axis));

        let settings = OpenGenSettings {
            geometry: Geometry::Hex,
            radius: 2,
            ..small(Rule::Freestyle)
        };
        let (openings, _) = generate(&settings).unwrap();
        assert_eq!(openings.len(), 4);
        for g in &openings {
            let from_centre = |p: &Pos| (p.x() as isize - 7, p.y() as isize - 7);
            assert!(g
                .opening
                .stones
                .iter()
                .all(|p| Geometry::Hex.distance(from_centre(p)) <= 2));
        }
    }
}
