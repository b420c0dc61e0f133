//! Speaker diarization at real length: two clips of 200 frames, two speakers
//! taking turns, the second clip padded.

use crate::random::normal_matrix;
use crate::scenario::Scenario;
use crate::trace::{Head, Options};
use ndarray::{Array1, Array2, Array3};

/// Who is heard in one frame of [`long_diarization`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    /// Speaker A, the lower voice.
    A,
    /// Speaker B, the higher voice.
    B,
    /// A pause: nobody speaks.
    Silence,
    /// Past the end of a shorter clip: all zeros, masked as a key.
    Padding,
}

/// Frames per clip, padding included: the batch's T.
const FRAMES: usize = 200;
/// Features per frame, d, and also d_k = d_v.
const FEATURES: usize = 8;

/// Clip 1, in order: who is heard and for how many frames. Turns last 15 to 38
/// frames, as a conversation's do; most are separated by a short pause, and in
/// one place (A's 16 frames, then B's 38) B takes over without one.
const CLIP_1: [(Heard, usize); 11] = [
    (Heard::A, 34),
    (Heard::Silence, 4),
    (Heard::B, 22),
    (Heard::Silence, 3),
    (Heard::A, 16),
    (Heard::B, 38),
    (Heard::Silence, 6),
    (Heard::A, 27),
    (Heard::Silence, 3),
    (Heard::B, 15),
    (Heard::A, 32),
];
/// Clip 2: another conversation, B first, 140 real frames; the batch pads it to [`FRAMES`].
const CLIP_2: [(Heard, usize); 8] = [
    (Heard::B, 26),
    (Heard::Silence, 5),
    (Heard::A, 40),
    (Heard::Silence, 3),
    (Heard::B, 19),
    (Heard::A, 21),
    (Heard::Silence, 4),
    (Heard::B, 22),
];
/// Seeds of the two clips' frame-to-frame noise.
const SEEDS: [u64; 2] = [200, 201];

/// Where each frame's features sit on average. Columns: low timbre, high
/// timbre, pitch, loudness, then four content features (what is being said).
/// A's and B's voices are those of the training card's speaker task.
fn centre(heard: Heard) -> [f64; FEATURES] {
    match heard {
        Heard::A => [1.0, 0.0, -0.5, 0.7, 0.0, 0.0, 0.0, 0.0],
        Heard::B => [0.0, 1.0, 0.5, 0.7, 0.0, 0.0, 0.0, 0.0],
        Heard::Silence => [0.0, 0.0, 0.0, 0.05, 0.0, 0.0, 0.0, 0.0],
        Heard::Padding => [0.0; FEATURES],
    }
}

/// How far each feature strays from its centre from frame to frame (standard
/// deviations). A voice wavers by 0.2, loudness by 0.15, and what is said
/// varies widely (0.6) and says nothing about who says it; a pause is only
/// faint background noise; padding is exactly zero, as a batching step fills it.
fn spread(heard: Heard) -> [f64; FEATURES] {
    match heard {
        Heard::A | Heard::B => [0.2, 0.2, 0.2, 0.15, 0.6, 0.6, 0.6, 0.6],
        Heard::Silence => [0.03, 0.03, 0.03, 0.02, 0.05, 0.05, 0.05, 0.05],
        Heard::Padding => [0.0; FEATURES],
    }
}

/// Who is heard in each frame of each clip of [`long_diarization`]: the
/// answer that its weights heatmap should reveal, for checking it.
///
/// ```
/// use attention_core::presets::{long_diarization_speakers, Heard};
///
/// let [first, second] = long_diarization_speakers();
/// assert_eq!((first.len(), second.len()), (200, 200));
/// assert_eq!(second.iter().filter(|&&h| h != Heard::Padding).count(), 140);
/// ```
pub fn long_diarization_speakers() -> [Vec<Heard>; 2] {
    let expand = |turns: &[(Heard, usize)]| {
        let mut frames: Vec<Heard> = turns
            .iter()
            .flat_map(|&(heard, n)| std::iter::repeat_n(heard, n))
            .collect();
        frames.resize(FRAMES, Heard::Padding);
        frames
    };
    [expand(&CLIP_1), expand(&CLIP_2)]
}

/// Two audio clips of 200 frames each as a padded batch (B = 2, T = 200),
/// with d = d_k = d_v = 8: speaker diarization at the length of real audio.
/// Clip 1 is 200 real frames; clip 2 has 140, then 60 frames of padding, so
/// its key mask is 140 ones and 60 zeros.
///
/// How the frames were made. Each clip is a conversation between speakers A
/// and B: turns of 15 to 40 frames, alternating, mostly with pauses of 3 to 6
/// frames between them (the schedules are [`long_diarization_speakers`]).
/// The eight features are low timbre, high timbre, pitch, loudness and four
/// content features. Every frame is its source's centre plus seeded Gaussian
/// noise ([`normal_matrix`], one stream per clip, so both clips are the same
/// bits natively and in WebAssembly): A speaks around (1, 0, −0.5) in the
/// voice features and B around (0, 1, 0.5), each wavering by 0.2 from frame to
/// frame; speech has loudness about 0.7, and its content features vary by 0.6
/// whoever speaks. A pause is faint noise around zero with loudness about
/// 0.05, so the X heatmap's loudness column dims wherever nobody speaks.
/// Padding frames are all zeros. Everything is rounded to two decimals.
///
/// How the head was chosen. W_Q = W_K, and their first column is a speaker
/// axis: 1.5 × (low timbre − high timbre − pitch), which comes out about +2.25
/// for A's frames, −2.25 for B's and near 0 in a pause, so Q's and K's first
/// columns already show who speaks in red and blue. Every other column keeps
/// one feature at a faint 0.3, so loudness and content barely count. A score
/// Q_i·K_j is then mostly the product of the two frames' speaker axes, about
/// +5 for the same speaker and −5 for different ones (±1.8 after dividing by
/// √8), and near 0 whenever a pause is involved. Nothing in X says when a
/// frame comes, so a frame scores every turn of its speaker alike, however far
/// away. A frame whose voice comes through weakly (noise can shrink its
/// speaker axis to under half) still gives its own speaker more than three quarters of its
/// attention, and a typical frame about 95 %. W_V is the identity: each output
/// row is a mix of frames, mostly of its own speaker.
///
/// What a learner sees in the weights of a clip: square blocks along the
/// diagonal, one per turn, and the same blocks again off the diagonal
/// wherever the same speaker speaks again, a checkerboard of who speaks when;
/// pause rows spread their attention almost evenly, and clip 2's padding
/// columns are exactly zero. In clip 1, B's blocks are brighter than A's: B
/// speaks 75 frames and A 109, so a row of B shares its attention among fewer
/// frames.
///
/// ```
/// use attention_core::presets::{long_diarization, long_diarization_speakers, Heard};
///
/// let trace = long_diarization().run().unwrap().into_head(0);
/// for (clip, heard) in long_diarization_speakers().iter().enumerate() {
///     for (i, &who) in heard.iter().enumerate() {
///         let row = trace.weights.slice(ndarray::s![clip, i, ..]);
///         if who == Heard::A || who == Heard::B {
///             // Every frame of speech gives most of its attention to its own speaker…
///             let own: f64 = row.iter().zip(heard).filter(|&(_, &h)| h == who).map(|(w, _)| w).sum();
///             assert!(own > 0.75, "clip {clip}, frame {i}: {own}");
///         }
///         // …and no frame gives any to padding.
///         let padding = row.iter().zip(heard).filter(|&(_, &h)| h == Heard::Padding);
///         assert!(padding.map(|(&w, _)| w).all(|w| w == 0.0));
///     }
/// }
/// ```
pub fn long_diarization() -> Scenario {
    let speakers = long_diarization_speakers();
    let mut x = Array3::zeros((speakers.len(), FRAMES, FEATURES));
    for (clip, (heard, seed)) in speakers.iter().zip(SEEDS).enumerate() {
        let noise = normal_matrix(FRAMES, FEATURES, 1.0, seed);
        for (t, &who) in heard.iter().enumerate() {
            let (centre, spread) = (centre(who), spread(who));
            for c in 0..FEATURES {
                x[[clip, t, c]] = two_decimals(centre[c] + spread[c] * noise[[t, c]]);
            }
        }
    }
    // Column 0 is the speaker axis; every other column keeps its own feature faintly.
    let mut speaker_head = Array2::from_diag(&Array1::from_elem(FEATURES, 0.3));
    speaker_head.column_mut(0).assign(&Array1::from(vec![
        1.5, -1.5, -1.5, 0.0, 0.0, 0.0, 0.0, 0.0,
    ]));
    Scenario {
        // One label per position, shared by both clips, so the labels number
        // the frames and cannot name a speaker: who speaks differs between the
        // clips, and finding it is what the heatmap shows.
        tokens: Some((1..=FRAMES).map(|t| format!("t{t}")).collect()),
        x,
        batched: true,
        head: Head {
            w_q: speaker_head.clone(),
            w_k: speaker_head,
            w_v: Array2::eye(FEATURES),
        },
        heads: 1,
        w_o: None,
        mask: Some(Array2::from_shape_fn(
            (speakers.len(), FRAMES),
            |(clip, t)| speakers[clip][t] != Heard::Padding,
        )),
        options: Options::default(),
        p: None,
        block: None,
    }
}

/// Rounds to two decimals, like [`crate::random::rounded`], and writes a
/// rounded −0 as 0, so no table shows "−0.00".
fn two_decimals(v: f64) -> f64 {
    (v * 100.0).round() / 100.0 + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::fingerprint;
    use crate::trace::Trace;
    use ndarray::{s, ArrayView2};

    fn trace() -> Trace {
        long_diarization()
            .run()
            .expect("the preset runs")
            .into_head(0)
    }

    fn clip(trace: &Trace, b: usize) -> ArrayView2<'_, f64> {
        trace.weights.slice(s![b, .., ..])
    }

    fn is_speech(h: Heard) -> bool {
        matches!(h, Heard::A | Heard::B)
    }

    /// The frames of each turn of `who` in `heard`, as index ranges.
    fn turns(heard: &[Heard], who: Heard) -> Vec<std::ops::Range<usize>> {
        let mut found: Vec<std::ops::Range<usize>> = Vec::new();
        for (t, &h) in heard.iter().enumerate() {
            match found.last_mut() {
                Some(turn) if h == who && turn.end == t => turn.end = t + 1,
                _ if h == who => found.push(t..t + 1),
                _ => {}
            }
        }
        found
    }

    #[test]
    fn the_clips_are_200_frames_and_the_second_has_140_real_ones() {
        let scenario = long_diarization();
        assert_eq!(scenario.x.dim(), (2, 200, 8));
        assert_eq!(scenario.head.w_q.dim(), (8, 8));
        let mask = scenario.mask.expect("the batch is padded");
        assert!(mask.row(0).iter().all(|&real| real));
        assert_eq!(mask.row(1).iter().filter(|&&real| real).count(), 140);
        assert!(mask.row(1).iter().take(140).all(|&real| real));
        // The padding is zeros, as a batching step fills it.
        assert!(scenario.x.slice(s![1, 140.., ..]).iter().all(|&v| v == 0.0));
        // Turns last 15 to 40 frames and alternate between the speakers.
        for heard in long_diarization_speakers() {
            let mut speakers = Vec::new();
            for who in [Heard::A, Heard::B] {
                for turn in turns(&heard, who) {
                    assert!((15..=40).contains(&turn.len()), "{who:?} {turn:?}");
                    speakers.push((turn.start, who));
                }
            }
            speakers.sort_unstable_by_key(|&(start, _)| start);
            assert!(speakers.windows(2).all(|pair| pair[0].1 != pair[1].1));
        }
    }

    #[test]
    fn the_frames_are_the_same_bits_every_time() {
        let (a, b) = (long_diarization(), long_diarization());
        for clip in 0..2 {
            let x = |s: &Scenario| s.x.slice(s![clip, .., ..]).to_owned();
            assert_eq!(fingerprint(&x(&a)), fingerprint(&x(&b)));
        }
        let weights = |t: Trace| {
            fingerprint(
                &t.weights
                    .into_shape_with_order((400, 200))
                    .expect("2×200 rows"),
            )
        };
        assert_eq!(weights(trace()), weights(trace()));
        // The two clips draw their own noise: not one conversation twice.
        assert_ne!(a.x.slice(s![0, ..140, ..]), a.x.slice(s![1, ..140, ..]));
    }

    #[test]
    fn loudness_drops_in_the_pauses() {
        let scenario = long_diarization();
        for (clip, heard) in long_diarization_speakers().iter().enumerate() {
            for (t, &who) in heard.iter().enumerate() {
                let loudness = scenario.x[[clip, t, 3]];
                match who {
                    Heard::A | Heard::B => assert!(loudness > 0.25, "{clip} {t}: {loudness}"),
                    Heard::Silence => assert!(loudness < 0.15, "{clip} {t}: {loudness}"),
                    Heard::Padding => assert_eq!(loudness, 0.0),
                }
            }
        }
    }

    #[test]
    fn the_first_column_of_q_and_k_says_who_speaks() {
        let trace = trace();
        for (b, heard) in long_diarization_speakers().iter().enumerate() {
            for (t, &who) in heard.iter().enumerate() {
                let axis = trace.q[[b, t, 0]];
                assert_eq!(axis, trace.k[[b, t, 0]], "W_Q = W_K");
                match who {
                    Heard::A => assert!(axis > 0.5, "{b} {t}: {axis}"),
                    Heard::B => assert!(axis < -0.5, "{b} {t}: {axis}"),
                    Heard::Silence => assert!(axis.abs() < 0.3, "{b} {t}: {axis}"),
                    Heard::Padding => assert_eq!(axis, 0.0),
                }
            }
        }
    }

    #[test]
    fn same_speaker_weights_far_outweigh_the_other_speakers() {
        let trace = trace();
        for (b, heard) in long_diarization_speakers().iter().enumerate() {
            let weights = clip(&trace, b);
            let (mut same, mut n_same, mut across, mut n_across) = (0.0, 0, 0.0, 0);
            for (i, &qi) in heard.iter().enumerate().filter(|&(_, &h)| is_speech(h)) {
                for (j, &kj) in heard.iter().enumerate().filter(|&(_, &h)| is_speech(h)) {
                    if qi == kj {
                        same += weights[[i, j]];
                        n_same += 1;
                    } else {
                        across += weights[[i, j]];
                        n_across += 1;
                    }
                }
            }
            let (same, across) = (same / n_same as f64, across / n_across as f64);
            assert!(same > 20.0 * across, "clip {b}: {same} vs {across}");
            // A typical frame gives its own speaker about 95 % of its attention.
            let mut own: Vec<f64> = (0..heard.len())
                .filter(|&i| is_speech(heard[i]))
                .map(|i| {
                    let mine = (0..heard.len()).filter(|&j| heard[j] == heard[i]);
                    mine.map(|j| weights[[i, j]]).sum()
                })
                .collect();
            own.sort_unstable_by(f64::total_cmp);
            let median = own[own.len() / 2];
            assert!((0.92..0.97).contains(&median), "clip {b}: {median}");
        }
    }

    #[test]
    fn scores_are_about_plus_five_within_a_speaker_and_minus_five_across() {
        let trace = trace();
        for (b, heard) in long_diarization_speakers().iter().enumerate() {
            let (mut same, mut across) = (Vec::new(), Vec::new());
            for (i, &qi) in heard.iter().enumerate().filter(|&(_, &h)| is_speech(h)) {
                for (j, &kj) in heard.iter().enumerate().filter(|&(_, &h)| is_speech(h)) {
                    let score = trace.scores[[b, i, j]];
                    if qi == kj {
                        same.push(score)
                    } else {
                        across.push(score)
                    }
                }
            }
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            assert!(
                (4.5..5.5).contains(&mean(&same)),
                "clip {b}: {}",
                mean(&same)
            );
            assert!(
                (-5.5..-4.5).contains(&mean(&across)),
                "clip {b}: {}",
                mean(&across)
            );
        }
    }

    #[test]
    fn the_speaker_with_fewer_frames_has_the_brighter_blocks() {
        let trace = trace();
        let heard = &long_diarization_speakers()[0];
        let weights = clip(&trace, 0);
        let block = |who: Heard| {
            let frames: Vec<usize> = (0..heard.len()).filter(|&t| heard[t] == who).collect();
            let sum: f64 = frames
                .iter()
                .flat_map(|&i| frames.iter().map(move |&j| weights[[i, j]]))
                .sum();
            (frames.len(), sum / (frames.len() * frames.len()) as f64)
        };
        let ((n_a, a), (n_b, b)) = (block(Heard::A), block(Heard::B));
        assert_eq!((n_a, n_b), (109, 75));
        assert!(b > 1.2 * a, "{b} vs {a}");
    }

    #[test]
    fn distance_does_not_matter_a_far_turn_weighs_like_ones_own() {
        let trace = trace();
        for (b, heard) in long_diarization_speakers().iter().enumerate() {
            let weights = clip(&trace, b);
            for who in [Heard::A, Heard::B] {
                let turns = turns(heard, who);
                let (first, last) = (&turns[0], &turns[turns.len() - 1]);
                // The mean weight the last turn's frames give to a frame of a turn.
                let mean = |keys: &std::ops::Range<usize>| {
                    let block = weights.slice(s![last.clone(), keys.clone()]);
                    block.sum() / block.len() as f64
                };
                let ratio = mean(first) / mean(last);
                assert!((0.7..1.4).contains(&ratio), "clip {b}, {who:?}: {ratio}");
            }
        }
    }

    #[test]
    fn pauses_and_padding_spread_their_attention_evenly_and_are_neutral_keys() {
        let trace = trace();
        for (b, heard) in long_diarization_speakers().iter().enumerate() {
            let weights = clip(&trace, b);
            let real = heard.iter().filter(|&&h| h != Heard::Padding).count() as f64;
            for (i, _) in heard.iter().enumerate().filter(|&(_, &h)| !is_speech(h)) {
                for (j, &kj) in heard.iter().enumerate() {
                    let w = weights[[i, j]];
                    if kj == Heard::Padding {
                        assert_eq!(w, 0.0);
                    } else {
                        assert!((0.65 / real..1.5 / real).contains(&w), "{b} {i} {j}: {w}");
                    }
                }
            }
            // As keys, pauses sit between a speaker's own frames and the other's.
            for (i, &qi) in heard.iter().enumerate().filter(|&(_, &h)| is_speech(h)) {
                let mean_of = |who: &dyn Fn(Heard) -> bool| {
                    let picked: Vec<f64> = (0..heard.len())
                        .filter(|&j| who(heard[j]))
                        .map(|j| weights[[i, j]])
                        .collect();
                    picked.iter().sum::<f64>() / picked.len() as f64
                };
                let own = mean_of(&|h| h == qi);
                let pause = mean_of(&|h| h == Heard::Silence);
                let other = mean_of(&|h| is_speech(h) && h != qi);
                assert!(
                    other < pause && pause < own,
                    "{b} {i}: {other} {pause} {own}"
                );
            }
        }
    }

    #[test]
    fn rows_share_out_one_and_padding_gets_exactly_nothing() {
        let trace = trace();
        for row in trace.weights.rows() {
            assert!((row.sum() - 1.0).abs() < 1e-12);
        }
        assert!(trace
            .weights
            .slice(s![1, .., 140..])
            .iter()
            .all(|&w| w == 0.0));
        assert!(trace
            .weights
            .slice(s![1, .., ..140])
            .iter()
            .all(|&w| w > 0.0));
        assert!(clip(&trace, 0).iter().all(|&w| w > 0.0));
    }
}
