"""The NumPy peer of `throughput.rs`: the same forward pass with the full trace
(Q, K, V, raw and scaled scores, the allowed keys, the softmax weights and the
output B) in float64 on one thread, at T = 16, 64, 256 and 512 with
d = d_k = d_v = 64. `cargo xtask bench` prints its median
times beside the core's, running both with the same glibc malloc settings
(MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ at 256 MB; see
throughput.rs for why).

Run with `python3 crates/attention-core/examples/numpy_forward.py`.
"""

import os

# Before NumPy loads its BLAS, which reads these once: one thread, like the core.
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = "1"

import time  # noqa: E402

import numpy as np  # noqa: E402

D = 64
SIZES = (16, 64, 256, 512)
# Each size runs for at least this long, as in throughput.rs.
MIN_SECONDS = 0.4


def forward(x, w_q, w_k, w_v, scale=True):
    """Every intermediate of one head, as the core's Trace keeps them."""
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = q @ k.T
    factor = 1.0 / np.sqrt(w_q.shape[1]) if scale else 1.0
    scaled = scores * factor
    allowed = np.ones(scores.shape, dtype=bool)
    largest = np.where(allowed, scaled, -np.inf).max(axis=1, keepdims=True)
    exps = np.where(allowed, np.exp(scaled - largest), 0.0)
    weights = exps / exps.sum(axis=1, keepdims=True)
    return q, k, v, scores, scaled, allowed, weights, weights @ v


def main():
    rng = np.random.default_rng(1)
    w_q, w_k, w_v = (rng.normal(0.0, 0.125, (D, D)) for _ in range(3))
    print(f"\nNumPy {np.__version__} forward pass (float64, one thread, d = d_k = d_v = {D}, full trace)")
    print(f"{'T':>6} {'µs per pass':>14} {'best µs':>10}")
    for t in SIZES:
        x = rng.normal(0.0, 1.0, (t, D))
        times = []
        # As in throughput.rs, the last trace is kept until the next one
        # replaces it.
        shown = None
        start = time.perf_counter()
        while time.perf_counter() - start < MIN_SECONDS:
            begin = time.perf_counter()
            trace = forward(x, w_q, w_k, w_v)
            times.append(time.perf_counter() - begin)
            shown = trace
        del shown
        times.sort()
        print(f"{t:>6} {times[len(times) // 2] * 1e6:>14.1f} {times[0] * 1e6:>10.1f}")


if __name__ == "__main__":
    main()
