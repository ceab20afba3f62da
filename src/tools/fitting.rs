//! The pieces the fitting tools (`tune`, `tune-order`) share: a
//! one-dimensional minimiser for their scale, the Adam optimiser for
//! their weights, and the way they print a table as Rust source.

/// `values` as the inside of a Rust array literal: `1, -2, 3`.
pub fn rust_list(values: &[i32]) -> String {
    values
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The minimum of a unimodal `error` on [`low`, `high`]: a golden section
/// search of `steps` steps, returning the middle of the last bracket.
pub fn golden_section(error: impl Fn(f64) -> f64, low: f64, high: f64, steps: usize) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (low, high);
    for _ in 0..steps {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Full-batch Adam over `N` weights, of which only the `free` ones move,
/// with a step that shrinks linearly from `first_step` to a twentieth of it
/// over `iterations` steps.
struct Adam<const N: usize> {
    first: [f64; N],
    second: [f64; N],
    step: usize,
    iterations: usize,
    first_step: f64,
}

impl<const N: usize> Adam<N> {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;

    fn new(first_step: f64, iterations: usize) -> Adam<N> {
        Adam {
            first: [0.0; N],
            second: [0.0; N],
            step: 0,
            iterations: iterations.max(1),
            first_step,
        }
    }

    /// Moves `w` against `gradient` (already averaged over the samples).
    fn update(&mut self, w: &mut [f64; N], gradient: &[f64; N], free: &[bool; N]) {
        self.step += 1;
        let progress = self.step as f64 / self.iterations as f64;
        let step_size = self.first_step * (1.0 - 0.95 * progress);
        let (beta1, beta2) = (Self::BETA1, Self::BETA2);
        for k in (0..N).filter(|&k| free[k]) {
            let g = gradient[k];
            self.first[k] = beta1 * self.first[k] + (1.0 - beta1) * g;
            self.second[k] = beta2 * self.second[k] + (1.0 - beta2) * g * g;
            let first = self.first[k] / (1.0 - beta1.powi(self.step as i32));
            let second = self.second[k] / (1.0 - beta2.powi(self.step as i32));
            w[k] -= step_size * first / (second.sqrt() + 1e-12);
        }
    }
}

/// Minimises a function of `N` weights from `start` by `iterations` Adam
/// steps over the `free` ones; `gradient` gives the mean gradient at `w`.
pub fn minimise<const N: usize>(
    start: &[f64; N],
    free: &[bool; N],
    first_step: f64,
    iterations: usize,
    mut gradient: impl FnMut(&[f64; N]) -> [f64; N],
) -> [f64; N] {
    let mut w = *start;
    let mut adam = Adam::new(first_step, iterations);
    for _ in 0..iterations {
        let g = gradient(&w);
        adam.update(&mut w, &g, free);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_section_finds_the_minimum_of_a_parabola() {
        let found = golden_section(|x| (x - 2.5).powi(2), -10.0, 10.0, 60);
        assert!((found - 2.5).abs() < 1e-6, "{found}");
    }

    #[test]
    fn adam_reaches_the_minimum_of_a_bowl_and_leaves_fixed_weights_alone() {
        let target = [3.0, -7.0, 1.0];
        let free = [true, true, false];
        let w = minimise(&[0.0; 3], &free, 0.5, 2000, |w| {
            std::array::from_fn(|k| 2.0 * (w[k] - target[k]))
        });
        assert!(
            (w[0] - 3.0).abs() < 0.01 && (w[1] + 7.0).abs() < 0.01,
            "{w:?}"
        );
        assert_eq!(w[2], 0.0);
    }
}
