//! The range a diverging colour scale spans for one matrix.

use ndarray::Array2;

/// The largest magnitude in `values`, so the colour scale runs from −extent to
/// +extent and zero is always white. Never 0, so an all-zero matrix still maps.
pub fn symmetric_extent(values: &Array2<f64>) -> f64 {
    let largest = values
        .iter()
        .filter(|v| v.is_finite())
        .fold(0.0_f64, |m, v| m.max(v.abs()));
    if largest > 0.0 {
        largest
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn extent_is_the_largest_magnitude() {
        assert_eq!(symmetric_extent(&array![[0.5, -2.0], [1.0, 0.0]]), 2.0);
    }

    #[test]
    fn an_all_zero_matrix_still_has_a_scale() {
        assert_eq!(symmetric_extent(&Array2::zeros((2, 2))), 1.0);
    }
}
