//! How numbers appear: two decimals on screen, full precision in `data-value`.

/// A value printed to two decimals, with a true minus sign (−) and never "−0.00".
pub fn two_decimals(value: f64) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let text = format!("{value:.2}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.into(),
        Some(rest) => format!("\u{2212}{rest}"),
        None => text,
    }
}

/// The full-precision value as a JavaScript number literal, for `data-value`:
/// `Number(text)` gives back exactly `value`.
pub fn js_number(value: f64) -> String {
    if value.is_finite() {
        format!("{value:?}")
    } else {
        "NaN".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_decimals_rounds_and_uses_a_real_minus() {
        assert_eq!(two_decimals(0.456), "0.46");
        assert_eq!(two_decimals(-0.52), "\u{2212}0.52");
        assert_eq!(two_decimals(-0.001), "0.00");
        assert_eq!(two_decimals(12.0), "12.00");
        assert_eq!(two_decimals(f64::NAN), "—");
    }

    #[test]
    fn js_number_round_trips_exactly() {
        for v in [0.1, -0.52, 1.0 / 3.0, 1e-300, 6.02e23, 0.0] {
            assert_eq!(js_number(v).parse::<f64>().unwrap(), v);
        }
    }
}
