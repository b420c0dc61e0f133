//! 他 / 说 / 他 / 今天 / 不能 / 来: the second 他 must learn to find the first.

use super::{query_key_task, rows_of_8, Task, TaskId};
use crate::train::loss::{AttendTarget, Loss};

/// Columns: person, speaking, time, negation, motion, predicate, earliness, lateness.
const X: [[f64; 8]; 6] = [
    [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.8, 0.2],
    [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.6, 0.4],
    [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.4, 0.6],
    [0.0, 0.0, 0.0, 1.0, 0.0, 0.5, 0.2, 0.8],
    [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0],
];

/// The default task: in 他 / 说 / 他 / 今天 / 不能 / 来 ("he said he can't come
/// today"), the second 他 (query 2) must attend to the first (key 0).
///
/// X (T = 6, d = 8) has hand-set features: person, speaking, time, negation,
/// motion, predicate (说 and 来 fully, 不能 half), earliness (1.0 falling by 0.2
/// per token) and lateness (its complement). The two 他 have the same word
/// features and differ only in position, so the head must learn to use
/// earliness: "a person looking for an earlier person". The loss is
/// [`Loss::AttendTo`] on row 2 with S = {0}, `L = −ln α′_20`.
///
/// W_Q and W_K (8×8) train; W_V is fixed to the identity (d_v = 8), so each
/// output row B_i shows which tokens' features were mixed into it.
///
/// Threshold 0.05: the second 他 gives the first at least e^−0.05 ≈ 95 % of
/// its attention.
pub(super) fn pronoun() -> Task {
    let loss = Loss::AttendTo(vec![AttendTarget {
        query: 2,
        keys: vec![0],
    }]);
    let tokens = ["他", "说", "他", "今天", "不能", "来"];
    query_key_task(TaskId::Pronoun, &tokens, rows_of_8(&X), loss, 0.05)
}
