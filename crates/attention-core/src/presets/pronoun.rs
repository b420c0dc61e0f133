//! 他 / 说 / 他 / 今天 / 不能 / 来: the second 他 finds the first.

use crate::scenario::Scenario;
use crate::trace::{Head, Options};
use ndarray::{array, Array2, Axis};

/// The six tokens 他 / 说 / 他 / 今天 / 不能 / 来 ("he said he can't come
/// today"), where the second 他 refers to the first; d = d_k = d_v = 4.
///
/// How the numbers were chosen. X has four hand-set features: person, action,
/// circumstance (time or modality) and earliness, a crude position signal that
/// starts at 1.0 and falls by 0.2 per token. The two 他 share the person
/// feature and differ only in earliness. W_K is diagonal: every key says what
/// its token is and how early it comes ("what can I be matched on"). W_Q says
/// what each feature looks for ("what am I looking for"): a person looks for a
/// person and, through the earliness column, for an earlier one, its
/// antecedent, so the second 他 scores the first 他 above itself. An action
/// looks for a person and for its circumstances, and its earliness column
/// (−1.0 plus 1.5 times its own earliness) favours keys near itself, so 来
/// looks at the nearby 他 and 不能; time and modality words look for an action
/// that comes after them, so 今天 and 不能 look at 来. W_V is the identity:
/// each output row B_i is a weighted mix of the token features themselves.
///
/// ```
/// use attention_core::presets::pronoun;
/// use ndarray::s;
///
/// let trace = pronoun().run().unwrap().into_head(0);
/// let second_he: Vec<f64> = trace.weights.slice(s![0, 2, ..]).to_vec();
/// // The second 他 attends most to the first, clearly, and more than to itself.
/// assert!(second_he.iter().all(|&w| w <= second_he[0]));
/// assert!(second_he[0] >= 0.35 && second_he[0] > second_he[2] + 0.1);
/// // Every row has a clear preference: none is close to uniform.
/// for row in trace.weights.slice(s![0, .., ..]).rows() {
///     let largest = row.iter().copied().fold(0.0, f64::max);
///     let smallest = row.iter().copied().fold(1.0, f64::min);
///     assert!(largest - smallest > 0.1, "{row}");
/// }
/// ```
pub fn pronoun() -> Scenario {
    Scenario {
        tokens: Some(tokens()),
        // Columns: person, action, circumstance, earliness.
        x: array![
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 0.8],
            [1.0, 0.0, 0.0, 0.6],
            [0.0, 0.0, 1.0, 0.4],
            [0.0, 0.3, 1.0, 0.2],
            [0.0, 1.0, 0.0, 0.0],
        ]
        .insert_axis(Axis(0)),
        batched: false,
        head: Head {
            // Row f is what feature f looks for, in the key dimensions
            // (person, action, circumstance, earliness).
            w_q: array![
                [1.5, 0.0, 0.0, 1.0],
                [1.0, 0.0, 0.8, -1.0],
                [0.0, 1.5, 0.0, -0.8],
                [0.0, 0.0, 0.0, 1.5],
            ],
            w_k: Array2::from_diag(&array![1.5, 1.2, 1.2, 1.5]),
            w_v: Array2::eye(4),
        },
        heads: 1,
        w_o: None,
        mask: None,
        options: Options::default(),
        p: None,
        block: None,
    }
}

/// 他 / 说 / 他 / 今天 / 不能 / 来, shared with [`super::pronoun_heads`].
pub(super) fn tokens() -> Vec<String> {
    ["他", "说", "他", "今天", "不能", "来"]
        .map(String::from)
        .to_vec()
}
