//! Strings of the "why √d_k" experiment.

use super::Msg;

pub const TITLE: Msg = Msg {
    zh: "为什么除以 √d_k：动手做个实验",
    en: "Why divide by √d_k: an experiment",
};
pub const EXPLAIN: Msg = Msg {
    zh: "对每个 d_k，从种子抽取许多组随机的 q 和 8 个键 k（每个分量都来自标准正态分布），分别算不缩放和除以 √d_k 的分数，再看 softmax 会怎样。q·k 是 d_k 个乘积之和，每个乘积的方差是 1，所以 q·k 的方差随 d_k 线性增长（约等于 d_k），分数的离散程度（标准差）则像 √d_k 那样增长。不缩放时分数差距越来越大，softmax 越来越尖，梯度越来越小；除以 √d_k 正好把标准差拉回 1，这些量几乎不变。‖J‖ 是 softmax 雅可比矩阵的大小：分数稍微变一点，权重会跟着变多少；它接近 0 时，梯度几乎传不回 Q 和 K。横轴是 d_k（对数刻度）。",
    en: "For each d_k, many random queries q and 8 keys k are drawn from the seed, every component standard normal. Their scores are taken with and without dividing by √d_k, and fed to softmax. q·k adds up d_k products of variance 1 each, so its variance grows like d_k and its spread (standard deviation) like √d_k. Unscaled, scores drift further apart, softmax gets ever more peaked and its gradient shrinks; dividing by √d_k brings the spread back to 1, and all of them barely move. ‖J‖ is the size of the softmax's Jacobian: how much the weights move when the scores move a little; near 0, almost no gradient reaches Q and K. The horizontal axis is d_k (log scale).",
};
pub const DIM: Msg = Msg {
    zh: "d_k（对数刻度）",
    en: "d_k (log scale)",
};
pub const SEED: Msg = Msg {
    zh: "随机种子",
    en: "Seed",
};
pub const BAD_SEED: Msg = Msg {
    zh: "随机种子要写成 0 到 18446744073709551615 之间的整数；图表仍按上一个种子画。",
    en: "The seed must be a whole number from 0 to 18446744073709551615; the charts still show the last seed.",
};
pub const UNSCALED: Msg = Msg {
    zh: "不缩放",
    en: "no scaling",
};
pub const SCALED: Msg = Msg {
    zh: "除以 √d_k",
    en: "÷ √d_k",
};
pub const VARIANCE: Msg = Msg {
    zh: "q·k 的方差（对数刻度）",
    en: "Variance of q·k (log scale)",
};
pub const MAX_WEIGHT: Msg = Msg {
    zh: "一行中最大的 softmax 权重",
    en: "Largest softmax weight of a row",
};
pub const ENTROPY: Msg = Msg {
    zh: "一行权重的熵（nats）",
    en: "Entropy of a row (nats)",
};
pub const GRADIENT: Msg = Msg {
    zh: "softmax 梯度的大小 ‖J‖",
    en: "Size of the softmax gradient ‖J‖",
};
pub const READOUT: Msg = Msg {
    zh: "d_k = {d}：不缩放 {unscaled}，缩放后 {scaled}",
    en: "d_k = {d}: {unscaled} unscaled, {scaled} scaled",
};
pub const CHART_ARIA: Msg = Msg {
    zh: "折线图：横轴是 d_k，从 1 到 512；两条线分别是不缩放和除以 √d_k。",
    en: "Line chart against d_k from 1 to 512, one line without scaling and one divided by √d_k.",
};
pub const PROBLEM: Msg = Msg {
    zh: "实验算不出来：",
    en: "The experiment could not run: ",
};
