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

    #[test]
    fn js_number_round_trips_exactly() {
        for v in [0.1, -0.52, 1.0 / 3.0, 1e-300, 6.02e23, 0.0] {
            assert_eq!(js_number(v).parse::<f64>().unwrap(), v);
        }
    }
}
