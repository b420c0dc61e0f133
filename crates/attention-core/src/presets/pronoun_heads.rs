//! 他 / 说 / 他 / 今天 / 不能 / 来 with two heads that do different jobs.

use crate::scenario::Scenario;
use crate::trace::{Head, Options};
use ndarray::{array, Array2, Axis};

/// The sentence of [`super::pronoun`] with two heads of d_k = 3 over
/// d = 6 features: one head links the second 他 to the first, the other
/// looks at the token just before each one.
///
/// X keeps the four features of [`super::pronoun`] (person, action,
/// circumstance, earliness) and adds two position features, cos(πp/4) and
/// sin(πp/4) for position p, rounded to two decimals: a point turning by 45°
/// per token.
///
/// - Head 1 (columns 0–2) matches on content, as in [`super::pronoun`]: a
///   person looks for a person that comes earlier, an action for a person,
///   a circumstance for an action.
/// - Head 2 (columns 3–5) reads only the position features. W_K keeps the
///   point of key j; W_Q turns the point of query i back by 45° and
///   lengthens it to 6, so q_i·k_j = 6·cos(45°·(p_j − p_i + 1)) is largest
///   at p_j = p_i − 1: the previous token.
/// - W_V is the identity: head 1 mixes the content features, head 2 the
///   position features. W_O is the identity too, so the output is the two
///   heads side by side until the learner edits it.
///
/// ```
/// use attention_core::presets::pronoun_heads;
/// use ndarray::s;
///
/// let layer = pronoun_heads().run().unwrap();
/// let (content, position) = (&layer.heads[0].weights, &layer.heads[1].weights);
/// // Head 1: the second 他 attends most to the first, clearly more than to itself.
/// let second_he = content.slice(s![0, 2, ..]).to_vec();
/// assert!(second_he.iter().all(|&w| w <= second_he[0]));
/// assert!(second_he[0] > second_he[2] + 0.2);
/// // Head 2: every token after the first attends most to the one before it.
/// for i in 1..6 {
///     let row = position.slice(s![0, i, ..]).to_vec();
///     assert!(row.iter().all(|&w| w <= row[i - 1]), "row {i}: {row:?}");
///     assert!(row[i - 1] > 0.5);
/// }
/// // With W_O the identity, the output is the two heads side by side.
/// assert_eq!(layer.output, layer.concat);
/// ```
pub fn pronoun_heads() -> Scenario {
    Scenario {
        tokens: Some(super::pronoun::tokens()),
        // Columns: person, action, circumstance, earliness, cos(πp/4), sin(πp/4).
        x: array![
            [1.0, 0.0, 0.0, 1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0, 0.8, 0.71, 0.71],
            [1.0, 0.0, 0.0, 0.6, 0.0, 1.0],
            [0.0, 0.0, 1.0, 0.4, -0.71, 0.71],
            [0.0, 0.3, 1.0, 0.2, -1.0, 0.0],
            [0.0, 1.0, 0.0, 0.0, -0.71, -0.71],
        ]
        .insert_axis(Axis(0)),
        batched: false,
        head: Head {
            // Row f is what feature f looks for. Head 1 (columns 0–2, key
            // dimensions person, action, earliness): a person looks for a
            // person and an earlier token, an action for a person, a
            // circumstance for an action. Head 2 (columns 3–5): the query's
            // point turned back by 45° and lengthened to 6, 6·(cos 45°,
            // sin 45°) ≈ (4.2, 4.2).
            w_q: array![
                [1.5, 0.0, 1.0, 0.0, 0.0, 0.0],
                [1.0, 0.0, -1.0, 0.0, 0.0, 0.0],
                [0.0, 1.5, -0.8, 0.0, 0.0, 0.0],
                [0.0, 0.0, 1.5, 0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 4.2, -4.2, 0.0],
                [0.0, 0.0, 0.0, 4.2, 4.2, 0.0],
            ],
            // Head 1 keys on person, action and earliness; head 2 keeps the
            // key's point.
            w_k: array![
                [1.5, 0.0, 0.0, 0.0, 0.0, 0.0],
                [0.0, 1.2, 0.0, 0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                [0.0, 0.0, 1.5, 0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            ],
            w_v: Array2::eye(6),
        },
        heads: 2,
        w_o: Some(Array2::eye(6)),
        mask: None,
        options: Options::default(),
        p: None,
        block: None,
    }
}
