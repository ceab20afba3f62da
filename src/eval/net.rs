//! A small network over the same counts as the linear score: one hidden
//! layer of rectified sums, whose output is added to the linear score. The
//! linear tables price each kind of cell on its own; the hidden units price
//! combinations (a four-three point of ours when they have no four, many
//! open twos on both sides), which a sum of counts cannot.
//!
//! The weights are data (`src/eval/nets/*.txt`, written by `pbrain-wuzi
//! tune --net DIR`), read once, on the first evaluation.

use super::{EvalSet, Features};
use crate::board::{PairClass, Threat};
use std::sync::OnceLock;

/// The network's inputs, in the order of the fitting tool's parameters:
/// own cells by threat, their cells by threat, own pairs, their pairs, the
/// initiative.
pub const INPUTS: usize = 2 * Threat::COUNT + 2 * PairClass::COUNT + 1;
/// Hidden units.
pub const HIDDEN: usize = 16;

/// One table set's network.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// First layer, input-major: input `i` adds `squash(count) *
    /// input[i][k]` to hidden unit `k`.
    pub input: Vec<[f32; HIDDEN]>,
    pub bias: [f32; HIDDEN],
    /// Each rectified hidden unit's worth, in centi-stones.
    pub output: [f32; HIDDEN],
}

/// An input count as the network reads it: linear at first, saturating
/// past a few cells (60 two-cells say little more than 20).
pub const fn squash(count: u16) -> f32 {
    let c = count as f32;
    c / (1.0 + c * 0.125)
}

/// Counts up to this are squashed by table lookup: no board has more
/// empty cells.
const SQUASHED: usize = 1024;

/// `squash` of every count up to `SQUASHED`, the same numbers without a
/// division on the evaluation's path.
static SQUASHED_COUNTS: [f32; SQUASHED + 1] = {
    let mut table = [0.0; SQUASHED + 1];
    let mut count = 0;
    while count <= SQUASHED {
        table[count] = squash(count as u16);
        count += 1;
    }
    table
};

impl Net {
    /// The network's addition to the score, in centi-stones.
    pub fn correction(&self, features: &Features) -> f32 {
        let mut hidden = self.bias;
        // The inputs in the order of the rows (own cells, their cells, own
        // pairs, their pairs, the initiative), each group a plain array walk.
        let groups: [&[u16]; 4] = [
            &features.own_cells,
            &features.their_cells,
            &features.own_pairs,
            &features.their_pairs,
        ];
        let initiative = [u16::from(features.initiative)];
        let mut rows = self.input.iter();
        for counts in groups.into_iter().chain([&initiative[..]]) {
            for (&count, row) in counts.iter().zip(rows.by_ref()) {
                if count == 0 {
                    continue;
                }
                let x = SQUASHED_COUNTS
                    .get(count as usize)
                    .copied()
                    .unwrap_or_else(|| squash(count));
                for (h, w) in hidden.iter_mut().zip(row) {
                    *h += x * w;
                }
            }
        }
        hidden
            .iter()
            .zip(&self.output)
            .map(|(h, v)| h.max(0.0) * v)
            .sum()
    }

    /// Reads a network from its text: `#` comment lines, then `HIDDEN`
    /// numbers a line: `INPUTS` lines of input weights, the biases, the
    /// output weights.
    pub fn parse(text: &str) -> Result<Net, String> {
        let mut rows = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let row: Result<Vec<f32>, _> = line.split_whitespace().map(str::parse).collect();
            let row = row.map_err(|e| format!("line {}: {e}", n + 1))?;
            let row: [f32; HIDDEN] = row
                .try_into()
                .map_err(|_| format!("line {}: not {HIDDEN} numbers", n + 1))?;
            rows.push(row);
        }
        if rows.len() != INPUTS + 2 {
            return Err(format!("{} rows, not {}", rows.len(), INPUTS + 2));
        }
        let output = rows.pop().unwrap_or_default();
        let bias = rows.pop().unwrap_or_default();
        Ok(Net {
            input: rows,
            bias,
            output,
        })
    }

    /// The text `parse` reads, after `header` (as comment lines).
    pub fn to_text(&self, header: &str) -> String {
        let mut text: String = header.lines().map(|l| format!("# {l}\n")).collect();
        for row in self.input.iter().chain([&self.bias, &self.output]) {
            let numbers: Vec<String> = row.iter().map(|w| format!("{w:.5}")).collect();
            text += &numbers.join(" ");
            text += "\n";
        }
        text
    }
}

/// The name, without `.txt`, of the file a table set's network is kept in
/// under `src/eval/nets/` (and that `tune --net DIR` writes in `DIR`).
pub fn file_stem(set: EvalSet) -> &'static str {
    match set {
        EvalSet::Gomoku => "gomoku",
        EvalSet::RenjuBlack => "renju-black",
        EvalSet::RenjuWhite => "renju-white",
    }
}

/// The shipped networks' texts, by `EvalSet::index` (the files
/// `file_stem` names); a set without one is scored by its linear table
/// alone.
const TEXTS: [Option<&str>; EvalSet::COUNT] = [
    Some(include_str!("nets/gomoku.txt")),
    Some(include_str!("nets/renju-black.txt")),
    Some(include_str!("nets/renju-white.txt")),
];

/// The network of `set`, if it has one.
pub fn net(set: EvalSet) -> Option<&'static Net> {
    static NETS: OnceLock<[Option<Net>; EvalSet::COUNT]> = OnceLock::new();
    NETS.get_or_init(|| {
        TEXTS.map(|text| text.map(|t| Net::parse(t).expect("a shipped network parses")))
    })[set.index()]
    .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Rule};

    fn sample_net() -> Net {
        let mut input = vec![[0.0; HIDDEN]; INPUTS];
        input[3][0] = 1.0;
        input[4][1] = -2.0;
        let mut output = [0.0; HIDDEN];
        output[0] = 10.0;
        output[1] = 100.0;
        Net {
            input,
            bias: [0.5; HIDDEN],
            output,
        }
    }

    #[test]
    fn the_shipped_networks_parse() {
        for set in EvalSet::ALL {
            if let Some(net) = net(set) {
                assert_eq!(net.input.len(), INPUTS);
                assert!(
                    net.output.iter().any(|&v| v != 0.0),
                    "{set:?}: an empty network"
                );
            }
        }
        assert!(net(EvalSet::Gomoku).is_some());
    }

    #[test]
    fn each_set_reads_the_file_its_stem_names() {
        for set in EvalSet::ALL {
            let path = format!(
                "{}/src/eval/nets/{}.txt",
                env!("CARGO_MANIFEST_DIR"),
                file_stem(set)
            );
            let on_disk = std::fs::read_to_string(&path).ok();
            assert_eq!(TEXTS[set.index()], on_disk.as_deref(), "{set:?}: {path}");
        }
    }

    #[test]
    fn the_text_round_trips() {
        let net = sample_net();
        let text = net.to_text("made by a test\nsecond line");
        assert!(text.starts_with("# made by a test\n# second line\n"));
        assert_eq!(Net::parse(&text).unwrap(), net);
        assert!(Net::parse("1 2 3").is_err());
    }

    /// The inputs of `features` that are not zero, as (input, count), in
    /// the order of the network's rows.
    fn inputs(features: &Features) -> Vec<(usize, u16)> {
        let counts = features
            .own_cells
            .iter()
            .chain(&features.their_cells)
            .chain(&features.own_pairs)
            .chain(&features.their_pairs)
            .copied()
            .chain(std::iter::once(u16::from(features.initiative)));
        counts.enumerate().filter(|&(_, c)| c != 0).collect()
    }

    #[test]
    fn the_correction_reads_every_input_in_order() {
        let board = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . . . . .
            . . . O . . . . .
            . . . X O . . . .
            . . . . . O O . .
            . . . . . . X . .
            . . . . . . . . .
            . . . . . . . . .
            ",
            Rule::Freestyle,
            crate::board::Geometry::Square,
        )
        .unwrap();
        let features = Features::of(&board);
        let net = net(EvalSet::Gomoku).unwrap();
        let mut hidden = net.bias;
        let read = inputs(&features);
        assert!(read.len() > 10, "{read:?}");
        for (i, count) in read {
            for (h, w) in hidden.iter_mut().zip(&net.input[i]) {
                *h += squash(count) * w;
            }
        }
        let expected: f32 = hidden
            .iter()
            .zip(&net.output)
            .map(|(h, v)| h.max(0.0) * v)
            .sum();
        assert_eq!(net.correction(&features), expected);
        assert!(expected != 0.0);
    }

    #[test]
    fn only_positive_hidden_sums_count() {
        let net = sample_net();
        let mut features = Features::of(&Board::new(15, 15, Rule::Freestyle).unwrap());
        features.own_cells = [0; Threat::COUNT];
        features.own_cells[3] = 8;
        features.own_cells[4] = 8;
        // Unit 0: 0.5 + squash(8) = 4.5, worth 45; unit 1: 0.5 - 8 < 0.
        // Every other unit: its bias, 0.5, times a zero output.
        assert!((net.correction(&features) - 45.0).abs() < 1e-4);
    }
}
