//! Reading a scenario the learner pastes or uploads: JSON in the `attn-trace`
//! input format, checked by the core (naming the field and row at fault) and
//! then against what the lab can show. A failed import changes nothing.

use crate::geometry::format::shortest;
use crate::lab::{LabError, MAX_DIM, MAX_ENTRY, MAX_LINK_TOKENS};
use attention_core::{AttentionError, Scenario};
use serde_json::Value;

/// The longest text an import reads: far more than the largest scenario the
/// lab shows (64 × 64 × 16 numbers), so only garbage is refused by length.
const MAX_CHARS: usize = 4_000_000;
/// The most sequences a scenario may have, as in a link.
const MAX_SEQUENCES: usize = 64;
/// The deepest nesting the format has is a batch of matrices; anything much
/// deeper is not a scenario, and is refused before it can exhaust the stack.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const MAX_DEPTH: usize = 8;

fn import_error(error: AttentionError) -> LabError {
    LabError::Import(error)
}

/// Parses JSON text. In the browser this is JavaScript's `JSON.parse`, which
/// reads numbers exactly and needs no parser in the WebAssembly.
#[cfg(target_arch = "wasm32")]
fn parse_json(text: &str) -> Result<Value, AttentionError> {
    let parsed = js_sys::JSON::parse(text).map_err(|e| AttentionError::Json {
        message: js_sys::Error::from(e).message().into(),
    })?;
    from_js(&parsed, 0)
}

/// Parses JSON text.
#[cfg(not(target_arch = "wasm32"))]
fn parse_json(text: &str) -> Result<Value, AttentionError> {
    serde_json::from_str(text).map_err(|e| AttentionError::Json {
        message: e.to_string(),
    })
}

/// A value `JSON.parse` returned, as a serde value for the core's checks.
#[cfg(target_arch = "wasm32")]
fn from_js(value: &wasm_bindgen::JsValue, depth: usize) -> Result<Value, AttentionError> {
    use wasm_bindgen::JsCast;
    if depth > MAX_DEPTH {
        return Err(AttentionError::Json {
            message: "nested too deeply".into(),
        });
    }
    if let Some(number) = value.as_f64() {
        // Whole numbers stay whole, as serde reads them, so 0/1 masks and
        // integer entries mean the same in the browser as in `attn-trace`.
        return Ok(if number.fract() == 0.0 && number.abs() < 9e15 {
            Value::from(number as i64)
        } else {
            serde_json::Number::from_f64(number).map_or(Value::Null, Value::Number)
        });
    }
    if let Some(flag) = value.as_bool() {
        return Ok(Value::Bool(flag));
    }
    if let Some(text) = value.as_string() {
        return Ok(Value::String(text));
    }
    if let Some(items) = value.dyn_ref::<js_sys::Array>() {
        return items.iter().map(|item| from_js(&item, depth + 1)).collect();
    }
    if let Some(object) = value.dyn_ref::<js_sys::Object>() {
        let mut fields = serde_json::Map::new();
        for entry in js_sys::Object::entries(object).iter() {
            let pair: js_sys::Array = entry.unchecked_into();
            let name = pair.get(0).as_string().unwrap_or_default();
            fields.insert(name, from_js(&pair.get(1), depth + 1)?);
        }
        return Ok(Value::Object(fields));
    }
    Ok(Value::Null)
}

/// Whether a scenario the core accepts also fits the lab: its sizes, d_v = d_k
/// as the diagrams draw it, and entries within ±[`MAX_ENTRY`] as typed ones are.
pub fn check_fits(s: &Scenario) -> Result<(), LabError> {
    let (batch, t, d) = s.x.dim();
    let d_k = s.head.w_q.ncols();
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
    let problem = too_large("x", "sequences", MAX_SEQUENCES, batch)
        .or_else(|| too_large("x", "positions", MAX_LINK_TOKENS, t))
        .or_else(|| too_large("x", "features", MAX_DIM, d))
        .or_else(|| too_large("w_q", "columns", MAX_DIM, d_k));
    if let Some(error) = problem {
        return Err(error);
    }
    if s.head.w_v.dim() != (d, d_k) {
        return Err(import_error(AttentionError::ShapeMismatch {
            field: "w_v".into(),
            expected: format!("{d}×{d_k} (the lab shows d_v = d_k)"),
            found: format!("{}×{}", s.head.w_v.nrows(), s.head.w_v.ncols()),
        }));
    }
    let matrices = [
        ("w_q", s.head.w_q.view()),
        ("w_k", s.head.w_k.view()),
        ("w_v", s.head.w_v.view()),
    ];
    let x_rows = s.x.outer_iter().enumerate().flat_map(|(b, m)| {
        let name = if s.batched {
            format!("x [{b}]")
        } else {
            "x".into()
        };
        m.indexed_iter()
            .map(move |((r, c), &v)| (format!("{name}: row [{r}][{c}]"), v))
            .collect::<Vec<_>>()
    });
    let w_entries = matrices.into_iter().flat_map(|(name, m)| {
        m.indexed_iter()
            .map(move |((r, c), &v)| (format!("{name}: row [{r}][{c}]"), v))
            .collect::<Vec<_>>()
    });
    match x_rows.chain(w_entries).find(|(_, v)| v.abs() > MAX_ENTRY) {
        Some((place, v)) => Err(LabError::TooLarge(format!("{place} = {}", shortest(v)))),
        None => Ok(()),
    }
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
    let value = parse_json(text).map_err(import_error)?;
    let scenario = Scenario::from_value(&value).map_err(import_error)?;
    check_fits(&scenario)?;
    scenario.run().map_err(import_error)?;
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
            assert_eq!(import(&scenario_json(&scenario)), Ok(scenario));
        }
    }

    #[test]
    fn bad_imports_name_what_is_wrong() {
        let message = |text: &str| match import(text) {
            Err(LabError::Import(e)) => e.to_string(),
            Err(other) => format!("{other:?}"),
            Ok(_) => "imported".into(),
        };
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
        let long: Vec<String> = (0..65).map(|_| "[1]".into()).collect();
        let many = format!(
            r#"{{"x": [{}], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}}"#,
            long.join(",")
        );
        assert_eq!(message(&many), "x: 65 positions is past the limit of 64");
        assert_eq!(
            import(
                r#"{"x": [[1, 5000]], "w_q": [[1], [0]], "w_k": [[1], [0]], "w_v": [[1], [0]]}"#
            ),
            Err(LabError::TooLarge("x: row [0][1] = 5000.0".into()))
        );
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn arbitrary_text_gives_an_error_never_a_panic(text in "\\PC{0,200}") {
            let _ = import(&text);
        }

        #[test]
        fn arbitrary_json_shapes_give_an_error_never_a_panic(
            text in r#"\{("(x|w_q|w_k|w_v|mask|tokens|causal|scale)": (\[|\]|,|1|-1e999|"a"|true|null| ){0,30}, ?){0,6}\}"#
        ) {
            let _ = import(&text);
        }
    }
}
