//! Strings of the heads card and of the output projection (concatenation ×
//! W_O), whose title and explanation are the walkthrough's step 10.

use super::Msg;

pub const HEADS_TITLE: Msg = Msg {
    zh: "多头：每个头各算一遍注意力",
    en: "Several heads: each computes attention on its own",
};
pub const HEADS_EXPLAIN: Msg = Msg {
    zh: "每个头只用 W_Q、W_K、W_V 中属于自己的 d_k 列，算出自己的权重。每张小图是一个头的权重 α′（行是查询，列是键，越亮权重越大）。",
    en: "Each head uses only its own d_k columns of W_Q, W_K and W_V, and computes its own weights. Each small map is one head's weights α′ (rows are queries, columns keys, brighter is more weight).",
};
/// Said only where the four diagrams are on the page (not in an embed of
/// the heads card without them).
pub const HEADS_PICK: Msg = Msg {
    zh: "选一个头，下面的四张图就显示它。",
    en: "Pick a head and the four diagrams below show it.",
};
pub const HEAD: Msg = Msg {
    zh: "头 ",
    en: "Head ",
};
/// Which head a diagram shows, with several ("head 2 of 4").
pub const HEAD_OF: Msg = Msg {
    zh: "头 {h}（共 {n} 个）",
    en: "head {h} of {n}",
};

/// [`HEAD_OF`] for head `h` of `n`, counted from 1.
pub fn head_of((h, n): (usize, usize), lang: super::Lang) -> String {
    HEAD_OF
        .get(lang)
        .replace("{h}", &h.to_string())
        .replace("{n}", &n.to_string())
}

pub const PICKER: Msg = Msg {
    zh: "选择下面四张图显示的头",
    en: "Pick the head the four diagrams show",
};
pub const THUMBNAIL_ARIA: Msg = Msg {
    zh: " 的权重 α′，点击选中这个头",
    en: "’s weights α′; click to pick this head",
};
/// Before the weights of a map's rows, in its name for a screen reader.
pub const BY_QUERY: Msg = Msg {
    zh: "。每行（查询）的权重：",
    en: ". Weights by query: ",
};
/// Where pointing at a map's cell says its weight, until it does.
pub const READOUT_HINT: Msg = Msg {
    zh: "把指针移到（或点按）小图的格子上，这里就显示它的查询、键和权重。",
    en: "Point at (or tap) a cell of a map to read its query, key and weight here.",
};
pub const POOLED: Msg = Msg {
    zh: "每个小格是一块权重的平均值，块的边长为 ",
    en: "Each small cell is the mean of a square block of weights, this many on a side: ",
};
pub const NO_W_O: Msg = Msg {
    zh: "这一层没有 W_O：输出就是拼接的结果本身。勾选“输出投影 W_O”可以加上它。",
    en: "This layer has no W_O: its output is the joined heads themselves. Tick “Output projection W_O” to add one.",
};
pub const EDIT_W_O: Msg = Msg {
    zh: "点 W_O 的格子可以输入新数字，或上下拖动它。",
    en: "Click a cell of W_O to type a new number, or drag it up or down.",
};
pub const CONCAT: Msg = Msg {
    zh: "拼接 Concat(head₁, …, head_h)",
    en: "Concat(head₁, …, head_h)",
};
pub const CONCAT_ARIA: Msg = Msg {
    zh: "拼接后的各头输出，每行一个词元",
    en: "The heads’ outputs joined, one row per token",
};
pub const W_O_ARIA: Msg = Msg {
    zh: "输出投影 W_O，可编辑",
    en: "Output projection W_O, editable",
};
pub const OUTPUT: Msg = Msg {
    zh: "输出",
    en: "Output",
};
pub const OUTPUT_ARIA: Msg = Msg {
    zh: "这一层的输出，每行一个词元",
    en: "The layer’s output, one row per token",
};
