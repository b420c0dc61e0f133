//! Strings of the transformer block's two cards: the residual stream of one
//! token through a layer, and the layer's LayerNorm and feed-forward matrices.

use super::Msg;

pub const TITLE: Msg = Msg {
    zh: "Transformer 块：残差流、LayerNorm 与前馈网络",
    en: "Transformer block: residual stream, LayerNorm and feed-forward",
};
pub const EXPLAIN: Msg = Msg {
    zh: "注意力只是一层的一半。每个词元的向量沿着“残差流”往下走：注意力把别的词元的信息加进来（⊕），LayerNorm 把它缩放到均值 0、标准差 1，前馈网络（FFN）再单独加工这一个词元。同样的块可以叠好几层，每层有自己的权重。",
    en: "Attention is half of a layer. Each token's vector flows down the residual stream: attention adds in what it gathers from the other tokens (⊕), LayerNorm rescales it to mean 0 and standard deviation 1, and the feed-forward network (FFN) works on this one token alone. The same block stacks into several layers, each with its own weights.",
};
pub const LAYER_PICKER: Msg = Msg {
    zh: "显示哪一层",
    en: "Layer shown",
};
pub const LAYER: Msg = Msg {
    zh: "第 {n} 层",
    en: "Layer {n}",
};
/// Said beside the picker: the diagrams above follow it.
pub const LAYER_FOLLOWS: Msg = Msg {
    zh: "上面的四张图和多头卡片显示所选这一层的注意力；它的输入就是上一层的输出。",
    en: "The four diagrams and the heads card above show the chosen layer's attention; its input is the layer before's output.",
};
pub const LAYERS: Msg = Msg {
    zh: "层数",
    en: "Layers",
};
pub const NORM: Msg = Msg {
    zh: "LayerNorm 的位置",
    en: "Where LayerNorm goes",
};
pub const POST_NORM: Msg = Msg {
    zh: "后置（原始 Transformer，PyTorch 默认）：LN(x + 子层(x))",
    en: "Post-norm (the original Transformer, PyTorch's default): LN(x + sublayer(x))",
};
pub const PRE_NORM: Msg = Msg {
    zh: "前置（GPT-2 及多数新模型）：x + 子层(LN(x))",
    en: "Pre-norm (GPT-2 and most recent models): x + sublayer(LN(x))",
};
pub const ACTIVATION: Msg = Msg {
    zh: "激活函数",
    en: "Activation",
};
pub const RELU: Msg = Msg {
    zh: "ReLU：max(0, x)，负数变成 0",
    en: "ReLU: max(0, x), negatives become 0",
};
pub const GELU: Msg = Msg {
    zh: "GELU：x·Φ(x)，负数只留下一点",
    en: "GELU: x·Φ(x), a little of each negative kept",
};
pub const RANDOMIZE: Msg = Msg {
    zh: "随机生成整个块的权重",
    en: "New weights for the whole block",
};
pub const TOKEN: Msg = Msg {
    zh: "跟着这个词元走",
    en: "Follow this token",
};
pub const STREAM: Msg = Msg {
    zh: "{t}的残差流（第 {n} 层）",
    en: "The residual stream of {t} (layer {n})",
};
pub const INPUT: Msg = Msg {
    zh: "进入这一层的向量 x",
    en: "x, the vector coming into the layer",
};
pub const ATTENTION: Msg = Msg {
    zh: "多头注意力的输出：这里混入了其他词元的信息",
    en: "Multi-head attention's output: this is where the other tokens come in",
};
pub const RESIDUAL: Msg = Msg {
    zh: "残差连接 ⊕：原来的向量原样保留，再加上子层的输出",
    en: "Residual ⊕: the vector is kept as it was, and the sublayer's output added to it",
};
pub const LN_1: Msg = Msg {
    zh: "LayerNorm₁（只看这个词元自己的 d 个特征）",
    en: "LayerNorm₁ (over this token's own d features)",
};
pub const LN_2: Msg = Msg {
    zh: "LayerNorm₂（只看这个词元自己的 d 个特征）",
    en: "LayerNorm₂ (over this token's own d features)",
};
pub const MEAN_STD: Msg = Msg {
    zh: "均值 μ = {m}，标准差 σ = √(方差 + ε) = {s}",
    en: "mean μ = {m}, standard deviation σ = √(variance + ε) = {s}",
};
pub const NORMALISED: Msg = Msg {
    zh: "(x − μ) / σ：均值 0、标准差 1",
    en: "(x − μ) / σ: mean 0, standard deviation 1",
};
pub const SCALED: Msg = Msg {
    zh: "× γ + β：每个特征学到的缩放和平移",
    en: "× γ + β: each feature's learned scale and shift",
};
pub const HIDDEN: Msg = Msg {
    zh: "前馈网络的隐藏层 x·W₁ + b₁（d_ff 个数）",
    en: "The FFN's hidden layer x·W₁ + b₁ (d_ff numbers)",
};
pub const ACTIVATED: Msg = Msg {
    zh: "经过激活函数",
    en: "After the activation",
};
pub const ZEROED: Msg = Msg {
    zh: "被 ReLU 置为 0",
    en: "set to 0 by ReLU",
};
pub const FFN: Msg = Msg {
    zh: "前馈网络的输出 ·W₂ + b₂：只用到这一个词元",
    en: "The FFN's output ·W₂ + b₂: from this token alone",
};
pub const OUTPUT: Msg = Msg {
    zh: "这一层的输出（下一层的输入）",
    en: "The layer's output (the next layer's input)",
};
pub const LAST_OUTPUT: Msg = Msg {
    zh: "整个块的输出",
    en: "The block's output",
};
pub const BIASES: Msg = Msg {
    zh: "这个块带有偏置（b_q、b_k、b_v、b_o、b₁ 或 b₂，来自导入）：上面的数已经加上了它们。",
    en: "This block has biases (b_q, b_k, b_v, b_o, b₁ or b₂, from an import): the numbers here include them.",
};
pub const CURVE: Msg = Msg {
    zh: "激活函数，点是这个词元的隐藏层各数",
    en: "The activation, with this token's hidden numbers as dots",
};
pub const CURVE_ARIA: Msg = Msg {
    zh: "激活函数曲线，横轴是隐藏层的数，纵轴是激活后的数；{z} 个负数被 ReLU 置为 0",
    en: "The activation's curve: hidden numbers across, activated numbers up; ReLU sets {z} negative numbers to 0",
};
pub const CURVE_ARIA_GELU: Msg = Msg {
    zh: "激活函数曲线，横轴是隐藏层的数，纵轴是激活后的数；GELU 让负数只留下一小部分",
    en: "The activation's curve: hidden numbers across, activated numbers up; GELU keeps a little of each negative number",
};

// The layer's matrices.
pub const MATRICES_TITLE: Msg = Msg {
    zh: "这一层的 LayerNorm 与前馈网络（每个词元一行）",
    en: "The layer's LayerNorm and feed-forward network (a row per token)",
};
pub const MATRICES_EXPLAIN: Msg = Msg {
    zh: "每一行都是一个词元，而且前馈网络对每一行分开计算：改动一个词元，别的行不变。W₁、W₂、γ、β 的格子可以点开编辑或上下拖动。",
    en: "Each row is one token, and the feed-forward network computes each row on its own: change one token and the other rows stay. W₁, W₂, γ and β can be edited (click) or dragged up and down.",
};
pub const NORM_1_ARIA: Msg = Msg {
    zh: "LayerNorm₁ 的输出：每行一个词元",
    en: "LayerNorm₁'s output: a row per token",
};
pub const NORM_2_ARIA: Msg = Msg {
    zh: "LayerNorm₂ 的输出：每行一个词元",
    en: "LayerNorm₂'s output: a row per token",
};
pub const HIDDEN_ARIA: Msg = Msg {
    zh: "前馈网络的隐藏层（激活之前）：每行一个词元",
    en: "The FFN's hidden layer, before the activation: a row per token",
};
pub const ACTIVATED_ARIA: Msg = Msg {
    zh: "激活之后的隐藏层：每行一个词元",
    en: "The hidden layer after the activation: a row per token",
};
pub const FFN_ARIA: Msg = Msg {
    zh: "前馈网络的输出：每行一个词元",
    en: "The FFN's output: a row per token",
};
pub const OUTPUT_ARIA: Msg = Msg {
    zh: "这一层的输出：每行一个词元",
    en: "The layer's output: a row per token",
};
pub const W_1_ARIA: Msg = Msg {
    zh: "W₁：d 行、d_ff 列，可编辑",
    en: "W₁: d rows, d_ff columns, editable",
};
pub const W_2_ARIA: Msg = Msg {
    zh: "W₂：d_ff 行、d 列，可编辑",
    en: "W₂: d_ff rows, d columns, editable",
};
pub const GAMMA_ARIA: Msg = Msg {
    zh: "γ：每个特征的缩放，可编辑",
    en: "γ: each feature's scale, editable",
};
pub const BETA_ARIA: Msg = Msg {
    zh: "β：每个特征的平移，可编辑",
    en: "β: each feature's shift, editable",
};
pub const FFN_INPUT: Msg = Msg {
    zh: "前馈网络的输入",
    en: "The FFN's input",
};
