//! Speaker diarization as a training task: each frame attends to its own speaker.

use super::{query_key_task, Task, TaskId};
use crate::random::{normal_matrix, rounded};
use crate::train::loss::{AttendTarget, Loss};
use ndarray::Array2;

/// Who speaks in each frame, A1 A2 B1 A3 B2 B3 A4 B4 (the tokens).
const SPEAKERS: [u8; 8] = *b"AABABBAB";
/// Features per frame.
const FEATURES: usize = 8;
/// The first three features are the voice: low timbre, high timbre, pitch.
const VOICE: usize = 3;
/// Each speaker's voice.
const VOICE_A: [f64; VOICE] = [1.0, 0.0, -0.5];
const VOICE_B: [f64; VOICE] = [0.0, 1.0, 0.5];
/// Frame-to-frame spread of the voice features, and of the other five
/// (loudness and what is being said), which have nothing to do with who speaks.
const VOICE_SPREAD: f64 = 0.2;
const CONTENT_SPREAD: f64 = 0.6;
/// The seed of the frames' variation.
const SEED: u64 = 60;

/// Eight audio frames, A1 A2 B1 A3 B2 B3 A4 B4, where every frame must attend
/// to the frames of its own speaker, itself included.
///
/// X (T = 8, d = 8): the first three features are the voice (low timbre, high
/// timbre, pitch), (1, 0, −0.5) for A and (0, 1, 0.5) for B, varied from frame
/// to frame by seeded noise of standard deviation 0.2; the other five are
/// loudness and content, seeded noise of standard deviation 0.6 that says
/// nothing about the speaker. All are rounded to two decimals. A random head
/// listens to content as much as to voice; training must learn to hear the voice.
///
/// The loss is [`Loss::AttendTo`] on every row i with S_i = the frames of i's
/// speaker, `L = (1/8) Σ_i −ln(own-speaker share of row i)`. W_Q and W_K
/// (8×8) train; W_V is fixed to the identity (d_v = 8).
///
/// Threshold 0.05: on average a frame gives its own speaker about 95 % of its
/// attention (the geometric mean of the shares is e^−0.05).
pub(super) fn same_speaker() -> Task {
    let noise = normal_matrix(SPEAKERS.len(), FEATURES, 1.0, SEED);
    let x = Array2::from_shape_fn((SPEAKERS.len(), FEATURES), |(i, c)| {
        let voice = if SPEAKERS[i] == b'A' {
            VOICE_A
        } else {
            VOICE_B
        };
        match voice.get(c) {
            Some(&v) => v + VOICE_SPREAD * noise[[i, c]],
            None => CONTENT_SPREAD * noise[[i, c]],
        }
    });
    let tokens = ["A1", "A2", "B1", "A3", "B2", "B3", "A4", "B4"];
    let targets = (0..SPEAKERS.len())
        .map(|i| AttendTarget {
            query: i,
            keys: (0..SPEAKERS.len())
                .filter(|&j| SPEAKERS[j] == SPEAKERS[i])
                .collect(),
        })
        .collect();
    let loss = Loss::AttendTo(targets);
    query_key_task(TaskId::SameSpeaker, &tokens, rounded(x, 2), loss, 0.05)
}
