//! Pair classes: an empty cell's two best lines for a colour, as an
//! unordered pair. Finer than `Threat`, which keeps only the best
//! combination (a cell with two open twos and one with a single open two
//! share `Threat::OpenTwo`); the evaluation counts cells by class, which
//! `lines` keeps up to date.

use super::pattern::Pattern;
use super::threat::Threat;

/// An unordered pair of line levels (see `PairClass::level`): the best and
/// second-best lines a stone on the cell would make for one colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PairClass(u8);

impl PairClass {
    /// Line levels: nothing (or an overline), two, open two, three, open
    /// three, four, open four or better.
    pub const LEVELS: usize = 7;
    /// Unordered pairs of levels.
    pub const COUNT: usize = Self::LEVELS * (Self::LEVELS + 1) / 2;
    /// No line worth anything: most of the board, and every occupied cell.
    pub const NOTHING: PairClass = PairClass(0);

    /// A line's level: patterns that play alike in a pair share one.
    pub fn level(pattern: Pattern) -> usize {
        match pattern {
            Pattern::None | Pattern::Overline => 0,
            Pattern::Two => 1,
            Pattern::OpenTwo => 2,
            Pattern::Three => 3,
            Pattern::OpenThree => 4,
            Pattern::Four => 5,
            Pattern::OpenFour | Pattern::DoubleFour | Pattern::Five => 6,
        }
    }

    /// The class of two levels, in either order.
    pub fn of_levels(a: usize, b: usize) -> PairClass {
        let (best, second) = (a.max(b), a.min(b));
        PairClass((best * (best + 1) / 2 + second) as u8)
    }

    /// The class of a cell whose lines make `patterns`.
    pub fn of(patterns: &[Pattern]) -> PairClass {
        let (mut best, mut second) = (0, 0);
        for level in patterns.iter().map(|&p| Self::level(p)) {
            if level > best {
                (best, second) = (level, best);
            } else if level > second {
                second = level;
            }
        }
        Self::of_levels(best, second)
    }

    /// The class of an empty cell for one colour: as `of`, but `NOTHING`
    /// on a point forbidden to Black in renju (`renju_black`), whose lines
    /// count for nothing.
    pub fn of_cell(patterns: &[Pattern], renju_black: bool) -> PairClass {
        match Threat::combine(patterns, renju_black) {
            Threat::Forbidden => Self::NOTHING,
            _ => Self::of(patterns),
        }
    }

    /// Every class, by index.
    pub fn all() -> impl Iterator<Item = PairClass> {
        (0..Self::COUNT).map(|i| PairClass(i as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern as P;

    #[test]
    fn a_class_keeps_the_two_best_lines_in_either_order() {
        let class = |ps: &[Pattern]| PairClass::of(ps);
        assert_eq!(
            class(&[P::OpenTwo, P::Three]),
            class(&[P::Three, P::OpenTwo])
        );
        assert_ne!(
            class(&[P::OpenTwo, P::OpenTwo]),
            class(&[P::OpenTwo, P::None])
        );
        // A third, weaker line does not change the class.
        assert_eq!(
            class(&[P::OpenThree, P::Two, P::OpenTwo]),
            class(&[P::OpenThree, P::OpenTwo])
        );
        assert_eq!(class(&[P::None, P::Overline]), PairClass::NOTHING);
        assert_eq!(class(&[P::Four, P::OpenThree]), PairClass::of_levels(4, 5));
    }

    #[test]
    fn the_classes_of_all_level_pairs_are_distinct_and_in_range() {
        let all: std::collections::HashSet<PairClass> = (0..PairClass::LEVELS)
            .flat_map(|a| (0..=a).map(move |b| PairClass::of_levels(a, b)))
            .collect();
        assert_eq!(all.len(), PairClass::COUNT);
        assert!(all.iter().all(|c| c.index() < PairClass::COUNT));
    }

    #[test]
    fn forbidden_points_have_no_class_for_black_in_renju() {
        let double_four = [P::Four, P::Four, P::None, P::None];
        assert_eq!(PairClass::of_cell(&double_four, true), PairClass::NOTHING);
        assert_eq!(
            PairClass::of_cell(&double_four, false),
            PairClass::of_levels(5, 5)
        );
        let four_three = [P::Four, P::None, P::OpenThree, P::None];
        assert_eq!(
            PairClass::of_cell(&four_three, true),
            PairClass::of_levels(5, 4)
        );
    }
}
