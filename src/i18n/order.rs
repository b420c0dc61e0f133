//! Strings of word order: the positions switch, the positions card
//! (X + P) and the permutation lesson's card.

use super::Msg;

pub const POSITIONS: Msg = Msg {
    zh: "位置编码",
    en: "Positions",
};
pub const NONE: Msg = Msg {
    zh: "无（注意力不知道词序）",
    en: "None (attention cannot see word order)",
};
pub const SINUSOIDAL: Msg = Msg {
    zh: "正弦位置编码（加到 X 上）",
    en: "Sinusoidal (added to X)",
};
pub const LEARNED: Msg = Msg {
    zh: "可学习的位置向量 P（加到 X 上）",
    en: "Learned vectors P (added to X)",
};
pub const ROPE: Msg = Msg {
    zh: "RoPE 旋转位置编码（旋转 Q 和 K）",
    en: "RoPE (rotates Q and K)",
};

pub const ADDED_TITLE: Msg = Msg {
    zh: "位置：X + P",
    en: "Positions: X + P",
};
pub const SINUSOIDAL_EXPLAIN: Msg = Msg {
    zh: "每个位置 p 有一行固定的向量：第 1、3、5… 列（从 0 数是第 2i 列）是 sin(p / 10000^(2i/d))，第 2、4、6… 列是 cos(p / 10000^(2i/d))，p 从 0 数起。把它加到词元的向量上，同一个词放在不同位置，进入投影的向量就不同。",
    en: "Each position p has a fixed row: sin(p / 10000^(2i/d)) in columns 1, 3, 5, … (column 2i counting from 0), cos(p / 10000^(2i/d)) in columns 2, 4, 6, …, with p counted from 0. It is added to the token's vector, so the same word at another place enters the projections as another vector.",
};
pub const LEARNED_EXPLAIN: Msg = Msg {
    zh: "每个位置有一行自己的向量 P，和权重一样是学出来的（这里可以直接改）。把它加到词元的向量上，同一个词放在不同位置，进入投影的向量就不同。",
    en: "Each position has a row of its own, P, learned like the weights (you can edit it here). It is added to the token's vector, so the same word at another place enters the projections as another vector.",
};
pub const P_ARIA: Msg = Msg {
    zh: "位置向量 P",
    en: "position vectors P",
};
pub const ENCODED_ARIA: Msg = Msg {
    zh: "加上位置后的输入 X + P",
    en: "the input with positions added, X + P",
};
pub const EDIT_X_HERE: Msg = Msg {
    zh: "有位置编码时，投影用的是 X + P：在“位置”卡片里改 X。",
    en: "With positions, the projections take X + P: edit X in the positions card.",
};

pub const ORDER_TITLE: Msg = Msg {
    zh: "词序：注意力自己知道顺序吗？",
    en: "Word order: does attention know it by itself?",
};
pub const ORDER_EXPLAIN: Msg = Msg {
    zh: "把同样的词换个顺序再算一遍，每个词的输出和原来比一比。没有位置编码时，注意力只看词和词像不像，不看它们在哪儿：打乱词序只会让输出的行换个位置。",
    en: "Run the same tokens again in another order and compare each token's output with the one it had. Without positions, attention only sees how alike tokens are, not where they stand: shuffling the tokens only moves the output rows.",
};
pub const SHUFFLE: Msg = Msg {
    zh: "打乱词序",
    en: "Shuffle tokens",
};
pub const YOURS: Msg = Msg {
    zh: "原来的顺序",
    en: "Your order",
};
pub const SHUFFLED: Msg = Msg {
    zh: "打乱后",
    en: "Shuffled",
};
pub const TOKEN: Msg = Msg {
    zh: "词元",
    en: "Token",
};
pub const WHERE: Msg = Msg {
    zh: "在哪儿",
    en: "Where",
};
pub const OUTPUT: Msg = Msg {
    zh: "它的输出 B（10 位小数）",
    en: "Its output B (10 decimals)",
};
pub const IN_YOURS: Msg = Msg {
    zh: "原顺序，位置 ",
    en: "your order, position ",
};
pub const IN_SHUFFLED: Msg = Msg {
    zh: "打乱后，位置 ",
    en: "shuffled, position ",
};
/// Over the table on a narrow screen, whose rows are wider than it.
pub const SCROLL_HINT: Msg = Msg {
    zh: "表格比屏幕宽：左右滑动可看到每一位数字 →",
    en: "The table is wider than the screen: swipe sideways to see every digit →",
};
pub const TABLE_NAME: Msg = Msg {
    zh: "每个词元在两种顺序下的输出",
    en: "Each token's output in both orders",
};
pub const VERDICT: Msg = Msg {
    zh: "比较",
    en: "Compared",
};
pub const SAME: Msg = Msg {
    zh: "每一位都相同",
    en: "identical in every digit",
};
pub const DIFFERS: Msg = Msg {
    zh: "最多相差 ",
    en: "differs by up to ",
};
pub const ALL_SAME: Msg = Msg {
    zh: "每个词的输出都和原来一模一样，只是换到了新位置的那一行：没有位置信息，注意力分不出这些词的两种顺序（就像分不出“我喜欢打篮球”和“篮球喜欢打我”）。",
    en: "Every token's output is exactly what it was, only moved to its new row: without positions, attention cannot tell one order of these tokens from another (as it cannot tell “I like to play basketball” from “basketball likes to play me”).",
};
pub const ONE_TOKEN: Msg = Msg {
    zh: "只有一个词元，只有一种顺序：再加一个词元才能打乱。",
    en: "One token has only one order: add a token to shuffle.",
};
pub const MASK_CHANGED: Msg = Msg {
    zh: " 个词元的输出变了，但不是因为位置编码：因果掩码让每个词只看它前面的词，词换了位置，看到的词就变了。关掉因果掩码再试一次。",
    en: " tokens’ outputs changed, but not through positions: the causal mask lets each token see only the ones before it, so a token that moves sees other tokens. Turn the causal mask off and try again.",
};
pub const SOME_CHANGED: Msg = Msg {
    zh: "个词元的输出变了：位置信息进了计算，词序不同，结果就不同。",
    en: " tokens’ outputs changed: positions take part in the computation, so another order gives another result.",
};
pub const CAUSAL_NOTE: Msg = Msg {
    zh: "注意：因果掩码本身就跟位置有关（每个词只看前面的词），所以即使没有位置编码，打乱后输出也会变。",
    en: "Note: the causal mask itself depends on position (each token sees only the ones before it), so even without positions the outputs change.",
};
pub const MORE_ROWS: Msg = Msg {
    zh: "表中只列出前 16 个词元；上面的结论数的是全部词元。",
    en: "The table lists the first 16 tokens; the sentence above counts them all.",
};

pub const ROPE_TITLE: Msg = Msg {
    zh: "RoPE：按位置旋转 Q 和 K",
    en: "RoPE: Q and K turned by their positions",
};
pub const ROPE_EXPLAIN: Msg = Msg {
    zh: "投影之后，q 和 k 的列两两一组，看成平面上的箭头：位置 p 上第 i 组转过角度 p·θ_i，θ_i = 10000^(−2i/d_k)。虚线是转之前，实线是转之后（蓝色 q，橙色 k）。两支箭头转过的角度之差只取决于 p_q − p_k，所以分数只看两个词相隔多远，不看它们在哪儿。",
    en: "After the projections, the columns of q and k go in pairs, each pair an arrow in the plane: at position p, pair i turns by the angle p·θ_i, with θ_i = 10000^(−2i/d_k). Dashed is before the turn, solid after (q blue, k orange). The angle between the two arrows changes only with p_q − p_k, so the score depends on how far apart two tokens are, not where they stand.",
};
pub const ROPE_PAIR: Msg = Msg {
    zh: "第 i = {pair} 组（第 {columns} 列）：θ = ",
    en: "Pair i = {pair} (columns {columns}): θ = ",
};
pub const ROPE_SEPARATOR: Msg = Msg {
    zh: "；", en: "; "
};
pub const ROPE_TURNED: Msg = Msg {
    zh: "q 转过 ",
    en: "q turned by ",
};
pub const ROPE_K_TURNED: Msg = Msg {
    zh: "，k 转过 ",
    en: ", k by ",
};
pub const ROPE_QUERY: Msg = Msg {
    zh: "查询 ",
    en: "Query ",
};
pub const ROPE_KEY: Msg = Msg {
    zh: "，键 ",
    en: ", key ",
};
pub const ROPE_AT: Msg = Msg {
    zh: " 在位置 ",
    en: " at position ",
};
pub const ROPE_CHART: Msg = Msg {
    zh: "同样的 q 和 k 放在不同位置：分数 q·k 只随相隔 p_q − p_k 变化（圆点是现在的相隔）",
    en: "The same q and k at other positions: the score q·k changes only with the offset p_q − p_k (the dot is the offset now)",
};
pub const ROPE_OFFSET: Msg = Msg {
    zh: "相隔 p_q − p_k",
    en: "offset p_q − p_k",
};
/// The RoPE card's pickers of the query and the key its dials show.
pub const ROPE_QUERY_PICKER: Msg = Msg {
    zh: "查询",
    en: "Query",
};
pub const ROPE_KEY_PICKER: Msg = Msg {
    zh: "键",
    en: "Key",
};
pub const ROPE_PICK: Msg = Msg {
    zh: "点分数表的格子，或用下面的两个选择框，可以换一对查询和键。",
    en: "Click a cell of the scores, or use the two pickers below, to pick another query and key.",
};
/// Said while the pair shown stands at position 0, where no pair turns.
pub const ROPE_NOTHING_TURNS: Msg = Msg {
    zh: "两者都在位置 0，转角为 0，什么都不转。点分数表里靠后的一格（比如第 3 行第 1 列），或在下面选一个靠后的查询，看它们转起来。",
    en: "Both stand at position 0, where the angle is 0 and nothing turns. Click a later cell of the scores (say row 3, column 1), or pick a later query below, to watch them turn.",
};
pub const SCORES_TURNED: Msg = Msg {
    zh: "RoPE 已打开：这里的 Q 和 K 是按位置旋转之后的（见 RoPE 卡片），不是投影卡片里的 XW_Q、XW_K。",
    en: "RoPE is on: Q and K here are turned by their positions (see the RoPE card), not the projection card's XW_Q and XW_K.",
};
