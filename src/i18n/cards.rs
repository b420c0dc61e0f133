//! Each card's name where the page lists its cards (the embed builder's
//! panels), one per registry entry (`crate::cards`).

use super::Msg;

pub const WALKTHROUGH: Msg = Msg {
    zh: "分步讲解",
    en: "Walkthrough",
};
pub const CONTROLS: Msg = super::controls::CONTROLS_TITLE;
pub const HEADS: Msg = Msg {
    zh: "多头",
    en: "Heads",
};
pub const BLOCK: Msg = Msg {
    zh: "Transformer 块",
    en: "Transformer block",
};
pub const POSITIONS: Msg = Msg {
    zh: "位置：X + P 与 RoPE",
    en: "Positions: X + P and RoPE",
};
pub const PROJECTION: Msg = Msg {
    zh: "投影",
    en: "Projection",
};
pub const DOT_PRODUCTS: Msg = Msg {
    zh: "打分",
    en: "Scores",
};
pub const SOFTMAX: Msg = Msg {
    zh: "softmax 归一化",
    en: "Softmax",
};
pub const FUSION: Msg = Msg {
    zh: "融合",
    en: "Fusion",
};
pub const OUTPUT_PROJECTION: Msg = Msg {
    zh: "拼接 × W_O",
    en: "Concat × W_O",
};
pub const WORD_ORDER: Msg = Msg {
    zh: "词序：打乱词元",
    en: "Word order: shuffled tokens",
};
pub const GENERATION: Msg = Msg {
    zh: "生成：KV 缓存",
    en: "Generation: the KV cache",
};
pub const TRAINING: Msg = Msg {
    zh: "训练",
    en: "Training",
};
pub const EXPERIMENT: Msg = Msg {
    zh: "√d_k 实验",
    en: "The √d_k experiment",
};
pub const MISTAKES: Msg = super::mistakes::TITLE;
pub const SHARE: Msg = super::share::TITLE;
