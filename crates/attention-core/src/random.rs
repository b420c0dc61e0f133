//! Seeded random matrices that are bit-for-bit the same natively and in WebAssembly.
//!
//! Only integer operations and correctly rounded IEEE arithmetic (+, −, ×, ÷) are
//! used. `ln`, `cos` and friends come from different math libraries on different
//! targets and may differ in the last bit, so a Box–Muller normal is avoided.

use ndarray::Array2;

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator of 64-bit
/// draws with good statistics for teaching examples, and only integer
/// arithmetic, so every target draws the same numbers. Not for secrets.
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream that starts from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A uniform number in [0, 1) from the top 53 bits of one draw.
fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A rows×cols matrix with entries uniform in `[low, high)`, reproducible from `seed`.
///
/// ```
/// use attention_core::random::uniform_matrix;
///
/// let a = uniform_matrix(3, 2, -1.0, 1.0, 7);
/// assert_eq!(a, uniform_matrix(3, 2, -1.0, 1.0, 7));
/// assert!(a.iter().all(|&v| (-1.0..1.0).contains(&v)));
/// ```
pub fn uniform_matrix(rows: usize, cols: usize, low: f64, high: f64, seed: u64) -> Array2<f64> {
    let mut rng = SplitMix64::new(seed);
    Array2::from_shape_simple_fn((rows, cols), || low + (high - low) * unit(&mut rng))
}

/// A rows×cols matrix with entries close to normal with mean 0 and standard
/// deviation `std`, reproducible from `seed`.
///
/// Each entry is `std · (Σ₁¹² U_k − 6)` for twelve uniform U_k: the Irwin–Hall
/// sum, whose mean is 0 and variance exactly 1.
///
/// ```
/// use attention_core::random::normal_matrix;
///
/// let a = normal_matrix(200, 50, 1.0, 3);
/// let mean = a.mean().unwrap();
/// let var = a.mapv(|v| (v - mean).powi(2)).mean().unwrap();
/// assert!(mean.abs() < 0.05 && (var - 1.0).abs() < 0.05);
/// ```
pub fn normal_matrix(rows: usize, cols: usize, std: f64, seed: u64) -> Array2<f64> {
    let mut rng = SplitMix64::new(seed);
    Array2::from_shape_simple_fn((rows, cols), || {
        let sum: f64 = (0..12).map(|_| unit(&mut rng)).sum();
        std * (sum - 6.0)
    })
}

/// Rounds every entry to `decimals` places, so random weights are short enough
/// to read and type. Uses only correctly rounded arithmetic, like the rest of this module.
///
/// ```
/// use attention_core::random::rounded;
/// use ndarray::array;
///
/// assert_eq!(rounded(array![[0.123, -1.987]], 1), array![[0.1, -2.0]]);
/// ```
pub fn rounded(mut a: Array2<f64>, decimals: i32) -> Array2<f64> {
    let scale = 10f64.powi(decimals);
    a.mapv_inplace(|v| (v * scale).round() / scale);
    a
}

/// A 64-bit fingerprint of a matrix's exact bits, to compare runs across targets.
///
/// ```
/// use attention_core::random::{fingerprint, uniform_matrix};
///
/// assert_ne!(fingerprint(&uniform_matrix(2, 2, 0.0, 1.0, 1)), fingerprint(&uniform_matrix(2, 2, 0.0, 1.0, 2)));
/// ```
pub fn fingerprint(a: &Array2<f64>) -> u64 {
    // FNV-1a over the bit patterns, row-major.
    a.iter().fold(0xcbf2_9ce4_8422_2325, |hash, v| {
        v.to_bits().to_le_bytes().iter().fold(hash, |h, &byte| {
            (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
    })
}
