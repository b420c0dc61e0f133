//! Numbers in and out of the page, in WebAssembly, against the standard
//! library. The app reads and writes numbers with JavaScript's own
//! conversions (`parseFloat`, `String`, `toFixed`, `toExponential`), which
//! carry no code in the WebAssembly; these property tests check over f64
//! from 1e-300 to 1e300, negative zero and exact halfway cases that they
//! agree with what Rust's standard library prints and parses, and that the
//! exports keep every number the page shows.

use attention_core::random::SplitMix64;
use attention_lab::geometry::format::{fixed, js_number, scientific, shortest};
use attention_lab::lab::number::parse_decimal;
use attention_lab::share::text::{latex, numpy};
use ndarray::array;
use wasm_bindgen_test::wasm_bindgen_test;

/// A seeded stream of 64-bit words (the core's SplitMix64), so a failure can be replayed.
struct Words(SplitMix64);

impl Words {
    fn seeded(seed: u64) -> Self {
        Self(SplitMix64::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A double of random mantissa bits times 10^k, k from −8 to 20: the
    /// magnitudes a page shows to a few decimals.
    fn shown(&mut self) -> f64 {
        let mantissa = f64::from_bits(0x3ff0_0000_0000_0000 | (self.next() >> 12));
        let power: f64 = format!("1e{}", self.below(29) as i32 - 8)
            .parse()
            .expect("a power of ten");
        let sign = if self.below(2) == 0 { 1.0 } else { -1.0 };
        sign * mantissa * power
    }

    /// A double from random bits whose magnitude lies in [1e-300, 1e300].
    fn double(&mut self) -> f64 {
        loop {
            let v = f64::from_bits(self.next());
            if (1e-300..=1e300).contains(&v.abs()) {
                return v;
            }
        }
    }
}

/// Doubles every property below also runs on: the ends of the range, the
/// extremes of f64, powers of ten and numbers famous for rounding.
fn special_doubles() -> Vec<f64> {
    let mut values = vec![
        1e-300,
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        0.1,
        0.2 + 0.1,
        1.0 / 3.0,
        2.0f64.powi(53) + 2.0,
        8e12,
        123_456_789.123_456_78,
        9.5,
        0.5,
        1e21,
        1e-7,
    ];
    let negated: Vec<f64> = values.iter().map(|v| -v).collect();
    values.extend(negated);
    values
}

/// The significant digits and the power of ten of a decimal however it is
/// spelt: `0.00125`, `1.25e-3` and `125e-5` all give ("125", −3).
fn digits_and_power(text: &str) -> (String, i32) {
    let text = text.trim_start_matches('-');
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let exponent: i32 = exponent
        .trim_start_matches('+')
        .parse()
        .expect("an exponent");
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_matches('0').to_owned();
    (digits, exponent + int.len() as i32 - 1 - leading as i32)
}

#[wasm_bindgen_test]
fn the_shortest_form_is_the_standard_librarys_and_reads_back_exactly() {
    let mut words = Words::seeded(1);
    let values = (0..20_000).map(|_| words.double()).chain(special_doubles());
    for v in values {
        let text = shortest(v);
        let back: f64 = text.parse().expect("the standard parser reads it");
        assert_eq!(back.to_bits(), v.to_bits(), "{v:e} printed as {text}");
        // Where two decimals of the shortest length both read back, the two
        // printers may pick different ones; the length and the power agree.
        let (js_digits, js_power) = digits_and_power(&text);
        let (std_digits, std_power) = digits_and_power(&format!("{v:e}"));
        assert_eq!(
            (js_digits.len(), js_power),
            (std_digits.len(), std_power),
            "the shortest form of {v:e}, printed as {text}"
        );
    }
    assert_eq!(js_number(-0.0), "-0");
    let back: f64 = js_number(-0.0).parse().expect("a number");
    assert!(back == 0.0 && back.is_sign_negative());
}

/// The decimal text of an integer with `point` digits after its decimal
/// point, e.g. (12345, 2) → "123.45" and (5, 3) → "0.005".
fn with_point(digits: u128, point: usize) -> String {
    let text = format!("{digits:0>width$}", width = point + 1);
    let (int, frac) = text.split_at(text.len() - point);
    if frac.is_empty() {
        int.to_owned()
    } else {
        format!("{int}.{frac}")
    }
}

/// Decimals exactly halfway between two neighbouring doubles, and a hair
/// above and below: the cases a parser that is not correctly rounded gets wrong.
fn halfway_cases(words: &mut Words) -> Vec<String> {
    let mut cases = Vec::new();
    for _ in 0..2_000 {
        // m·2^e and (m+1)·2^e are neighbours for a 53-bit m; their midpoint is
        // (2m+1)·2^(e−1).
        let m = u128::from((1u64 << 52) | words.below(1 << 52));
        let odd = 2 * m + 1;
        let exponent = words.below(70) as u32;
        let midpoint = if exponent == 0 {
            // (2m+1)/2 = (2m+1)·5 / 10.
            with_point(odd * 5, 1)
        } else {
            (odd << (exponent - 1)).to_string()
        };
        // Below 1: (2m+1)·2^−(k+1) = (2m+1)·5^(k+1) / 10^(k+1), exact in u128.
        let k = 1 + words.below(30) as u32;
        let fraction = with_point(odd * 5u128.pow(k + 1), (k + 1) as usize);
        for text in [midpoint, fraction] {
            // A hair above the midpoint, which must round up.
            let point = if text.contains('.') { "" } else { "." };
            cases.push(format!("{text}{point}000000000000000000001"));
            cases.push(text);
        }
    }
    cases
}

/// Random decimal literals: a sign, up to 25 digits, a point anywhere and an
/// exponent from −330 to 330, so results underflow and overflow too.
fn random_decimals(words: &mut Words) -> Vec<String> {
    (0..20_000)
        .map(|_| {
            let sign = ["", "-", "+"][words.below(3) as usize];
            let length = 1 + words.below(25) as usize;
            let digits: String = (0..length)
                .map(|_| char::from(b'0' + words.below(10) as u8))
                .collect();
            let point = words.below(length as u64 + 1) as usize;
            let (int, frac) = digits.split_at(point);
            let exponent = words.below(661) as i64 - 330;
            match words.below(3) {
                0 => format!("{sign}{int}.{frac}e{exponent}"),
                1 => format!("{sign}{int}.{frac}"),
                _ => format!("{sign}{digits}E{exponent}"),
            }
        })
        .collect()
}

#[wasm_bindgen_test]
fn typed_numbers_are_read_as_the_standard_library_reads_them() {
    let mut words = Words::seeded(2);
    let mut texts = halfway_cases(&mut words);
    texts.extend(random_decimals(&mut words));
    texts.extend(special_doubles().iter().map(|v| format!("{v:e}")));
    texts.extend(["-0", "9007199254740993", "2.2250738585072011e-308", "1e400"].map(String::from));
    for text in &texts {
        let expected: f64 = text.parse().expect("a well-formed decimal");
        assert_eq!(
            parse_decimal(text).map(f64::to_bits),
            Some(expected.to_bits()),
            "{text}"
        );
    }
}

/// Whether `value` lies exactly halfway between two numbers of `decimals`
/// decimals, where JavaScript rounds away from zero and Rust to even.
fn exact_tie(value: f64, decimals: usize) -> bool {
    let exact = format!("{:.1100}", value.abs());
    let Some((_, frac)) = exact.split_once('.') else {
        return false;
    };
    let rest = &frac[decimals..];
    rest.starts_with('5') && rest[1..].bytes().all(|b| b == b'0')
}

#[wasm_bindgen_test]
fn fixed_decimals_are_the_standard_formatters_but_at_exact_ties() {
    let mut words = Words::seeded(3);
    let mut values: Vec<f64> = (0..5_000).map(|_| words.double()).collect();
    values.extend((0..5_000).map(|_| words.shown()));
    let values = values
        .into_iter()
        .filter(|v| v.abs() < 1e21)
        .chain(special_doubles().into_iter().filter(|v| v.abs() < 1e21))
        .chain([-0.0, 0.0]);
    let mut compared = 0;
    for v in values {
        for decimals in [0u8, 1, 2, 4, 6] {
            let d = usize::from(decimals);
            if exact_tie(v, d) {
                continue;
            }
            let std = format!("{v:.d$}");
            // JavaScript writes −0 and a negative number that rounds to zero as 0.
            let std = if v == 0.0 {
                std.replacen('-', "", 1)
            } else {
                std
            };
            assert_eq!(fixed(v, decimals), std, "{v:e} to {decimals} decimals");
            compared += 1;
        }
    }
    assert!(compared > 35_000, "{compared}");
    // At an exact tie JavaScript rounds away from zero.
    assert_eq!(fixed(0.125, 2), "0.13");
    assert_eq!(fixed(-2.5, 0), "-3");
    assert_eq!(scientific(8e12, 3), ("8.000".to_owned(), 12));
    assert_eq!(scientific(-1.5e-300, 1), ("-1.5".to_owned(), -300));
}

/// A LaTeX cell's mantissa and power of ten: `-0.1235` → (−0.1235, 0),
/// `8.5 \times 10^{12}` → (8.5, 12).
fn latex_parts(cell: &str) -> (f64, i32) {
    let cell = cell.trim();
    match cell.split_once(" \\times 10^{") {
        Some((mantissa, exponent)) => (
            mantissa.parse().expect("a mantissa"),
            exponent.trim_end_matches('}').parse().expect("an exponent"),
        ),
        None => (cell.parse().expect("a plain decimal"), 0),
    }
}

#[wasm_bindgen_test]
fn exports_keep_every_magnitude() {
    let mut words = Words::seeded(4);
    let values = (0..5_000)
        .map(|_| words.double())
        .chain(special_doubles())
        .chain([0.0, -0.0, 0.001, -999_999.0, 1e6]);
    for v in values {
        let m = array![[v]];
        let tex = latex("m", &m);
        let cell = tex.lines().nth(2).expect("one row");
        // What the standard library prints: four decimals between 1e-3 and
        // 1e6, four significant digits elsewhere (ties may round either way).
        let (shown, power) = latex_parts(cell);
        let plain = v == 0.0 || (1e-3..1e6).contains(&v.abs());
        let (expected, expected_power, last_digit) = if plain {
            (format!("{v:.4}").parse().expect("a decimal"), 0, 1e-4)
        } else {
            let (m, p) = latex_parts(&format!("{v:.3e}").replace('e', " \\times 10^{"));
            (m, p, 1e-3)
        };
        assert_eq!(power, expected_power, "{v:e} exported as {cell}");
        assert!(
            (shown - expected).abs() <= last_digit * 1.01,
            "{v:e} exported as {cell}"
        );
        let python = numpy("m", &m);
        let number = python
            .split('[')
            .nth(2)
            .and_then(|rest| rest.split(']').next())
            .expect("one number");
        let back: f64 = number.parse().expect("a Python float literal");
        assert_eq!(back.to_bits(), v.to_bits(), "{v:e} exported as {number}");
    }
}
