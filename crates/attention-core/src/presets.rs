//! Hand-set scenarios from the lessons. Only inputs live here; every number
//! shown from them is computed by [`crate::forward`].

use crate::scenario::Scenario;
use crate::trace::{Head, Options};
use ndarray::{array, Axis};

/// The four tokens 我 / 喜欢 / 打 / 篮球 ("I like playing basketball"), with d = d_k = d_v = 4.
///
/// The one-decimal weights were chosen by hand so that 我's softmax row comes
/// out close to the lesson's example [0.5, 0.2, 0.2, 0.1], 打 attends most to
/// 篮球, and 篮球 most to 打.
///
/// ```
/// use attention_core::presets::sentence;
///
/// let trace = sentence().run().unwrap();
/// let first_row: Vec<f64> = trace.weights.slice(ndarray::s![0, 0, ..]).to_vec();
/// for (w, lesson) in first_row.iter().zip([0.5, 0.2, 0.2, 0.1]) {
///     assert!((w - lesson).abs() < 0.01);
/// }
/// ```
pub fn sentence() -> Scenario {
    Scenario {
        tokens: Some(["我", "喜欢", "打", "篮球"].map(String::from).to_vec()),
        x: array![
            [-0.9, 0.6, 0.1, -0.8],
            [0.0, -1.0, -0.4, 0.5],
            [-0.5, -0.4, 0.9, 0.2],
            [0.9, -1.0, -0.1, 0.2],
        ]
        .insert_axis(Axis(0)),
        batched: false,
        head: Head {
            w_q: array![
                [-0.5, 0.8, 0.7, -1.0],
                [-0.8, -0.2, 0.4, 0.4],
                [-0.6, 0.4, -0.2, -0.5],
                [-0.7, 0.2, -0.6, -0.5],
            ],
            w_k: array![
                [-0.9, -0.3, -1.0, -1.0],
                [1.0, 0.2, 0.2, -0.6],
                [1.0, 0.7, -0.3, -0.3],
                [0.7, 0.7, 0.0, -0.6],
            ],
            w_v: array![
                [0.5, -0.3, 0.8, 0.1],
                [-0.2, 0.9, 0.1, -0.6],
                [0.7, 0.4, -0.5, 0.3],
                [0.1, -0.8, 0.2, 0.9],
            ],
        },
        mask: None,
        options: Options::default(),
    }
}
