//! How numbers appear: two decimals on screen, full precision in `data-value`.

/// `value` with exactly `decimals` digits after the point, in ASCII (`-0.50`),
/// as `format!("{value:.N}")` writes it, except that a tie exactly between two
/// last digits may round the other way once the scaling multiplication has
/// rounded. Written by hand, like [`shortest`], because the standard float
/// formatting costs several KB of WebAssembly. Beyond about 10¹³ it falls back
/// to [`shortest`].
pub fn fixed(value: f64, decimals: u32) -> String {
    let factor = 10f64.powi(decimals as i32);
    let scaled = (value.abs() * factor).round_ties_even();
    if !scaled.is_finite() || scaled >= 9.0e15 {
        return shortest(value);
    }
    let digits = (scaled as u64).to_string();
    let decimals = decimals as usize;
    let digits = format!("{digits:0>width$}", width = decimals + 1);
    let (int, frac) = digits.split_at(digits.len() - decimals);
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
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
    if !value.is_finite() {
        return "—".into();
    }
    let text = fixed(value, 2);
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

/// A factor in a product: negative numbers in parentheses, as `(−0.52)`.
fn factor(value: f64) -> String {
    let text = two_decimals(value);
    if text.starts_with('\u{2212}') {
        format!("({text})")
    } else {
        text
    }
}

/// The dot product of `a` and `b` written out term by term with its result,
/// e.g. `0.31×1.20 + (−0.52)×0.44 = 0.14`. With more than `max_terms` terms,
/// the middle ones are elided as `…`, keeping the first and last two.
pub fn sum_of_products(a: &[f64], b: &[f64], max_terms: usize) -> String {
    let terms: Vec<String> = a
        .iter()
        .zip(b)
        .map(|(x, y)| format!("{}×{}", factor(*x), factor(*y)))
        .collect();
    let total: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
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
    }

    #[test]
    fn sum_of_products_writes_every_term_and_the_total() {
        assert_eq!(
            sum_of_products(&[0.31, -0.52], &[1.2, 0.44], 8),
            "0.31×1.20 + (\u{2212}0.52)×0.44 = 0.14"
        );
    }

    #[test]
    fn long_sums_are_elided_but_the_total_is_exact() {
        let a = [1.0; 10];
        let text = sum_of_products(&a, &a, 6);
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

    /// Property: on 100,000 seeded values over many magnitudes, `fixed` writes
    /// what the standard formatter writes, except at a near-exact tie.
    #[test]
    fn fixed_matches_the_standard_formatter_away_from_ties() {
        let draws = attention_core::random::uniform_matrix(100_000, 2, -1.0, 1.0, 5);
        for draw in draws.outer_iter() {
            let value = draw[0] * 10f64.powi((draw[1] * 8.0).round() as i32);
            for decimals in [1, 2] {
                let scaled = value.abs() * 10f64.powi(decimals as i32);
                let near_tie = (scaled.fract() - 0.5).abs() < 1e-6;
                let std = format!("{value:.prec$}", prec = decimals as usize);
                assert!(
                    near_tie || fixed(value, decimals) == std,
                    "{value} to {decimals}: {std}"
                );
            }
        }
        assert_eq!(fixed(-0.004, 2), "-0.00");
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(3.0, 0), "3");
        assert_eq!(fixed(1e20, 2), "1e20");
    }

    #[test]
    fn js_number_round_trips_exactly() {
        for v in [0.1, -0.52, 1.0 / 3.0, 1e-300, 6.02e23, 0.0, -0.0] {
            let back = js_number(v).parse::<f64>().unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{v}");
        }
    }
}
