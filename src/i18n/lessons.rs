//! The lesson menu's words (`crate::lessons`): its name and each lesson's.

use super::Msg;

pub const MENU: Msg = Msg {
    zh: "课程",
    en: "Lessons",
};
pub const ONE_HEAD: Msg = Msg {
    zh: "单头注意力",
    en: "One head",
};
pub const SEVERAL_HEADS: Msg = Msg {
    zh: "多头",
    en: "Several heads",
};
pub const WORD_ORDER: Msg = Msg {
    zh: "词序与位置",
    en: "Word order",
};
pub const GENERATION: Msg = Msg {
    zh: "逐词生成",
    en: "Generation",
};
pub const BLOCK: Msg = Msg {
    zh: "Transformer 块",
    en: "Transformer block",
};
pub const TRAINING: Msg = Msg {
    zh: "训练",
    en: "Training",
};
pub const WHY_SCALE: Msg = Msg {
    zh: "为何除以 √d_k",
    en: "Why √d_k",
};
