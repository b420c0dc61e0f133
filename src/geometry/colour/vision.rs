//! How the colour scales look to the common colour-vision deficiencies
//! (issue 14): each scale's ends and middle, seen through Machado, Oliveira
//! and Fernandes' simulation (2009, severity 1) of protanopia, deuteranopia
//! and tritanopia, stay far apart by CIEDE2000. Test-only: the app draws the
//! scales, this checks that everyone can still tell their ends apart.

use super::{linear_channel, signed_colour, weight_colour, Rgb};

/// Machado et al.'s matrices at full severity, applied to linear sRGB.
const DEFICIENCIES: [(&str, [[f64; 3]; 3]); 3] = [
    (
        "protanopia",
        [
            [0.152_286, 1.052_583, -0.204_868],
            [0.114_503, 0.786_281, 0.099_216],
            [-0.003_882, -0.048_116, 1.051_998],
        ],
    ),
    (
        "deuteranopia",
        [
            [0.367_322, 0.860_646, -0.227_968],
            [0.280_085, 0.672_501, 0.047_413],
            [-0.011_820, 0.042_940, 0.968_881],
        ],
    ),
    (
        "tritanopia",
        [
            [1.255_528, -0.076_749, -0.178_779],
            [-0.078_411, 0.930_809, 0.147_602],
            [0.004_733, 0.691_367, 0.303_900],
        ],
    ),
];

/// The least CIEDE2000 difference asked of a scale's two ends.
const ENDS_APART: f64 = 20.0;

/// `colour` as seen with `deficiency`, in linear sRGB (clamped to the gamut).
fn simulate(colour: Rgb, deficiency: &[[f64; 3]; 3]) -> [f64; 3] {
    let linear = [colour.0, colour.1, colour.2].map(linear_channel);
    deficiency.map(|row| {
        let mixed: f64 = row.iter().zip(linear).map(|(m, c)| m * c).sum();
        mixed.clamp(0.0, 1.0)
    })
}

/// CIELAB (D65 white) of a linear sRGB colour.
fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
    let x = 0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = 0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b;
    let f = |t: f64| {
        if t > 216.0 / 24_389.0 {
            t.cbrt()
        } else {
            (24_389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.950_47), f(y), f(z / 1.088_83));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// The CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu and
/// Dalal's formulation, with kL = kC = kH = 1).
fn delta_e_2000([l1, a1, b1]: [f64; 3], [l2, a2, b2]: [f64; 3]) -> f64 {
    let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
    let (a1, a2) = (a1 * (1.0 + g), a2 * (1.0 + g));
    let (c1, c2) = (a1.hypot(b1), a2.hypot(b2));
    let hue = |a: f64, b: f64| {
        if a == 0.0 && b == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1, h2) = (hue(a1, b1), hue(a2, b2));
    let dl = l2 - l1;
    let dc = c2 - c1;
    let dh = if c1 * c2 == 0.0 {
        0.0
    } else if (h2 - h1).abs() <= 180.0 {
        h2 - h1
    } else if h2 - h1 > 180.0 {
        h2 - h1 - 360.0
    } else {
        h2 - h1 + 360.0
    };
    let dh_big = 2.0 * (c1 * c2).sqrt() * (dh / 2.0).to_radians().sin();
    let l_bar = (l1 + l2) / 2.0;
    let c_bar = (c1 + c2) / 2.0;
    let h_bar = if c1 * c2 == 0.0 {
        h1 + h2
    } else if (h1 - h2).abs() <= 180.0 {
        (h1 + h2) / 2.0
    } else if h1 + h2 < 360.0 {
        (h1 + h2 + 360.0) / 2.0
    } else {
        (h1 + h2 - 360.0) / 2.0
    };
    let t = 1.0 - 0.17 * (h_bar - 30.0).to_radians().cos()
        + 0.24 * (2.0 * h_bar).to_radians().cos()
        + 0.32 * (3.0 * h_bar + 6.0).to_radians().cos()
        - 0.20 * (4.0 * h_bar - 63.0).to_radians().cos();
    let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt();
    let s_l = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * c_bar;
    let s_h = 1.0 + 0.015 * c_bar * t;
    let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
    let (l, c, h) = (dl / s_l, dc / s_c, dh_big / s_h);
    (l * l + c * c + h * h + r_t * c * h).sqrt()
}

fn lab_of(colour: Rgb) -> [f64; 3] {
    lab([colour.0, colour.1, colour.2].map(linear_channel))
}

#[test]
fn ciede2000_gives_the_published_differences() {
    // Pairs from Sharma, Wu and Dalal's test data, to four decimals.
    let pairs = [
        ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
        ([50.0, 2.5, 0.0], [50.0, 0.0, -2.5], 4.3065),
        ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
        (
            [60.2574, -34.0099, 36.2677],
            [60.4626, -34.1751, 39.4387],
            1.2644,
        ),
        (
            [2.0776, 0.0795, -1.1350],
            [0.9033, -0.0636, -0.5514],
            0.9082,
        ),
    ];
    for (a, b, expected) in pairs {
        let got = delta_e_2000(a, b);
        assert!(
            (got - expected).abs() < 5e-4,
            "{a:?} {b:?}: {got} vs {expected}"
        );
        assert!((delta_e_2000(b, a) - got).abs() < 1e-9, "symmetric");
    }
    // White in CIELAB, through the sRGB conversion.
    let white = lab_of(Rgb(255, 255, 255));
    assert!((white[0] - 100.0).abs() < 1e-3 && white[1].abs() < 1e-2 && white[2].abs() < 1e-2);
}

#[test]
fn the_identity_sees_the_colours_as_they_are() {
    let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let red = Rgb(200, 30, 40);
    assert_eq!(lab(simulate(red, &identity)), lab_of(red));
    // Protanopia makes pure red and a dark green-brown close; the check can fail.
    let protan = &DEFICIENCIES[0].1;
    let seen = |c: Rgb| lab(simulate(c, protan));
    assert!(delta_e_2000(seen(Rgb(255, 0, 0)), seen(Rgb(138, 126, 0))) < ENDS_APART);
}

#[test]
fn every_scale_keeps_its_ends_and_middle_apart_for_each_colour_blindness() {
    let scales: [(&str, [Rgb; 3]); 2] = [
        (
            "weights (viridis)",
            [weight_colour(0.0), weight_colour(0.5), weight_colour(1.0)],
        ),
        (
            "signed (RdBu)",
            [
                signed_colour(-1.0, 1.0),
                signed_colour(0.0, 1.0),
                signed_colour(1.0, 1.0),
            ],
        ),
    ];
    for (scale, [low, middle, high]) in scales {
        for (deficiency, matrix) in &DEFICIENCIES {
            let seen = |c: Rgb| lab(simulate(c, matrix));
            let ends = delta_e_2000(seen(low), seen(high));
            assert!(
                ends >= ENDS_APART,
                "{scale}, {deficiency}: ends ΔE {ends:.1}"
            );
            for end in [low, high] {
                let apart = delta_e_2000(seen(end), seen(middle));
                assert!(
                    apart >= ENDS_APART,
                    "{scale}, {deficiency}: end to middle ΔE {apart:.1}"
                );
            }
        }
    }
}
