//! What the export buttons write: JSON in the `attn-trace` formats (by the
//! core's writer), and one matrix as LaTeX or as a Python/NumPy list. Pure,
//! so the tests read it natively.
//!
//! Numbers are written by [`js_number`]: the shortest decimal that reads back
//! as exactly the same number, which in the browser is JavaScript's own and
//! so needs no float printer in the WebAssembly.

use crate::geometry::format::{fixed, js_number, scientific};
use attention_core::{json, LayerTrace, Scenario};
use ndarray::Array2;

/// The scenario in the `attn-trace` input format, which Import reads back.
pub fn scenario_json(scenario: &Scenario) -> String {
    json::scenario_json(scenario, js_number)
}

/// The full trace, as `attn-trace` prints it: every intermediate, and the tokens.
pub fn trace_json(scenario: &Scenario, layer: &LayerTrace) -> String {
    json::trace_json(
        layer,
        scenario.batched,
        scenario.tokens.as_deref(),
        js_number,
    )
}

/// A number for a slide, to four decimals without trailing zeros (`-0.5`);
/// outside [10⁻³, 10⁶) in scientific notation with four significant digits
/// (`8 \times 10^{12}`), so neither a tiny nor a huge number turns into a
/// wrong one.
fn slide_number(value: f64) -> String {
    let trim = |text: &str| -> String {
        match text.trim_end_matches('0').trim_end_matches('.') {
            "-0" | "" => "0".into(),
            other => other.into(),
        }
    };
    if value == 0.0 || !value.is_finite() || (1e-3..1e6).contains(&value.abs()) {
        return trim(&fixed(value, 4));
    }
    let (mantissa, exponent) = scientific(value, 3);
    format!("{} \\times 10^{{{exponent}}}", trim(&mantissa))
}

/// `m` as a LaTeX `bmatrix` under a comment naming it (`label`), rounded to
/// four decimals for a slide.
pub fn latex(label: &str, m: &Array2<f64>) -> String {
    let rows: Vec<String> = m
        .rows()
        .into_iter()
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&v| slide_number(v)).collect();
            format!("  {}", cells.join(" & "))
        })
        .collect();
    format!(
        "% {label}\n\\begin{{bmatrix}}\n{}\n\\end{{bmatrix}}\n",
        rows.join(" \\\\\n")
    )
}

/// `m` as a NumPy array named `name`, every number exact.
pub fn numpy(name: &str, m: &Array2<f64>) -> String {
    let rows: Vec<String> = m
        .rows()
        .into_iter()
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&v| js_number(v)).collect();
            format!("    [{}],", cells.join(", "))
        })
        .collect();
    format!(
        "import numpy as np\n\n{name} = np.array([\n{}\n], dtype=float)\n",
        rows.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::presets::{self, Preset};
    use ndarray::array;

    #[test]
    fn scenario_json_reads_back_as_the_same_scenario() {
        for preset in Preset::ALL {
            let scenario = preset.scenario();
            let text = scenario_json(&scenario);
            assert_eq!(Scenario::from_json(&text).expect("parses"), scenario);
        }
    }

    #[test]
    fn trace_json_is_what_the_tool_prints_with_the_tokens() {
        let scenario = presets::pronoun();
        let layer = scenario.run().expect("runs");
        let text = trace_json(&scenario, &layer);
        let parsed: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(parsed["tokens"][1], "说");
        assert_eq!(
            parsed["weights"][2][0].as_f64(),
            Some(layer.heads[0].weights[[0, 2, 0]])
        );
        // A matrix reads as a block of rows, one per line.
        assert!(text.contains("\"weights\": [\n    ["), "{text}");
    }

    #[test]
    fn slide_numbers_keep_their_magnitude() {
        assert_eq!(slide_number(8e12), "8 \\times 10^{12}");
        assert_eq!(slide_number(-1.23456e-300), "-1.235 \\times 10^{-300}");
        assert_eq!(slide_number(999_999.0), "999999");
        assert_eq!(slide_number(1e6), "1 \\times 10^{6}");
        assert_eq!(slide_number(0.001), "0.001");
        assert_eq!(slide_number(-0.0), "0");
        assert_eq!(slide_number(f64::MAX), "1.798 \\times 10^{308}");
    }

    #[test]
    fn latex_rounds_for_slides_and_numpy_is_exact() {
        let m = array![[1.0, -0.5], [0.123456789, -0.00001]];
        assert_eq!(
            latex("W_Q", &m),
            "% W_Q\n\\begin{bmatrix}\n  1 & -0.5 \\\\\n  0.1235 & -1 \\times 10^{-5}\n\\end{bmatrix}\n"
        );
        let code = numpy("W_Q", &m);
        assert!(
            code.contains(
                "W_Q = np.array([\n    [1.0, -0.5],\n    [0.123456789, -1e-5],\n], dtype=float)"
            ),
            "{code}"
        );
    }
}
