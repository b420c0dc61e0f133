//! Speaker diarization: frames of speakers A and B attend to their own speaker.

use crate::scenario::Scenario;
use crate::trace::{Head, Options};
use ndarray::{array, Array2, Axis};

/// Eight audio frames from two speakers, A1 A2 B1 B2 B3 B4 A3 B5, with
/// d = d_k = d_v = 4. A3 sits five frames after A2, the nearest frame of its
/// own speaker, between B4 and B5.
///
/// How the numbers were chosen. The first two features of X are the voice's
/// timbre, A's low voice and B's high voice: each speaker has its own
/// direction, about (1, 0.1) for A and (0.1, 1) for B, varied by hand by up to
/// 0.2 from frame to frame. The last two are loudness and a content feature
/// (what is being said), which vary freely. W_Q = W_K weight timbre by 1.5 and
/// subtract 0.5 of the other voice, so frames of the same voice score about
/// +2 and of different voices about −1, while loudness and content get only
/// 0.3: this head listens to who speaks, not to what is said or when. Time
/// plays no part at all, so A3 finds A1 and A2 across the gap. W_V is the
/// identity, so each output row is a mix of frames, mostly of its own speaker.
///
/// ```
/// use attention_core::presets::diarization;
/// use ndarray::s;
///
/// let scenario = diarization();
/// let speakers: Vec<char> = scenario.tokens.as_ref().unwrap().iter()
///     .map(|label| label.chars().next().unwrap())
///     .collect();
/// let weights = scenario.run().unwrap().into_head(0).weights.slice_move(s![0, .., ..]);
/// // Every frame gives more than half of its attention to its own speaker.
/// for (i, row) in weights.rows().into_iter().enumerate() {
///     let own: f64 = (0..row.len()).filter(|&j| speakers[j] == speakers[i]).map(|j| row[j]).sum();
///     assert!(own > 0.5, "frame {i}: {own}");
/// }
/// // A3 (index 6) weighs the distant A1 and A2 above every B frame, even its neighbours.
/// let a3 = weights.row(6);
/// let far_a = a3[0].min(a3[1]);
/// assert!((0..8).filter(|&j| speakers[j] == 'B').all(|j| a3[j] < far_a));
/// ```
pub fn diarization() -> Scenario {
    let speaker_head = array![
        [1.5, -0.5, 0.0, 0.0],
        [-0.5, 1.5, 0.0, 0.0],
        [0.0, 0.0, 0.3, 0.0],
        [0.0, 0.0, 0.0, 0.3],
    ];
    Scenario {
        tokens: Some(
            ["A1", "A2", "B1", "B2", "B3", "B4", "A3", "B5"]
                .map(String::from)
                .to_vec(),
        ),
        // Columns: low voice (A), high voice (B), loudness, content.
        x: array![
            [1.0, 0.1, 0.5, 0.2],
            [0.9, 0.2, 0.7, -0.3],
            [0.1, 1.0, 0.6, 0.4],
            [0.2, 0.9, 0.3, -0.2],
            [0.0, 1.1, 0.8, 0.1],
            [0.1, 0.8, 0.4, 0.5],
            [1.1, 0.0, 0.4, 0.4],
            [0.2, 1.0, 0.5, -0.4],
        ]
        .insert_axis(Axis(0)),
        batched: false,
        head: Head {
            w_q: speaker_head.clone(),
            w_k: speaker_head,
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
