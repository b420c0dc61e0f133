//! Reading a scenario the learner pastes or uploads: JSON in the `attn-trace`
//! input format, checked by the core (naming the field and row at fault) and
//! then against what the lab can show. A failed import changes nothing.

use crate::geometry::format::shortest;
use crate::lab::{LabError, MAX_DIM, MAX_ENTRY, MAX_HEAD_COLUMNS, MAX_SEQUENCES, MAX_TOKENS};
use attention_core::{AttentionError, Scenario};
use ndarray::{Array1, ArrayView2, Axis};

/// The longest text an import reads: far more than the largest scenario the
/// lab shows (64 × 64 × 16 numbers), so only garbage is refused by length.
const MAX_CHARS: usize = 4_000_000;
/// The widest hidden layer the lab draws: d_ff at most 4·d and 256.
const MAX_HIDDEN_PER_FEATURE: usize = 4;
const MAX_HIDDEN: usize = 256;

fn import_error(error: AttentionError) -> LabError {
    LabError::Import(error)
}

/// A value of the browser's `JSON.parse`, read by the core's scenario parser
/// in place, so the WebAssembly holds no JSON parser and no copy of the tree.
#[cfg(target_arch = "wasm32")]
struct Parsed(wasm_bindgen::JsValue);

#[cfg(target_arch = "wasm32")]
impl attention_core::scenario::JsonValue for Parsed {
    fn items(&self) -> Option<Vec<Self>> {
        use wasm_bindgen::JsCast;
        let items = self.0.dyn_ref::<js_sys::Array>()?;
        Some(items.iter().map(Parsed).collect())
    }
    fn fields(&self) -> Option<Vec<(String, Self)>> {
        use wasm_bindgen::JsCast;
        if !self.0.is_object() || self.0.is_array() {
            return None;
        }
        let entries = js_sys::Object::entries(self.0.unchecked_ref());
        let field = |entry: wasm_bindgen::JsValue| {
            let pair: js_sys::Array = entry.unchecked_into();
            (
                pair.get(0).as_string().unwrap_or_default(),
                Parsed(pair.get(1)),
            )
        };
        Some(entries.iter().map(field).collect())
    }
    fn number(&self) -> Option<f64> {
        self.0.as_f64()
    }
    fn boolean(&self) -> Option<bool> {
        self.0.as_bool()
    }
    fn string(&self) -> Option<String> {
        self.0.as_string()
    }
    fn is_null(&self) -> bool {
        self.0.is_null()
    }
}

/// The scenario in JSON text. In the browser the text is parsed by
/// JavaScript's `JSON.parse`, which reads numbers exactly.
#[cfg(target_arch = "wasm32")]
fn parse(text: &str) -> Result<Scenario, AttentionError> {
    let parsed = js_sys::JSON::parse(text).map_err(|e| AttentionError::Json {
        message: js_sys::Error::from(e).message().into(),
    })?;
    Scenario::from_parsed(Parsed(parsed))
}

/// The scenario in JSON text.
#[cfg(not(target_arch = "wasm32"))]
fn parse(text: &str) -> Result<Scenario, AttentionError> {
    Scenario::from_json(text)
}

/// Whether a scenario the core accepts also fits the lab: its sizes, d_v = d_k
/// as the diagrams draw it, and entries within ±[`MAX_ENTRY`] as typed ones are.
pub fn check_fits(s: &Scenario) -> Result<(), LabError> {
    let (batch, t, d) = s.x.dim();
    // Every head's d_k side by side; the core has checked that the heads
    // share them. A block's layers are each checked as the lessons' layer.
    let head = s.attention(0).0;
    let columns = head.w_q.ncols();
    let d_k = columns / s.heads.max(1);
    let too_large = |field: &str, what: &'static str, limit: usize, found: usize| {
        (found > limit).then(|| {
            import_error(AttentionError::TooLarge {
                field: field.into(),
                what,
                limit,
                found,
            })
        })
    };
    let d_out = s.w_o.as_ref().map_or(0, |w| w.ncols());
    let problem = too_large("x", "sequences", MAX_SEQUENCES, batch)
        .or_else(|| too_large("x", "positions", MAX_TOKENS, t))
        .or_else(|| too_large("x", "features", MAX_DIM, d))
        .or_else(|| too_large("w_q", "columns", MAX_HEAD_COLUMNS, columns))
        .or_else(|| too_large("w_q", "columns per head", MAX_DIM, d_k))
        .or_else(|| too_large("w_o", "columns", MAX_DIM, d_out));
    if let Some(error) = problem {
        return Err(error);
    }
    for layer in 0..s.layer_count() {
        let head = s.attention(layer).0;
        let named = |field: &str| match s.block {
            Some(_) => format!("block.layers[{layer}].{field}"),
            None => field.to_string(),
        };
        let columns = head.w_q.ncols();
        let problem = too_large(&named("w_q"), "columns", MAX_HEAD_COLUMNS, columns)
            .or_else(|| too_large(&named("w_q"), "columns per head", MAX_DIM, d_k));
        if let Some(error) = problem {
            return Err(error);
        }
        if head.w_v.dim() != (d, columns) {
            return Err(import_error(AttentionError::ShapeMismatch {
                field: named("w_v"),
                expected: format!("{d}×{columns} (the lab shows d_v = d_k)"),
                found: format!("{}×{}", head.w_v.nrows(), head.w_v.ncols()),
            }));
        }
    }
    // The hidden layer is drawn as a heatmap beside the tokens.
    let most_hidden = (MAX_HIDDEN_PER_FEATURE * d).min(MAX_HIDDEN);
    let layers = s.block.iter().flat_map(|b| b.layers.iter().enumerate());
    for (i, layer) in layers {
        let field = format!("block.layers[{i}].w_1");
        if let Some(error) = too_large(&field, "columns", most_hidden, layer.w_1.ncols()) {
            return Err(error);
        }
    }
    // The first entry past ±MAX_ENTRY, named by indices only (the message
    // around it is in the learner's language); only that one is formatted.
    let too_big = |v: &&f64| v.abs() > MAX_ENTRY;
    let in_x =
        s.x.indexed_iter()
            .find(|(_, v)| too_big(v))
            .map(|((b, r, c), &v)| {
                let sequence = if s.batched {
                    format!(" [{b}]")
                } else {
                    String::new()
                };
                (format!("x{sequence} [{r}][{c}]"), v)
            });
    let mut matrices = vec![
        ("w_q".to_string(), s.head.w_q.view()),
        ("w_k".to_string(), s.head.w_k.view()),
        ("w_v".to_string(), s.head.w_v.view()),
    ];
    matrices.extend(s.w_o.as_ref().map(|w| ("w_o".to_string(), w.view())));
    matrices.extend(block_matrices(s));
    let in_w = || {
        matrices.iter().find_map(|(name, m)| {
            m.indexed_iter()
                .find(|(_, v)| too_big(v))
                .map(|((r, c), &v)| (format!("{name} [{r}][{c}]"), v))
        })
    };
    match in_x.or_else(in_w) {
        Some((place, v)) => Err(LabError::TooLarge(format!("{place} = {}", shortest(v)))),
        None => Ok(()),
    }
}

/// Every matrix of a block, named from the top of the scenario; each
/// vector (γ, β, a bias) as a matrix of one row.
fn block_matrices(s: &Scenario) -> Vec<(String, ArrayView2<'_, f64>)> {
    let mut out = Vec::new();
    let Some(block) = &s.block else {
        return out;
    };
    for (i, l) in block.layers.iter().enumerate() {
        let name = |field: &str| format!("block.layers[{i}].{field}");
        let h = &l.attention;
        for (field, m) in [
            ("w_q", &h.w_q),
            ("w_k", &h.w_k),
            ("w_v", &h.w_v),
            ("w_o", &l.w_o),
        ] {
            out.push((name(field), m.view()));
        }
        out.push((name("w_1"), l.w_1.view()));
        out.push((name("w_2"), l.w_2.view()));
        let b = &l.biases;
        let vectors = [
            ("b_q", b.projections.b_q.as_ref()),
            ("b_k", b.projections.b_k.as_ref()),
            ("b_v", b.projections.b_v.as_ref()),
            ("b_o", b.b_o.as_ref()),
            ("gamma_1", Some(&l.norm_1.gamma)),
            ("beta_1", l.norm_1.beta.as_ref()),
            ("gamma_2", Some(&l.norm_2.gamma)),
            ("beta_2", l.norm_2.beta.as_ref()),
            ("b_1", l.b_1.as_ref()),
            ("b_2", l.b_2.as_ref()),
        ];
        for (field, v) in vectors {
            if let Some(v) = v {
                out.push((name(field), row(v)));
            }
        }
    }
    if let Some(norm) = &block.final_norm {
        out.push(("block.final_norm.gamma".into(), row(&norm.gamma)));
        if let Some(beta) = &norm.beta {
            out.push(("block.final_norm.beta".into(), row(beta)));
        }
    }
    out
}

/// A vector as a matrix of one row.
fn row(v: &Array1<f64>) -> ArrayView2<'_, f64> {
    v.view().insert_axis(Axis(0))
}

/// The scenario in `text`, or why it cannot be imported.
pub fn import(text: &str) -> Result<Scenario, LabError> {
    let chars = text.chars().count();
    if chars > MAX_CHARS {
        return Err(import_error(AttentionError::TooLarge {
            field: "input".into(),
            what: "characters",
            limit: MAX_CHARS,
            found: chars,
        }));
    }
    let scenario = parse(text).map_err(import_error)?;
    // The core's own checks first: they name the mismatched matrix and why.
    scenario.run().map_err(import_error)?;
    check_fits(&scenario)?;
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::text::scenario_json;
    use attention_core::presets::Preset;

    #[test]
    fn every_exported_scenario_imports_as_itself() {
        for preset in Preset::ALL {
            let scenario = preset.scenario();
            let text = scenario_json(&scenario);
            assert_eq!(import(&text), Ok(scenario));
        }
    }

    /// What a refused import says in English, or why it is not a refusal.
    fn message(text: &str) -> String {
        match import(text) {
            Err(LabError::Import(e)) => e.to_string(),
            Err(other) => format!("{other:?}"),
            Ok(_) => "imported".into(),
        }
    }

    #[test]
    fn bad_imports_name_what_is_wrong() {
        assert!(message("{").starts_with("input: not valid JSON"));
        assert_eq!(
            message(
                r#"{"x": [[1, 0], [0]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]]}"#
            ),
            "x: row [1] has 1 number, but the first row has 2"
        );
        assert_eq!(
            message(
                r#"{"x": [[1, 0]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1, 0], [0, 1]]}"#
            ),
            "w_v: found 2×2, expected 2×1 (the lab shows d_v = d_k)"
        );
        let long: Vec<String> = (0..513).map(|_| "[1]".into()).collect();
        let many = format!(
            r#"{{"x": [{}], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}}"#,
            long.join(",")
        );
        assert_eq!(message(&many), "x: 513 positions is past the limit of 512");
        assert_eq!(
            import(
                r#"{"x": [[1, 5000]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]]}"#
            ),
            Err(LabError::TooLarge("x [0][1] = 5000.0".into()))
        );
        assert_eq!(
            import(
                r#"{"x": [[[1, 0]], [[0, -2000]]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]]}"#
            ),
            Err(LabError::TooLarge("x [1] [0][1] = -2000.0".into()))
        );
        assert_eq!(
            import(
                r#"{"x": [[1, 0]], "w_q": [[1], [0]], "w_k": [[1], [1001]], "w_v": [[1], [0]]}"#
            ),
            Err(LabError::TooLarge("w_k [1][0] = 1001.0".into()))
        );
    }

    #[test]
    fn the_labs_limits_are_named() {
        let rows = |n: usize, row: &str| vec![row; n].join(",");
        let text = format!(" {}", " ".repeat(MAX_CHARS));
        assert_eq!(
            message(&text),
            format!(
                "input: {} characters is past the limit of {MAX_CHARS}",
                MAX_CHARS + 1
            )
        );
        let batch = format!(
            r#"{{"x": [{}], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}}"#,
            rows(MAX_SEQUENCES + 1, "[[1]]")
        );
        assert_eq!(message(&batch), "x: 65 sequences is past the limit of 64");
        let wide_row = format!("[{}]", rows(MAX_DIM + 1, "1"));
        let wide = format!(
            r#"{{"x": [{wide_row}], "w_q": [{}], "w_k": [{}], "w_v": [{}]}}"#,
            rows(MAX_DIM + 1, "[1]"),
            rows(MAX_DIM + 1, "[1]"),
            rows(MAX_DIM + 1, "[1]")
        );
        assert_eq!(message(&wide), "x: 17 features is past the limit of 16");
        let many_columns = format!(
            r#"{{"x": [[1]], "w_q": [{wide_row}], "w_k": [{wide_row}], "w_v": [{wide_row}]}}"#
        );
        assert_eq!(
            message(&many_columns),
            "w_q: 17 columns per head is past the limit of 16"
        );
        // Several heads may have 64 columns together, 16 each at most.
        let heads = |n: usize, width: usize| {
            let row = format!("[{}]", rows(width, "1"));
            format!(
                r#"{{"x": [[1]], "heads": {n}, "w_q": [{row}], "w_k": [{row}], "w_v": [{row}]}}"#
            )
        };
        assert_eq!(message(&heads(4, 64)), "imported");
        assert_eq!(
            message(&heads(2, 34)),
            "w_q: 17 columns per head is past the limit of 16"
        );
        let wide_w_o = format!(
            r#"{{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "w_o": [{wide_row}]}}"#
        );
        assert_eq!(
            message(&wide_w_o),
            "w_o: 17 columns is past the limit of 16"
        );
        let big_w_o =
            r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "w_o": [[1, -1e4]]}"#;
        assert_eq!(
            import(big_w_o),
            Err(LabError::TooLarge("w_o [0][1] = -10000.0".into()))
        );
    }

    /// PyTorch's own multi-head cases, in the format the README tells an
    /// author to export, import as they are.
    #[test]
    fn pytorch_multi_head_cases_import() {
        let cases: serde_json::Value = serde_json::from_str(include_str!(
            "../../crates/attention-core/tests/data/torch_mha_cases.json"
        ))
        .expect("valid JSON");
        for (name, case) in cases.as_object().expect("cases") {
            let text = case["input"].to_string();
            let scenario = import(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert!(scenario.heads > 1 && scenario.w_o.is_some(), "{name}");
        }
    }

    /// What an import of text that is no scenario must give: a refusal with
    /// something to say, or (if the text happens to be one) a scenario the
    /// lab can show.
    #[cfg(not(target_arch = "wasm32"))]
    fn refused_or_shown(text: &str) -> Result<(), String> {
        match import(text) {
            Err(error)
                if !crate::i18n::controls::lab_error(&error, crate::i18n::Lang::En)
                    .trim()
                    .is_empty() =>
            {
                Ok(())
            }
            Err(error) => Err(format!("{text}: a refusal that says nothing: {error:?}")),
            Ok(scenario) if scenario.run().is_ok() && check_fits(&scenario).is_ok() => Ok(()),
            Ok(_) => Err(format!("{text}: imported a scenario the lab cannot show")),
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn arbitrary_text_gives_an_error_that_says_something(text in "\\PC{0,200}") {
            let checked = refused_or_shown(&text);
            proptest::prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }

        #[test]
        fn arbitrary_json_shapes_give_an_error_that_says_something(
            text in r#"\{("(x|w_q|w_k|w_v|mask|tokens|causal|scale)": (\[|\]|,|1|-1e999|"a"|true|null| ){0,30}, ?){0,6}\}"#
        ) {
            let checked = refused_or_shown(&text);
            proptest::prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }
}
