//! The core's errors in the learner's language. The core names the field and
//! row at fault in English (its command-line tool and tests read that); the
//! app says the same in Chinese from the error's parts.

use super::Lang;
use attention_core::AttentionError;

/// The Chinese for the core's words for what a limit counts.
fn counted(what: &str) -> &str {
    match what {
        "sequences" => "个序列",
        "positions" => "个位置",
        "features" => "个特征",
        "columns" => "列",
        "columns per head" => "列（每个头）",
        "characters" => "个字符",
        "score cells (B×T×T)" => "个分数格（B×T×T）",
        "score cells (B×heads×T×T)" => "个分数格（B×头数×T×T）",
        "heads" => "个头",
        "layers" => "层数",
        _ => what,
    }
}

/// The Chinese for where in a field the core found a problem: `row [1][2]`,
/// `label [3]`, `the whole field` and the like.
fn place(row: &str) -> String {
    if let Some(path) = row.strip_prefix("row ") {
        format!("第 {path} 行")
    } else if let Some(path) = row.strip_prefix("label ") {
        format!("第 {path} 个标签")
    } else if let Some(path) = row.strip_prefix("flag ") {
        format!("第 {path} 个标记")
    } else if let Some(path) = row.strip_prefix("number ") {
        format!("第 {path} 个数")
    } else {
        match row {
            "the whole input" => "整个输入".into(),
            "the whole field" => "整个字段".into(),
            "this field" => "这个字段".into(),
            "the value" => "它的值".into(),
            other => other.into(),
        }
    }
}

/// The Chinese for what the core expected a JSON value to be.
fn expected(what: &str) -> &str {
    match what {
        "a JSON object with fields x, w_q, w_k and w_v" => {
            "一个含有 x、w_q、w_k、w_v 字段的 JSON 对象"
        }
        "one of tokens, x, w_q, w_k, w_v, heads, w_o, mask, causal, scale, positions, p, block" => {
            "tokens、x、w_q、w_k、w_v、heads、w_o、mask、causal、scale、positions、p、block 之一"
        }
        "an object with the field layers" => "含有 layers 字段的对象",
        "one of norm_first, activation, eps, layers, final_norm" => {
            "norm_first、activation、eps、layers、final_norm 之一"
        }
        "\"relu\" or \"gelu\"" => "\"relu\" 或 \"gelu\"",
        "a positive number" => "正数",
        "a number" => "数字",
        "a list of layers" => "由层组成的列表",
        "an object with the fields gamma and beta" => "含有 gamma 和 beta 字段的对象",
        "one of gamma, beta" => "gamma、beta 之一",
        "an object of one layer's weights" => "一层的权重组成的对象",
        "one of w_q, w_k, w_v, w_o, b_q, b_k, b_v, b_o, gamma_1, beta_1, gamma_2, beta_2, w_1, b_1, w_2, b_2" => {
            "w_q、w_k、w_v、w_o、b_q、b_k、b_v、b_o、gamma_1、beta_1、gamma_2、beta_2、w_1、b_1、w_2、b_2 之一"
        }
        "one of \"none\", \"sinusoidal\", \"learned\", \"rope\"" => {
            "\"none\"、\"sinusoidal\"、\"learned\"、\"rope\" 之一"
        }
        "a whole number of heads" => "表示头数的整数",
        "a list of rows of numbers" => "由数字行组成的列表",
        "a list of numbers" | "a list of numbers only" => "只含数字的列表",
        "a list of sequences" => "由序列组成的列表",
        "a list of 0/1 flags" => "由 0/1 组成的列表",
        "a list of rows of 0/1, one per sequence" => "由 0/1 行组成的列表，每个序列一行",
        "0 (padding) or 1 (real)" => "0（填充）或 1（真实）",
        "a list of strings" => "字符串列表",
        "a string" => "字符串",
        "true or false" => "true 或 false",
        other => other,
    }
}

/// A field's name; the whole input, which is no JSON field, in Chinese.
fn name(field: &str) -> &str {
    if field == "input" {
        "输入"
    } else {
        field
    }
}

/// A shape or count the core describes, with its reason, in Chinese:
/// `4×3 (its rows must match the 4 features of x)` → `4×3（行数要等于 x 的特征数）`,
/// `2 flags` → `2 个标记`.
fn shape(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("a multiple of ") {
        let columns = rest.split(' ').next().unwrap_or(rest);
        return format!("{columns} 的倍数列（每个头分到同样多的列）");
    }
    let (size, reason) = text.split_once(' ').unwrap_or((text, ""));
    let reason = if reason.starts_with("(its rows must match the columns of w_1") {
        "（行数要等于 w_1 的列数，列数要等于 x 的特征数）"
    } else if reason.starts_with("(its rows must match the ") {
        "（行数要等于 x 的特征数）"
    } else if let Some(matrix) = reason.strip_prefix("numbers, one per column of ") {
        return format!("{size} 个数，{matrix} 的每列一个");
    } else {
        match reason {
            "(one flag per position of x)" => "（x 的每个位置一个标记）",
            "like the first sequence" => "（与第一个序列相同）",
            "flags, one per position of x" => " 个标记，x 的每个位置一个",
            "rows, one per sequence of x" => " 行，x 的每个序列一行",
            "labels, one per position of x" => " 个标签，x 的每个位置一个",
            "flags, one row for the one sequence of x (x is T×d)" => {
                " 个标记，只有一行：x 只有一个序列（T×d）"
            }
            "rows, a batch's mask" | "row, a batch's mask" => " 行：这是一批序列的掩码",
            "flag" | "flags" => " 个标记",
            "rows, one per column of the joined heads (the columns of w_v)" => {
                " 行，拼接后的每一列一行（即 w_v 的列数）"
            }
            "row" | "rows" => " 行",
            "numbers, one per feature of x" => " 个数，x 的每个特征一个",
            "columns (one per feature of x: the residual adds them)" => {
                " 列（x 的每个特征一列：残差要把它们相加）"
            }
            "number" | "numbers" => " 个数",
            "column" | "columns" => " 列",
            "label" | "labels" => " 个标签",
            other => other,
        }
    };
    format!("{size}{reason}")
}

/// `error` as a sentence in `lang`.
pub fn attention_error(error: &AttentionError, lang: Lang) -> String {
    if lang == Lang::En {
        return match error {
            AttentionError::Json { .. } => format!(
                "{error}. JSON needs double quotes, true/false and no trailing commas; from Python, write it with json.dumps"
            ),
            _ => error.to_string(),
        };
    }
    match error {
        AttentionError::Empty { field } => format!("{}：是空的，至少需要一个数", name(field)),
        AttentionError::Missing { field } if field.starts_with("block.final_norm") => {
            format!("缺少 {field}：最后的层归一化需要 gamma")
        }
        AttentionError::Missing { field } if field.starts_with("block") => format!(
            "缺少 {field}：block 需要 layers，每层都要有 w_q、w_k、w_v、w_o、gamma_1、gamma_2、w_1 和 w_2"
        ),
        AttentionError::Missing { field } => {
            format!("缺少 {field}：场景需要 x、w_q、w_k 和 w_v")
        }
        AttentionError::Ragged {
            field,
            row,
            expected,
            found,
        } => format!(
            "{field}：{}有 {found} 个数，但第一行有 {expected} 个",
            place(row)
        ),
        AttentionError::ShapeMismatch {
            field,
            expected,
            found,
        } => format!("{field}：形状应为 {}，实际是 {}", shape(expected), shape(found)),
        AttentionError::NonFinite { field, row } => {
            format!("{field}：{}有 NaN 或无穷大的数", place(row))
        }
        AttentionError::TooLarge {
            field,
            what,
            limit,
            found,
        } => format!("{field}：有 {found} {}，超过了上限 {limit}", counted(what)),
        AttentionError::OutOfRange {
            field,
            what,
            min,
            max,
            found,
        } => format!(
            "{field}：{}必须在 {min} 到 {max} 之间，现在是 {found}",
            counted(what)
        ),
        AttentionError::Overflow { field } => {
            format!("{field}：数字太大，这一步溢出了；请用小一些的数")
        }
        AttentionError::WrongType { field, expected, .. } if expected.starts_with("left out") => {
            format!("{field}：有 block 时要去掉这个字段，block 的每一层都有自己的 w_q、w_k、w_v 和 w_o")
        }
        AttentionError::WrongType {
            field,
            row,
            expected: what,
        } => format!("{field}：{}应该是{}", place(row), expected(what)),
        AttentionError::MissingPositions { field } => {
            format!("缺少 {field}：位置编码 \"learned\" 要把 {field} 的第 t 行加到 x 的第 t 行")
        }
        AttentionError::UnusedPositions { field, positions } => format!(
            "{field}：位置编码是 \"{positions}\"，用不到 {field}；只有 \"learned\" 才读它"
        ),
        AttentionError::OddColumns { field, found } => format!(
            "{field}：RoPE 把列两两一组旋转，每个头要有偶数列，现在是 {found} 列"
        ),
        AttentionError::Json { message } => format!(
            "输入不是有效的 JSON（{message}）。JSON 要用双引号、true/false，末尾不能有多余的逗号；Python 里请用 json.dumps 生成"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attention_core::Scenario;

    /// Imports that go wrong in every way the format can.
    const BAD: [&str; 32] = [
        "[1]",
        r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "nope": 1}"#,
        r#"{"x": "a", "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}"#,
        r#"{"x": [[1, 2], [3]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}"#,
        r#"{"x": [[1, "a"]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}"#,
        r#"{"x": [[1, 2]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}"#,
        r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "tokens": [1]}"#,
        r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "causal": 2}"#,
        r#"{"x": [[1]], "w_k": [[1]], "w_v": [[1]]}"#,
        r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "mask": [2]}"#,
        r#"{"x": [[[1]]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "mask": [1]}"#,
        r#"{"x": [[1], [2]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "mask": [[1, 1]]}"#,
        r#"{"x": [[1], [2]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "mask": [1]}"#,
        r#"{"x": [[1, 2]], "w_q": [[1], [2], [3]], "w_k": [[1]], "w_v": [[1]]}"#,
        r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "heads": 1.5}"#,
        r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "heads": 9}"#,
        r#"{"x": [[1]], "w_q": [[1, 2, 3]], "w_k": [[1, 2, 3]], "w_v": [[1, 2]], "heads": 2}"#,
        r#"{"x": [[1]], "w_q": [[1, 2]], "w_k": [[1, 2]], "w_v": [[1, 2]], "heads": 2, "w_o": [[1]]}"#,
        r#"{"x": [[1]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1e300]], "w_o": [[1e300]]}"#,
        // A block, wrong in each of its own ways.
        r#"{"x": [[1, 2]], "w_q": [[1], [2]], "block": {"layers": []}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": [], "nope": 1}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": []}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": 3}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": [{}]}}"#,
        r#"{"x": [[1, 2]], "block": {"activation": "tanh", "layers": [{}]}}"#,
        r#"{"x": [[1, 2]], "block": {"eps": 0, "layers": [{}]}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": [LAYER], "final_norm": {}}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": [LAYER, 7]}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": [LAYER], "final_norm": {"gamma": [1, null]}}}"#,
        r#"{"x": [[1, 2, 3]], "block": {"layers": [LAYER]}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": [{"w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]], "w_o": [[1], [0]], "gamma_1": [1, 1], "gamma_2": [1, 1], "w_1": [[1], [1]], "w_2": [[1, 1]]}]}}"#,
        r#"{"x": [[1, 2]], "block": {"layers": [{"w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]], "w_o": [[1, 0], [0, 1]], "gamma_1": [1, 1, 1], "gamma_2": [1, 1], "w_1": [[1], [1]], "w_2": [[1, 1]]}]}}"#,
    ];

    /// A valid layer for the block cases above (d = 2, d_ff = 1).
    const LAYER: &str = r#"{"w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]], "w_o": [[1, 0], [0, 1]], "gamma_1": [1, 1], "gamma_2": [1, 1], "w_1": [[1], [1]], "w_2": [[1, 1]]}"#;

    #[test]
    fn every_import_problem_reads_as_chinese_naming_its_field() {
        for text in BAD {
            let text = &text.replace("LAYER", LAYER);
            let error = Scenario::from_json(text)
                .and_then(|s| s.run().map(|_| ()))
                .expect_err(text);
            let zh = attention_error(&error, Lang::Zh);
            let english_words = zh
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|w| {
                    w.len() > 2
                        && ![
                            "true",
                            "false",
                            "input",
                            "tokens",
                            "mask",
                            "causal",
                            "scale",
                            "JSON",
                            "nope",
                            "heads",
                            "output",
                            "positions",
                            "block",
                            "layers",
                            "final",
                            "norm",
                            "first",
                            "activation",
                            "eps",
                            "gamma",
                            "beta",
                            "relu",
                            "gelu",
                        ]
                        .contains(w)
                })
                .count();
            assert_eq!(english_words, 0, "{text} → {zh}");
            assert_ne!(zh, attention_error(&error, Lang::En));
        }
    }

    /// A shape mismatch says why in Chinese too, not only the two shapes.
    #[test]
    fn a_shape_mismatch_gives_its_reason_in_chinese() {
        let says = |text: &str| {
            let error = Scenario::from_json(text).expect_err(text);
            attention_error(&error, Lang::Zh)
        };
        assert_eq!(
            says(r#"{"x": [[1], [2]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "mask": [[1, 1]]}"#),
            "mask：形状应为 2 个标记，只有一行：x 只有一个序列（T×d），实际是 1 行：这是一批序列的掩码"
        );
        assert_eq!(
            says(r#"{"x": [[1], [2]], "w_q": [[1]], "w_k": [[1]], "w_v": [[1]], "mask": [1]}"#),
            "mask：形状应为 2 个标记，x 的每个位置一个，实际是 1 个标记"
        );
    }
}
