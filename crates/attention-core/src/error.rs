//! The typed errors of the core. Every message names the field at fault and,
//! where it applies, the row, so a learner or a course author can fix it.

use std::fmt;

/// Something wrong with the input of a forward pass or a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttentionError {
    /// A field holds no numbers at all.
    Empty { field: String },
    /// A required field of a scenario is not there.
    Missing { field: String },
    /// A row has a different length from the first row of the same matrix.
    Ragged {
        field: String,
        row: String,
        expected: usize,
        found: usize,
    },
    /// Two matrices do not fit together, e.g. W_Q has 3 rows but X has 4 columns.
    ShapeMismatch {
        field: String,
        expected: String,
        found: String,
    },
    /// A number is NaN or infinite.
    NonFinite { field: String, row: String },
    /// A size is past a documented limit (see [`crate::limits`]).
    TooLarge {
        field: String,
        what: &'static str,
        limit: usize,
        found: usize,
    },
    /// A setting is outside its documented range (see [`crate::limits`]), e.g.
    /// the number of keys in the scaling experiment.
    OutOfRange {
        field: String,
        what: &'static str,
        min: usize,
        max: usize,
        found: usize,
    },
    /// The numbers are finite but so large that an intermediate overflowed.
    Overflow { field: String },
    /// A value has the wrong JSON type, e.g. a string where a number belongs.
    WrongType {
        field: String,
        row: String,
        expected: &'static str,
    },
    /// The text is not valid JSON at all.
    Json { message: String },
    /// Learned positions without `p`, the T×d matrix they add to x.
    MissingPositions { field: String },
    /// `p` with positions other than learned, which would never read it.
    UnusedPositions {
        field: String,
        /// The positions in use ([`crate::positions::Positions::id`]).
        positions: &'static str,
    },
    /// RoPE turns a head's columns in pairs, and the head has an odd number.
    OddColumns {
        field: String,
        /// Columns per head.
        found: usize,
    },
}

impl fmt::Display for AttentionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty { field } => write!(f, "{field}: is empty; it needs at least one number"),
            Self::Missing { field } if field.starts_with("block.final_norm") => {
                write!(f, "{field}: is missing; a final norm needs gamma")
            }
            Self::Missing { field } if field.starts_with("block") => write!(
                f,
                "{field}: is missing; a block needs layers, each with w_q, w_k, w_v, w_o, gamma_1, gamma_2, w_1 and w_2"
            ),
            Self::Missing { field } => write!(
                f,
                "{field}: is missing; a scenario needs x, w_q, w_k and w_v"
            ),
            Self::Ragged {
                field,
                row,
                expected,
                found,
            } => write!(
                f,
                "{field}: {row} has {}, but the first row has {expected}",
                crate::scenario::count(*found, "number")
            ),
            Self::ShapeMismatch {
                field,
                expected,
                found,
            } => write!(f, "{field}: found {found}, expected {expected}"),
            Self::NonFinite { field, row } => {
                write!(f, "{field}: {row} holds a number that is NaN or infinite")
            }
            Self::TooLarge {
                field,
                what,
                limit,
                found,
            } => write!(f, "{field}: {found} {what} is past the limit of {limit}"),
            Self::OutOfRange {
                field,
                what,
                min,
                max,
                found,
            } => write!(
                f,
                "{field}: {what} must be between {min} and {max}, but it is {found}"
            ),
            Self::Overflow { field } => write!(
                f,
                "{field}: the numbers are so large that this step overflowed; use smaller values"
            ),
            Self::WrongType {
                field,
                row,
                expected,
            } => write!(f, "{field}: {row} should be {expected}"),
            Self::Json { message } => write!(f, "input: not valid JSON ({message})"),
            Self::MissingPositions { field } => write!(
                f,
                "{field}: is missing; positions \"learned\" adds row t of {field} to row t of x"
            ),
            Self::UnusedPositions { field, positions } => write!(
                f,
                "{field}: is given, but positions is \"{positions}\"; only positions \"learned\" reads {field}"
            ),
            Self::OddColumns { field, found } => write!(
                f,
                "{field}: rope rotates pairs of columns: each head needs an even number of columns, found {found}"
            ),
        }
    }
}

impl std::error::Error for AttentionError {}

impl AttentionError {
    /// The field at fault, if the error names one.
    pub fn field(&self) -> Option<String> {
        // A copy, so that one match names the field slot of every variant.
        self.clone().field_slot_mut().map(|f| f.clone())
    }

    /// The same error about a field inside `scope`, e.g. `w_1` of
    /// `block.layers[1]`, named from the top of the scenario.
    pub fn within(mut self, scope: &str) -> Self {
        if let Some(field) = self.field_slot_mut() {
            *field = format!("{scope}.{field}");
        }
        self
    }

    fn field_slot_mut(&mut self) -> Option<&mut String> {
        match self {
            Self::Empty { field }
            | Self::Missing { field }
            | Self::Ragged { field, .. }
            | Self::ShapeMismatch { field, .. }
            | Self::NonFinite { field, .. }
            | Self::TooLarge { field, .. }
            | Self::OutOfRange { field, .. }
            | Self::Overflow { field }
            | Self::WrongType { field, .. }
            | Self::MissingPositions { field }
            | Self::UnusedPositions { field, .. }
            | Self::OddColumns { field, .. } => Some(field),
            Self::Json { .. } => None,
        }
    }
}
