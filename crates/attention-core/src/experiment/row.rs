//! What one softmax row of the experiment is measured by: its entropy and the
//! size of its Jacobian.

/// The entropy of a probability row in nats, `H(p) = −Σ_j p_j ln p_j`, taking
/// `0 · ln 0 = 0`. It lies between 0 (one weight is 1) and ln n (uniform).
///
/// ```
/// use attention_core::experiment::entropy;
///
/// assert!((entropy(&[0.25; 4]) - 4f64.ln()).abs() < 1e-15);
/// assert_eq!(entropy(&[1.0, 0.0, 0.0]), 0.0);
/// ```
pub fn entropy(p: &[f64]) -> f64 {
    -p.iter()
        .filter(|&&w| w > 0.0)
        .map(|&w| w * libm::log(w))
        .sum::<f64>()
}

/// The Frobenius norm of the softmax Jacobian at a probability row p (Σ p = 1):
///
/// `J = ∂p/∂s = diag(p) − p·pᵀ`, `‖J‖_F = √(Σ_i p_i²(1 − p_i)² + 2·Σ_{i<j} p_i² p_j²)`.
///
/// It measures how much the weights move when the scores move, so it is the
/// factor every gradient passes through on its way back to Q and K. It is
/// √(n − 1)/n for a uniform row of n and tends to 0 as one weight tends to 1:
/// a saturated softmax passes almost no gradient back. Summing only
/// non-negative terms keeps it accurate even when it is tiny.
///
/// ```
/// use attention_core::experiment::softmax_jacobian_norm;
///
/// assert!((softmax_jacobian_norm(&[0.25; 4]) - 3f64.sqrt() / 4.0).abs() < 1e-15);
/// assert_eq!(softmax_jacobian_norm(&[1.0, 0.0]), 0.0);
/// // Two weights p and 1 − p: J = [[pq, −pq], [−pq, pq]], so ‖J‖_F = 2pq.
/// assert!((softmax_jacobian_norm(&[0.9, 0.1]) - 2.0 * 0.9 * 0.1).abs() < 1e-15);
/// ```
pub fn softmax_jacobian_norm(p: &[f64]) -> f64 {
    let mut diagonal = 0.0;
    let mut off_diagonal = 0.0;
    // Σ p_i² over the entries before the current one, for the i < j pairs.
    let mut before = 0.0;
    for &w in p {
        let square = w * w;
        diagonal += (w * (1.0 - w)).powi(2);
        off_diagonal += square * before;
        before += square;
    }
    (diagonal + 2.0 * off_diagonal).sqrt()
}
