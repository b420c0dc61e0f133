//! Compares `forward` with a slow reference written as plain loops over
//! `Vec<Vec<f64>>`, so that every step can be checked by eye against the
//! formula `softmax(QKᵀ/√d_k)·V`, and `forward_heads` with the same
//! reference run head by head, joined and projected by loops:
//! `Concat(head_1, …, head_h)·W_O`. Positions too: the sinusoidal encoding
//! by its formula (with the standard library's `powf`, `sin` and `cos`, not
//! the core's `libm`), learned ones added, and RoPE as an explicit 2×2
//! rotation of each pair of each head's Q and K.

use attention_core::{forward, forward_heads, Head, LayerTrace, Options, Positions, Trace};
use ndarray::{Array2, Array3, ArrayView2, Axis};
use proptest::collection::vec;
use proptest::prelude::*;

/// Absolute tolerance on the weights. They lie in [0, 1], and both sides
/// compute them from the same scores with a few correctly rounded steps, so
/// they may differ only in the last few bits (about 1e-16 each); 1e-12 leaves
/// room for the different summation orders of the matrix products.
const WEIGHT_TOL: f64 = 1e-12;

/// Relative tolerance (times max(1, |expected|)) on every other number. A
/// product or dot product over at most 6 terms of size ≤ 3 gathers rounding
/// errors of a few ulps; ndarray's kernels may add in another order or use
/// fused multiply-adds, which changes the last bits but never more than this.
const VALUE_TOL: f64 = 1e-10;

/// Absolute tolerance on a sinusoidal encoding. Its entries lie in [−1, 1]
/// and the angles below 8 radians here; the core's `libm` and the standard
/// library may each be off by an ulp in `powf`, `sin` and `cos`, about 1e-15
/// in all.
const POSITION_TOL: f64 = 1e-12;

type Matrix = Vec<Vec<f64>>;

/// Everything the reference computes for one sequence.
struct Reference {
    q: Matrix,
    k: Matrix,
    /// With RoPE, Q and K before the rotation.
    unrotated: Option<(Matrix, Matrix)>,
    v: Matrix,
    scores: Matrix,
    scaled: Matrix,
    allowed: Vec<Vec<bool>>,
    weights: Matrix,
    output: Matrix,
    empty_rows: Vec<usize>,
}

/// `a·b` for an n×m matrix `a` and an m×p matrix `b`.
fn matmul(a: &Matrix, b: &Matrix) -> Matrix {
    let p = b[0].len();
    let mut out = vec![vec![0.0; p]; a.len()];
    for i in 0..a.len() {
        for j in 0..p {
            let mut sum = 0.0;
            for (c, row_of_b) in b.iter().enumerate() {
                sum += a[i][c] * row_of_b[j];
            }
            out[i][j] = sum;
        }
    }
    out
}

fn transpose(a: &Matrix) -> Matrix {
    let mut out = vec![vec![0.0; a.len()]; a[0].len()];
    for (i, row) in a.iter().enumerate() {
        for (j, &value) in row.iter().enumerate() {
            out[j][i] = value;
        }
    }
    out
}

/// Softmax over the allowed entries of one row; the others get exactly 0, and
/// a row with no allowed entry is all zero.
fn masked_softmax(row: &[f64], allowed: &[bool]) -> Vec<f64> {
    let mut largest = f64::NEG_INFINITY;
    for j in 0..row.len() {
        if allowed[j] && row[j] > largest {
            largest = row[j];
        }
    }
    let mut out = vec![0.0; row.len()];
    if largest == f64::NEG_INFINITY {
        return out;
    }
    let mut total = 0.0;
    for j in 0..row.len() {
        if allowed[j] {
            out[j] = (row[j] - largest).exp();
            total += out[j];
        }
    }
    for value in &mut out {
        *value /= total;
    }
    out
}

/// `PE[p][2i] = sin(p / 10000^(2i/d))`, `PE[p][2i+1] = cos(p / 10000^(2i/d))`.
fn sinusoidal(t: usize, d: usize) -> Matrix {
    let mut pe = vec![vec![0.0; d]; t];
    for (p, row) in pe.iter_mut().enumerate() {
        for i in 0..d.div_ceil(2) {
            let angle = p as f64 / 10000f64.powf((2 * i) as f64 / d as f64);
            row[2 * i] = angle.sin();
            if 2 * i + 1 < d {
                row[2 * i + 1] = angle.cos();
            }
        }
    }
    pe
}

/// `a + b`, entry by entry.
fn add(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = a.clone();
    for (i, row) in out.iter_mut().enumerate() {
        for (j, value) in row.iter_mut().enumerate() {
            *value += b[i][j];
        }
    }
    out
}

/// RoPE: each pair (a, b) of row p, columns 2i and 2i + 1, times the 2×2
/// rotation by φ = p·θ_i, θ_i = 10000^(−2i/d_k):
/// `[a′, b′] = [[cos φ, −sin φ], [sin φ, cos φ]]·[a, b]`.
fn rotate(m: &Matrix) -> Matrix {
    let mut out = m.clone();
    for (p, row) in out.iter_mut().enumerate() {
        let d_k = row.len();
        for i in 0..d_k / 2 {
            let angle = p as f64 * 10000f64.powf(-((2 * i) as f64) / d_k as f64);
            let rotation = [[angle.cos(), -angle.sin()], [angle.sin(), angle.cos()]];
            let pair = [row[2 * i], row[2 * i + 1]];
            for (r, turned) in rotation.iter().enumerate() {
                row[2 * i + r] = turned[0] * pair[0] + turned[1] * pair[1];
            }
        }
    }
    out
}

/// One attention head over one sequence `x` (positions already added, if
/// they are), step by step; with `rope`, Q and K are rotated.
fn reference(
    x: &Matrix,
    head: &[Matrix; 3],
    key_is_real: &[bool],
    (causal, scale, rope): (bool, bool, bool),
) -> Reference {
    let [w_q, w_k, w_v] = head;
    let t = x.len();
    let (mut q, mut k) = (matmul(x, w_q), matmul(x, w_k));
    let mut unrotated = None;
    if rope {
        unrotated = Some((q.clone(), k.clone()));
        (q, k) = (rotate(&q), rotate(&k));
    }
    let v = matmul(x, w_v);
    let scores = matmul(&q, &transpose(&k));
    let factor = if scale {
        1.0 / (w_q[0].len() as f64).sqrt()
    } else {
        1.0
    };
    let scaled: Matrix = scores
        .iter()
        .map(|row| row.iter().map(|s| s * factor).collect())
        .collect();
    let mut allowed = vec![vec![false; t]; t];
    for (i, row) in allowed.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = key_is_real[j] && (!causal || j <= i);
        }
    }
    let weights: Matrix = (0..t)
        .map(|i| masked_softmax(&scaled[i], &allowed[i]))
        .collect();
    let output = matmul(&weights, &v);
    let empty_rows = (0..t)
        .filter(|&i| !allowed[i].iter().any(|&ok| ok))
        .collect();
    Reference {
        q,
        k,
        unrotated,
        v,
        scores,
        scaled,
        allowed,
        weights,
        output,
        empty_rows,
    }
}

fn rows(a: ArrayView2<f64>) -> Matrix {
    a.outer_iter().map(|r| r.to_vec()).collect()
}

fn check_close(
    field: &str,
    b: usize,
    got: &Array3<f64>,
    want: &Matrix,
    tolerance: impl Fn(f64) -> f64,
) -> Result<(), TestCaseError> {
    let (_, t, width) = got.dim();
    prop_assert_eq!(
        (t, width),
        (want.len(), want[0].len()),
        "{}[{}]: shape",
        field,
        b
    );
    for (i, want_row) in want.iter().enumerate() {
        for (j, &expected) in want_row.iter().enumerate() {
            let actual = got[[b, i, j]];
            prop_assert!(
                (actual - expected).abs() <= tolerance(expected),
                "{}[{}][{}][{}]: got {:e}, reference {:e}",
                field,
                b,
                i,
                j,
                actual,
                expected
            );
        }
    }
    Ok(())
}

fn relative(expected: f64) -> f64 {
    VALUE_TOL * expected.abs().max(1.0)
}

fn absolute_weight(_: f64) -> f64 {
    WEIGHT_TOL
}

/// The sequences of `x` as the reference reads them, with the positions
/// added when they are: sinusoidal ones by the formula, learned ones `p`.
fn encoded(x: &Array3<f64>, p: Option<&Array2<f64>>, positions: Positions) -> Vec<Matrix> {
    let (_, t, d) = x.dim();
    let added = match positions {
        Positions::Sinusoidal => Some(sinusoidal(t, d)),
        Positions::Learned => p.map(|p| rows(p.view())),
        Positions::None | Positions::Rope => None,
    };
    x.outer_iter()
        .map(|sequence| {
            let sequence = rows(sequence);
            added
                .as_ref()
                .map_or_else(|| sequence.clone(), |pe| add(&sequence, pe))
        })
        .collect()
}

/// The options as the reference takes them.
fn flags(options: Options) -> (bool, bool, bool) {
    (
        options.causal,
        options.scale,
        options.positions == Positions::Rope,
    )
}

/// Compares a trace's unrotated Q and K with the reference's: there with
/// RoPE, and only then.
fn check_unrotated(
    field: &str,
    b: usize,
    trace: &Trace,
    want: &Reference,
) -> Result<(), TestCaseError> {
    match (&trace.q_unrotated, &trace.k_unrotated, &want.unrotated) {
        (Some(q), Some(k), Some((want_q, want_k))) => {
            check_close(&format!("{field}q_unrotated"), b, q, want_q, relative)?;
            check_close(&format!("{field}k_unrotated"), b, k, want_k, relative)
        }
        (None, None, None) => Ok(()),
        _ => Err(TestCaseError::fail(format!(
            "{field}unrotated Q and K kept without RoPE, or missing with it"
        ))),
    }
}

/// Compares every field of `trace` with the reference run sequence by sequence.
fn check_trace(
    trace: &Trace,
    x: &Array3<f64>,
    head: &Head,
    mask: Option<&Array2<bool>>,
    options: Options,
) -> Result<(), TestCaseError> {
    let (batch, t, _) = x.dim();
    let d_k = head.w_q.ncols();
    let head_rows = [
        rows(head.w_q.view()),
        rows(head.w_k.view()),
        rows(head.w_v.view()),
    ];
    let key_is_real = mask
        .cloned()
        .unwrap_or_else(|| Array2::from_elem((batch, t), true));

    prop_assert_eq!(&trace.head, head);
    prop_assert_eq!(trace.options, options);
    prop_assert_eq!(&trace.key_is_real, &key_is_real);
    let factor = if options.scale {
        1.0 / (d_k as f64).sqrt()
    } else {
        1.0
    };
    prop_assert!((trace.scale_factor - factor).abs() <= relative(factor));

    let mut empty_rows = Vec::new();
    for (b, sequence) in encoded(x, None, options.positions).iter().enumerate() {
        check_close("x", b, &trace.x, sequence, |_| POSITION_TOL)?;
        let real = key_is_real.row(b).to_vec();
        let want = reference(sequence, &head_rows, &real, flags(options));
        check_close("q", b, &trace.q, &want.q, relative)?;
        check_close("k", b, &trace.k, &want.k, relative)?;
        check_unrotated("", b, trace, &want)?;
        check_close("v", b, &trace.v, &want.v, relative)?;
        check_close("scores", b, &trace.scores, &want.scores, relative)?;
        check_close("scaled", b, &trace.scaled, &want.scaled, relative)?;
        check_close("weights", b, &trace.weights, &want.weights, absolute_weight)?;
        check_close("output", b, &trace.output, &want.output, relative)?;
        for (i, want_row) in want.allowed.iter().enumerate() {
            for (j, &expected) in want_row.iter().enumerate() {
                prop_assert_eq!(
                    trace.allowed[[b, i, j]],
                    expected,
                    "allowed[{}][{}][{}]",
                    b,
                    i,
                    j
                );
            }
        }
        empty_rows.extend(want.empty_rows.iter().map(|&i| (b, i)));
    }
    if options.positions == Positions::None {
        prop_assert_eq!(&trace.x, x, "x as given");
    }
    prop_assert_eq!(&trace.empty_rows, &empty_rows);
    Ok(())
}

/// One random forward pass: x (B×T×d), a head, maybe a padding mask, and
/// options; `p` with learned positions.
#[derive(Clone, Debug)]
struct Case {
    x: Array3<f64>,
    head: Head,
    mask: Option<Array2<bool>>,
    options: Options,
    p: Option<Array2<f64>>,
}

fn matrix(rows: usize, cols: usize) -> impl Strategy<Value = Array2<f64>> {
    vec(-3.0..3.0f64, rows * cols)
        .prop_map(move |data| Array2::from_shape_vec((rows, cols), data).expect("sized to fit"))
}

/// Any positions `forward` takes: all but learned, which need `p`.
fn single_head_positions() -> impl Strategy<Value = Positions> {
    prop_oneof![
        Just(Positions::None),
        Just(Positions::Sinusoidal),
        Just(Positions::Rope),
    ]
}

/// `width` columns per head, made even for RoPE, which turns them in pairs.
fn fit(width: usize, positions: Positions) -> usize {
    if positions == Positions::Rope {
        width.div_ceil(2) * 2
    } else {
        width
    }
}

fn case() -> impl Strategy<Value = Case> {
    (
        1usize..=3,
        1usize..=8,
        1usize..=6,
        1usize..=6,
        1usize..=6,
        single_head_positions(),
    )
        .prop_flat_map(|(batch, t, d, d_k, d_v, positions)| {
            let d_k = fit(d_k, positions);
            (
                vec(-3.0..3.0f64, batch * t * d),
                matrix(d, d_k),
                matrix(d, d_k),
                matrix(d, d_v),
                // Mostly real positions, so that a fully padded sequence shows up
                // now and then without being the usual case.
                proptest::option::of(vec(prop::bool::weighted(0.75), batch * t)),
                any::<bool>(),
                any::<bool>(),
            )
                .prop_map(move |(x, w_q, w_k, w_v, mask, causal, scale)| Case {
                    x: Array3::from_shape_vec((batch, t, d), x).expect("sized to fit"),
                    head: Head { w_q, w_k, w_v },
                    mask: mask
                        .map(|m| Array2::from_shape_vec((batch, t), m).expect("sized to fit")),
                    options: Options {
                        causal,
                        scale,
                        positions,
                    },
                    p: None,
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn forward_matches_reference(case in case()) {
        let trace = forward(case.x.view(), &case.head, case.mask.as_ref().map(|m| m.view()), case.options)
            .map_err(|e| TestCaseError::fail(format!("forward failed: {e}")))?;
        check_trace(&trace, &case.x, &case.head, case.mask.as_ref(), case.options)?;
    }
}

/// The sinusoidal reference itself, on numbers worked out by hand: position
/// 0 is (0, 1, 0, 1), and at position 2 columns 0 and 1 turn by 2 radians,
/// columns 2 and 3 by 2/100.
#[test]
fn sinusoidal_reference_matches_hand_computed_example() {
    let pe = sinusoidal(3, 4);
    assert_eq!(pe[0], vec![0.0, 1.0, 0.0, 1.0]);
    assert_eq!(
        pe[2],
        vec![2f64.sin(), 2f64.cos(), 0.02f64.sin(), 0.02f64.cos()]
    );
    let core = attention_core::positions::sinusoidal(5, 7);
    for (p, want) in sinusoidal(5, 7).iter().enumerate() {
        for (c, &want) in want.iter().enumerate() {
            assert!((core[[p, c]] - want).abs() <= POSITION_TOL, "PE[{p}][{c}]");
        }
    }
}

/// The rotation reference on a hand-worked pair: (1, 0) at position 1 turns
/// by θ_0 = 1 radian to (cos 1, sin 1); (0, 1) at position 0 stays.
#[test]
fn rotation_reference_matches_hand_computed_example() {
    let turned = rotate(&vec![vec![0.0, 1.0], vec![1.0, 0.0]]);
    assert_eq!(turned[0], vec![0.0, 1.0]);
    assert_eq!(turned[1], vec![1f64.cos(), 1f64.sin()]);
}

/// Columns `from..from + width` of every row of `m`.
fn columns(m: &Matrix, from: usize, width: usize) -> Matrix {
    m.iter()
        .map(|row| row[from..from + width].to_vec())
        .collect()
}

/// A random multi-head layer: the weights of every head side by side, how
/// many heads share them, and maybe a W_O.
#[derive(Clone, Debug)]
struct LayerCase {
    case: Case,
    heads: usize,
    w_o: Option<Array2<f64>>,
}

fn layer_case() -> impl Strategy<Value = LayerCase> {
    (
        1usize..=2,
        1usize..=6,
        1usize..=5,
        1usize..=4,
        1usize..=3,
        1usize..=3,
        1usize..=5,
        proptest::sample::select(Positions::ALL.to_vec()),
    )
        .prop_flat_map(|(batch, t, d, heads, d_k, d_v, d_out, positions)| {
            let d_k = fit(d_k, positions);
            let p = matrix(t, d).prop_map(move |p| (positions == Positions::Learned).then_some(p));
            (
                vec(-3.0..3.0f64, batch * t * d),
                matrix(d, heads * d_k),
                matrix(d, heads * d_k),
                matrix(d, heads * d_v),
                proptest::option::of(vec(prop::bool::weighted(0.75), batch * t)),
                any::<bool>(),
                any::<bool>(),
                proptest::option::of(matrix(heads * d_v, d_out)),
                p,
            )
                .prop_map(move |(x, w_q, w_k, w_v, mask, causal, scale, w_o, p)| {
                    LayerCase {
                        case: Case {
                            x: Array3::from_shape_vec((batch, t, d), x).expect("sized to fit"),
                            head: Head { w_q, w_k, w_v },
                            mask: mask.map(|m| {
                                Array2::from_shape_vec((batch, t), m).expect("sized to fit")
                            }),
                            options: Options {
                                causal,
                                scale,
                                positions,
                            },
                            p,
                        },
                        heads,
                        w_o,
                    }
                })
        })
}

/// Compares every head of `layer`, its concatenation and its output with
/// the reference, head by head over column slices taken by loops.
fn check_layer(layer: &LayerTrace, c: &LayerCase) -> Result<(), TestCaseError> {
    let case = &c.case;
    let (batch, t, _) = case.x.dim();
    prop_assert_eq!(layer.heads.len(), c.heads);
    let [w_q, w_k, w_v] = [&case.head.w_q, &case.head.w_k, &case.head.w_v].map(|w| rows(w.view()));
    let (d_k, d_v) = (w_q[0].len() / c.heads, w_v[0].len() / c.heads);
    let key_is_real = case
        .mask
        .clone()
        .unwrap_or_else(|| Array2::from_elem((batch, t), true));
    let positions = case.options.positions;
    match (&layer.added_positions, positions) {
        (Some(added), Positions::Sinusoidal) => {
            let want = sinusoidal(t, case.x.dim().2);
            check_close(
                "added_positions",
                0,
                &added.clone().insert_axis(Axis(0)),
                &want,
                |_| POSITION_TOL,
            )?;
        }
        (Some(added), Positions::Learned) => prop_assert_eq!(Some(added), case.p.as_ref()),
        (None, Positions::None | Positions::Rope) => {}
        (added, _) => prop_assert!(false, "added_positions {:?} with {:?}", added, positions),
    }
    for (b, sequence) in encoded(&case.x, case.p.as_ref(), positions)
        .iter()
        .enumerate()
    {
        let real = key_is_real.row(b).to_vec();
        let mut concat = vec![Vec::new(); t];
        for (i, trace) in layer.heads.iter().enumerate() {
            let part = [
                columns(&w_q, i * d_k, d_k),
                columns(&w_k, i * d_k, d_k),
                columns(&w_v, i * d_v, d_v),
            ];
            // RoPE turns each head's Q and K with that head's d_k.
            let want = reference(sequence, &part, &real, flags(case.options));
            let field = |name: &str| format!("head {i} {name}");
            check_close(&field("x"), b, &trace.x, sequence, |_| POSITION_TOL)?;
            check_close(&field("q"), b, &trace.q, &want.q, relative)?;
            check_close(&field("k"), b, &trace.k, &want.k, relative)?;
            check_unrotated(&field(""), b, trace, &want)?;
            check_close(&field("v"), b, &trace.v, &want.v, relative)?;
            check_close(&field("scaled"), b, &trace.scaled, &want.scaled, relative)?;
            check_close(
                &field("weights"),
                b,
                &trace.weights,
                &want.weights,
                absolute_weight,
            )?;
            check_close(&field("output"), b, &trace.output, &want.output, relative)?;
            for (joined, row) in concat.iter_mut().zip(&want.output) {
                joined.extend_from_slice(row);
            }
        }
        check_close("concat", b, &layer.concat, &concat, relative)?;
        let output = match &c.w_o {
            Some(w_o) => matmul(&concat, &rows(w_o.view())),
            None => concat,
        };
        check_close("output", b, &layer.output, &output, relative)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn forward_heads_matches_reference(c in layer_case()) {
        let case = &c.case;
        let layer = forward_heads(
            case.x.view(),
            &case.head,
            c.heads,
            c.w_o.as_ref().map(|w| w.view()),
            case.mask.as_ref().map(|m| m.view()),
            case.p.as_ref().map(|p| p.view()),
            case.options,
        )
        .map_err(|e| TestCaseError::fail(format!("forward_heads failed: {e}")))?;
        check_layer(&layer, &c)?;
    }

    /// One head without W_O is the lessons' layer: its output is exactly
    /// the head's B, and the head is exactly `forward`'s trace, positions
    /// and all.
    #[test]
    fn one_head_without_w_o_is_forward(case in case()) {
        let mask = case.mask.as_ref().map(|m| m.view());
        let single = forward(case.x.view(), &case.head, mask, case.options)
            .map_err(|e| TestCaseError::fail(format!("forward failed: {e}")))?;
        let mut layer = forward_heads(case.x.view(), &case.head, 1, None, mask, None, case.options)
            .map_err(|e| TestCaseError::fail(format!("forward_heads failed: {e}")))?;
        prop_assert_eq!(&layer.output, &single.output);
        let added = layer.added_positions.take();
        prop_assert_eq!(added.is_some(), case.options.positions == Positions::Sinusoidal);
        prop_assert_eq!(layer, LayerTrace::single(single));
    }
}

/// The reference itself, on numbers worked out by hand: with X = I and
/// W_Q = W_K = W_V = I, the scores are I, so each row gives e/(e+1) to itself.
#[test]
fn reference_matches_hand_computed_example() {
    let identity = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
    let head = [identity.clone(), identity.clone(), identity.clone()];
    let own = 1.0f64.exp() / (1.0f64.exp() + 1.0);
    let plain = reference(&identity, &head, &[true, true], (false, false, false));
    assert_eq!(plain.scores, identity);
    for (i, row) in plain.weights.iter().enumerate() {
        assert!((row[i] - own).abs() < 1e-15);
        assert!((row[1 - i] - (1.0 - own)).abs() < 1e-15);
    }
    assert_eq!(plain.output, plain.weights);

    let causal = reference(&identity, &head, &[true, true], (true, true, false));
    assert_eq!(causal.weights[0], vec![1.0, 0.0]);
    let padded = reference(&identity, &head, &[false, true], (true, true, false));
    assert_eq!(padded.weights[0], vec![0.0, 0.0]);
    assert_eq!(padded.weights[1], vec![0.0, 1.0]);
    assert_eq!(padded.empty_rows, vec![0]);
}
