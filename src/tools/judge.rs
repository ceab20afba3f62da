//! `pbrain-wuzi tune RECORDS --judge-nodes N`: how well wuzi judges the
//! positions of finished games, with no fitting. For each quiet position
//! (the ones `tune` fits on), the static score and the score of a search of
//! N nodes are each put through a sigmoid of their own fitted scale and
//! compared with the game's result; where the records carry a stronger
//! engine's scores (`msgs.txt`, as for `--teacher-weight`), with those too.
//!
//! A change to the search that lets N nodes judge better is one that reads
//! further per node, measured in minutes on stored games rather than in
//! hours of matches. `--judge-rows FILE` writes every judged position, so
//! that two builds' runs over the same records can be compared position by
//! position and game by game (`scripts/judge-pairs.py`).

use crate::board::{Board, Rule};
use crate::eval::evaluate;
use crate::tools::fit_data::{
    is_quiet, opening_length, record_files, result_for, winner_of, Resolver,
};
use crate::tools::records::{parse_record, RecordedMove};
use crate::tools::teacher::TeacherFiles;
use crate::tools::tune::{fit_scale, scored_error, sigmoid};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One position's scores (side to move's view) and its game's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The move the position is before, from 1 (the records' numbering).
    pub ply: usize,
    pub static_score: f64,
    pub searched: f64,
    pub teacher: Option<f64>,
    pub result: f64,
}

/// The report on `rows`: each score's fitted scale and error against the
/// results, and where a teacher scored, how far each of wuzi's win chances
/// is from the teacher's.
pub fn report(rows: &[Judged], nodes: u64) -> String {
    let mut out = String::new();
    let static_pairs: Vec<(f64, f64)> = rows.iter().map(|r| (r.static_score, r.result)).collect();
    let search_pairs: Vec<(f64, f64)> = rows.iter().map(|r| (r.searched, r.result)).collect();
    let (k_static, k_search) = (fit_scale(&static_pairs), fit_scale(&search_pairs));
    let _ = writeln!(out, "// {} positions", rows.len());
    let _ = writeln!(
        out,
        "// against the results: static {:.5} (K {k_static:.1}), search of {nodes} nodes {:.5} (K {k_search:.1})",
        scored_error(&static_pairs, k_static),
        scored_error(&search_pairs, k_search),
    );
    let taught: Vec<(f64, &Judged)> = rows
        .iter()
        .filter_map(|r| r.teacher.map(|t| (t, r)))
        .collect();
    if taught.is_empty() {
        return out;
    }
    let teacher_pairs: Vec<(f64, f64)> = taught.iter().map(|&(t, r)| (t, r.result)).collect();
    let k_teacher = fit_scale(&teacher_pairs);
    let apart = |score: fn(&Judged) -> f64, k: f64| {
        let total: f64 = taught
            .iter()
            .map(|&(t, r)| (sigmoid(score(r), k) - sigmoid(t, k_teacher)).powi(2))
            .sum();
        total / taught.len() as f64
    };
    let _ = writeln!(
        out,
        "// teacher: {} positions, against the results {:.5} (K {k_teacher:.1}); \
         wuzi's win chance against the teacher's: static {:.5}, search {:.5}",
        taught.len(),
        scored_error(&teacher_pairs, k_teacher),
        apart(|r| r.static_score, k_static),
        apart(|r| r.searched, k_search),
    );
    out
}

/// The quiet positions of one game, judged.
pub(crate) fn judge_game(
    board: &mut Board,
    moves: &[RecordedMove],
    black_result: f64,
    resolver: &mut Resolver,
    teacher: Option<&HashMap<usize, f64>>,
) -> Vec<Judged> {
    let opening = opening_length(moves);
    let mut rows = Vec::new();
    for (ply, m) in moves.iter().enumerate() {
        if ply >= opening && is_quiet(board) {
            rows.push(Judged {
                ply: ply + 1,
                static_score: f64::from(evaluate(board)),
                searched: f64::from(resolver.score(board)),
                teacher: teacher.and_then(|t| t.get(&(ply + 1)).copied()),
                result: result_for(board.side_to_move(), black_result),
            });
        }
        if board.play(m.pos).is_err() {
            break;
        }
    }
    rows
}

/// One line a judged position for `--judge-rows`: the record, the ply, the
/// static and searched scores, the teacher's (`-` where it has none) and the
/// result, tab-separated.
pub fn row_line(record: &str, row: &Judged) -> String {
    let teacher = row
        .teacher
        .map_or_else(|| "-".to_string(), |t| format!("{t}"));
    format!(
        "{record}\t{}\t{}\t{}\t{teacher}\t{}",
        row.ply, row.static_score, row.searched, row.result
    )
}

/// `--judge-nodes N` over the records named; with `rows_file`, every judged
/// position is also written there ([`row_line`]).
pub fn run(
    paths: &[PathBuf],
    default_rule: Rule,
    nodes: u64,
    rows_file: Option<&Path>,
) -> Result<String, String> {
    let mut resolver = Resolver::new(nodes);
    let mut teachers = TeacherFiles::default();
    let mut rows = Vec::new();
    let mut lines = String::from("# record\tply\tstatic\tsearched\tteacher\tresult\n");
    for file in record_files(paths)? {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let Ok(record) = parse_record(&text) else {
            continue;
        };
        let rule = record.rule.unwrap_or(default_rule);
        let Some(black_result) = winner_of(rule, record.width, record.height, &record.moves) else {
            continue;
        };
        let Ok(mut board) = Board::new(record.width, record.height, rule) else {
            continue;
        };
        let judged = judge_game(
            &mut board,
            &record.moves,
            black_result,
            &mut resolver,
            teachers.of_record(&file),
        );
        // The full path, symlinks resolved: records of two folders may share
        // a file name, and a folder of links names the games it points to.
        let name = std::fs::canonicalize(&file)
            .unwrap_or_else(|_| file.clone())
            .display()
            .to_string();
        for row in &judged {
            lines.push_str(&row_line(&name, row));
            lines.push('\n');
        }
        rows.extend(judged);
    }
    if rows.is_empty() {
        return Err("no quiet positions with a known result in those records".into());
    }
    if let Some(path) = rows_file {
        std::fs::write(path, lines).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(report(&rows, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Pos};

    #[test]
    fn a_score_that_follows_the_results_beats_one_that_does_not() {
        // The search's score says who wins, the static one is noise.
        let rows: Vec<Judged> = (0..200)
            .map(|i| {
                let won = i % 2 == 0;
                Judged {
                    ply: i + 1,
                    static_score: if i % 4 < 2 { 300.0 } else { -300.0 },
                    searched: if won { 500.0 } else { -500.0 },
                    teacher: Some(if won { 200.0 } else { -200.0 }),
                    result: if won { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let text = report(&rows, 1000);
        let numbers = |line: &str| -> Vec<f64> {
            line.split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter_map(|w| w.parse().ok())
                .collect()
        };
        let results = text
            .lines()
            .find(|l| l.contains("against the results:"))
            .unwrap();
        let n = numbers(results);
        // static error, its K, nodes, search error, its K
        assert!(n[0] > 0.2, "{text}");
        assert!(n[3] < 0.01, "{text}");
        let teacher = text.lines().find(|l| l.contains("teacher:")).unwrap();
        let n = numbers(teacher);
        // positions, teacher error, K, static apart, search apart
        assert!(n[3] > 0.1 && n[4] < 0.01, "{text}");
    }

    #[test]
    fn a_won_game_is_judged_at_its_quiet_positions_with_a_search_that_sees_the_win() {
        // Black to move has a four-three at f3 (a closed three across, an
        // open two down) and no open four to make: a quiet position that a
        // search proves won, which the static score only calls good.
        let mut board = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . O X X X . . . .
            . . . . . X . . .
            . . . . . X . . .
            . . . . . . . . O
            . . . . . . . . .
            . . . . . . O . .
            O . . . . . . . O
            ",
            Rule::Freestyle,
            Geometry::Square,
        )
        .unwrap();
        let moves = [RecordedMove {
            pos: Pos::new(5, 2),
            think_ms: Some(10),
        }];
        let mut resolver = Resolver::new(20_000);
        let rows = judge_game(&mut board, &moves, 1.0, &mut resolver, None);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].result, 1.0);
        assert!(
            rows[0].searched > f64::from(crate::eval::EVAL_LIMIT),
            "{:?}",
            rows[0]
        );
        assert!(rows[0].static_score < rows[0].searched, "{:?}", rows[0]);
        assert_eq!(rows[0].ply, 1);
    }

    #[test]
    fn a_row_line_carries_the_position_and_marks_a_missing_teacher() {
        let row = Judged {
            ply: 12,
            static_score: -35.0,
            searched: 120.0,
            teacher: None,
            result: 0.5,
        };
        assert_eq!(
            row_line("game-0007.sgf", &row),
            "game-0007.sgf\t12\t-35\t120\t-\t0.5"
        );
        let taught = Judged {
            teacher: Some(-48.0),
            ..row
        };
        assert_eq!(row_line("g", &taught), "g\t12\t-35\t120\t-48\t0.5");
    }
}
