//! Cell threats: what playing an empty cell does for a colour, all its lines
//! taken together. Move generation, pruning, VCF and evaluation read these.

use super::pattern::Pattern;

/// What a move on an empty cell makes for one colour, ordered from worst to
/// best for the mover.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Threat {
    /// Renju, Black only: the move is forbidden (it loses).
    Forbidden,
    /// No line gains anything worth naming.
    #[default]
    None,
    /// Best line: a closed two.
    Two,
    /// Best line: an open two.
    OpenTwo,
    /// Best line: a closed three (makes a four next move).
    Three,
    /// One open three.
    OpenThree,
    /// Two or more open threes. For Black in renju this is only the shape:
    /// `Board::threat` confirms it with the recursive rule.
    DoubleThree,
    /// One four, nothing else that forces.
    Four,
    /// A four and an open three in another line.
    FourThree,
    /// Two fours (in two lines or on one line).
    DoubleFour,
    /// A straight four.
    OpenFour,
    /// Wins at once.
    Five,
}

impl Threat {
    pub const COUNT: usize = 12;

    pub const ALL: [Threat; Threat::COUNT] = [
        Threat::Forbidden,
        Threat::None,
        Threat::Two,
        Threat::OpenTwo,
        Threat::Three,
        Threat::OpenThree,
        Threat::DoubleThree,
        Threat::Four,
        Threat::FourThree,
        Threat::DoubleFour,
        Threat::OpenFour,
        Threat::Five,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// Combines the patterns of a cell's lines. `renju_black` applies Black's
    /// renju restrictions: an exact five still wins first; an overline or two
    /// fours are forbidden; two open threes are left as `DoubleThree` for the
    /// recursive rule to confirm. A four with two open threes is kept as the
    /// four (`FourThree`, or `OpenFour`), so that every count and list of
    /// fours holds it; the rule may still find it forbidden (`Board::threat`
    /// settles it).
    pub fn combine(patterns: &[Pattern], renju_black: bool) -> Threat {
        let lines = |wanted: Pattern| patterns.iter().filter(|&&p| p == wanted).count();
        let fours: usize = patterns.iter().map(|p| p.four_count()).sum();
        let open_threes = lines(Pattern::OpenThree);

        if lines(Pattern::Five) > 0 {
            return Threat::Five;
        }
        if renju_black {
            if lines(Pattern::Overline) > 0 || fours >= 2 {
                return Threat::Forbidden;
            }
            if open_threes >= 2 && fours == 0 {
                return Threat::DoubleThree;
            }
        }
        match (fours, open_threes) {
            _ if lines(Pattern::OpenFour) > 0 => Threat::OpenFour,
            (2.., _) => Threat::DoubleFour,
            (1, 1..) => Threat::FourThree,
            (1, 0) => Threat::Four,
            (0, 2..) => Threat::DoubleThree,
            (0, 1) => Threat::OpenThree,
            _ if lines(Pattern::Three) > 0 => Threat::Three,
            _ if lines(Pattern::OpenTwo) > 0 => Threat::OpenTwo,
            _ if lines(Pattern::Two) > 0 => Threat::Two,
            _ => Threat::None,
        }
    }
}

/// The four line patterns packed in a table index (four bits each, the
/// first direction lowest).
pub fn patterns_of_code(code: usize) -> [Pattern; 4] {
    [0, 4, 8, 12].map(|shift| Pattern::from_code((code >> shift) as u8 & 15))
}

/// Every combination of up to four line patterns (four bits each, one per
/// direction) mapped to its threat, for one way of combining.
pub struct ThreatTable {
    entries: Box<ThreatEntries>,
}

/// A threat table's entries, indexed by four pattern codes (four bits each).
pub type ThreatEntries = [Threat; 1 << 16];

impl ThreatTable {
    pub fn build(renju_black: bool) -> ThreatTable {
        let mut entries = Box::new([Threat::None; 1 << 16]);
        for (code, entry) in entries.iter_mut().enumerate() {
            *entry = Threat::combine(&patterns_of_code(code), renju_black);
        }
        ThreatTable { entries }
    }

    /// The entries alone, for loops that look up many codes.
    pub fn entries(&self) -> &ThreatEntries {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern as P;

    #[test]
    fn combinations() {
        let plain = |ps: &[Pattern]| Threat::combine(ps, false);
        let renju = |ps: &[Pattern]| Threat::combine(ps, true);
        assert_eq!(plain(&[P::Four, P::Four]), Threat::DoubleFour);
        assert_eq!(plain(&[P::DoubleFour]), Threat::DoubleFour);
        assert_eq!(plain(&[P::Four, P::OpenThree, P::Two]), Threat::FourThree);
        assert_eq!(plain(&[P::OpenThree, P::OpenThree]), Threat::DoubleThree);
        assert_eq!(plain(&[P::Three, P::OpenTwo]), Threat::Three);
        assert_eq!(plain(&[P::Overline, P::Two]), Threat::Two);
        assert_eq!(renju(&[P::Overline, P::Two]), Threat::Forbidden);
        assert_eq!(renju(&[P::Four, P::Four]), Threat::Forbidden);
        assert_eq!(
            renju(&[P::Five, P::Overline, P::Four, P::Four]),
            Threat::Five
        );
        assert_eq!(
            renju(&[P::Four, P::OpenThree, P::OpenThree]),
            Threat::FourThree
        );
        assert_eq!(
            renju(&[P::OpenFour, P::OpenThree, P::OpenThree]),
            Threat::OpenFour
        );
        assert_eq!(renju(&[P::OpenFour, P::OpenThree]), Threat::OpenFour);
        assert_eq!(plain(&[]), Threat::None);
    }
}
