//! Strings of the generation card: causal decoding one token at a time,
//! with a cache of keys and values.

use super::Msg;

pub const TITLE: Msg = Msg {
    zh: "生成：一次一个词元，带 KV 缓存",
    en: "Generation: one token at a time, with a KV cache",
};
pub const EXPLAIN: Msg = Msg {
    zh: "模型写文本时一次只加一个词元。第 t 步只算第 t 个词元的 q、k、v：k 和 v 存进缓存，新的 q 只和缓存里第 1 到 t 个键打分（因果掩码），再按权重混合缓存里的值。前面各行的结果不会再变，所以不必重算。每一步的新查询就是选中的词元：点词元或按“下一步”都行。",
    en: "A model writing text adds one token at a time. Step t computes only token t's q, k and v: k and v go into the cache, and the new q scores only the cached keys 1 to t (the causal mask), then mixes the cached values by its weights. Earlier rows never change again, so nothing is computed twice. Each step's new query is the selected token: pick a token or press Next step.",
};
pub const STEP: Msg = Msg {
    zh: "第 t = {t} 步，共 {n} 步",
    en: "Step t = {t} of {n}",
};
pub const PREVIOUS: Msg = Msg {
    zh: "上一步",
    en: "Previous step",
};
pub const NEXT: Msg = Msg {
    zh: "下一步",
    en: "Next step",
};
pub const NEW_TOKEN: Msg = Msg {
    zh: "新词元：",
    en: "New token: ",
};
pub const TABLES_NAME: Msg = Msg {
    zh: "这一步的缓存、查询、权重和输出",
    en: "This step's caches, query, weights and output",
};
pub const K_CACHE: Msg = Msg {
    zh: "K 缓存（每步多一行）",
    en: "K cache (a row more each step)",
};
pub const V_CACHE: Msg = Msg {
    zh: "V 缓存（每步多一行）",
    en: "V cache (a row more each step)",
};
pub const QUERY: Msg = Msg {
    zh: "新的查询 q",
    en: "The new query q",
};
pub const WEIGHTS: Msg = Msg {
    zh: "它对缓存中各键的权重 α′",
    en: "Its weights α′ over the cached keys",
};
pub const OUTPUT: Msg = Msg {
    zh: "它的输出",
    en: "Its output",
};
pub const LAYER_OUTPUT: Msg = Msg {
    zh: "这一层的输出（各头拼接后）",
    en: "The layer's output (the heads joined)",
};
/// After a caption whose own note is in brackets: a second pair would nest.
pub const TURNED: Msg = Msg {
    zh: "，已按 RoPE 旋转",
    en: ", turned by RoPE",
};
pub const MATCHES: Msg = Msg {
    zh: "一次算完全部词元（带因果掩码）时，第 t 个词元的输出和这里一样。两者最大的差别：",
    en: "Computing every token at once, with the causal mask, gives token t this same output. The largest difference between the two: ",
};
pub const WORK: Msg = Msg {
    zh: "乘加次数（由核心计数）",
    en: "Multiply-adds (counted by the core)",
};
pub const WITH_CACHE: Msg = Msg {
    zh: "用缓存",
    en: "With the cache",
};
pub const WITHOUT_CACHE: Msg = Msg {
    zh: "不用缓存（每步重算整段前缀，连遮住的分数也算）",
    en: "Without it (the whole prefix again each step, masked scores included)",
};
pub const THIS_STEP: Msg = Msg {
    zh: "这一步",
    en: "This step",
};
pub const ALL_STEPS: Msg = Msg {
    zh: "全部步骤合计",
    en: "All steps",
};
pub const NOT_CAUSAL: Msg = Msg {
    zh: "生成总是用因果掩码：这里按因果掩码计算，即使上面没有勾选它。",
    en: "Generation always uses the causal mask: it is applied here even where the controls leave it off.",
};
