//! Line patterns: what one line through an empty cell becomes for a colour if
//! that colour plays the cell. A table per rule maps every line key to the
//! pattern for both colours; it is built once, by code that follows the
//! definitions below one by one.

use super::line::{LineKey, KEY_COUNT, REACH};
use super::types::{Cell, Color, Rule};
use std::sync::OnceLock;

/// What a line becomes for a colour that plays the cell in its middle.
/// Ordered from worthless to winning; `Overline` sits low because such a line
/// can never win for that colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing that can grow into a five.
    #[default]
    None,
    /// Six or more in a row that do not win under the rule (standard, caro
    /// with exact five, and Black in renju).
    Overline,
    /// One more stone makes a `Three`.
    Two,
    /// One more stone makes an `OpenThree`.
    OpenTwo,
    /// One more stone makes a four of some kind (a closed three).
    Three,
    /// One more stone makes an unstoppable four: an `OpenFour`, or a
    /// `DoubleFour` for a colour allowed to make one.
    OpenThree,
    /// Exactly one point completes a five.
    Four,
    /// A straight four `.XXXX.`: two points complete a five with the same
    /// four stones.
    OpenFour,
    /// Two fours on this one line (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`): two
    /// points complete two different fives.
    DoubleFour,
    /// A winning row.
    Five,
}

impl Pattern {
    /// Number of patterns (they fit in four bits).
    pub const COUNT: usize = 10;

    pub const ALL: [Pattern; Pattern::COUNT] = [
        Pattern::None,
        Pattern::Overline,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    pub fn from_code(code: u8) -> Pattern {
        Pattern::ALL
            .get(code as usize)
            .copied()
            .unwrap_or(Pattern::None)
    }

    /// A four of any kind: one more stone makes a five.
    pub fn is_four(self) -> bool {
        matches!(
            self,
            Pattern::Four | Pattern::OpenFour | Pattern::DoubleFour
        )
    }

    /// How many fours the line holds, as the renju rules count them.
    pub fn four_count(self) -> usize {
        match self {
            Pattern::Four | Pattern::OpenFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// A pattern table's entries, indexed by line key: Black's pattern in the
/// low four bits, White's in the high four.
pub type PatternEntries = [u8; KEY_COUNT];

/// The same for keys cut down to the four nearest neighbours each way (see
/// `PatternTable::near`).
pub type NearEntries = [u8; NEAR_KEY_COUNT];

/// Number of distinct keys of the four nearest neighbours each way.
pub const NEAR_KEY_COUNT: usize = 1 << (4 * (REACH - 1));

/// A key's four nearest neighbours each way: its low half (see `line`).
#[inline(always)]
fn near_key(key: LineKey) -> usize {
    key.index() & (NEAR_KEY_COUNT - 1)
}

/// Patterns of every line key for one rule, for both colours.
pub struct PatternTable {
    entries: Box<PatternEntries>,
    /// For a rule whose patterns never depend on the fifth neighbours, the
    /// same patterns indexed by `near_key`: a table that small (64 KB rather
    /// than 1 MB) stays in the fast caches.
    near: Box<NearEntries>,
    /// The farthest step at which a neighbour can change a pattern (4 for
    /// freestyle, where nothing hangs on the cell beyond a five).
    reach: isize,
}

impl PatternTable {
    /// The table of `rule`, built on first use.
    pub fn of(rule: Rule) -> &'static PatternTable {
        static TABLES: [OnceLock<PatternTable>; 5] = [const { OnceLock::new() }; 5];
        let slot = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
        TABLES[slot].get_or_init(|| PatternTable::build(rule))
    }

    fn build(rule: Rule) -> PatternTable {
        let mut black = Classifier::new(rule, Color::Black);
        // Only renju treats the colours differently. Under the other rules
        // White's pattern is Black's on the same line with the colours
        // swapped, which halves the work.
        let mut white = (rule == Rule::Renju).then(|| Classifier::new(rule, Color::White));
        // Only keys with nothing but walls past their first wall on each
        // side are classified (an eighth of them); every other key copies
        // the entry of that form of itself. The keys go in falling order:
        // walls only add bits, so that form's entry is already there.
        let mut entries = Box::new([0; KEY_COUNT]);
        for key in (0..KEY_COUNT).rev() {
            let line = LineKey(key as u32);
            let walled = line.walled_past_first_wall();
            entries[key] = match walled == line {
                true => black.pattern(line) as u8,
                false => entries[walled.index()],
            };
        }
        for key in (0..KEY_COUNT).rev() {
            let line = LineKey(key as u32);
            let white_pattern = match &mut white {
                Some(white) => {
                    let walled = line.walled_past_first_wall();
                    match walled == line {
                        true => white.pattern(line) as u8,
                        false => entries[walled.index()] >> 4,
                    }
                }
                None => entries[line.colors_swapped().index()] & 15,
            };
            entries[key] |= white_pattern << 4;
        }
        // Keys whose fifth neighbours are empty are those whose near key is
        // the whole key.
        let near = Box::new(std::array::from_fn(|near| entries[near]));
        let mut table = PatternTable {
            entries,
            near,
            reach: REACH,
        };
        table.reach = (1..=REACH)
            .rev()
            .find(|&step| table.depends_on(step))
            .unwrap_or(0);
        table
    }

    /// Whether any pattern changes with what lies `step` cells away.
    fn depends_on(&self, step: isize) -> bool {
        let occupants = [
            Cell::Stone(Color::Black),
            Cell::Stone(Color::White),
            Cell::Wall,
        ];
        (0..KEY_COUNT as u32).map(LineKey).any(|key| {
            [-step, step].into_iter().any(|side| {
                key.neighbour(side) == Cell::Empty
                    && occupants.into_iter().any(|occupant| {
                        let changed = LineKey(key.0 | LineKey::toggle(side, occupant));
                        self.packed(changed) != self.packed(key)
                    })
            })
        })
    }

    /// The farthest step at which a stone can change a pattern.
    pub fn reach(&self) -> isize {
        self.reach
    }

    /// Both colours' patterns packed in one byte (Black low, White high), as
    /// the incremental board stores them.
    #[inline]
    pub fn packed(&self, key: LineKey) -> u8 {
        self.lookup().packed::<REACH>(key)
    }

    #[cfg(test)]
    pub fn get(&self, key: LineKey, color: Color) -> Pattern {
        Pattern::from_code((self.packed(key) >> (4 * color.index())) & 15)
    }

    /// The entries, for loops that look up many keys.
    pub fn lookup(&self) -> PatternLookup<'_> {
        PatternLookup {
            entries: &self.entries,
            near: &self.near,
        }
    }
}

/// A table's entries, for loops that look up many keys.
#[derive(Copy, Clone)]
pub struct PatternLookup<'a> {
    entries: &'a PatternEntries,
    near: &'a NearEntries,
}

impl PatternLookup<'_> {
    /// `PatternTable::packed`, for a table whose `reach` is `TABLE_REACH`.
    #[inline(always)]
    pub fn packed<const TABLE_REACH: isize>(self, key: LineKey) -> u8 {
        if TABLE_REACH < REACH {
            self.near[near_key(key)]
        } else {
            // Keys never exceed their twenty bits; the mask lets the compiler see it.
            self.entries[key.index() & (KEY_COUNT - 1)]
        }
    }
}

/// Classifies keys for one rule and colour, remembering every answer so that
/// "one more stone makes ..." is a lookup.
struct Classifier {
    rule: Rule,
    color: Color,
    known: Vec<Option<Pattern>>,
}

impl Classifier {
    fn new(rule: Rule, color: Color) -> Classifier {
        Classifier {
            rule,
            color,
            known: vec![None; KEY_COUNT],
        }
    }

    fn pattern(&mut self, key: LineKey) -> Pattern {
        if let Some(pattern) = self.known[key.index()] {
            return pattern;
        }
        let pattern = self.classify(key);
        self.known[key.index()] = Some(pattern);
        pattern
    }

    /// The definitions, strongest first. "The centre" is the empty cell the
    /// key belongs to; the colour is assumed to play it.
    fn classify(&mut self, key: LineKey) -> Pattern {
        let row = Row::through_centre(key, self.color);
        if self
            .rule
            .is_winning_row(self.color, row.length, row.blocked_both_ends)
        {
            return Pattern::Five;
        }
        if row.length > 5 {
            return Pattern::Overline;
        }

        // What the line becomes with one more stone on each empty neighbour.
        let color = self.color;
        let after_one_more: [Option<Pattern>; LineKey::STEPS.len()] = std::array::from_fn(|i| {
            let step = LineKey::STEPS[i];
            (key.neighbour(step) == Cell::Empty).then(|| self.pattern(key.with_stone(step, color)))
        });
        let becomes =
            |wanted: &dyn Fn(Pattern) -> bool| after_one_more.iter().flatten().any(|&p| wanted(p));

        // The points that complete a five (they can only be the nearest
        // non-stone on each side, so there are at most two).
        let mut completions = LineKey::STEPS
            .iter()
            .zip(after_one_more)
            .filter(|&(_, after)| after == Some(Pattern::Five))
            .map(|(&step, _)| step);
        match (completions.next(), completions.next()) {
            (None, _) => {}
            (Some(_), None) => return Pattern::Four,
            // Both ends of the same four stones: `.XXXX.`.
            (Some(one), Some(other)) if one.abs_diff(other) == 5 => return Pattern::OpenFour,
            _ => return Pattern::DoubleFour,
        }

        let may_double_four = !(self.rule == Rule::Renju && self.color == Color::Black);
        let unstoppable =
            |p: Pattern| p == Pattern::OpenFour || (p == Pattern::DoubleFour && may_double_four);
        if becomes(&unstoppable) {
            Pattern::OpenThree
        } else if becomes(&Pattern::is_four) {
            Pattern::Three
        } else if becomes(&|p| p == Pattern::OpenThree) {
            Pattern::OpenTwo
        } else if becomes(&|p| matches!(p, Pattern::Three | Pattern::OpenThree)) {
            Pattern::Two
        } else {
            Pattern::None
        }
    }
}

/// The unbroken row of one colour through the centre of a key, the centre
/// counted as that colour's stone.
struct Row {
    length: usize,
    blocked_both_ends: bool,
}

impl Row {
    fn through_centre(key: LineKey, color: Color) -> Row {
        let mut length = 1;
        let mut enemy_ends = 0;
        for sign in [-1, 1] {
            let mut step = 1;
            while step <= REACH && key.neighbour(sign * step) == Cell::Stone(color) {
                length += 1;
                step += 1;
            }
            if step <= REACH && key.neighbour(sign * step) == Cell::Stone(color.opponent()) {
                enemy_ends += 1;
            }
        }
        Row {
            length,
            blocked_both_ends: enemy_ends == 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key from a drawing of the line: eleven characters, the centre `?`,
    /// `X` black, `O` white, `#` wall, `.` empty.
    fn key(line: &str) -> LineKey {
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), 11, "{line}");
        assert_eq!(cells[5], '?');
        let mut key = LineKey::default();
        for (i, &c) in cells.iter().enumerate() {
            let step = i as isize - REACH;
            let cell = match c {
                'X' => Cell::Stone(Color::Black),
                'O' => Cell::Stone(Color::White),
                '#' => Cell::Wall,
                _ => continue,
            };
            key = LineKey(key.0 | LineKey::toggle(step, cell));
        }
        key
    }

    #[test]
    fn every_key_has_the_patterns_of_its_own_classification() {
        // The table classifies only keys walled past their first walls and
        // copies the rest: every key, classified on its own, must agree.
        for rule in Rule::ALL {
            let table = PatternTable::of(rule);
            for color in [Color::Black, Color::White] {
                let mut classifier = Classifier::new(rule, color);
                let differing = (0..KEY_COUNT as u32)
                    .map(LineKey)
                    .filter(|&key| table.get(key, color) != classifier.pattern(key))
                    .count();
                assert_eq!(differing, 0, "{rule:?} {color:?}");
            }
        }
    }

    fn black(rule: Rule, line: &str) -> Pattern {
        PatternTable::of(rule).get(key(line), Color::Black)
    }

    #[test]
    fn freestyle_classes() {
        let cases = [
            (". . . X X ? X X . . .", Pattern::Five),
            ("X X X X X ? . . . . .", Pattern::Five),
            (". . X X X ? . . . . .", Pattern::OpenFour),
            (". O X X X ? . . . . .", Pattern::Four),
            (". . X . X ? X . X . .", Pattern::DoubleFour),
            (". . . X X ? . . . . .", Pattern::OpenThree),
            (". . . X . ? X . . . .", Pattern::OpenThree),
            (". . O X X ? . . . . .", Pattern::Three),
            (". . # X X ? . . . . .", Pattern::Three),
            (". . . . X ? . . . . .", Pattern::OpenTwo),
            (". . . O X ? . . . . .", Pattern::Two),
            ("# # # # O ? . . . O .", Pattern::None),
            (". . . . . ? . . . . .", Pattern::None),
        ];
        for (line, expected) in cases {
            assert_eq!(black(Rule::Freestyle, line), expected, "{line}");
        }
    }

    #[test]
    fn exact_five_rules_see_overlines() {
        let six = "X X X X X ? . . . . .";
        assert_eq!(black(Rule::Standard, six), Pattern::Overline);
        assert_eq!(black(Rule::Renju, six), Pattern::Overline);
        let white_six = key("O O O O O ? . . . . .");
        assert_eq!(
            PatternTable::of(Rule::Renju).get(white_six, Color::White),
            Pattern::Five
        );
        // Black's renju four whose other completion would make six.
        assert_eq!(black(Rule::Renju, "X . X X X ? . O . . ."), Pattern::Four);
        // X..XXX..X: each end of the straight four would make an overline.
        assert_eq!(black(Rule::Renju, "X . . X X ? . . X . ."), Pattern::Three);
        assert_eq!(
            black(Rule::Freestyle, "X . . X X ? . . X . ."),
            Pattern::OpenThree
        );
    }

    #[test]
    fn colour_swapped_tables_match_classifying_white() {
        for rule in [Rule::Freestyle, Rule::Caro] {
            let table = PatternTable::of(rule);
            let mut white = Classifier::new(rule, Color::White);
            for key in (0..KEY_COUNT as u32).step_by(7).map(LineKey) {
                assert_eq!(
                    table.get(key, Color::White),
                    white.pattern(key),
                    "{rule:?} {key:?}"
                );
            }
        }
    }

    #[test]
    fn the_near_table_agrees_with_the_full_one_when_the_fifth_neighbours_do_not_count() {
        let table = PatternTable::of(Rule::Freestyle);
        for key in (0..KEY_COUNT as u32).step_by(3).map(LineKey) {
            let near = table.lookup().packed::<{ REACH - 1 }>(key);
            assert_eq!(near, table.packed(key), "{key:?}");
        }
    }

    #[test]
    fn only_freestyle_ignores_the_fifth_neighbour() {
        for rule in Rule::ALL {
            let expected = if rule == Rule::Freestyle { 4 } else { 5 };
            assert_eq!(PatternTable::of(rule).reach(), expected, "{rule:?}");
        }
    }

    #[test]
    fn caro_fives_need_an_open_end() {
        assert_eq!(black(Rule::Caro, ". . O X X ? X X O . ."), Pattern::None);
        assert_eq!(black(Rule::Caro, ". . O X X ? X X . . ."), Pattern::Five);
        assert_eq!(black(Rule::Caro, ". . # X X ? X X # . ."), Pattern::Five);
        assert_eq!(black(Rule::Caro, ". O X X X ? . . . . ."), Pattern::Four);
        assert_eq!(black(Rule::Caro, ". O X X X ? . O . . ."), Pattern::None);
        assert_eq!(
            black(Rule::CaroExact, ". X X X X ? X . . . ."),
            Pattern::Overline
        );
        assert_eq!(black(Rule::Caro, ". X X X X ? X . . . ."), Pattern::Five);
    }
}
