//! How numbers appear: two decimals on screen, full precision in `data-value`.

/// `value` with exactly `decimals` digits after the point, in ASCII (`-0.50`).
///
/// The platform writes it, so the WebAssembly carries no float printer: in
/// the browser JavaScript's `toFixed`, natively Rust's `{:.N}`. Both round the
/// exact binary value, so they agree on every number below 10²¹ but an exact
/// tie (0.125 to two decimals), which JavaScript rounds away from zero and
/// Rust to even. From 10²¹ on, `toFixed` writes the shortest form instead.
pub fn fixed(value: f64, decimals: u8) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Number::from(value)
            .to_fixed(decimals)
            .map(String::from)
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("{value:.prec$}", prec = usize::from(decimals))
    }
}

/// A coordinate to one decimal place: enough for the screen, short in the markup.
pub fn coord(value: f64) -> String {
    if value.is_finite() {
        let text = fixed(value, 1);
        text.strip_suffix(".0").map_or(text.clone(), str::to_owned)
    } else {
        "0".into()
    }
}

/// `value` in scientific notation with `decimals` digits after the point in
/// its mantissa: the mantissa's text and the power of ten, `8e12` as
/// `("8.00", 12)`, written by the platform as [`fixed`] is (JavaScript's
/// `toExponential`, Rust's `{:.Ne}`).
pub fn scientific(value: f64, decimals: u8) -> (String, i32) {
    #[cfg(target_arch = "wasm32")]
    let text: String = js_sys::Number::from(value)
        .to_exponential(decimals)
        .map(String::from)
        .unwrap_or_default();
    #[cfg(not(target_arch = "wasm32"))]
    let text = format!("{value:.prec$e}", prec = usize::from(decimals));
    match text.split_once('e') {
        Some((mantissa, exponent)) => (
            mantissa.to_owned(),
            exponent.trim_start_matches('+').parse().unwrap_or(0),
        ),
        None => (text, 0),
    }
}

/// The shortest decimal that reads back as exactly `value`. In the browser it
/// is JavaScript's own `String(value)`, which needs no formatting code in the
/// WebAssembly; natively (tests, tools) it is Rust's, which agrees except in
/// how an exponent is spelt (`1e+21` and `1e21`), and both read back exactly.
pub fn shortest(value: f64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Number::from(value)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("{value:?}")
    }
}

/// A value printed to two decimals, with a true minus sign (−) and never "−0.00".
pub fn two_decimals(value: f64) -> String {
    rounded(value, 2)
}

/// A value printed to `decimals` decimals, with a true minus sign (−) and
/// never a negative zero.
pub fn rounded(value: f64, decimals: u8) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let text = fixed(value, decimals);
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.into(),
        Some(rest) => format!("\u{2212}{rest}"),
        None => text,
    }
}

/// The full-precision value as a JavaScript number literal, for `data-value`:
/// `Number(text)` gives back exactly `value`.
pub fn js_number(value: f64) -> String {
    if value == 0.0 && value.is_sign_negative() {
        // JavaScript writes −0 as "0", which would read back as +0.
        "-0".into()
    } else if value.is_finite() {
        shortest(value)
    } else {
        "NaN".into()
    }
}

/// A number written with subscript digits, for 1-based indices such as Q₁₂.
pub fn subscript(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(0x2080 + (c as u32 - '0' as u32)).unwrap_or(c),
            other => other,
        })
        .collect()
}

/// A power of ten's exponent in superscript digits, as in 10⁻²⁶.
pub fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '0' | '4'..='9' => char::from_u32(0x2070 + (c as u32 - '0' as u32)).unwrap_or(c),
            other => other,
        })
        .collect()
}

/// A factor in a product: negative numbers in parentheses, as `(−0.52)`.
fn factor(value: f64) -> String {
    let text = two_decimals(value);
    if text.starts_with('\u{2212}') {
        format!("({text})")
    } else {
        text
    }
}

/// The dot product of `a` and `b` written out term by term with its `total`
/// as the core computed it (a cell of the trace), e.g.
/// `0.31×1.20 + (−0.52)×0.44 = 0.14`. With more than `max_terms` terms, the
/// middle ones are elided as `…`, keeping the first and last two.
pub fn sum_of_products(a: &[f64], b: &[f64], total: f64, max_terms: usize) -> String {
    let terms: Vec<String> = a
        .iter()
        .zip(b)
        .map(|(x, y)| format!("{}×{}", factor(*x), factor(*y)))
        .collect();
    let shown = if terms.len() > max_terms.max(4) {
        let keep = max_terms.max(4) - 2;
        let mut shown = terms[..keep].to_vec();
        shown.push("…".into());
        shown.extend_from_slice(&terms[terms.len() - 2..]);
        shown
    } else {
        terms
    };
    format!("{} = {}", shown.join(" + "), two_decimals(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscripts_are_unicode_digits() {
        assert_eq!(subscript(1), "₁");
        assert_eq!(subscript(12), "₁₂");
        assert_eq!(superscript(-26), "⁻²⁶");
        assert_eq!(superscript(1_034_567_890), "¹⁰³⁴⁵⁶⁷⁸⁹⁰");
    }

    #[test]
    fn sum_of_products_writes_every_term_and_the_total() {
        assert_eq!(
            sum_of_products(&[0.31, -0.52], &[1.2, 0.44], 0.1432, 8),
            "0.31×1.20 + (\u{2212}0.52)×0.44 = 0.14"
        );
        // The total printed is the one given (the trace's), never added up here.
        assert_eq!(sum_of_products(&[1.0], &[2.0], 7.0, 8), "1.00×2.00 = 7.00");
    }

    #[test]
    fn long_sums_are_elided_but_the_total_is_the_one_given() {
        let a = [1.0; 10];
        let text = sum_of_products(&a, &a, 10.0, 6);
        assert_eq!(
            text,
            "1.00×1.00 + 1.00×1.00 + 1.00×1.00 + 1.00×1.00 + … + 1.00×1.00 + 1.00×1.00 = 10.00"
        );
    }

    #[test]
    fn two_decimals_rounds_and_uses_a_real_minus() {
        assert_eq!(two_decimals(0.456), "0.46");
        assert_eq!(two_decimals(-0.52), "\u{2212}0.52");
        assert_eq!(two_decimals(-0.001), "0.00");
        assert_eq!(two_decimals(12.0), "12.00");
        assert_eq!(two_decimals(f64::NAN), "—");
    }

    #[test]
    fn fixed_and_scientific_are_the_standard_formatter() {
        assert_eq!(fixed(-0.004, 2), "-0.00");
        assert_eq!(fixed(3.0, 0), "3");
        assert_eq!(fixed(8e12, 4), "8000000000000.0000");
        assert_eq!(scientific(8e12, 3), ("8.000".to_owned(), 12));
        assert_eq!(scientific(-1.5e-300, 1), ("-1.5".to_owned(), -300));
        assert_eq!(scientific(0.0, 2), ("0.00".to_owned(), 0));
    }

    #[test]
    fn js_number_round_trips_exactly() {
        for v in [0.1, -0.52, 1.0 / 3.0, 1e-300, 6.02e23, 0.0, -0.0] {
            let back = js_number(v).parse::<f64>().unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{v}");
        }
    }
}
