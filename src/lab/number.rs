//! Reading a typed number. This module only decides what counts as one; the
//! platform converts it, correctly rounded: in the browser JavaScript's
//! `parseFloat`, so the WebAssembly carries no float parser (the standard
//! library's brings a 10 KB table), natively the standard library's
//! `str::parse`. The browser tests check that the two agree bit for bit.

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]`, returning `None` for
/// anything else (including a lone `.`, `inf`, `NaN`, `0x10` or spaces, which
/// JavaScript's own conversions would accept).
pub fn parse_decimal(text: &str) -> Option<f64> {
    if !is_decimal(text) {
        return None;
    }
    #[cfg(target_arch = "wasm32")]
    {
        Some(js_sys::parse_float(text))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.parse().ok()
    }
}

/// Whether `text` is a decimal literal: digits with at most one point, at
/// least one digit, an optional sign and an optional exponent.
fn is_decimal(text: &str) -> bool {
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (number, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((number, exponent)) => (number, Some(exponent)),
        None => (unsigned, None),
    };
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let mantissa = all_digits(int) && all_digits(frac) && !(int.is_empty() && frac.is_empty());
    mantissa
        && exponent.is_none_or(|exponent| {
            let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            !digits.is_empty() && all_digits(digits)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_decimal_is_read() {
        for (text, value) in [
            ("0", 0.0),
            ("-0.5", -0.5),
            ("+3", 3.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e3", 1000.0),
            ("-1.25E-2", -0.0125),
            ("2E+2", 200.0),
            ("9007199254740993", 9007199254740992.0),
        ] {
            assert_eq!(parse_decimal(text), Some(value), "{text}");
        }
        assert!(parse_decimal("-0").is_some_and(|z| z == 0.0 && z.is_sign_negative()));
    }

    #[test]
    fn anything_else_is_refused() {
        for text in [
            "", "-", ".", "e5", "1e", "1e+", "1.2.3", "1,5", "abc", "inf", "NaN", "1 2", "0x10",
            "--1",
        ] {
            assert_eq!(parse_decimal(text), None, "{text}");
        }
    }

    #[test]
    fn huge_and_tiny_numbers_saturate_like_the_standard_parser() {
        assert_eq!(parse_decimal("1e999"), Some(f64::INFINITY));
        assert_eq!(parse_decimal("-1e999"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_decimal("1e-999"), Some(0.0));
        assert_eq!(parse_decimal("1e99999999999999999999"), Some(f64::INFINITY));
    }
}
