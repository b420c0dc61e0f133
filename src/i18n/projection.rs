//! Strings of the projection diagram and the cell editor.

use super::Msg;

pub const TITLE: Msg = Msg {
    zh: "投影：Q = XW_Q，K = XW_K，V = XW_V",
    en: "Projection: Q = XW_Q, K = XW_K, V = XW_V",
};
pub const EXPLAIN: Msg = Msg {
    zh: "每个词的向量乘上三个可学习的矩阵，得到它的查询 Q（我在找什么）、键 K（我能被怎样匹配）和值 V（我能提供什么）。",
    en: "Each token's vector is multiplied by three learned matrices, giving its query Q (what am I looking for), key K (what can I be matched on) and value V (what I contribute).",
};
pub const HINT: Msg = Msg {
    zh: "轻点或指向 Q、K、V 的一个格子（键盘用 Tab 和方向键），看它是怎么算出来的。点 X 或 W 的格子可以改数字，也可以上下拖动它。",
    en: "Tap or point at a cell of Q, K or V (with the keyboard: Tab, then the arrows) to see how it is made. Click or tap a cell of X or W to type a new number, or drag it up and down.",
};
pub const X_ARIA: Msg = Msg {
    zh: "输入矩阵 X：每行是一个词的向量",
    en: "Input matrix X: one row per token",
};
pub const W_Q_ARIA: Msg = Msg {
    zh: "查询权重矩阵 W_Q",
    en: "Query weight matrix W_Q",
};
pub const W_K_ARIA: Msg = Msg {
    zh: "键权重矩阵 W_K",
    en: "Key weight matrix W_K",
};
pub const W_V_ARIA: Msg = Msg {
    zh: "值权重矩阵 W_V",
    en: "Value weight matrix W_V",
};
pub const Q_ARIA: Msg = Msg {
    zh: "查询矩阵 Q = XW_Q",
    en: "Query matrix Q = XW_Q",
};
pub const K_ARIA: Msg = Msg {
    zh: "键矩阵 K = XW_K",
    en: "Key matrix K = XW_K",
};
pub const V_ARIA: Msg = Msg {
    zh: "值矩阵 V = XW_V",
    en: "Value matrix V = XW_V",
};
pub const EDITING: Msg = Msg {
    zh: "修改",
    en: "Edit",
};
pub const CHANGED_NOTE: Msg = Msg {
    zh: "虚线框标出上一次改动真正改变了的格子；其余格子变色只是因为色标跟着最大值变了。",
    en: "Dashed outlines mark the cells the last change really changed; other cells only change colour because the shared scale follows the largest value.",
};
pub const EDIT_HELP: Msg = Msg {
    zh: "输入数字后按回车；Esc 取消",
    en: "Type a number and press Enter; Esc cancels",
};
pub const LEGEND_TITLE: Msg = Msg {
    zh: "数值（本图所有矩阵同一色标）",
    en: "Value (one scale for all matrices)",
};
pub const LEGEND_ARIA: Msg = Msg {
    zh: "投影图的颜色图例：蓝色为负，白色为零，红色为正",
    en: "Colour legend of the projection: blue is negative, white is zero, red is positive",
};
