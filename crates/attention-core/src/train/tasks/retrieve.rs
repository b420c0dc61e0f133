//! Retrieval: a question token fetches the value of the token it names.

use super::{query_key_task, rows_of_8, Task, TaskId};
use crate::train::loss::{Loss, OutputTarget};

/// Columns: cat, dog, bird, fish, question, size, legs, wings.
const X: [[f64; 8]; 6] = [
    [1.0, 0.0, 0.0, 0.0, 0.0, 0.4, 1.0, 0.0],
    [0.0, 1.0, 0.0, 0.0, 0.0, 0.6, 1.0, 0.0],
    [0.0, 0.0, 1.0, 0.0, 0.0, 0.2, 0.5, 1.0],
    [0.0, 0.0, 0.0, 1.0, 0.0, 0.3, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
];

/// Four animals and two questions, 猫 / 狗 / 鸟 / 鱼 / ?鸟 / ?猫: each question's
/// output B_i must equal the value V_j of the animal it names, ?鸟 → 鸟 and ?猫 → 猫.
///
/// X (T = 6, d = 8) has features cat, dog, bird, fish (which animal a token
/// is or asks about), question, and three facts only the animals carry: size,
/// legs (out of four) and wings. A question shares its animal feature with
/// the animal but knows none of its facts; fetching them is the point. So a
/// question must attend to its animal and not to itself, though both carry
/// the same animal feature.
///
/// The loss is [`Loss::Output`] on rows 4 and 5, `L = ½ Σ_i ‖B_i − V_target(i)‖²/8`.
/// W_V is FROZEN at the identity, so V = X and the targets are the animals'
/// own rows of X: were W_V trainable with targets V_target = X_target·W_V,
/// W_V = 0 would make every B_i equal its target without any attention. Only
/// W_Q and W_K (8×8) train, so the loss falls only when the right keys are found.
///
/// Threshold 0.002: each question's output is within about 0.13 of its target
/// per feature (root mean square), which needs roughly 90 % of its attention
/// on the named animal.
pub(super) fn retrieve() -> Task {
    let loss = Loss::Output(
        [(4, 2), (5, 0)]
            .iter()
            .map(|&(query, animal)| OutputTarget {
                query,
                target: X[animal].to_vec(),
            })
            .collect(),
    );
    let tokens = ["猫", "狗", "鸟", "鱼", "?鸟", "?猫"];
    query_key_task(TaskId::Retrieve, &tokens, rows_of_8(&X), loss, 0.002)
}
