//! `exp` and `ln` from correctly rounded IEEE arithmetic (+, −, ×, ÷) only.
//!
//! `f64::exp` and `f64::ln` come from the platform's math library natively and
//! from Rust's `libm` port in WebAssembly, and those may differ in the last
//! bit. Training feeds every step's result into the next, so one differing bit
//! would make the native and the browser loss curves drift apart. These two
//! use only operations whose result IEEE 754 defines exactly, so they give
//! the same bits on every target. They are accurate to about one ulp.

/// ln 2 split in two: `LN2_HI` has its low 21 bits zero, so `k · LN2_HI` is exact
/// for every |k| < 2²¹ (fdlibm's constants).
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// 1 / ln 2.
const LOG2_E: f64 = std::f64::consts::LOG2_E;
/// 1.5 · 2⁵²: adding and subtracting it rounds a number below 2⁵¹ in size to
/// the nearest integer, with plain IEEE additions.
const ROUNDER: f64 = 6_755_399_441_055_744.0;

/// 2^k for −1022 ≤ k ≤ 1023, built from its bits.
fn two_to(k: i64) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// e^x, to about one ulp, bit-identical on every target.
///
/// `x = k·ln 2 + r` with k an integer and |r| ≤ ½ ln 2, so `e^x = 2^k · e^r`;
/// e^r is its Taylor series to r¹³/13!, whose first omitted term is below
/// 10⁻¹⁷ of the sum, and 2^k is applied in two exact halves so results near
/// overflow and subnormal ones come out right too.
pub(crate) fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.8 {
        return f64::INFINITY;
    }
    if x < -745.2 {
        return 0.0;
    }
    let k = (x * LOG2_E + ROUNDER) - ROUNDER;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // 1/n! for n = 13 down to 2, folded in Horner form.
    const INVERSE_FACTORIALS: [f64; 12] = [
        1.0 / 6_227_020_800.0,
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
    ];
    let mut p = 0.0;
    for c in INVERSE_FACTORIALS {
        p = (p + c) * r;
    }
    // p·r = e^r − 1 − r, so e^r = 1 + (r + p·r), small parts summed first.
    let e_r = 1.0 + (r + p * r);
    let k = k as i64;
    let half = k / 2;
    e_r * two_to(half) * two_to(k - half)
}

/// The natural logarithm ln x for x > 0 (−∞ at 0, NaN below, +∞ at +∞), to
/// about one ulp, bit-identical on every target.
///
/// `x = m · 2^e` with √½ ≤ m < √2, so `ln x = e·ln 2 + ln m`, and
/// `ln m = 2·atanh f = 2(f + f³/3 + f⁵/5 + …)` with `f = (m − 1)/(m + 1)`,
/// |f| ≤ 0.172; the series is summed to f²³/23, past which terms fall below
/// 10⁻¹⁷ of the sum.
pub(crate) fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x == f64::INFINITY {
        return x;
    }
    // Subnormals: scale into the normal range first (exactly).
    let (x, mut e) = if x < f64::MIN_POSITIVE {
        (x * two_to(54), -54)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    e += ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // m − 1 is exact (Sterbenz), and so is each halving above.
    let f = (m - 1.0) / (m + 1.0);
    let f2 = f * f;
    let mut series = 0.0;
    for n in (1..=11).rev() {
        series = (series + 1.0 / (2 * n + 1) as f64) * f2;
    }
    // ln m = 2f + 2f·series; e·ln 2 added high part last.
    let ln_m = 2.0 * f + 2.0 * f * series;
    let e = e as f64;
    e * LN2_HI + (e * LN2_LO + ln_m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place between two finite doubles.
    fn ulps(a: f64, b: f64) -> u64 {
        let key = |v: f64| {
            let bits = v.to_bits() as i64;
            if bits < 0 {
                i64::MIN - bits
            } else {
                bits
            }
        };
        key(a).abs_diff(key(b))
    }

    #[test]
    fn exp_matches_the_platform_within_two_ulps() {
        let mut worst = 0;
        for n in -745_000..=709_000 {
            let x = f64::from(n) * 1e-3 + 1.234_567e-7;
            worst = worst.max(ulps(exp(x), x.exp()));
        }
        for n in -100_000..=100_000 {
            let x = f64::from(n) * 1e-5;
            worst = worst.max(ulps(exp(x), x.exp()));
        }
        assert!(worst <= 2, "{worst} ulps");
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-800.0), 0.0);
        assert_eq!(exp(800.0), f64::INFINITY);
        assert_eq!(exp(f64::NEG_INFINITY), 0.0);
        assert!(exp(f64::NAN).is_nan());
        assert!(exp(-745.0) > 0.0 && exp(709.7).is_finite());
    }

    #[test]
    fn ln_matches_the_platform_within_two_ulps() {
        let mut worst = 0;
        let mut x = 1e-310;
        while x < 1e300 {
            worst = worst.max(ulps(ln(x), x.ln()));
            x *= 1.000_37;
        }
        for n in 1..=200_000 {
            let x = 0.9 + f64::from(n) * 1e-6;
            let (mine, platform) = (ln(x), x.ln());
            assert!(
                (mine - platform).abs() <= 2.0 * f64::EPSILON * platform.abs(),
                "{x}"
            );
        }
        assert!(worst <= 2, "{worst} ulps");
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert!(ln(-1.0).is_nan());
        assert_eq!(ln(f64::INFINITY), f64::INFINITY);
    }
}
