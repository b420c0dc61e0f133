//! Where each token is. Attention by itself reads its input as a set: permute
//! the rows of X and the output rows are permuted the same way, so "我 喜欢
//! 篮球" and "篮球 喜欢 我" look alike. Positions tell it the order, in one of
//! two ways:
//!
//! - added to X before the projections: fixed sine and cosine waves
//!   ([`sinusoidal`], "Attention Is All You Need") or a learned T×d matrix `p`;
//! - rotating each head's Q and K after the projections (RoPE, RoFormer):
//!   pair (2i, 2i+1) of the row at position p turns by the angle p·θ_i
//!   ([`rope_angle`]), so a score depends on the two contents and on how far
//!   apart the two positions are, not on where they are ([`rope_score`]).
//!
//! Positions count from 0 at the first row of every sequence, padding
//! included. Sines, cosines and powers come from `libm` (`sincos`, `exp`),
//! so the encodings have the same bits natively and in WebAssembly.

use crate::error::AttentionError;
use crate::kernels::dot;
use ndarray::{Array2, Array3, ArrayView1, ArrayView2, ArrayView3, ArrayViewMut1, ArrayViewMut2};

/// How the positions of the tokens enter attention.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Positions {
    /// No positions: attention sees a set of tokens.
    #[default]
    None,
    /// Fixed sine and cosine waves added to X ([`sinusoidal`]).
    Sinusoidal,
    /// A learned T×d matrix `p` added to X, row t to row t.
    Learned,
    /// Rotary positions: each head's Q and K rows rotated pair by pair by
    /// an angle that grows with the position ([`rope_in_place`]).
    Rope,
}

impl Positions {
    /// Every kind, in the order the lesson tells them.
    pub const ALL: [Positions; 4] = [
        Positions::None,
        Positions::Sinusoidal,
        Positions::Learned,
        Positions::Rope,
    ];

    /// The stable id, as the scenario JSON writes it: `none`, `sinusoidal`,
    /// `learned` or `rope`. Saved scenarios outlive renames in the code, so
    /// never change one.
    ///
    /// ```
    /// use attention_core::positions::Positions;
    ///
    /// assert_eq!(Positions::Rope.id(), "rope");
    /// assert_eq!(Positions::from_id("sinusoidal"), Some(Positions::Sinusoidal));
    /// assert_eq!(Positions::from_id("Rope"), None);
    /// ```
    pub fn id(self) -> &'static str {
        match self {
            Positions::None => "none",
            Positions::Sinusoidal => "sinusoidal",
            Positions::Learned => "learned",
            Positions::Rope => "rope",
        }
    }

    /// The kind with this id, or None for an unknown one (ids are case-sensitive).
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// The sinusoidal encoding of positions 0 … t − 1 in d columns:
///
/// `PE[p, 2i] = sin(p / 10000^(2i/d))`, `PE[p, 2i+1] = cos(p / 10000^(2i/d))`.
///
/// Each pair of columns is a wave of its own wavelength, from 2π (columns 0
/// and 1) to almost 2π·10000; with an odd d the last column is a sine.
///
/// ```
/// use attention_core::positions::sinusoidal;
///
/// let pe = sinusoidal(3, 4);
/// assert_eq!(pe.row(0).to_vec(), vec![0.0, 1.0, 0.0, 1.0]);
/// // Position 1: columns 0 and 1 turn by 1 radian, columns 2 and 3 by 1/100.
/// assert!((pe[[1, 0]] - 1f64.sin()).abs() < 1e-15);
/// assert!((pe[[1, 3]] - 0.01f64.cos()).abs() < 1e-15);
/// ```
pub fn sinusoidal(t: usize, d: usize) -> Array2<f64> {
    Array2::from_shape_fn((t, d), |(p, c)| {
        // Columns 2i and 2i + 1 share the frequency 10000^(−2i/d).
        let (sin, cos) = libm::sincos(p as f64 * frequency(c / 2, d));
        if c % 2 == 0 {
            sin
        } else {
            cos
        }
    })
}

/// `10000^(−2i/width)`: how fast pair i of `width` columns turns per
/// position, in the sinusoidal encoding (width d) and in RoPE (θ_i, width
/// d_k). As `e^(−(2i/width)·ln 10000)` with `libm`'s `exp`, which the
/// softmax already brings into the app's WebAssembly, where `pow` would add
/// 1 KB.
fn frequency(pair: usize, width: usize) -> f64 {
    // ln 10000 = 4·ln 10, correctly rounded: ×4 is exact.
    let ln_10000 = 4.0 * std::f64::consts::LN_10;
    libm::exp(-((2 * pair) as f64 / width as f64) * ln_10000)
}

/// The angle RoPE turns pair i (columns 2i and 2i + 1) of a head's d_k
/// columns by at `position`: `position·θ_i` with `θ_i = 10000^(−2i/d_k)`.
///
/// ```
/// use attention_core::positions::rope_angle;
///
/// assert_eq!(rope_angle(3, 0, 8), 3.0);
/// assert!((rope_angle(3, 2, 8) - 0.03).abs() < 1e-15);
/// assert_eq!(rope_angle(0, 1, 8), 0.0);
/// ```
pub fn rope_angle(position: usize, pair: usize, d_k: usize) -> f64 {
    position as f64 * frequency(pair, d_k)
}

/// Rotates one row of a head's Q or K (d_k columns) as at `position`: pair
/// i, `(a, b)` in columns 2i and 2i + 1, becomes
/// `(a·cos φ − b·sin φ, a·sin φ + b·cos φ)` with `φ = position·θ_i`
/// ([`rope_angle`]). Callers check that d_k is even, as the forward pass does.
///
/// ```
/// use attention_core::positions::rope_row;
/// use ndarray::array;
///
/// let mut row = array![1.0, 0.0];
/// rope_row(row.view_mut(), 2);
/// assert!((row[0] - 2f64.cos()).abs() < 1e-15 && (row[1] - 2f64.sin()).abs() < 1e-15);
/// ```
pub fn rope_row(row: ArrayViewMut1<f64>, position: usize) {
    let d_k = row.len();
    let thetas: Vec<f64> = (0..d_k / 2).map(|i| frequency(i, d_k)).collect();
    rotate(row, position, &thetas);
}

/// Rotates row p of `m` (T×d_k, one head's Q or K) as at position p, in
/// place: [`rope_row`] for every row, with each θ_i worked out once.
///
/// ```
/// use attention_core::positions::{rope_in_place, rope_row};
/// use ndarray::{array, s};
///
/// let mut q = array![[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]];
/// rope_in_place(q.view_mut());
/// // Position 0 turns by 0; position 1 as rope_row turns it.
/// assert_eq!(q.row(0).to_vec(), vec![1.0, 2.0, 3.0, 4.0]);
/// let mut second = array![1.0, 2.0, 3.0, 4.0];
/// rope_row(second.view_mut(), 1);
/// assert_eq!(q.row(1), second);
/// ```
pub fn rope_in_place(mut m: ArrayViewMut2<f64>) {
    let d_k = m.ncols();
    let thetas: Vec<f64> = (0..d_k / 2).map(|i| frequency(i, d_k)).collect();
    for (position, row) in m.rows_mut().into_iter().enumerate() {
        rotate(row, position, &thetas);
    }
}

/// Turns pair i of `row` by `position·thetas[i]`; the angle is
/// [`rope_angle`]'s, bit for bit.
fn rotate(mut row: ArrayViewMut1<f64>, position: usize, thetas: &[f64]) {
    for (i, &theta) in thetas.iter().enumerate() {
        let (sin, cos) = libm::sincos(position as f64 * theta);
        let (a, b) = (row[2 * i], row[2 * i + 1]);
        row[2 * i] = a * cos - b * sin;
        row[2 * i + 1] = a * sin + b * cos;
    }
}

/// The raw score of a query with content `q` at position `p_q` against a key
/// with content `k` at `p_k` under RoPE: `R(p_q)·q · R(p_k)·k`, the dot
/// product of the two rotated rows ([`rope_row`]). Multiply by
/// [`crate::kernels::scale_factor`] for the scaled score.
///
/// Each pair contributes `|q_i|·|k_i|·cos(angle between them + (p_q − p_k)·θ_i)`,
/// so the score depends on the offset `p_q − p_k` only: shifting both
/// positions by the same amount leaves it as it was (to rounding). Like the
/// kernels, this takes rows that fit: `q` and `k` of one even length d_k,
/// e.g. rows of a trace's unrotated Q and K ([`crate::Trace::q_unrotated`]).
///
/// ```
/// use attention_core::positions::rope_score;
/// use ndarray::array;
///
/// let (q, k) = (array![1.0, 0.5, -0.2, 0.3], array![0.4, -1.0, 0.8, 0.1]);
/// let near = rope_score(q.view(), k.view(), 5, 3);
/// assert!((rope_score(q.view(), k.view(), 105, 103) - near).abs() < 1e-12);
/// assert!((rope_score(q.view(), k.view(), 5, 0) - near).abs() > 1e-3);
/// ```
pub fn rope_score(q: ArrayView1<f64>, k: ArrayView1<f64>, p_q: usize, p_k: usize) -> f64 {
    let (mut q, mut k) = (q.to_owned(), k.to_owned());
    rope_row(q.view_mut(), p_q);
    rope_row(k.view_mut(), p_k);
    dot(q.view(), k.view())
}

/// x (B×T×d) with `added` (T×d) added to every sequence, `X_b + P`, written
/// once into new memory. Entry by entry rather than by ndarray's
/// broadcasting `+`, whose generic code cost the app's WebAssembly several
/// KB.
pub(crate) fn plus(x: ArrayView3<f64>, added: &Array2<f64>) -> Array3<f64> {
    Array3::from_shape_fn(x.dim(), |(b, t, c)| x[[b, t, c]] + added[[t, c]])
}

/// Checks `positions` and `p` against x (t×d) and a head's d_k, and returns
/// the T×d matrix to add to every sequence of x, if any.
///
/// Learned positions need `p`, of x's shape per sequence and finite; `p` with
/// any other positions would go unread, which is an error rather than a
/// silent no-op; RoPE needs an even d_k, the columns it turns in pairs.
pub(crate) fn added(
    positions: Positions,
    p: Option<ArrayView2<f64>>,
    (t, d): (usize, usize),
    d_k: usize,
) -> Result<Option<Array2<f64>>, AttentionError> {
    match (positions, p) {
        (Positions::Learned, None) => Err(AttentionError::MissingPositions { field: "p".into() }),
        (Positions::Learned, Some(p)) => {
            if p.dim() != (t, d) {
                return Err(AttentionError::ShapeMismatch {
                    field: "p".into(),
                    expected: format!(
                        "{t}×{d} (one row per position of x, one column per feature)"
                    ),
                    found: format!("{}×{}", p.nrows(), p.ncols()),
                });
            }
            match crate::trace::first_non_finite(p) {
                Some((r, _)) => Err(AttentionError::NonFinite {
                    field: "p".into(),
                    row: format!("row [{r}]"),
                }),
                None => Ok(Some(p.to_owned())),
            }
        }
        (positions, Some(_)) => Err(AttentionError::UnusedPositions {
            field: "p".into(),
            positions: positions.id(),
        }),
        (Positions::Sinusoidal, None) => Ok(Some(sinusoidal(t, d))),
        (Positions::Rope, None) if d_k % 2 == 1 => Err(AttentionError::OddColumns {
            field: "w_q".into(),
            found: d_k,
        }),
        (Positions::None | Positions::Rope, None) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{json, presets, Scenario};
    use ndarray::array;

    fn written(s: &Scenario) -> String {
        json::scenario_json(s, |v| format!("{v:?}"))
    }

    #[test]
    fn positions_and_p_round_trip_in_json() {
        let mut learned = presets::sentence();
        learned.options.positions = Positions::Learned;
        learned.p = Some(sinusoidal(4, 4) * 0.5);
        let text = written(&learned);
        assert!(text.contains("\"positions\": \"learned\""), "{text}");
        assert!(
            text.contains("\"p\": [\n    [0.0, 0.5, 0.0, 0.5],"),
            "{text}"
        );
        assert_eq!(Scenario::from_json(&text), Ok(learned));
        for positions in [Positions::Sinusoidal, Positions::Rope] {
            let mut s = presets::sentence();
            s.options.positions = positions;
            let text = written(&s);
            assert!(!text.contains("\"p\""), "{text}");
            assert_eq!(Scenario::from_json(&text), Ok(s));
        }
        // Without positions the JSON is as it always was.
        let plain = written(&presets::sentence());
        assert!(!plain.contains("positions") && !plain.contains("\"p\""));
        assert!(plain.ends_with("\"causal\": false,\n  \"scale\": true\n}\n"));
    }

    #[test]
    fn the_trace_json_names_what_the_positions_did() {
        let keys = |s: &Scenario| -> Vec<String> {
            let layer = s.run().expect("runs");
            let text = json::trace_json(&layer, false, None, |v| format!("{v:?}"));
            let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            value
                .as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default()
        };
        let mut s = presets::sentence();
        let plain = keys(&s);
        for field in [
            "positions",
            "added_positions",
            "x",
            "q_unrotated",
            "k_unrotated",
        ] {
            assert!(!plain.contains(&field.to_string()), "{field}");
        }
        s.options.positions = Positions::Sinusoidal;
        let added = keys(&s);
        for field in ["positions", "added_positions", "x"] {
            assert!(added.contains(&field.to_string()), "{field}");
        }
        assert!(!added.contains(&"q_unrotated".to_string()));
        s.options.positions = Positions::Rope;
        s.heads = 2;
        let layer = s.run().expect("runs");
        let text = json::trace_json(&layer, false, None, |v| format!("{v:?}"));
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(value["positions"], "rope");
        assert!(value.get("added_positions").is_none() && value.get("x").is_none());
        // h×T×d_k, as q.
        assert_eq!(value["q_unrotated"].as_array().map(Vec::len), Some(2));
        assert_eq!(value["k_unrotated"][1][3].as_array().map(Vec::len), Some(2));
        assert_eq!(
            value["q_unrotated"][1][3][0].as_f64(),
            Some(layer.heads[1].q_unrotated.as_ref().expect("kept")[[0, 3, 0]])
        );
    }

    #[test]
    fn ids_round_trip_and_are_distinct() {
        for positions in Positions::ALL {
            assert_eq!(Positions::from_id(positions.id()), Some(positions));
        }
        let mut ids: Vec<&str> = Positions::ALL.iter().map(|p| p.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 4);
        assert_eq!(Positions::default(), Positions::None);
    }

    #[test]
    fn an_odd_width_ends_with_a_sine_column() {
        let pe = sinusoidal(2, 3);
        // Column 2 is pair 1's sine, of frequency 10000^(−2/3).
        let frequency = 10000f64.powf(-2.0 / 3.0);
        assert!((pe[[1, 2]] - frequency.sin()).abs() < 1e-15);
    }

    #[test]
    fn a_rotation_keeps_each_pairs_length() {
        let mut row = array![3.0, 4.0, -1.0, 2.0];
        rope_row(row.view_mut(), 7);
        assert!((row[0].hypot(row[1]) - 5.0).abs() < 1e-14);
        assert!((row[2].hypot(row[3]) - 5f64.sqrt()).abs() < 1e-14);
    }
}
