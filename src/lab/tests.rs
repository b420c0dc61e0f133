use super::*;
use attention_core::presets::sentence;

fn assert_runs(scenario: &Scenario) {
    let trace = scenario
        .run()
        .expect("an edited scenario always runs")
        .into_head(0);
    let t = scenario.x.dim().1;
    assert_eq!(token_labels(scenario).len(), t);
    assert_eq!(trace.weights.dim(), (scenario.x.dim().0, t, t));
}

#[test]
fn adding_and_removing_tokens_keeps_shapes_consistent() {
    let mut s = sentence();
    add_token(&mut s, "很", 9).unwrap();
    assert_eq!(token_labels(&s), ["我", "喜欢", "打", "篮球", "很"]);
    assert_runs(&s);
    // The old rows are untouched.
    assert_eq!(s.x.slice(s![0, ..4, ..]), sentence().x.slice(s![0, .., ..]));
    remove_token(&mut s, 1).unwrap();
    assert_eq!(token_labels(&s), ["我", "打", "篮球", "很"]);
    assert_eq!(s.x.slice(s![0, 1, ..]), sentence().x.slice(s![0, 2, ..]));
    assert_runs(&s);
}

#[test]
fn token_count_stays_between_1_and_the_limit() {
    let mut s = sentence();
    while s.x.dim().1 < MAX_TOKENS {
        add_token(&mut s, "x", 1).unwrap();
    }
    let before = s.clone();
    assert_eq!(add_token(&mut s, "y", 1), Err(LabError::TooManyTokens));
    assert_eq!(s, before);
    while s.x.dim().1 > 1 {
        remove_token(&mut s, 0).unwrap();
    }
    assert_eq!(remove_token(&mut s, 0), Err(LabError::LastToken));
    assert_runs(&s);
}

#[test]
fn labels_must_be_1_to_32_characters() {
    let mut s = sentence();
    assert_eq!(rename_token(&mut s, 0, "   "), Err(LabError::BadLabel));
    assert_eq!(
        rename_token(&mut s, 0, &"长".repeat(33)),
        Err(LabError::BadLabel)
    );
    assert_eq!(rename_token(&mut s, 9, "a"), Err(LabError::OutOfRange));
    assert_eq!(s, sentence());
    rename_token(&mut s, 0, " 你 ").unwrap();
    assert_eq!(token_labels(&s)[0], "你");
}

#[test]
fn resizing_keeps_the_overlap_and_the_head_runnable() {
    let mut s = sentence();
    set_d_model(&mut s, 6, 3).unwrap();
    assert_eq!(s.x.dim(), (1, 4, 6));
    assert_eq!(s.head.w_q.dim(), (6, 4));
    assert_eq!(s.x.slice(s![0, .., ..4]), sentence().x.slice(s![0, .., ..]));
    set_d_k(&mut s, 2, 3).unwrap();
    assert_eq!(s.head.w_k.dim(), (6, 2));
    assert_eq!(s.head.w_v.dim(), (6, 2));
    assert_eq!(
        s.head.w_q.slice(s![..4, ..]),
        sentence().head.w_q.slice(s![.., ..2])
    );
    assert_runs(&s);
    for bad in [0, 1, 17] {
        assert_eq!(set_d_k(&mut s, bad, 1), Err(LabError::BadSize(bad)));
        assert_eq!(set_d_model(&mut s, bad, 1), Err(LabError::BadSize(bad)));
    }
}

#[test]
fn entries_are_set_in_the_right_matrix_and_checked() {
    let mut s = sentence();
    set_entry(&mut s, Editable::WK, Place::default(), (1, 2), 0.75).unwrap();
    assert_eq!(s.head.w_k[[1, 2]], 0.75);
    set_entry(&mut s, Editable::X, Place::default(), (3, 0), -2.5).unwrap();
    assert_eq!(s.x[[0, 3, 0]], -2.5);
    let before = s.clone();
    assert_eq!(
        set_entry(&mut s, Editable::WV, Place::default(), (9, 0), 1.0),
        Err(LabError::OutOfRange)
    );
    assert!(matches!(
        set_entry(&mut s, Editable::WQ, Place::default(), (0, 0), f64::NAN),
        Err(LabError::NotANumber(_))
    ));
    // A huge number would overflow the scores and blank every diagram.
    assert!(matches!(
        set_entry(&mut s, Editable::X, Place::default(), (0, 0), 1e200),
        Err(LabError::TooLarge(_))
    ));
    assert!(set_entry(
        &mut s.clone(),
        Editable::X,
        Place::default(),
        (0, 0),
        -1000.0
    )
    .is_ok());
    assert_eq!(s, before);
}

#[test]
fn typed_numbers_accept_common_spellings_and_refuse_the_rest() {
    assert_eq!(parse_number(" 0.5 "), Ok(0.5));
    assert_eq!(parse_number("\u{2212}1.25"), Ok(-1.25));
    assert_eq!(parse_number("0,3"), Ok(0.3));
    for bad in ["", "abc", "NaN", "1e999", "inf"] {
        assert!(
            matches!(parse_number(bad), Err(LabError::NotANumber(_))),
            "{bad}"
        );
    }
}

#[test]
fn padding_toggles_make_exact_zero_weights() {
    let mut s = sentence();
    toggle_padding(&mut s, 0, 2).unwrap();
    let trace = s.run().unwrap().into_head(0);
    for i in 0..4 {
        assert_eq!(trace.weights[[0, i, 2]], 0.0);
    }
    toggle_padding(&mut s, 0, 2).unwrap();
    assert_eq!(
        s.run().unwrap().into_head(0).weights,
        sentence().run().unwrap().into_head(0).weights
    );
    assert_eq!(toggle_padding(&mut s, 0, 4), Err(LabError::OutOfRange));
}

#[test]
fn randomizing_is_reproducible_from_the_seed() {
    let (mut a, mut b) = (sentence(), sentence());
    randomize_weights(&mut a, 0, 42);
    randomize_weights(&mut b, 0, 42);
    assert_eq!(a, b);
    assert_ne!(a.head, sentence().head);
    randomize_weights(&mut b, 0, 43);
    assert_ne!(a.head, b.head);
    assert_eq!(a.head.w_q.dim(), sentence().head.w_q.dim());
    // Two decimals, so they can be read and typed.
    assert!(a
        .head
        .w_q
        .iter()
        .all(|v| (v * 100.0 - (v * 100.0).round()).abs() < 1e-9));
}

#[test]
fn a_sequence_trace_is_the_slice_of_the_batch() {
    let mut s = sentence();
    toggle_padding(&mut s, 0, 3).unwrap();
    let trace = s.run().unwrap().into_head(0);
    let view = SequenceTrace::new(&trace, 0, token_labels(&s));
    assert_eq!(view.len(), 4);
    assert_eq!(view.d_k(), 4);
    assert_eq!(view.weights, trace.weights.index_axis(Axis(0), 0));
    assert_eq!(view.scaled, trace.scaled.index_axis(Axis(0), 0));
    assert_eq!(view.key_is_real, [true, true, true, false]);
    assert!(!view.allowed[[0, 3]]);
    // A sequence past the batch is clamped, never a panic.
    assert_eq!(SequenceTrace::new(&trace, 7, vec![]).sequence, 0);
}

#[test]
fn a_drag_nudges_an_entry_to_two_decimals() {
    let mut s = sentence();
    assert_eq!(entry(&s, Editable::WQ, Place::default(), (0, 1)), Some(0.8));
    // 0.8 + 0.123 = 0.923, shown and kept as 0.92.
    nudge_entry(&mut s, Editable::WQ, Place::default(), (0, 1), 0.123).unwrap();
    assert_eq!(
        entry(&s, Editable::WQ, Place::default(), (0, 1)),
        Some(0.92)
    );
    // Downward past zero: 0.92 − 1.5 = −0.58.
    nudge_entry(&mut s, Editable::WQ, Place::default(), (0, 1), -1.5).unwrap();
    assert_eq!(
        entry(&s, Editable::WQ, Place::default(), (0, 1)),
        Some(-0.58)
    );
    assert_eq!(entry(&s, Editable::X, Place::default(), (9, 9)), None);
    assert_eq!(
        nudge_entry(&mut s, Editable::X, Place::default(), (9, 9), 1.0),
        Err(LabError::OutOfRange)
    );
}

#[test]
fn a_link_may_ask_for_up_to_64_tokens() {
    let labels: Vec<String> = (0..MAX_TOKENS).map(|i| format!("t{i}")).collect();
    let s = with_tokens(&sentence(), &labels, 5).unwrap();
    assert_eq!(token_labels(&s), labels);
    assert_eq!(s.x.slice(s![0, ..4, ..]), sentence().x.slice(s![0, .., ..]));
    assert_runs(&s);
    let too_many: Vec<String> = (0..=MAX_TOKENS).map(|i| i.to_string()).collect();
    assert_eq!(
        with_tokens(&sentence(), &too_many, 5),
        Err(LabError::TooManyTokens)
    );
    assert_eq!(with_tokens(&sentence(), &[], 5), Err(LabError::BadLabel));
    let short = with_tokens(&sentence(), &["我".into(), "你".into()], 5).unwrap();
    assert_eq!(short.x.dim(), (1, 2, 4));
}

#[test]
fn a_large_batch_takes_fewer_tokens_so_every_scenario_runs() {
    assert!(fits_tokens(1, MAX_TOKENS, 1) && fits_tokens(4, MAX_TOKENS, 1));
    assert!(!fits_tokens(5, MAX_TOKENS, 1) && !fits_tokens(1, MAX_TOKENS + 1, 1));
    // Every head has its own scores.
    assert!(fits_tokens(1, MAX_TOKENS, 4) && !fits_tokens(1, MAX_TOKENS, 5));
    let mut batch = sentence();
    batch.x = ndarray::Array3::zeros((64, 128, 4));
    batch.tokens = None;
    assert_runs(&batch);
    let before = batch.clone();
    assert_eq!(add_token(&mut batch, "y", 1), Err(LabError::TooManyTokens));
    assert_eq!(batch, before);
}

#[test]
fn removing_a_token_removes_its_column_from_every_sequence_and_mask() {
    let mut s = sentence();
    let one = s.x.clone();
    s.x = ndarray::concatenate(Axis(0), &[one.view(), (&one * 2.0).view()]).unwrap();
    s.mask = Some(ndarray::array![
        [true, true, true, false],
        [true, false, true, true]
    ]);
    let before = s.clone();
    remove_token(&mut s, 1).unwrap();
    assert_eq!(s.x.dim(), (2, 3, before.x.dim().2));
    for (i, from) in [0, 2, 3].into_iter().enumerate() {
        assert_eq!(s.x.slice(s![.., i, ..]), before.x.slice(s![.., from, ..]));
    }
    assert_eq!(
        s.mask,
        Some(ndarray::array![[true, true, false], [true, true, true]])
    );
    assert_eq!(token_labels(&s), ["我", "打", "篮球"]);
}

#[test]
fn more_heads_split_the_same_weights_into_parts() {
    let mut s = sentence();
    let before = s.clone();
    set_heads(&mut s, 2, 5).unwrap();
    // d_model 4 over 2 heads: d_k 2 each, the same 4 columns, every number kept.
    assert_eq!(s.heads, 2);
    assert_eq!(head_width(&s), 2);
    assert_eq!(s.head, before.head);
    let w_o = s.w_o.clone().expect("several heads get a W_O");
    assert_eq!(w_o.dim(), (4, 4));
    let layer = s.run().expect("two heads run");
    assert_eq!(layer.heads[1].q.dim(), (1, 4, 2));
    // Back to one head: the same weights again, W_O kept until it is taken away.
    set_heads(&mut s, 1, 5).unwrap();
    assert_eq!(
        (s.head.clone(), s.w_o.clone()),
        (before.head.clone(), Some(w_o))
    );
    set_w_o(&mut s, false, 5).expect("no block");
    assert_eq!(s, before);
    for bad in [0, 9] {
        assert_eq!(set_heads(&mut s, bad, 5), Err(LabError::BadHeads(bad)));
    }
    assert_eq!(s, before);
}

#[test]
fn heads_that_do_not_divide_d_model_get_at_least_one_column() {
    let mut s = sentence();
    set_d_model(&mut s, 6, 3).unwrap();
    set_heads(&mut s, 4, 5).unwrap();
    assert_eq!(head_width(&s), 1);
    assert_eq!(s.head.w_v.dim(), (6, 4));
    assert_eq!(s.w_o.as_ref().map(Array2::dim), Some((4, 6)));
    assert_runs(&s);
}

#[test]
fn d_k_resizes_every_head_on_its_own() {
    let mut s = sentence();
    set_heads(&mut s, 2, 5).unwrap();
    let before = s.clone();
    set_d_k(&mut s, 3, 7).unwrap();
    assert_eq!(s.head.w_q.dim(), (4, 6));
    // Each head keeps its own two columns, now followed by a new one.
    assert_eq!(
        s.head.w_q.slice(s![.., 0..2]),
        before.head.w_q.slice(s![.., 0..2])
    );
    assert_eq!(
        s.head.w_q.slice(s![.., 3..5]),
        before.head.w_q.slice(s![.., 2..4])
    );
    let w_o = s.w_o.as_ref().expect("W_O");
    let old = before.w_o.as_ref().expect("W_O");
    assert_eq!(w_o.dim(), (6, 4));
    assert_eq!(w_o.slice(s![3..5, ..]), old.slice(s![2..4, ..]));
    assert_runs(&s);
    set_d_k(&mut s, 1, 7).unwrap();
    assert_eq!(set_heads(&mut s, 8, 1), Ok(()));
    assert_eq!(
        set_d_k(&mut s, 9, 7),
        Err(LabError::BadSize(9)),
        "8 × 9 > 64 columns"
    );
    set_d_k(&mut s, 8, 7).unwrap();
    assert_eq!(s.head.w_k.ncols(), 64);
    assert_runs(&s);
}

#[test]
fn a_heads_entry_is_its_own_column_of_the_whole_matrix() {
    let mut s = sentence();
    set_heads(&mut s, 2, 5).unwrap();
    let second = Place {
        head: 1,
        ..Place::default()
    };
    set_entry(&mut s, Editable::WK, second, (3, 1), 0.5).unwrap();
    assert_eq!(s.head.w_k[[3, 3]], 0.5);
    assert_eq!(entry(&s, Editable::WK, second, (3, 1)), Some(0.5));
    // A column past the head's own is not the next head's.
    assert_eq!(entry(&s, Editable::WK, second, (0, 2)), None);
    assert_eq!(
        set_entry(
            &mut s,
            Editable::WQ,
            Place {
                head: 2,
                ..Place::default()
            },
            (0, 0),
            1.0
        ),
        Err(LabError::OutOfRange)
    );
    set_entry(&mut s, Editable::WO, Place::default(), (3, 2), -0.25).unwrap();
    assert_eq!(s.w_o.as_ref().map(|w| w[[3, 2]]), Some(-0.25));
    set_w_o(&mut s, false, 1).expect("no block");
    assert_eq!(
        set_entry(&mut s, Editable::WO, Place::default(), (0, 0), 1.0),
        Err(LabError::OutOfRange)
    );
}

#[test]
fn new_random_weights_draw_w_o_too() {
    let mut s = sentence();
    randomize_weights(&mut s, 0, 3);
    assert_eq!(s.w_o, None, "no W_O appears by itself");
    set_heads(&mut s, 2, 5).unwrap();
    let before = s.w_o.clone();
    randomize_weights(&mut s, 0, 4);
    assert_ne!(s.w_o, before);
    let drawn = s.clone();
    randomize_w_o(&mut s, 0, 9);
    assert_eq!(s.head, drawn.head, "Random W_O changes only W_O");
    assert_ne!(s.w_o, drawn.w_o);
    assert_runs(&s);
}

#[test]
fn heads_never_take_the_layer_past_its_score_cells() {
    let labels: Vec<String> = (0..MAX_TOKENS).map(|i| i.to_string()).collect();
    let mut s = with_tokens(&sentence(), &labels, 1).unwrap();
    set_heads(&mut s, 4, 1).unwrap();
    assert_runs(&s);
    let before = s.clone();
    assert_eq!(set_heads(&mut s, 5, 1), Err(LabError::BadHeads(5)));
    assert_eq!(split_heads(&mut s, 8), Err(LabError::BadHeads(8)));
    assert_eq!(s, before);
    // And no token is added past them either.
    remove_token(&mut s, 0).unwrap();
    add_token(&mut s, "x", 1).unwrap();
    assert_eq!(add_token(&mut s, "y", 1), Err(LabError::TooManyTokens));
}

#[test]
fn splitting_keeps_every_number_and_each_new_column_is_its_own() {
    let mut s = sentence();
    split_heads(&mut s, 4).unwrap();
    assert_eq!(
        (s.heads, s.head.clone(), s.w_o.clone()),
        (4, sentence().head, None)
    );
    assert_eq!(
        split_heads(&mut s, 3),
        Err(LabError::BadHeads(3)),
        "3 does not divide 4"
    );
    split_heads(&mut s, 2).unwrap();
    set_w_o(&mut s, true, 2).expect("no block");
    set_d_k(&mut s, 4, 9).unwrap();
    // The columns each head gained are drawn apart: no two blocks repeat.
    let new_blocks: Vec<Vec<f64>> = [&s.head.w_q, &s.head.w_k, &s.head.w_v]
        .iter()
        .flat_map(|w| {
            (0..2).map(move |h| {
                w.slice(s![.., h * 4 + 2..h * 4 + 4])
                    .iter()
                    .copied()
                    .collect()
            })
        })
        .collect();
    for (i, a) in new_blocks.iter().enumerate() {
        for b in &new_blocks[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // A W_O taken away stays away when the heads change.
    set_w_o(&mut s, false, 1).expect("no block");
    set_heads(&mut s, 4, 1).unwrap();
    assert_eq!(s.w_o, None);
}
