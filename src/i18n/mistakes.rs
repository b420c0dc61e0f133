//! Strings of the "common mistakes" card.

use super::Msg;

pub const TITLE: Msg = Msg {
    zh: "常见误区",
    en: "Common mistakes",
};
pub const SHOW: Msg = Msg {
    zh: "动手看看",
    en: "Show me",
};
pub const UNDO: Msg = Msg {
    zh: "换回我原来的权重",
    en: "Put my weights back",
};
pub const SCALING_TITLE: Msg = Msg {
    zh: "“除以 √d_k 可有可无”",
    en: "“Dividing by √d_k is optional”",
};
pub const SCALING_TEXT: Msg = Msg {
    zh: "不缩放时，d_k 越大，分数越大，softmax 越接近只选一个键，梯度也随之消失，训练会变得不稳定。实验里比较两条曲线。",
    en: "Without it, a larger d_k means larger scores, softmax picks almost a single key, and its gradient fades, which makes training unstable. Compare the two curves in the experiment.",
};
pub const FIXED_TITLE: Msg = Msg {
    zh: "“W_Q、W_K、W_V 是固定的公式”",
    en: "“W_Q, W_K and W_V are fixed formulas”",
};
pub const FIXED_TEXT: Msg = Msg {
    zh: "它们是参数，会在训练中不断改变。按下按钮换一组 W，或拖动 W_Q 的任意一格，看所有分数和权重一起变。",
    en: "They are parameters that training keeps changing. The button draws new ones; or drag any cell of W_Q, and watch every score and weight move with it.",
};
pub const SUM_TITLE: Msg = Msg {
    zh: "“权重是各自独立的分数”",
    en: "“Each weight is a score on its own”",
};
pub const SUM_TEXT: Msg = Msg {
    zh: "softmax 之后每一行加起来恰好等于 1：给一个词元多一点，别的就少一点。看每行右边的 Σ。",
    en: "After softmax every row adds up to exactly 1: more for one token means less for the others. Look at the Σ beside each row.",
};
pub const BACKPROP_TITLE: Msg = Msg {
    zh: "“不懂反向传播也能懂注意力”",
    en: "“Attention makes sense without backpropagation”",
};
pub const BACKPROP_TEXT: Msg = Msg {
    zh: "好的 W 是反向传播从损失里一点点找出来的；不理解这一步，就不明白注意力为什么会学到有用的关联。",
    en: "Good W matrices are found step by step by backpropagation from a loss; without that step it is a mystery why attention ends up relating the right tokens.",
};
pub const HEADS_TITLE: Msg = Msg {
    zh: "“头越多，参数越多”",
    en: "“More heads means more parameters”",
};
pub const HEADS_TEXT: Msg = Msg {
    zh: "d_model 固定时，W_Q、W_K、W_V 的列平分给 h 个头，每个头 d_k = d_model / h。头数翻倍，每个头窄一半，矩阵里还是那么多数。按钮在 1 个头和 2 个头之间切换：看下面的计数不变。",
    en: "With d_model fixed, the columns of W_Q, W_K and W_V are shared among the h heads, each d_k = d_model / h wide. Twice the heads makes each head half as wide, and the matrices hold just as many numbers. The button switches between one head and two: watch the count below stay the same.",
};
pub const HEADS_COUNT: Msg = Msg {
    zh: "现在 h = {h}，每个头 d_k = {d_k}：W_Q、W_K、W_V 共 3 × {d} × {columns} = {total} 个数",
    en: "Now h = {h}, each head d_k = {d_k}: W_Q, W_K and W_V hold 3 × {d} × {columns} = {total} numbers",
};
pub const W_O_COUNT: Msg = Msg {
    zh: "，W_O 有 {rows} × {d_out} = {w_o} 个",
    en: ", and W_O {rows} × {d_out} = {w_o}",
};
pub const UNDO_SETTINGS: Msg = Msg {
    zh: "换回我原来的位置编码和掩码",
    en: "Put my positions and mask back",
};
pub const UNDO_HEADS: Msg = Msg {
    zh: "换回我原来的头数",
    en: "Put my heads back",
};
pub const ORDER_TITLE: Msg = Msg {
    zh: "“注意力自己知道词的顺序”",
    en: "“Attention knows word order by itself”",
};
pub const ORDER_TEXT: Msg = Msg {
    zh: "注意力给每一对词元打分时，只看它们的向量像不像，不看它们在第几个位置。没有位置编码时，把句子打乱，每个词的输出分毫不差，只是换到了另一行。按钮去掉位置编码（和因果掩码，它本身就和位置有关）、打乱词序：看“词序”卡片里每一行都相同。",
    en: "Attention scores each pair of tokens only by how alike their vectors are, not by where they stand. Without positions, a shuffled sentence gives every token exactly the output it had, only in another row. The button takes the positions away (and the causal mask, which is tied to places itself) and shuffles the tokens: every row in the word-order card stays the same.",
};
pub const CACHE_TITLE: Msg = Msg {
    zh: "“KV 缓存会改变结果”",
    en: "“The KV cache changes the result”",
};
pub const CACHE_TEXT: Msg = Msg {
    zh: "缓存只是把算过的 k 和 v 存起来。因果掩码下，前面的词元本来就看不到后面的，所以旧的行永远不会变，不必重算。按钮打开“生成”卡片并走到最后一步：每一步的输出都和整句一起算出的那一行相同，计算量却少得多。",
    en: "The cache only keeps the k and v already computed. Under the causal mask earlier tokens never see later ones, so old rows never change and need no second computation. The button opens the generation card at its last step: the output of every step equals that row of the whole causal pass, for far less work.",
};
pub const NORM_TITLE: Msg = Msg {
    zh: "“LayerNorm 是在批次或词元之间归一化”",
    en: "“LayerNorm normalises over the batch or over the tokens”",
};
pub const NORM_TEXT: Msg = Msg {
    zh: "LayerNorm 只看一个词元自己的 d 个特征：这一行减去自己的均值、除以自己的标准差。一列（同一个特征在各个词元上）并不会变成均值 0。按钮打开一个 Transformer 块（如果还没有），下面的数随时显示这两种统计。",
    en: "LayerNorm looks only at one token's own d features: that row minus its own mean, divided by its own standard deviation. A column (one feature across the tokens) does not become mean 0. The button gives the scenario a transformer block if it has none; the numbers below show both statistics live.",
};
pub const NORM_CHECK: Msg = Msg {
    zh: "第 {l} 层 LayerNorm₁ 归一化之后：“{t}”这一行的均值 {rm}、标准差 {rs}；而特征 1 这一列（跨所有词元）的均值 {cm}、标准差 {cs}。",
    en: "After layer {l}'s LayerNorm₁ normalises: the row of “{t}” has mean {rm} and standard deviation {rs}; feature 1's column, across all the tokens, has mean {cm} and standard deviation {cs}.",
};
pub const FFN_TITLE: Msg = Msg {
    zh: "“前馈网络会把词元混在一起”",
    en: "“The feed-forward layer mixes the tokens”",
};
pub const FFN_TEXT: Msg = Msg {
    zh: "混合词元的是注意力；前馈网络对每个词元分开计算，用的是同一组 W₁、W₂。把其他词元打乱顺序，这个词元的前馈输出一点都不变。按钮打开一个 Transformer 块（如果还没有），下面的数随时比较。",
    en: "Attention is what mixes the tokens; the feed-forward network computes each token apart, with the same W₁ and W₂. Shuffle the other tokens and this token's feed-forward output does not change at all. The button gives the scenario a transformer block if it has none; the numbers below compare live.",
};
pub const FFN_CHECK: Msg = Msg {
    zh: "“{t}”的前馈输出：原来是 {before}；把其他词元的输入倒过来排之后是 {after}。",
    en: "The feed-forward output of “{t}”: {before} as the layer computes it; {after} with the other tokens' inputs in reverse order.",
};
pub const FFN_SAME: Msg = Msg {
    zh: "完全相同。",
    en: " Exactly the same.",
};
pub const FFN_DIFFERENT: Msg = Msg {
    zh: "不相同。",
    en: " Not the same.",
};
pub const NO_BLOCK: Msg = Msg {
    zh: "现在没有 Transformer 块：按“动手看看”加一个。",
    en: "There is no transformer block now: press “Show me” to add one.",
};
pub const UNDO_BLOCK: Msg = Msg {
    zh: "去掉这个块，换回我原来的场景",
    en: "Take the block away, back to my scenario",
};
