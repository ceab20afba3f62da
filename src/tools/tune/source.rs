//! The fitted weights written out as Rust source: the `EvalWeights`
//! literals `tune` prints for `src/eval/mod.rs`, and the candidate
//! features' weights as a comment beside them.

use super::{Candidates, LINES, PARAMS};
use crate::board::Pattern;
use crate::eval::{EvalSet, EvalWeights};
use crate::tools::fitting::rust_list;

/// The line features' fitted weights, as a comment beside the table.
pub(super) fn candidate_source(w: &[f64; PARAMS], candidates: Candidates) -> String {
    if !candidates.lines {
        return String::new();
    }
    let list = |values: &[f64]| {
        let rounded: Vec<i32> = values.iter().map(|v| v.round() as i32).collect();
        rust_list(&rounded)
    };
    let (own, their) = w[LINES..].split_at(Pattern::COUNT);
    format!(
        "        // lines by Pattern: own [{}], their [{}]\n",
        list(own),
        list(their)
    )
}

/// One `EvalWeights` literal, in the layout of `src/eval/mod.rs`.
pub(super) fn rust_source(set: EvalSet, w: &EvalWeights) -> String {
    format!(
        "        // {set:?}\n        EvalWeights {{\n            \
         own_cells: [{}],\n            their_cells: [{}],\n            \
         own_pairs: [{}],\n            their_pairs: [{}],\n            \
         initiative: {},\n            tempo: {},\n        }},\n",
        rust_list(&w.own_cells),
        rust_list(&w.their_cells),
        rust_list(&w.own_pairs),
        rust_list(&w.their_pairs),
        w.initiative,
        w.tempo
    )
}
