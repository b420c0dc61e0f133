//! Strings of the controls panel.

use super::Msg;
use crate::lab::LabError;

pub const CONTROLS_TITLE: Msg = Msg {
    zh: "输入与设置",
    en: "Input and settings",
};
pub const TOKENS: Msg = Msg {
    zh: "词元（点击选为查询）",
    en: "Tokens (click one to make it the query)",
};
pub const RENAME: Msg = Msg {
    zh: "重命名词元",
    en: "Rename token",
};
pub const PAD: Msg = Msg {
    zh: "填充",
    en: "Pad",
};
pub const PAD_LABEL: Msg = Msg {
    zh: "把这个词元标为填充（作为键时被屏蔽）",
    en: "Mark this token as padding (masked as a key)",
};
pub const REMOVE: Msg = Msg {
    zh: "删除这个词元",
    en: "Remove this token",
};
pub const NEW_TOKEN: Msg = Msg {
    zh: "新词元",
    en: "New token",
};
pub const ADD: Msg = Msg {
    zh: "添加",
    en: "Add",
};
pub const D_MODEL: Msg = Msg {
    zh: "d_model（输入维度）",
    en: "d_model (input features)",
};
pub const D_K: Msg = Msg {
    zh: "d_k（Q、K、V 的维度）",
    en: "d_k (width of Q, K and V)",
};
pub const SCALE: Msg = Msg {
    zh: "除以 √d_k",
    en: "Divide by √d_k",
};
pub const CAUSAL: Msg = Msg {
    zh: "因果掩码（只看前面的词）",
    en: "Causal mask (look only at earlier tokens)",
};
pub const SEED: Msg = Msg {
    zh: "随机种子",
    en: "Seed",
};
pub const RANDOMIZE: Msg = Msg {
    zh: "随机生成 W",
    en: "Random W",
};
pub const SEQUENCE: Msg = Msg {
    zh: "批次中的序列",
    en: "Sequence of the batch",
};

/// Why an edit was refused, in the learner's language.
pub fn lab_error(error: &LabError) -> (Msg, String) {
    let (msg, detail) = match error {
        LabError::TooManyTokens => (
            Msg {
                zh: "词元太多：这里最多 16 个（链接中最多 64 个）",
                en: "Too many tokens: at most 16 here (64 from a link)",
            },
            String::new(),
        ),
        LabError::LastToken => (
            Msg {
                zh: "至少要保留一个词元",
                en: "At least one token must stay",
            },
            String::new(),
        ),
        LabError::BadLabel => (
            Msg {
                zh: "词元需要 1 到 32 个字符",
                en: "A token needs 1 to 32 characters",
            },
            String::new(),
        ),
        LabError::NotANumber(text) => (
            Msg {
                zh: "不是有限的数字：",
                en: "Not a finite number: ",
            },
            format!("“{text}”"),
        ),
        LabError::BadSize(size) => (
            Msg {
                zh: "维度必须在 2 到 16 之间：",
                en: "A size must be from 2 to 16: ",
            },
            size.to_string(),
        ),
        LabError::OutOfRange => (
            Msg {
                zh: "没有这个位置",
                en: "There is no such position",
            },
            String::new(),
        ),
    };
    (msg, detail)
}
