//! Reading a typed decimal number without the standard library's float
//! parser: that parser's correctly rounded algorithm carries a 10 KB table of
//! powers of five, which would cost about 8 KB of the gzip budget for a
//! field where learners type numbers such as `0.75` or `-1.2e-3`.

/// Largest integer an `f64` holds exactly, plus one.
const EXACT_INTEGERS: u64 = 1 << 53;
/// Largest power of ten an `f64` holds exactly.
const EXACT_POWER: i32 = 22;

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]`, returning `None` for
/// anything else (including a lone `.`, `inf` or `NaN`).
///
/// Correctly rounded, so equal to what `str::parse::<f64>` returns, whenever
/// the digits without their decimal point form an integer below 2⁵³ (about
/// 15 significant digits) and the power of ten is within ±22: the integer
/// and the power are then both exact, and one multiplication or division
/// rounds once. Beyond that a few roundings add up to a relative error below
/// 2×10⁻¹⁵, far below the two decimals the app shows.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            at = 1;
            true
        }
        Some(b'+') => {
            at = 1;
            false
        }
        _ => false,
    };
    let mut mantissa: u64 = 0;
    let mut exponent: i64 = 0;
    let mut digits = 0;
    let mut seen_point = false;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                // Past 19 digits the integer would overflow; later digits only
                // move the power of ten, or are dropped after the point.
                if mantissa < u64::MAX / 10 - 9 {
                    mantissa = mantissa * 10 + u64::from(b - b'0');
                    if seen_point {
                        exponent -= 1;
                    }
                } else if !seen_point {
                    exponent += 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => break,
        }
        at += 1;
    }
    if digits == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        let written: i64 = parse_exponent(&text[at + 1..])?;
        exponent = exponent.saturating_add(written);
    } else if at != bytes.len() {
        return None;
    }
    let magnitude = scale(mantissa, exponent);
    Some(if negative { -magnitude } else { magnitude })
}

/// `[+-]digits`, the part after `e`, clamped far beyond any finite `f64`.
fn parse_exponent(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits
        .bytes()
        .fold(0i64, |n, b| (n * 10 + i64::from(b - b'0')).min(100_000));
    Some(if negative { -value } else { value })
}

/// `mantissa × 10^exponent` as an `f64`.
fn scale(mantissa: u64, exponent: i64) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let exponent = exponent.clamp(-100_000, 100_000) as i32;
    let m = mantissa as f64;
    if mantissa < EXACT_INTEGERS && exponent.abs() <= EXACT_POWER {
        let power = 10f64.powi(exponent.abs());
        return if exponent < 0 { m / power } else { m * power };
    }
    // Split the power so neither factor overflows or underflows on its own
    // while the product is still representable.
    let half = exponent / 2;
    m * 10f64.powi(half) * 10f64.powi(exponent - half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::random::uniform_matrix;

    #[test]
    fn plain_forms_parse_exactly() {
        for text in [
            "0",
            "-0.5",
            "+3",
            "0.75",
            ".5",
            "5.",
            "1e3",
            "-1.25E-2",
            "12345.678",
            "1e-22",
            "123456789012345e22",
            "0.1",
            "0.2",
            "0.3",
            "9007199254740991",
        ] {
            assert_eq!(parse_decimal(text), text.parse::<f64>().ok(), "{text}");
        }
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

    /// Property: on 20,000 seeded random decimals of up to 15 significant
    /// digits and powers of ten within ±22, every result is bit-identical to
    /// the standard library's correctly rounded parse.
    #[test]
    fn short_decimals_match_the_standard_parser_bit_for_bit() {
        let draws = uniform_matrix(20_000, 3, 0.0, 1.0, 77);
        for draw in draws.outer_iter() {
            let digits = 1 + (draw[0] * 15.0) as u32;
            let mantissa = (draw[1] * 10f64.powi(digits as i32)) as u64;
            let point = (draw[2] * f64::from(digits + 1)) as usize;
            let written = format!("{mantissa:0width$}", width = digits as usize);
            let (int, frac) = written.split_at(point.min(written.len()));
            // The power of ten that applies to the digits as an integer stays within ±22.
            let fraction = (written.len() - int.len()) as i32;
            let exponent = (draw[2] * 1000.0) as i32 % 23 - 11;
            let exponent = exponent.clamp(fraction - 22, fraction + 22);
            let text = format!("{int}.{frac}e{exponent}");
            let expected: f64 = text.parse().expect("a well-formed decimal");
            assert_eq!(
                parse_decimal(&text).map(f64::to_bits),
                Some(expected.to_bits()),
                "{text}"
            );
        }
    }

    #[test]
    fn long_decimals_are_within_the_documented_relative_error() {
        for text in [
            "3.14159265358979323846",
            "1.2345678901234567e300",
            "2.2250738585072014e-308",
            "123456789012345678901234567890",
        ] {
            let expected: f64 = text.parse().expect("well-formed");
            let got = parse_decimal(text).expect("parses");
            assert!(
                (got - expected).abs() <= 2e-15 * expected.abs(),
                "{text}: {got} vs {expected}"
            );
        }
    }
}
