//! The kernels of one attention head, as plain functions over ndarray:
//! `attention_core::kernels`. A crate of its own only so that the release
//! profile can build these hot loops at opt-level "s" and the rest of the core
//! at "z", the smallest and slowest (Cargo.toml at the root).
//!
//! Each kernel assumes shapes that fit together; `attention_core::forward`
//! checks them first and turns bad input into an `AttentionError` before any
//! kernel runs.
//!
//! Every kernel adds its products one by one in a fixed order with plain `+`
//! and `×` (never a fused multiply-add, which a general matrix product may use
//! on one processor and not on another), and takes `exp` from the `libm`
//! crate rather than the platform's maths library. So the same input gives
//! the same bits natively and in WebAssembly, and the training pass, which
//! calls these same kernels, computes bit for bit what `attention_core::forward` does.

// Kernels never panic on shapes forward has checked; no unwrap hides one.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1, Zip};
use std::borrow::Cow;
use std::mem::MaybeUninit;

/// Projects every row of `x` through a weight matrix: `P = X·W`.
///
/// With `x` of shape T×d and `w` of shape d×d_k, row i of the result is
/// `P_i = Σ_c X_ic · W_c·`, the token's vector seen through `w`. This is how
/// Q = X·W_Q, K = X·W_K and V = X·W_V are made.
///
/// ```
/// use attention_kernels::project;
/// use ndarray::array;
///
/// let x = array![[1.0, 2.0], [0.0, 1.0]];
/// let w = array![[1.0, 0.5, 0.0], [0.0, 1.0, 2.0]];
/// assert_eq!(project(x.view(), w.view()), array![[1.0, 2.5, 4.0], [0.0, 1.0, 2.0]]);
/// ```
pub fn project(x: ArrayView2<f64>, w: ArrayView2<f64>) -> Array2<f64> {
    let shape = (x.nrows(), w.ncols());
    // SAFETY: `project_uninit` writes all rows × cols entries.
    let entries = unsafe { written(shape.0 * shape.1, |out| project_uninit(x, w, out)) };
    // SAFETY: `written` returns exactly rows × cols entries, row by row.
    unsafe { Array2::from_shape_vec_unchecked(shape, entries) }
}

/// [`project`] into `out`, X's rows times W's columns row by row, which may
/// be memory not written yet: every entry is written.
#[doc(hidden)] // For attention_core's forward pass only.
pub fn project_uninit(x: ArrayView2<f64>, w: ArrayView2<f64>, out: &mut [MaybeUninit<f64>]) {
    // The callers' promise that every entry is written (`written`) rests on this.
    assert_eq!(
        out.len(),
        x.nrows() * w.ncols(),
        "out holds X's rows × W's columns"
    );
    // A view that is not row-major (a transpose, a column slice) is read
    // from a row-major copy: the same sums in the same order.
    let x = x
        .to_slice()
        .map_or_else(|| Cow::Owned(x.iter().copied().collect()), Cow::Borrowed);
    product(&x, w, out);
}

/// A vector of `len` entries that `fill` writes, without writing zeros
/// first: the memory of a new array is written once, by the computation.
///
/// # Safety
/// `fill` must write every entry of the slice it is given.
#[doc(hidden)] // For attention_core's forward pass only.
pub unsafe fn written(len: usize, fill: impl FnOnce(&mut [MaybeUninit<f64>])) -> Vec<f64> {
    let mut entries = Vec::with_capacity(len);
    fill(&mut entries.spare_capacity_mut()[..len]);
    // SAFETY: `fill` has written the first `len` entries (the caller's promise).
    unsafe { entries.set_len(len) };
    entries
}

/// Rows of `out` one register block computes at once.
const BLOCK_ROWS: usize = 4;
/// Columns of `out` one register block computes at once.
const BLOCK_COLS: usize = 8;

/// `out = a·b`: `a` is a row-major n×`inner` slice, `b` is `inner`×`cols`
/// in any layout and `out` a row-major n×`cols` slice, each entry
/// `Σ_c a_ic · b_cj` summed over c = 0, 1, … in order from 0. Every entry of
/// `out` is written, so it may be memory not written before (a new array is
/// not zero-filled first).
///
/// `out` is computed in blocks of [`BLOCK_ROWS`]×[`BLOCK_COLS`] entries held
/// in registers while c runs over the whole inner dimension, so each loaded
/// entry of `a` and `b` serves several sums. Every entry still gets its own
/// running sum with the same additions in the same order as a naive triple
/// loop, hence the same bits; only which entries are worked on side by side
/// changes.
fn product(a: &[f64], b: ArrayView2<f64>, out: &mut [MaybeUninit<f64>]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        let (inner, cols) = b.dim();
        return in_blocks(a, b, out, |panels, out, block_rows| {
            // SAFETY: the processor has just been found to support AVX2.
            unsafe { avx2::blocks(a, panels, out, inner, cols, block_rows) };
        });
    }
    // Every browser that runs the app has WebAssembly's SIMD (Chrome 91,
    // Firefox 89, Safari 16.4), and a module cannot test for it: the wasm
    // always takes the two-wide blocks.
    #[cfg(target_arch = "wasm32")]
    return in_blocks(a, b, out, |panels, out, block_rows| {
        let (inner, cols) = b.dim();
        simd128::blocks(a, panels, out, inner, cols, block_rows);
    });
    #[cfg(not(target_arch = "wasm32"))]
    scalar_product(a, b, out);
}

/// [`product`] with the scalar [`block`] (where there is neither AVX2 nor
/// WebAssembly's SIMD).
#[cfg(any(test, not(target_arch = "wasm32")))]
fn scalar_product(a: &[f64], b: ArrayView2<f64>, out: &mut [MaybeUninit<f64>]) {
    let (inner, cols) = b.dim();
    in_blocks(a, b, out, |panels, out, block_rows| {
        for row in (0..block_rows).map(|r| r * BLOCK_ROWS) {
            for (p, panel) in panels.chunks_exact(inner * BLOCK_COLS).enumerate() {
                block(a, panel, out, inner, cols, row, p * BLOCK_COLS);
            }
        }
    });
}

/// Calls `blocks(panels, out, block_rows)` with `b` packed into panels
/// ([`pack`]) and how many whole blocks fit down `out` (n×`cols`), then
/// fills the entries outside whole blocks; an empty product is all 0.
fn in_blocks(
    a: &[f64],
    b: ArrayView2<f64>,
    out: &mut [MaybeUninit<f64>],
    blocks: impl FnOnce(&[f64], &mut [MaybeUninit<f64>], usize),
) {
    let (inner, cols) = b.dim();
    if cols == 0 || inner == 0 {
        // No block to fill, and an empty sum is 0.
        out.fill(MaybeUninit::new(0.0));
        return;
    }
    let block_rows = out.len() / cols / BLOCK_ROWS;
    blocks(&pack(b), out, block_rows);
    product_edges(a, b, out, block_rows);
}

/// `b`'s whole panels of [`BLOCK_COLS`] columns, one after another, each
/// row by row: panel p holds `b_cj` for j = p·8 … p·8 + 7, c = 0, 1, ….
///
/// A block then reads the entries of `b` it needs in the order it needs
/// them, from one contiguous stretch. Read in place, the rows of a wide `b`
/// (such as Kᵀ, T wide) lie a power of two apart and evict each other from
/// the cache; and a transposed view needs no other copy.
fn pack(b: ArrayView2<f64>) -> Vec<f64> {
    let (inner, cols) = b.dim();
    let whole = cols / BLOCK_COLS;
    // Read from the slice itself when there is one: far faster than
    // ndarray's strided walk. The transpose of a row-major matrix (Kᵀ) has
    // a panel's columns as whole rows of it (`columns[j·inner + c]` is b_cj).
    if let Some(columns) = b.t().as_slice() {
        return panels(inner, whole, |c, first| {
            std::array::from_fn(|j| columns[(first + j) * inner + c])
        });
    }
    if let Some(rows) = b.as_slice() {
        return panels(inner, whole, |c, first| {
            let row = &rows[c * cols + first..][..BLOCK_COLS];
            std::array::from_fn(|j| row[j])
        });
    }
    panels(inner, whole, |c, first| {
        std::array::from_fn(|j| b[[c, first + j]])
    })
}

/// [`pack`]'s `whole` panels of `inner` rows, row c of the panel of
/// columns `first …` being `row(c, first)`.
#[inline(always)]
fn panels(inner: usize, whole: usize, row: impl Fn(usize, usize) -> [f64; BLOCK_COLS]) -> Vec<f64> {
    let rows = (0..whole).flat_map(|p| (0..inner).map(move |c| (c, p * BLOCK_COLS)));
    // SAFETY: each of the `whole · inner` rows of BLOCK_COLS entries is written.
    unsafe {
        written(whole * inner * BLOCK_COLS, |out| {
            for (out, (c, first)) in out.as_chunks_mut::<BLOCK_COLS>().0.iter_mut().zip(rows) {
                *out = row(c, first).map(MaybeUninit::new);
            }
        })
    }
}

/// One [`BLOCK_ROWS`]×[`BLOCK_COLS`] block of [`product`] whose top left
/// entry is `out[row][col]`, from `b`'s panel of those columns, as plain
/// scalar code that the compiler may vectorize (the columns of a block are
/// independent sums).
#[cfg(any(test, not(target_arch = "wasm32")))]
fn block(
    a: &[f64],
    panel: &[f64],
    out: &mut [MaybeUninit<f64>],
    inner: usize,
    cols: usize,
    row: usize,
    col: usize,
) {
    let mut sums = [[0.0; BLOCK_COLS]; BLOCK_ROWS];
    let a = &a[row * inner..][..BLOCK_ROWS * inner];
    for (c, b) in panel.as_chunks::<BLOCK_COLS>().0.iter().enumerate() {
        for (i, sums) in sums.iter_mut().enumerate() {
            let x = a[i * inner + c];
            for (s, &y) in sums.iter_mut().zip(b) {
                *s += x * y;
            }
        }
    }
    for (out, sums) in out[row * cols..].chunks_exact_mut(cols).zip(&sums) {
        out[col..col + BLOCK_COLS].write_copy_of_slice(sums);
    }
}

/// The entries of [`product`] outside its whole blocks (the last rows and
/// columns when the sizes are not multiples of the block), one at a time.
fn product_edges(a: &[f64], b: ArrayView2<f64>, out: &mut [MaybeUninit<f64>], block_rows: usize) {
    let (inner, cols) = b.dim();
    let block_cols = cols / BLOCK_COLS;
    for (i, out) in out.chunks_exact_mut(cols).enumerate() {
        let first = if i < block_rows * BLOCK_ROWS {
            block_cols * BLOCK_COLS
        } else {
            0
        };
        let a = &a[i * inner..][..inner];
        for (j, o) in out.iter_mut().enumerate().skip(first) {
            o.write(
                a.iter()
                    .zip(b.column(j))
                    .fold(0.0, |sum, (&x, &y)| sum + x * y),
            );
        }
    }
}

/// `libm::exp`'s constants, by their bits (as its source gives them), for
/// the vector forms of it.
#[cfg(any(target_arch = "x86_64", target_arch = "wasm32"))]
mod exp_constants {
    pub(super) const LN2HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    pub(super) const LN2LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    pub(super) const INVLN2: f64 = f64::from_bits(0x3ff7_1547_652b_82fe);
    pub(super) const P: [f64; 5] = [
        f64::from_bits(0x3fc5_5555_5555_553e),
        f64::from_bits(0xbf66_c16c_16be_bd93),
        f64::from_bits(0x3f11_566a_af25_de2c),
        f64::from_bits(0xbebb_bd41_c5d2_6bf1),
        f64::from_bits(0x3e66_3769_72be_a4d0),
    ];
}

/// [`product`]'s blocks and [`exp_shifted`] with AVX2's four-wide
/// registers, multiplying and adding separately (no FMA), so every value is
/// rounded exactly as in the scalar code.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{BLOCK_COLS, BLOCK_ROWS, SUMS};
    use std::arch::x86_64::{
        __m256d, _mm256_add_epi64, _mm256_add_pd, _mm256_and_pd, _mm256_andnot_pd,
        _mm256_blendv_pd, _mm256_castsi256_pd, _mm256_cmp_pd, _mm256_cvtepi32_epi64,
        _mm256_cvtepi32_pd, _mm256_cvttpd_epi32, _mm256_div_pd, _mm256_loadu_pd,
        _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_pd, _mm256_set1_epi64x, _mm256_set1_pd,
        _mm256_setzero_pd, _mm256_slli_epi64, _mm256_storeu_pd, _mm256_sub_pd, _CMP_LT_OQ,
    };
    use std::mem::MaybeUninit;

    /// [`super::softmax_steps`] compiled for AVX2.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn softmax_masked(row: &mut [f64]) {
        super::softmax_steps(row);
    }

    /// [`super::exp_shifted`]: `v ← e^{v − shift}` for every entry, bit for
    /// bit `libm::exp`, and their total: eight entries at a time, each
    /// register of four adding to its own register of four partial sums.
    ///
    /// Both registers' exponentials are made before one check for rare
    /// lanes, with no branch between their long chains of dependent steps.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn exp_shifted(values: &mut [f64], shift: f64) -> f64 {
        const QUADS: usize = SUMS / 4;
        let (octets, rest) = values.as_chunks_mut::<SUMS>();
        let [mut low, mut high] = [_mm256_setzero_pd(); QUADS];
        for octet in octets {
            let octet = octet.as_mut_ptr();
            // SAFETY: `octet` holds 8 = 2×4 entries.
            let x = unsafe { [_mm256_loadu_pd(octet), _mm256_loadu_pd(octet.add(4))] }
                .map(|x| _mm256_sub_pd(x, _mm256_set1_pd(shift)));
            let (mut y0, plain0) = exp4(x[0]);
            let (mut y1, plain1) = exp4(x[1]);
            if plain0 & plain1 != 0b1111 {
                (y0, y1) = (special_lanes(x[0], y0), special_lanes(x[1], y1));
            }
            // SAFETY: as above.
            unsafe {
                _mm256_storeu_pd(octet, y0);
                _mm256_storeu_pd(octet.add(4), y1);
            }
            low = _mm256_add_pd(low, y0);
            high = _mm256_add_pd(high, y1);
        }
        let mut partial = [0.0; SUMS];
        // SAFETY: `partial` holds 8 = 2×4 entries.
        unsafe {
            _mm256_storeu_pd(partial.as_mut_ptr(), low);
            _mm256_storeu_pd(partial.as_mut_ptr().add(4), high);
        }
        super::exp_shifted_from(rest, shift, partial)
    }

    /// `y` with every lane that [`exp4`] does not cover replaced by
    /// `libm::exp` of that lane of `x`: the rare lanes (e^x overflows or is
    /// subnormal, NaN) take libm's own special cases.
    #[cold]
    #[target_feature(enable = "avx2")]
    fn special_lanes(x: __m256d, y: __m256d) -> __m256d {
        let plain = exp4(x).1;
        let [mut e, mut arguments] = [[0.0; 4]; 2];
        // SAFETY: `e` and `arguments` hold 4 entries.
        unsafe {
            _mm256_storeu_pd(e.as_mut_ptr(), y);
            _mm256_storeu_pd(arguments.as_mut_ptr(), x);
        }
        for (lane, (e, x)) in e.iter_mut().zip(arguments).enumerate() {
            if plain & (1 << lane) == 0 {
                *e = libm::exp(x);
            }
        }
        // SAFETY: as above.
        unsafe { _mm256_loadu_pd(e.as_ptr()) }
    }

    /// `libm::exp` (FreeBSD's e_exp.c) in four lanes for |x| < 708.39… and
    /// for x < −745.13… (where it is 0, as for −∞, a key that is not
    /// allowed), and the mask of the lanes that were in those ranges (bit i
    /// for lane i).
    ///
    /// The same steps in the same order as the scalar code: x = k·ln2 + r
    /// with k = 0 for |x| ≤ ½ln2, ±1 below 1.5 ln2, else trunc(x/ln2 ± ½);
    /// then `1 + (r·c/(2 − c) − lo + hi)` with c from a degree-5 polynomial
    /// in r², times 2^k (one exact scaling: |k| ≤ 1022 here), and `1 + x`
    /// for |x| ≤ 2⁻²⁸. The branches on the high word of |x| become
    /// comparisons of |x| with the smallest value past each threshold.
    #[target_feature(enable = "avx2")]
    fn exp4(x: __m256d) -> (__m256d, i32) {
        use super::exp_constants::{INVLN2, LN2HI, LN2LO, P};
        let splat = _mm256_set1_pd;
        let below = |x, bits: u64| _mm256_cmp_pd::<_CMP_LT_OQ>(x, splat(f64::from_bits(bits)));
        let sign = _mm256_and_pd(x, splat(-0.0));
        let abs = _mm256_andnot_pd(splat(-0.0), x);
        let in_range = below(abs, 0x4086_232b_0000_0000); // high word < 0x4086232b
        let vanishing = below(x, 0xc087_4910_d52d_3051); // x < −745.13…: e^x is 0
        let tiny = below(abs, 0x3e30_0001_0000_0000); // high word ≤ 0x3e300000
        let small = below(abs, 0x3fd6_2e43_0000_0000); // high word ≤ 0x3fd62e42
        let middle = below(abs, 0x3ff0_a2b2_0000_0000); // high word < 0x3ff0a2b2

        let half = _mm256_or_pd(splat(0.5), sign);
        let large_k = _mm256_add_pd(_mm256_mul_pd(splat(INVLN2), x), half);
        let k = _mm256_cvtepi32_pd(_mm256_cvttpd_epi32(large_k));
        let k = _mm256_blendv_pd(k, _mm256_or_pd(splat(1.0), sign), middle);
        let k = _mm256_blendv_pd(k, _mm256_setzero_pd(), small);

        // With k = 0 these are hi = x, lo = 0 and r = x, as in the scalar code.
        let hi = _mm256_sub_pd(x, _mm256_mul_pd(k, splat(LN2HI)));
        let lo = _mm256_mul_pd(k, splat(LN2LO));
        let r = _mm256_sub_pd(hi, lo);
        let rr = _mm256_mul_pd(r, r);
        let mut poly = splat(P[4]);
        for &p in P[..4].iter().rev() {
            poly = _mm256_add_pd(splat(p), _mm256_mul_pd(rr, poly));
        }
        let c = _mm256_sub_pd(r, _mm256_mul_pd(rr, poly));
        let ratio = _mm256_div_pd(_mm256_mul_pd(r, c), _mm256_sub_pd(splat(2.0), c));
        let y = _mm256_add_pd(splat(1.0), _mm256_add_pd(_mm256_sub_pd(ratio, lo), hi));
        // 2^k from its bits: the biased exponent k + 1023 from bit 52 on.
        let k = _mm256_cvtepi32_epi64(_mm256_cvttpd_epi32(k));
        let exponent = _mm256_add_epi64(k, _mm256_set1_epi64x(1023));
        let y = _mm256_mul_pd(y, _mm256_castsi256_pd(_mm256_slli_epi64::<52>(exponent)));
        let y = _mm256_blendv_pd(y, _mm256_add_pd(splat(1.0), x), tiny);
        let y = _mm256_blendv_pd(y, _mm256_setzero_pd(), vanishing);
        (y, _mm256_movemask_pd(_mm256_or_pd(in_range, vanishing)))
    }

    // A block is four rows of two registers of four.
    const _: () = assert!(BLOCK_ROWS == 4 && BLOCK_COLS == 8);

    /// Every whole block of [`super::product`], from `b` packed into
    /// `panels` ([`super::pack`]); see there for the shapes.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn blocks(
        a: &[f64],
        panels: &[f64],
        out: &mut [MaybeUninit<f64>],
        inner: usize,
        cols: usize,
        block_rows: usize,
    ) {
        // Indexing checks every block's extent once, up front: the loads and
        // stores below stay inside these slices.
        let a = &a[..block_rows * BLOCK_ROWS * inner];
        let out = &mut out[..block_rows * BLOCK_ROWS * cols];
        for r in 0..block_rows {
            // The block's four rows of `a`, each `inner` long.
            let a = &a[r * BLOCK_ROWS * inner..][..BLOCK_ROWS * inner];
            let (a0, rest) = a.split_at(inner);
            let (a1, rest) = rest.split_at(inner);
            let (a2, a3) = rest.split_at(inner);
            for (p, panel) in panels.chunks_exact(inner * BLOCK_COLS).enumerate() {
                let col = p * BLOCK_COLS;
                // Sixteen named registers rather than an array: without
                // optimization for speed (the release profile optimizes for
                // size) an array of sums would live in memory.
                let zero = _mm256_setzero_pd();
                let [mut s00, mut s01, mut s10, mut s11] = [zero; 4];
                let [mut s20, mut s21, mut s30, mut s31] = [zero; 4];
                let rows = panel
                    .as_chunks::<BLOCK_COLS>()
                    .0
                    .iter()
                    .zip(a0)
                    .zip(a1)
                    .zip(a2)
                    .zip(a3);
                for ((((row, &x0), &x1), &x2), &x3) in rows {
                    // SAFETY: `row` holds 8 = 2×4 entries.
                    let (y0, y1) = unsafe {
                        (
                            _mm256_loadu_pd(row.as_ptr()),
                            _mm256_loadu_pd(row.as_ptr().add(4)),
                        )
                    };
                    let x = _mm256_set1_pd(x0);
                    s00 = _mm256_add_pd(s00, _mm256_mul_pd(x, y0));
                    s01 = _mm256_add_pd(s01, _mm256_mul_pd(x, y1));
                    let x = _mm256_set1_pd(x1);
                    s10 = _mm256_add_pd(s10, _mm256_mul_pd(x, y0));
                    s11 = _mm256_add_pd(s11, _mm256_mul_pd(x, y1));
                    let x = _mm256_set1_pd(x2);
                    s20 = _mm256_add_pd(s20, _mm256_mul_pd(x, y0));
                    s21 = _mm256_add_pd(s21, _mm256_mul_pd(x, y1));
                    let x = _mm256_set1_pd(x3);
                    s30 = _mm256_add_pd(s30, _mm256_mul_pd(x, y0));
                    s31 = _mm256_add_pd(s31, _mm256_mul_pd(x, y1));
                }
                let sums = [[s00, s01], [s10, s11], [s20, s21], [s30, s31]];
                for (i, [s0, s1]) in sums.into_iter().enumerate() {
                    let dest = &mut out[(r * BLOCK_ROWS + i) * cols + col..][..BLOCK_COLS];
                    let dest = dest.as_mut_ptr().cast::<f64>();
                    // SAFETY: `dest` holds 8 = 2×4 entries.
                    unsafe {
                        _mm256_storeu_pd(dest, s0);
                        _mm256_storeu_pd(dest.add(4), s1);
                    }
                }
            }
        }
    }
}

/// [`product`]'s blocks, [`softmax_steps`] and [`exp_shifted`] with
/// WebAssembly's two-wide SIMD, multiplying and adding separately (there is
/// no fused multiply-add in it), so every value is rounded exactly as in the
/// scalar code.
#[cfg(target_arch = "wasm32")]
mod simd128 {
    use super::{BLOCK_COLS, BLOCK_ROWS, SUMS};
    use core::arch::wasm32::{
        f64x2, f64x2_abs, f64x2_add, f64x2_div, f64x2_extract_lane, f64x2_lt, f64x2_mul,
        f64x2_pmax, f64x2_splat, f64x2_sub, f64x2_trunc, i64x2_add, i64x2_bitmask, i64x2_shl,
        i64x2_splat, v128, v128_and, v128_andnot, v128_bitselect, v128_load, v128_or, v128_store,
    };
    use std::mem::MaybeUninit;

    /// [`super::softmax_steps`] compiled for WebAssembly's SIMD.
    #[target_feature(enable = "simd128")]
    pub(super) fn softmax_masked(row: &mut [f64]) {
        super::softmax_steps(row);
    }

    /// [`super::exp_shifted`]: `v ← e^{v − shift}` for every entry, bit for
    /// bit `libm::exp`, and their total: eight entries at a time, each
    /// register of two adding to its own register of two partial sums.
    ///
    /// Four pairs at a time rather than one: V8 makes a v128 constant anew
    /// (three instructions) wherever a loop uses it, and the four pairs'
    /// exponentials share each one.
    #[target_feature(enable = "simd128")]
    pub(super) fn exp_shifted(values: &mut [f64], shift: f64) -> f64 {
        const PAIRS: usize = SUMS / 2;
        let (octets, rest) = values.as_chunks_mut::<SUMS>();
        let mut sums = [f64x2_splat(0.0); PAIRS];
        for octet in octets {
            let pairs = octet.as_mut_ptr().cast::<v128>();
            let mut x = [f64x2_splat(0.0); PAIRS];
            let mut y = x;
            let mut plain = 0b11;
            for (i, (x, y)) in x.iter_mut().zip(&mut y).enumerate() {
                // SAFETY: `octet` holds PAIRS pairs.
                *x = f64x2_sub(unsafe { v128_load(pairs.add(i)) }, f64x2_splat(shift));
                let lanes;
                (*y, lanes) = exp2(*x);
                plain &= lanes;
            }
            if plain != 0b11 {
                y = special_lanes(x, y);
            }
            for (i, (y, sum)) in y.into_iter().zip(&mut sums).enumerate() {
                // SAFETY: as above.
                unsafe { v128_store(pairs.add(i), y) };
                *sum = f64x2_add(*sum, y);
            }
        }
        let mut partial = [0.0; SUMS];
        for (lanes, sum) in partial.as_chunks_mut::<2>().0.iter_mut().zip(sums) {
            *lanes = [f64x2_extract_lane::<0>(sum), f64x2_extract_lane::<1>(sum)];
        }
        super::exp_shifted_from(rest, shift, partial)
    }

    /// `y` with every lane that [`exp2`] does not cover replaced by
    /// `libm::exp` of that lane of `x`: the rare lanes (e^x overflows or is
    /// subnormal, NaN) take libm's own special cases.
    #[cold]
    #[target_feature(enable = "simd128")]
    fn special_lanes<const N: usize>(x: [v128; N], mut y: [v128; N]) -> [v128; N] {
        for (x, y) in x.into_iter().zip(&mut y) {
            let plain = exp2(x).1;
            let e = |lane: u8, e: f64, x: f64| {
                if plain & (1 << lane) == 0 {
                    libm::exp(x)
                } else {
                    e
                }
            };
            *y = f64x2(
                e(0, f64x2_extract_lane::<0>(*y), f64x2_extract_lane::<0>(x)),
                e(1, f64x2_extract_lane::<1>(*y), f64x2_extract_lane::<1>(x)),
            );
        }
        y
    }

    /// [`super::largest`]: the same four running maxima, two registers of
    /// two, each taking an entry when it is larger (`f64x2.pmax`).
    #[target_feature(enable = "simd128")]
    pub(super) fn largest(values: &[f64]) -> f64 {
        let (quads, rest) = values.as_chunks::<4>();
        let mut lanes = [f64x2_splat(f64::NEG_INFINITY); 2];
        for quad in quads {
            for (m, pair) in lanes.iter_mut().zip(quad.as_chunks::<2>().0) {
                // SAFETY: `pair` holds 2 entries.
                *m = f64x2_pmax(*m, unsafe { v128_load(pair.as_ptr().cast()) });
            }
        }
        let [low, high] = lanes;
        let lanes = [
            f64x2_extract_lane::<0>(low),
            f64x2_extract_lane::<1>(low),
            f64x2_extract_lane::<0>(high),
            f64x2_extract_lane::<1>(high),
        ];
        super::largest_from(rest, lanes)
    }

    /// [`super::divide`], two entries at a time.
    #[target_feature(enable = "simd128")]
    pub(super) fn divide(values: &mut [f64], by: f64) {
        let (pairs, rest) = values.as_chunks_mut::<2>();
        for pair in pairs {
            let pair = pair.as_mut_ptr().cast::<v128>();
            // SAFETY: `pair` holds 2 entries.
            unsafe { v128_store(pair, f64x2_div(v128_load(pair), f64x2_splat(by))) };
        }
        for v in rest {
            *v /= by;
        }
    }

    /// `avx2::exp4` in two lanes: `libm::exp` for |x| < 708.39… and for
    /// x < −745.13…, and the mask of the lanes in those ranges (bit i for
    /// lane i). See there for the steps, which are the same in the same order.
    #[target_feature(enable = "simd128")]
    fn exp2(x: v128) -> (v128, u8) {
        use super::exp_constants::{INVLN2, LN2HI, LN2LO, P};
        let splat = f64x2_splat;
        let below = |x, bits: u64| f64x2_lt(x, splat(f64::from_bits(bits)));
        let sign = v128_and(x, splat(-0.0));
        let abs = f64x2_abs(x);
        let in_range = below(abs, 0x4086_232b_0000_0000);
        let vanishing = below(x, 0xc087_4910_d52d_3051);
        let tiny = below(abs, 0x3e30_0001_0000_0000);
        let small = below(abs, 0x3fd6_2e43_0000_0000);
        let middle = below(abs, 0x3ff0_a2b2_0000_0000);

        let half = v128_or(splat(0.5), sign);
        let large_k = f64x2_add(f64x2_mul(splat(INVLN2), x), half);
        // Truncated as a float, which is what the conversion to an integer
        // and back gives here: LLVM turns those two conversions into four
        // scalar ones, each several instructions in V8.
        let k = f64x2_trunc(large_k);
        let k = v128_bitselect(v128_or(splat(1.0), sign), k, middle);
        let k = v128_andnot(k, small);

        let hi = f64x2_sub(x, f64x2_mul(k, splat(LN2HI)));
        let lo = f64x2_mul(k, splat(LN2LO));
        let r = f64x2_sub(hi, lo);
        let rr = f64x2_mul(r, r);
        let mut poly = splat(P[4]);
        for &p in P[..4].iter().rev() {
            poly = f64x2_add(splat(p), f64x2_mul(rr, poly));
        }
        let c = f64x2_sub(r, f64x2_mul(rr, poly));
        let ratio = f64x2_div(f64x2_mul(r, c), f64x2_sub(splat(2.0), c));
        let y = f64x2_add(splat(1.0), f64x2_add(f64x2_sub(ratio, lo), hi));
        // 2^k from its bits, without converting k to an integer: k + 1.5·2⁵²
        // is exact and holds k in the low bits of its own (|k| ≤ 1022 here),
        // so adding the bias 1023 and shifting by 52 leaves k + 1023 as the
        // biased exponent and nothing else.
        let magic = i64x2_add(
            f64x2_add(k, splat(6_755_399_441_055_744.0)),
            i64x2_splat(1023),
        );
        let scale = i64x2_shl(magic, 52);
        let y = f64x2_mul(y, scale);
        let y = v128_bitselect(f64x2_add(splat(1.0), x), y, tiny);
        let y = v128_andnot(y, vanishing);
        (y, i64x2_bitmask(v128_or(in_range, vanishing)))
    }

    // A block is four rows of two registers of two, twice per panel: four
    // rows of four columns take 8 of the 16 registers V8 has on x86-64,
    // where four rows of eight would not fit.
    const HALF: usize = BLOCK_COLS / 2;
    const _: () = assert!(BLOCK_ROWS == 4 && HALF == 4);

    /// Every whole block of [`super::product`], from `b` packed into
    /// `panels` ([`super::pack`]); see there for the shapes.
    #[target_feature(enable = "simd128")]
    pub(super) fn blocks(
        a: &[f64],
        panels: &[f64],
        out: &mut [MaybeUninit<f64>],
        inner: usize,
        cols: usize,
        block_rows: usize,
    ) {
        for r in 0..block_rows {
            // The block's four rows of `a`, each `inner` long.
            let a = &a[r * BLOCK_ROWS * inner..][..BLOCK_ROWS * inner];
            let (a0, rest) = a.split_at(inner);
            let (a1, rest) = rest.split_at(inner);
            let (a2, a3) = rest.split_at(inner);
            for (p, panel) in panels.chunks_exact(inner * BLOCK_COLS).enumerate() {
                for half in [0, HALF] {
                    let zero = f64x2_splat(0.0);
                    let [mut s00, mut s01, mut s10, mut s11] = [zero; 4];
                    let [mut s20, mut s21, mut s30, mut s31] = [zero; 4];
                    let rows = panel
                        .as_chunks::<BLOCK_COLS>()
                        .0
                        .iter()
                        .zip(a0)
                        .zip(a1)
                        .zip(a2)
                        .zip(a3);
                    for ((((row, &x0), &x1), &x2), &x3) in rows {
                        let y = &row[half..half + HALF];
                        // SAFETY: `y` holds 4 = 2×2 entries.
                        let (y0, y1) = unsafe {
                            (
                                v128_load(y.as_ptr().cast()),
                                v128_load(y.as_ptr().add(2).cast()),
                            )
                        };
                        let x = f64x2_splat(x0);
                        s00 = f64x2_add(s00, f64x2_mul(x, y0));
                        s01 = f64x2_add(s01, f64x2_mul(x, y1));
                        let x = f64x2_splat(x1);
                        s10 = f64x2_add(s10, f64x2_mul(x, y0));
                        s11 = f64x2_add(s11, f64x2_mul(x, y1));
                        let x = f64x2_splat(x2);
                        s20 = f64x2_add(s20, f64x2_mul(x, y0));
                        s21 = f64x2_add(s21, f64x2_mul(x, y1));
                        let x = f64x2_splat(x3);
                        s30 = f64x2_add(s30, f64x2_mul(x, y0));
                        s31 = f64x2_add(s31, f64x2_mul(x, y1));
                    }
                    let sums = [[s00, s01], [s10, s11], [s20, s21], [s30, s31]];
                    let col = p * BLOCK_COLS + half;
                    for (i, [s0, s1]) in sums.into_iter().enumerate() {
                        let dest = &mut out[(r * BLOCK_ROWS + i) * cols + col..][..HALF];
                        let dest = dest.as_mut_ptr().cast::<f64>();
                        // SAFETY: `dest` holds 4 = 2×2 entries.
                        unsafe {
                            v128_store(dest.cast(), s0);
                            v128_store(dest.add(2).cast(), s1);
                        }
                    }
                }
            }
        }
    }
}

/// `Σ_c a_c · b_c`, summed over c = 0, 1, … in order.
///
/// ```
/// use attention_kernels::dot;
/// use ndarray::array;
///
/// assert_eq!(dot(array![1.0, 2.0].view(), array![3.0, -1.0].view()), 1.0);
/// ```
pub fn dot(a: ArrayView1<f64>, b: ArrayView1<f64>) -> f64 {
    Zip::from(&a).and(&b).fold(0.0, |sum, &x, &y| sum + x * y)
}

/// Raw attention scores `S = Q·Kᵀ`: `S_ij = Σ_c Q_ic · K_jc`, how well query i
/// matches key j.
///
/// ```
/// use attention_kernels::dot_scores;
/// use ndarray::array;
///
/// let q = array![[1.0, 0.0], [0.5, 2.0]];
/// let k = array![[1.0, 1.0], [0.0, 3.0]];
/// assert_eq!(dot_scores(q.view(), k.view()), array![[1.0, 0.0], [2.5, 6.0]]);
/// ```
pub fn dot_scores(q: ArrayView2<f64>, k: ArrayView2<f64>) -> Array2<f64> {
    // As Q·(Kᵀ): each score still sums Q_ic·K_jc over c = 0, 1, … in order,
    // so it has the bits of `dot(Q_i, K_j)`, but whole blocks of scores are
    // built at once, from Kᵀ packed into panels.
    project(q, k.t())
}

/// The factor the scores are multiplied by: `1/√d_k` when scaling is on, else 1.
///
/// ```
/// use attention_kernels::scale_factor;
///
/// assert_eq!(scale_factor(16, true), 0.25);
/// assert_eq!(scale_factor(16, false), 1.0);
/// ```
pub fn scale_factor(d_k: usize, scale: bool) -> f64 {
    if scale {
        1.0 / (d_k as f64).sqrt()
    } else {
        1.0
    }
}

/// Which keys each query may see in one sequence: `allowed_ij = real_j ∧ (¬causal ∨ j ≤ i)`.
///
/// `key_is_real[j]` is false for a padding position; with `causal`, query i also
/// ignores every later position j > i.
///
/// ```
/// use attention_kernels::allowed_keys;
/// use ndarray::array;
///
/// let allowed = allowed_keys(array![true, true, false].view(), true);
/// assert_eq!(
///     allowed,
///     array![[true, false, false], [true, true, false], [true, true, false]]
/// );
/// ```
pub fn allowed_keys(key_is_real: ArrayView1<bool>, causal: bool) -> Array2<bool> {
    let t = key_is_real.len();
    Array2::from_shape_fn((t, t), |(i, j)| may_attend(key_is_real[j], causal, i, j))
}

/// Whether query i may attend to key j: the key is a real token and, under a
/// causal mask, not later than i. One entry of [`allowed_keys`].
///
/// ```
/// use attention_kernels::may_attend;
///
/// assert!(may_attend(true, true, 2, 1));
/// assert!(!may_attend(true, true, 1, 2));
/// assert!(!may_attend(false, false, 2, 1));
/// ```
pub fn may_attend(key_is_real: bool, causal: bool, i: usize, j: usize) -> bool {
    key_is_real && (!causal || j <= i)
}

/// Softmax of one row of scores over the allowed keys:
/// `α′_j = e^{α_j − m} / Σ_k e^{α_k − m}` for allowed j, where m is the row's
/// largest allowed score, and exactly 0 for every key that is not allowed.
///
/// Subtracting m keeps every exponent ≤ 0, so scores of ±1e6 neither overflow
/// nor turn into NaN. A row with no allowed key at all gets all-zero weights.
///
/// ```
/// use attention_kernels::masked_softmax;
/// use ndarray::array;
///
/// let w = masked_softmax(array![1e6, 1e6, -1e6].view(), array![true, true, true].view());
/// assert_eq!(w, array![0.5, 0.5, 0.0]);
///
/// let w = masked_softmax(array![0.0, 5.0].view(), array![true, false].view());
/// assert_eq!(w, array![1.0, 0.0]);
///
/// let w = masked_softmax(array![0.0, 5.0].view(), array![false, false].view());
/// assert_eq!(w, array![0.0, 0.0]);
/// ```
pub fn masked_softmax(scores: ArrayView1<f64>, allowed: ArrayView1<bool>) -> Array1<f64> {
    let mut weights = scores.to_owned();
    softmax_in_place(weights.view_mut(), |j| allowed[j]);
    weights
}

/// [`masked_softmax`] in place: `row` holds the scores and becomes the
/// weights; key j is allowed when `allowed(j)`. The one softmax of the crate:
/// the forward pass, the training pass and the √d_k experiment all call it.
///
/// ```
/// use attention_kernels::softmax_in_place;
/// use ndarray::array;
///
/// let mut row = array![2.0, 2.0, 7.0];
/// softmax_in_place(row.view_mut(), |j| j < 2);
/// assert_eq!(row, array![0.5, 0.5, 0.0]);
/// ```
pub fn softmax_in_place(mut row: ArrayViewMut1<f64>, allowed: impl Fn(usize) -> bool) {
    match row.as_slice_mut() {
        Some(row) => softmax_slice(row, allowed),
        None => {
            // A strided row (from a transposed or sliced view) is worked on
            // as a contiguous copy, so there is one softmax loop.
            let mut copy = row.to_vec();
            softmax_slice(&mut copy, allowed);
            row.assign(&ArrayView1::from(&copy));
        }
    }
}

/// [`softmax_in_place`] over a slice.
fn softmax_slice(row: &mut [f64], allowed: impl Fn(usize) -> bool) {
    mask(row, allowed);
    softmax_masked(row);
}

/// Gives a key that is not allowed −∞: it cannot be the largest, and e^−∞
/// is exactly the 0 it must have.
fn mask(row: &mut [f64], allowed: impl Fn(usize) -> bool) {
    for (j, w) in row.iter_mut().enumerate() {
        *w = if allowed(j) { *w } else { f64::NEG_INFINITY };
    }
}

/// The softmax's terms as a learner adds them up: `e^{s_j − shift}` for each
/// allowed score (0 for a key that is not allowed) and their total, with the
/// exponential and the order of additions of [`softmax_in_place`], which
/// takes the row's largest allowed score as `shift` and divides each term by
/// the total. A shift of 0 gives the textbook form, e^{s_j} / Σ_k e^{s_k}.
///
/// ```
/// use attention_kernels::softmax_terms;
///
/// let (terms, total) = softmax_terms(&[0.0, 0.0, 9.0], |j| j < 2, 0.0);
/// assert_eq!(terms, [1.0, 1.0, 0.0]);
/// assert_eq!(total, 2.0);
/// ```
pub fn softmax_terms(
    scores: &[f64],
    allowed: impl Fn(usize) -> bool,
    shift: f64,
) -> (Vec<f64>, f64) {
    let mut terms = scores.to_vec();
    mask(&mut terms, allowed);
    let total = exp_shifted(&mut terms, shift);
    (terms, total)
}

/// The softmax of a row whose keys that are not allowed already hold −∞
/// (the forward pass writes them so as it copies the scaled scores), with
/// AVX2 when the processor has it: all zeros when no key is allowed.
#[doc(hidden)] // For attention_core's forward pass only.
pub fn softmax_masked(row: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has just been found to support AVX2.
        return unsafe { avx2::softmax_masked(row) };
    }
    #[cfg(target_arch = "wasm32")]
    return simd128::softmax_masked(row);
    #[cfg(not(target_arch = "wasm32"))]
    softmax_steps(row);
}

/// The steps of [`softmax_masked`], inlined into its callers so that the
/// same loops are also compiled for AVX2 (four entries at a time) in
/// `avx2::softmax_masked`, and for WebAssembly's SIMD in
/// `simd128::softmax_masked`.
#[inline(always)]
fn softmax_steps(row: &mut [f64]) {
    let largest = largest(row);
    if largest == f64::NEG_INFINITY {
        row.fill(0.0);
        return;
    }
    // The largest allowed score contributes e^0 = 1, so the sum is at least 1.
    let total = exp_shifted(row, largest);
    divide(row, total);
}

/// `v ← v / by` for every entry: two at a time with WebAssembly's SIMD,
/// since LLVM vectorizes no loop of the wasm (the app is optimized for size,
/// and so is the core once linked into it), only natively.
#[inline(always)]
fn divide(values: &mut [f64], by: f64) {
    #[cfg(target_arch = "wasm32")]
    return simd128::divide(values, by);
    #[cfg(not(target_arch = "wasm32"))]
    for v in values {
        *v /= by;
    }
}

/// The largest entry of `values` that is not NaN, or −∞ when there is none.
///
/// A running maximum takes an entry only when it is larger (`m < v`): that
/// ignores NaN as `f64::max` does, without its second test (for a NaN
/// maximum), and is one instruction in AVX2 (`maxpd`) and in WebAssembly's
/// SIMD (`f64x2.pmax`, which the wasm uses by hand, see [`divide`]). It is
/// associative but for the sign of a zero, so the entries are compared four
/// running maxima at a time rather than in one chain; `e^{s − m}` is the
/// same for m = ±0.
#[inline(always)]
fn largest(values: &[f64]) -> f64 {
    #[cfg(target_arch = "wasm32")]
    return simd128::largest(values);
    #[cfg(not(target_arch = "wasm32"))]
    largest_from(values, [f64::NEG_INFINITY; 4])
}

/// [`largest`] with four running maxima that start at `lanes`: lane l takes
/// the entries 4n + l, then the lanes and the entries left over after whole
/// fours are compared in order.
#[inline(always)]
fn largest_from(values: &[f64], mut lanes: [f64; 4]) -> f64 {
    let larger = |m: f64, v: f64| if m < v { v } else { m };
    let (quads, rest) = values.as_chunks::<4>();
    for quad in quads {
        for (m, &v) in lanes.iter_mut().zip(quad) {
            *m = larger(*m, v);
        }
    }
    lanes
        .iter()
        .chain(rest)
        .fold(f64::NEG_INFINITY, |m, &v| larger(m, v))
}

/// How many partial sums the softmax's total is made of: entry j is added
/// to partial sum j mod 8, in order, and [`total`] adds the eight up.
///
/// A single running sum would be one chain of additions, each waiting for
/// the last (a few cycles per entry, as long as the rest of the softmax
/// takes). Eight chains fill two AVX2 registers or four of WebAssembly's
/// SIMD, so the scalar code and both vector forms add the same numbers in
/// the same order and agree bit for bit.
const SUMS: usize = 8;

/// `v ← e^{v − shift}` for every entry, with the bits of `libm::exp`, and
/// returns their total, summed in [`SUMS`] partial sums: with AVX2 when the
/// processor has it (see `avx2::exp4`), else one entry at a time. Summing as
/// each exponential is made leaves the additions to overlap with computing
/// the next exponentials.
fn exp_shifted(values: &mut [f64], shift: f64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has just been found to support AVX2.
        return unsafe { avx2::exp_shifted(values, shift) };
    }
    #[cfg(target_arch = "wasm32")]
    return simd128::exp_shifted(values, shift);
    #[cfg(not(target_arch = "wasm32"))]
    exp_shifted_from(values, shift, [0.0; SUMS])
}

/// [`exp_shifted`] one entry at a time with `libm::exp`, entry j adding to
/// `partial[j mod 8]`, and the total of the partial sums (what the vector
/// forms do with the entries left over after whole registers, which start at
/// a multiple of 8).
#[inline(always)]
fn exp_shifted_from(values: &mut [f64], shift: f64, mut partial: [f64; SUMS]) -> f64 {
    for (j, v) in values.iter_mut().enumerate() {
        *v = libm::exp(*v - shift);
        partial[j % SUMS] += *v;
    }
    total(partial)
}

/// The sum of the [`SUMS`] partial sums, in a fixed order: l and l + 4 first
/// (two AVX2 registers added lane by lane), then l and l + 2, then the two left.
#[inline(always)]
fn total(partial: [f64; SUMS]) -> f64 {
    let [a, b, c, d, e, f, g, h] = partial;
    let (a, b, c, d) = (a + e, b + f, c + g, d + h);
    (a + c) + (b + d)
}

/// Row-wise [`masked_softmax`]: row i of the result is query i's attention
/// budget, shared among the keys that `allowed` lets it see.
///
/// ```
/// use attention_kernels::softmax_rows;
/// use ndarray::array;
///
/// let scores = array![[0.0, 0.0], [3.0, -2.0]];
/// let allowed = array![[true, true], [true, false]];
/// assert_eq!(softmax_rows(scores.view(), allowed.view()), array![[0.5, 0.5], [1.0, 0.0]]);
/// ```
pub fn softmax_rows(scores: ArrayView2<f64>, allowed: ArrayView2<bool>) -> Array2<f64> {
    let mut weights = scores.to_owned();
    for (row, ok) in weights.rows_mut().into_iter().zip(allowed.rows()) {
        // As a slice (a copy if the mask is strided), a plain index per key.
        let ok = ok
            .as_slice()
            .map_or_else(|| Cow::Owned(ok.to_vec()), Cow::Borrowed);
        softmax_in_place(row, |j| ok[j]);
    }
    weights
}

/// The fused output `B = α′·V`: `B_i = Σ_j α′_ij · V_j`, each token's new vector
/// as a weighted mix of every value it attends to.
///
/// ```
/// use attention_kernels::mix_values;
/// use ndarray::array;
///
/// let weights = array![[0.5, 0.5], [1.0, 0.0]];
/// let v = array![[2.0, 0.0], [0.0, 4.0]];
/// assert_eq!(mix_values(weights.view(), v.view()), array![[1.0, 2.0], [2.0, 0.0]]);
/// ```
pub fn mix_values(weights: ArrayView2<f64>, v: ArrayView2<f64>) -> Array2<f64> {
    project(weights, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The terms a learner reads, shifted by the row's largest allowed
        /// score, are the softmax's own: each weight is its term over the
        /// total, bit for bit.
        #[test]
        fn softmax_terms_are_the_softmax_before_its_division(
            scores in proptest::collection::vec(-60.0..60.0f64, 1..40),
            mask_seed in any::<u64>(),
        ) {
            let allowed = |j: usize| (mask_seed >> (j % 64)) & 1 == 1 || j == 0;
            let shift = (0..scores.len())
                .filter(|&j| allowed(j))
                .map(|j| scores[j])
                .fold(f64::NEG_INFINITY, f64::max);
            let (terms, total) = softmax_terms(&scores, allowed, shift);
            let mut weights = Array1::from(scores.clone());
            softmax_in_place(weights.view_mut(), allowed);
            for (j, (term, weight)) in terms.iter().zip(&weights).enumerate() {
                prop_assert_eq!((term / total).to_bits(), weight.to_bits(), "key {}", j);
                if !allowed(j) {
                    prop_assert_eq!(*term, 0.0);
                }
            }
        }
    }

    /// `a·b` as the kernels computed it before blocking: each entry starts at
    /// 0 and adds `a_ic · b_cj` for c = 0, 1, … in order.
    fn naive(a: &[f64], b: &[f64], rows: usize, inner: usize, cols: usize) -> Vec<f64> {
        let mut out = vec![0.0; rows * cols];
        for i in 0..rows {
            for c in 0..inner {
                for j in 0..cols {
                    out[i * cols + j] += a[i * inner + c] * b[c * cols + j];
                }
            }
        }
        out
    }

    fn bits(values: &[f64]) -> Vec<u64> {
        values.iter().map(|v| v.to_bits()).collect()
    }

    type Product = fn(&[f64], ArrayView2<f64>, &mut [MaybeUninit<f64>]);

    /// [`product`] (with AVX2 where the processor has it) and the scalar
    /// blocks both give the naive loop's bits, with `b` row-major and as the
    /// transpose of a row-major matrix (as Kᵀ is).
    fn check(rows: usize, inner: usize, cols: usize, a: &[f64], b: &[f64]) {
        let expected = bits(&naive(a, b, rows, inner, cols));
        let b_t = ArrayView2::from_shape((inner, cols), b)
            .unwrap()
            .t()
            .to_owned();
        for b in [ArrayView2::from_shape((inner, cols), b).unwrap(), b_t.t()] {
            let kernels: [(&str, Product); 2] = [("product", product), ("scalar", scalar_product)];
            for (name, multiply) in kernels {
                let mut out = vec![MaybeUninit::new(f64::NAN); rows * cols];
                multiply(a, b, &mut out);
                // SAFETY: every entry was initialized (with NaN) before.
                let out: Vec<f64> = out.iter().map(|v| unsafe { v.assume_init() }).collect();
                assert_eq!(bits(&out), expected, "{name} {rows}×{inner}·{inner}×{cols}");
            }
        }
    }

    /// Values whose products and sums round, with signed zeros among them.
    fn values(n: usize, seed: u64) -> Vec<f64> {
        // SplitMix64, as attention_core::random: uniform in ±9, about the
        // spread of the normal values (σ = 3) these tests used before, then / 7.
        let mut state = seed;
        (0..n)
            .map(|i| {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                let uniform = (z >> 11) as f64 / (1u64 << 53) as f64;
                if i % 11 == 5 {
                    -0.0
                } else {
                    (18.0 * uniform - 9.0) / 7.0
                }
            })
            .collect()
    }

    #[test]
    fn blocked_product_matches_the_naive_loop_bit_for_bit() {
        for (seed, (rows, inner, cols)) in [
            (1, 1, 1),
            (5, 3, 7),
            (13, 64, 29),
            (16, 64, 64),
            (4, 8, 8),
            (9, 1, 17),
            (3, 5, 0),
            (2, 0, 3),
            (0, 3, 9),
            (0, 3, 17),
        ]
        .into_iter()
        .enumerate()
        {
            let a = values(rows * inner, 2 * seed as u64);
            let b = values(inner * cols, 2 * seed as u64 + 1);
            check(rows, inner, cols, &a, &b);
        }
    }

    /// [`exp_shifted`] (with AVX2 where the processor has it) against
    /// `libm::exp` one value at a time, and its total against the scalar
    /// partial sums from every start (so every split into whole registers
    /// and entries left over).
    fn check_exp(values: &[f64]) {
        let mut got = values.to_vec();
        exp_shifted(&mut got, 0.0);
        let expected: Vec<f64> = values.iter().map(|&x| libm::exp(x)).collect();
        for ((x, got), expected) in values.iter().zip(&got).zip(&expected) {
            assert_eq!(
                got.to_bits(),
                expected.to_bits(),
                "e^{x:e}: {got:e} ≠ {expected:e}"
            );
        }
        for start in 0..values.len().min(2 * SUMS) {
            let mut vector = values[start..].to_vec();
            let mut scalar = vector.clone();
            let total = exp_shifted(&mut vector, 0.5);
            let expected = exp_shifted_from(&mut scalar, 0.5, [0.0; SUMS]);
            assert_eq!(
                total.to_bits(),
                expected.to_bits(),
                "total of {} entries: {total:e} ≠ {expected:e}",
                vector.len()
            );
        }
    }

    #[test]
    fn exp_has_the_bits_of_libm_at_every_branch() {
        let mut values = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            1e-300,
            -1e6,
            1e6,
            709.78,
            709.79,
            -745.13,
            -745.14,
        ];
        // Around the last x whose e^x is not 0.
        let vanishing = 0xc087_4910_d52d_3051_u64;
        values.extend((vanishing - 2..vanishing + 3).map(f64::from_bits));
        // Both sides of each threshold of the high word of |x|: 2⁻²⁸, ½ln2,
        // 1.5 ln2 and 708.39…, for both signs.
        for high in [0x3e30_0000_u64, 0x3fd6_2e42, 0x3ff0_a2b2, 0x4086_232b] {
            for bits in [
                (high << 32) - 1,
                high << 32,
                (high << 32) | 0xffff_ffff,
                (high + 1) << 32,
            ] {
                values.push(f64::from_bits(bits));
                values.push(-f64::from_bits(bits));
            }
        }
        // Whole and half multiples of ln 2, where k changes.
        values.extend((-2100..2100).map(|i| f64::from(i) * std::f64::consts::LN_2 / 2.0));
        check_exp(&values);
    }

    proptest! {
        #[test]
        fn exp_has_the_bits_of_libm(
            values in proptest::collection::vec(
                prop_oneof![-750.0..750.0f64, -2.0..2.0f64, -1e-6..1e-6f64, any::<f64>()],
                0..40,
            )
        ) {
            check_exp(&values);
        }

        #[test]
        fn blocked_product_matches_the_naive_loop_on_any_shape(
            (rows, inner, cols, a, b) in (1usize..20, 1usize..20, 1usize..20).prop_flat_map(
                |(rows, inner, cols)| {
                    let entry = prop_oneof![-1e3..1e3f64, Just(-0.0), Just(0.0), Just(1e-300)];
                    (
                        Just(rows),
                        Just(inner),
                        Just(cols),
                        proptest::collection::vec(entry.clone(), rows * inner),
                        proptest::collection::vec(entry, inner * cols),
                    )
                }
            )
        ) {
            check(rows, inner, cols, &a, &b);
        }
    }
}
