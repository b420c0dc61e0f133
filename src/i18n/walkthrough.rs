//! Strings of the guided walkthrough: its controls, the eight steps, and the
//! memory aids. Written for this app; the lessons supplied the ideas only.

use super::Msg;

pub const CARD_TITLE: Msg = Msg {
    zh: "一步一步看懂自注意力",
    en: "Self-attention, step by step",
};
pub const GENERAL_FORMULA_LABEL: Msg = Msg {
    zh: "注意力公式：Attention(Q,K,V) = softmax(QKᵀ/√d_k)·V。点击公式的一部分跳到它的图。",
    en: "The attention formula, Attention(Q,K,V) = softmax(QKᵀ/√d_k)·V. Click a part to jump to its diagram.",
};
pub const GENERAL_FORMULA_HINT: Msg = Msg {
    zh: "点击公式的任一部分，跳到画出它的那张图。",
    en: "Click any part of the formula to jump to the diagram that draws it.",
};
pub const START: Msg = Msg {
    zh: "开始分步讲解",
    en: "Start the walkthrough",
};
pub const FREE_EXPLORE: Msg = Msg {
    zh: "自由探索",
    en: "Free explore",
};
pub const PREVIOUS: Msg = Msg {
    zh: "上一步",
    en: "Previous",
};
pub const NEXT: Msg = Msg {
    zh: "下一步",
    en: "Next",
};
pub const FINISH: Msg = Msg {
    zh: "完成",
    en: "Finish",
};
pub const STEP_OF: Msg = Msg {
    zh: "第 {n} 步，共 {total} 步",
    en: "Step {n} of {total}",
};
pub const KEYS_HINT: Msg = Msg {
    zh: "← → 翻步，↑ ↓ 换查询词元。",
    en: "← → change step, ↑ ↓ change the query token.",
};
pub const LIVE_NUMBERS: Msg = Msg {
    zh: "用当前的数字",
    en: "With the numbers on screen",
};
pub const IN_PYTORCH: Msg = Msg {
    zh: "PyTorch 写法",
    en: "In PyTorch",
};
pub const MNEMONIC_TITLE: Msg = Msg {
    zh: "一句话记住",
    en: "In one line",
};
pub const MNEMONIC: Msg = Msg {
    zh: "Q 向 K 打分，分数归一成权重，权重把 V 调成新表示。",
    en: "Queries score keys, scores become weights, weights blend values.",
};
pub const ANALOGY_TITLE: Msg = Msg {
    zh: "打个比方",
    en: "An everyday picture",
};
pub const ANALOGY: Msg = Msg {
    zh: "想象一次小组讨论，每个人最后都要写一份自己的小结。写的时候他会回顾所有人的发言：和自己要写的内容关系大的多采纳，关系小的一笔带过。自注意力让每个词元同时做这件事。",
    en: "Picture a group discussion after which everyone writes their own summary. Each writer goes back over what everybody said, draws heavily on the remarks that matter for their own piece and passes lightly over the rest. Self-attention has every token do this at once.",
};

pub const INPUT_TITLE: Msg = Msg {
    zh: "输入 X",
    en: "The input X",
};
pub const INPUT_TEXT: Msg = Msg {
    zh: "一切从数字开始。每个词元是一个有 d 个特征的行向量：这里是一个词，也可以是一帧音频或一小段视频。T 个词元叠成 T×d 的矩阵 X，第 i 行就是第 i 个词元。",
    en: "Everything starts as numbers. Each token is a row vector of d features: a word here, but it could just as well be one frame of audio or one clip of video. T tokens stacked up make the T×d matrix X; row i is token i.",
};
pub const PROJECTION_TITLE: Msg = Msg {
    zh: "Q、K、V：三次投影",
    en: "Q, K and V: three projections",
};
pub const PROJECTION_TEXT: Msg = Msg {
    zh: "三个可学习的矩阵把 X 的每一行变成三个新向量。查询 Q_i 说明词元 i 想找什么；键 K_j 说明词元 j 凭什么被找到；值 V_j 是词元 j 被关注时真正交出去的内容。好比搜索：Q 是你输入的搜索词，K 是网页的标签，V 是网页的正文。",
    en: "Three learned matrices turn every row of X into three new vectors. The query Q_i says what token i is looking for; the key K_j says what token j can be found by; the value V_j is what token j hands over when it is attended to. Think of a search: the query is what you type, the keys are the pages' tags, the values are the pages' text.",
};
pub const SCORES_TITLE: Msg = Msg {
    zh: "QKᵀ：点积衡量匹配",
    en: "QKᵀ: dot products measure the match",
};
pub const SCORES_TEXT: Msg = Msg {
    zh: "每个查询都与每个键做点积：对应分量相乘再相加。两个向量方向越一致，点积越大，匹配越好。QKᵀ 的第 i 行就是词元 i 与每个词元（包括它自己）的关联程度。",
    en: "Every query meets every key in a dot product: multiply matching components and add them up. The more two vectors point the same way, the larger the result and the better the match. Row i of QKᵀ says how strongly token i relates to each token, itself included.",
};
pub const SCALING_TITLE: Msg = Msg {
    zh: "为什么除以 √d_k",
    en: "Why divide by √d_k",
};
pub const SCALING_TEXT: Msg = Msg {
    zh: "点积是 d_k 项之和，向量随机时它的波动随 d_k 变大。分数一大，softmax 就把几乎全部权重压到一个键上，其余接近 0，训练需要的梯度也几乎消失。除以 √d_k 让波动回到 1 左右，d_k 多大都一样。试试关掉缩放，再把 d_k 调大。",
    en: "A dot product is a sum of d_k terms, so for random vectors its spread grows with d_k. Large scores make softmax pile nearly all the weight on one key and leave the rest near 0, and the gradient that training relies on all but vanishes. Dividing by √d_k brings the spread back to about 1 whatever d_k is. Try it: switch the scaling off and raise d_k.",
};
pub const SOFTMAX_TITLE: Msg = Msg {
    zh: "softmax：分数变权重",
    en: "Softmax: scores become weights",
};
pub const SOFTMAX_TEXT: Msg = Msg {
    zh: "softmax 对一行里每个分数取 e 的幂，再除以整行之和。于是每个权重都在 0 和 1 之间，每行加起来恰好是 1：词元 i 把一份注意力预算分给所有位置。",
    en: "Softmax raises e to the power of each score in a row and divides by the row's total. Every weight then lies between 0 and 1 and each row adds up to exactly 1: token i shares out one attention budget among all positions.",
};
pub const FUSION_TITLE: Msg = Msg {
    zh: "加权求和：B_i = Σ_j α′_ij V_j",
    en: "The weighted sum B_i = Σ_j α′_ij V_j",
};
pub const FUSION_TEXT: Msg = Msg {
    zh: "词元 i 的输出 B_i 把所有值向量按权重混合。一行里的权重都可以不为 0，所以每个 B_i 一步就能用上整个序列的信息，不管词元相隔多远。",
    en: "Token i's output B_i mixes all the value vectors, each in proportion to its weight. Any weight in the row can be non-zero, so every B_i can draw on the whole sequence in one step, however far apart the tokens are.",
};
pub const MASKING_TITLE: Msg = Msg {
    zh: "掩码：有些位置不能看",
    en: "Masking: some positions are off limits",
};
pub const MASKING_TEXT: Msg = Msg {
    zh: "填充掩码遮住只为补齐长度而加的位置；因果掩码遮住后面的词元，让每个词元只看自己和前文。被遮住的分数当作 −∞，权重恰好是 0，剩下的权重仍然加起来等于 1。试试点某个词元的“填充”，或打开因果掩码。",
    en: "A padding mask hides positions that only exist to make sequences the same length; a causal mask hides later tokens, so each token sees only itself and what came before. A masked score counts as −∞: its weight is exactly 0 and the remaining weights still add up to 1. Try a token's Pad button, or the causal switch.",
};
pub const LEARNING_TITLE: Msg = Msg {
    zh: "W 是学出来的",
    en: "The W matrices are learned",
};
pub const LEARNING_TEXT: Msg = Msg {
    zh: "真实模型里没有人手写 W_Q、W_K、W_V。训练时把输出与标签比较得到损失，反向传播算出 W 里每个数该往哪个方向改、改多少，损失才会变小。重复很多次，注意力分数就学会表达正确的关联。这里你仍可以手动改或随机生成 W，看看会发生什么。",
    en: "In a real model nobody writes W_Q, W_K and W_V by hand. Training compares the output with a label to get a loss, and backpropagation works out which way, and how far, each number in the W matrices should move to make the loss smaller. Repeated many times, this teaches the scores to express the right relations. Here you can still edit or randomize the W matrices and watch what happens.",
};

pub const HEADS_TITLE: Msg = Msg {
    zh: "多头：把宽度分给几个头",
    en: "Several heads: the width shared out",
};
pub const HEADS_TEXT: Msg = Msg {
    zh: "一个头给每个查询只算出一行权重。多头注意力把 W_Q、W_K、W_V 的列平分成 h 份：第 n 个头只用第 n 份，算出自己的 Q、K、V、权重和输出 head_n。每个头的 d_k 变小，√d_k 也跟着变小。参数一个也没有多：h 个头合起来仍是同样宽的矩阵。把“头数 h”调到 2 或更多，在“多头”卡片里比较各个头的权重。",
    en: "One head gives each query a single row of weights. Multi-head attention splits the columns of W_Q, W_K and W_V into h equal parts: head n uses only part n and computes its own Q, K, V, weights and output head_n. Each head's d_k is smaller, and so is its √d_k. Not one parameter is added: together the h heads are the same wide matrices. Set “Heads h” to 2 or more, and compare the heads' weights in the Heads card.",
};
pub const OUTPUT_TITLE: Msg = Msg {
    zh: "拼接各个头，再乘 W_O",
    en: "Joining the heads, then W_O",
};
pub const OUTPUT_TEXT: Msg = Msg {
    zh: "每个头的输出 head_n 是 T×d_v。把它们左右拼在一起得到 T×(h·d_v) 的矩阵，再乘输出投影 W_O，就是这一层的输出。W_O 把各个头的结果混合起来；没有它，各个头的结果只是并排放着。PyTorch 的 nn.MultiheadAttention 返回的 attn_output 就是它。",
    en: "Each head's output head_n is T×d_v. Setting them side by side gives a T×(h·d_v) matrix, and multiplying it by the output projection W_O gives the layer's output. W_O mixes the heads' results; without it they only sit side by side. This is the attn_output that PyTorch's nn.MultiheadAttention returns.",
};
pub const ONE_HEAD: Msg = Msg {
    zh: "这个场景只有一个头：head₁ 就是上面的 B。把“头数 h”调到 2，就能看到各个头分开算。",
    en: "This scenario has one head: head₁ is the B above. Set “Heads h” to 2 to see the heads computed apart.",
};
pub const NO_OUTPUT_PROJECTION: Msg = Msg {
    zh: "这一层没有 W_O：输出就是拼接本身。",
    en: "This layer has no W_O: the output is the joined heads themselves.",
};
pub const GO_HEADS: Msg = Msg {
    zh: "去“头数 h”滑块",
    en: "Go to the Heads slider",
};
pub const GO_W_O: Msg = Msg {
    zh: "去“输出投影 W_O”开关",
    en: "Go to the W_O switch",
};

pub const SCALING_OFF: Msg = Msg {
    zh: "缩放已关闭：分数就是点积本身。",
    en: "Scaling is off: the score is the dot product itself.",
};
pub const NO_MASK: Msg = Msg {
    zh: "现在没有被遮住的键：打开因果掩码或把一个词元设为填充。",
    en: "No key is masked right now: switch on the causal mask or pad a token.",
};
pub const MASKED_KEYS: Msg = Msg {
    zh: "被遮住的键",
    en: "masked keys",
};
pub const LEARNING_RULE: Msg = Msg {
    zh: "每一步训练都这样更新 W，η 是学习率。",
    en: "Every training step updates W this way; η is the learning rate.",
};
pub const PARAMETERS: Msg = Msg {
    zh: "个可学习的数",
    en: "learnable numbers",
};
pub const PREDICT_PROMPT: Msg = Msg {
    zh: "先猜一猜：{token}会最关注哪个词元？选好后才显示权重。",
    en: "Guess first: which token will {token} attend to most? The weights appear once you have chosen.",
};
pub const PREDICT_RIGHT: Msg = Msg {
    zh: "猜对了：{best}得到最大的权重 {weight}。",
    en: "Right: {best} gets the largest weight, {weight}.",
};
pub const PREDICT_WRONG: Msg = Msg {
    zh: "差一点：你选的{guess}权重是 {guess_weight}，最大的权重 {weight} 给了{best}。",
    en: "Not quite: {guess} gets {guess_weight}; the largest weight, {weight}, goes to {best}.",
};
pub const PREDICT_AGAIN: Msg = Msg {
    zh: "换一个查询词元（↑ ↓）就能再猜一次。",
    en: "Pick another query token (↑ ↓) to guess again.",
};

pub const CODE_INPUT: Msg = Msg {
    zh: "x = torch.tensor(X)  # 形状 (T, d)",
    en: "x = torch.tensor(X)  # shape (T, d)",
};
pub const CODE_PROJECTION: Msg = Msg {
    zh: "q = x @ W_q  # (T, d_k)\nk = x @ W_k  # (T, d_k)\nv = x @ W_v  # (T, d_k)",
    en: "q = x @ W_q  # (T, d_k)\nk = x @ W_k  # (T, d_k)\nv = x @ W_v  # (T, d_k)",
};
pub const CODE_SCORES: Msg = Msg {
    zh: "scores = q @ k.transpose(-2, -1)  # (T, T)",
    en: "scores = q @ k.transpose(-2, -1)  # (T, T)",
};
pub const CODE_SCALING: Msg = Msg {
    zh: "scores = scores / math.sqrt(d_k)",
    en: "scores = scores / math.sqrt(d_k)",
};
pub const CODE_SOFTMAX: Msg = Msg {
    zh: "weights = torch.softmax(scores, dim=-1)\nweights.sum(dim=-1)  # 每行都是 1",
    en: "weights = torch.softmax(scores, dim=-1)\nweights.sum(dim=-1)  # every row is 1",
};
pub const CODE_FUSION: Msg = Msg {
    zh: "out = weights @ v  # 第 i 行就是 B_i",
    en: "out = weights @ v  # row i is B_i",
};
pub const CODE_MASKING: Msg = Msg {
    zh: "allowed = key_is_real.expand(T, T).clone()  # 填充：遮住补齐用的键\nallowed &= torch.ones(T, T, dtype=torch.bool).tril()  # 因果：不许偷看后文\nscores = scores.masked_fill(~allowed, float(\"-inf\"))",
    en: "allowed = key_is_real.expand(T, T).clone()  # padding: hide filler keys\nallowed &= torch.ones(T, T, dtype=torch.bool).tril()  # causal: no peeking ahead\nscores = scores.masked_fill(~allowed, float(\"-inf\"))",
};
pub const CODE_LEARNING: Msg = Msg {
    zh: "loss = loss_fn(out, target)\nloss.backward()  # 算出 W_q、W_k、W_v 的梯度\noptimizer.step()",
    en: "loss = loss_fn(out, target)\nloss.backward()  # gradients for W_q, W_k, W_v\noptimizer.step()",
};
pub const CODE_HEADS: Msg = Msg {
    zh: "d_k = d_model // h\nq = (x @ W_q).view(T, h, d_k).transpose(0, 1)  # (h, T, d_k)：每个头一份\nk = (x @ W_k).view(T, h, d_k).transpose(0, 1)\nv = (x @ W_v).view(T, h, d_k).transpose(0, 1)\nweights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)  # (h, T, T)\nheads = weights @ v  # (h, T, d_k)",
    en: "d_k = d_model // h\nq = (x @ W_q).view(T, h, d_k).transpose(0, 1)  # (h, T, d_k): one part per head\nk = (x @ W_k).view(T, h, d_k).transpose(0, 1)\nv = (x @ W_v).view(T, h, d_k).transpose(0, 1)\nweights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), dim=-1)  # (h, T, T)\nheads = weights @ v  # (h, T, d_k)",
};
pub const CODE_OUTPUT: Msg = Msg {
    zh: "concat = heads.transpose(0, 1).reshape(T, h * d_k)  # 各头并排\nout = concat @ W_o  # nn.MultiheadAttention(d_model, h, bias=False) 的 attn_output",
    en: "concat = heads.transpose(0, 1).reshape(T, h * d_k)  # the heads side by side\nout = concat @ W_o  # attn_output of nn.MultiheadAttention(d_model, h, bias=False)",
};
pub const TOKEN_AT: Msg = Msg {
    zh: "“{token}”（第 {n} 个）",
    en: "“{token}” (token {n})",
};
pub const SHOW_DIAGRAM: Msg = Msg {
    zh: "在图中看这一步 ↓",
    en: "See this step in the diagram ↓",
};
pub const ALL_MASKED: Msg = Msg {
    zh: "这个查询的每个键都被遮住了：softmax 没有可分配的对象，这一行的权重全是 0，和也是 0 而不是 1，输出 B_i 是零向量。",
    en: "Every key is masked for this query: softmax has nothing to share out, so the whole row of weights is 0, its sum is 0 rather than 1, and the output B_i is the zero vector.",
};
pub const GO_SCALE: Msg = Msg {
    zh: "去“除以 √d_k”开关",
    en: "Go to the ÷√d_k switch",
};
pub const GO_DK: Msg = Msg {
    zh: "去 d_k 滑块",
    en: "Go to the d_k slider",
};
pub const GO_EXPERIMENT: Msg = Msg {
    zh: "打开 √d_k 实验",
    en: "Open the √d_k experiment",
};
pub const GO_CAUSAL: Msg = Msg {
    zh: "去因果掩码开关",
    en: "Go to the causal mask switch",
};
pub const GO_PAD: Msg = Msg {
    zh: "去词元的“填充”按钮",
    en: "Go to a token's Pad button",
};

pub const POSITIONS_TITLE: Msg = Msg {
    zh: "词序：位置编码",
    en: "Word order: positions",
};
pub const POSITIONS_TEXT: Msg = Msg {
    zh: "注意力只比较向量，不知道词在第几个位置：“我喜欢打篮球”和“篮球喜欢打我”得到同样的输出行，只是顺序不同。位置编码把位置放进计算：正弦编码和可学习的 P 把第 p 行加到 X 的第 p 行上；RoPE 在投影之后把 q 和 k 的每两列转过与位置成正比的角度，于是分数只取决于两个词相隔多远。在“词序”卡片里选一种位置编码，再打乱词序比较。",
    en: "Attention only compares vectors and cannot tell where a token stands: “I like to play basketball” and “basketball likes to play me” give the same output rows, only reordered. Positions bring place into the computation: sinusoidal and learned positions add row p of P to row p of X; RoPE turns each pair of columns of q and k, after the projections, by an angle proportional to the position, so a score depends on how far apart two tokens are. Pick positions in the word-order card, then shuffle the tokens and compare.",
};
pub const GENERATION_TITLE: Msg = Msg {
    zh: "生成：一次一个词元，带 KV 缓存",
    en: "Generation: a token at a time, with a KV cache",
};
pub const GENERATION_TEXT: Msg = Msg {
    zh: "模型写文本时，每一步只加一个词元，用因果掩码保证它看不到还没写出的词。第 t 步只需要新词元的 q、k、v：k 和 v 追加到缓存里，q 和缓存中的 t 个键打分，再混合缓存中的值。前面各行不会再变，所以结果和整句一起算完全一样，计算量却从每步重算整段前缀降到只算一行。",
    en: "A model writing text adds one token a step, with the causal mask keeping it from seeing words not yet written. Step t needs only the new token's q, k and v: k and v are appended to the cache, q scores the t cached keys and mixes the cached values. Earlier rows never change again, so the result is exactly that of the whole sentence at once, while the work drops from the whole prefix again each step to one row.",
};
pub const GO_POSITIONS: Msg = Msg {
    zh: "去选位置编码",
    en: "Go to the positions choice",
};
pub const GO_SHUFFLE: Msg = Msg {
    zh: "去“打乱词序”",
    en: "Go to Shuffle tokens",
};
pub const GO_GENERATION: Msg = Msg {
    zh: "去“生成”卡片",
    en: "Go to the generation card",
};
pub const NO_POSITIONS: Msg = Msg {
    zh: "现在没有位置编码：X 的每一行只是词元本身，打乱词序只会让输出的行换位置。",
    en: "No positions now: each row of X is the token alone, and shuffling the tokens only moves the output rows.",
};
pub const CACHED_WORK: Msg = Msg {
    zh: "这一步的乘加次数：用缓存 {cached}，不用缓存 {uncached}",
    en: "Multiply-adds of this step: {cached} with the cache, {uncached} without",
};
pub const NOT_CAUSAL: Msg = Msg {
    zh: "因果掩码没有打开：生成时第 t 个词元只能看到第 1 到 t 个。打开它，这一行的权重就是生成时的权重。",
    en: "The causal mask is off: in generation token t sees only tokens 1 to t. Turn it on, and this row of weights is the one generation computes.",
};
pub const CODE_POSITIONS: Msg = Msg {
    zh: "pos = torch.arange(T).unsqueeze(1)  # 位置从 0 数起\nfreq = 10000 ** (-torch.arange(0, d, 2) / d)\nP = torch.zeros(T, d)\nP[:, 0::2], P[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)\nx = x + P  # 正弦位置编码；可学习的 P 是 nn.Parameter\n# RoPE：q、k 的第 (2i, 2i+1) 列转过 p·θ_i\ntheta = 10000 ** (-torch.arange(0, d_k, 2) / d_k)\nc, s = torch.cos(pos * theta), torch.sin(pos * theta)\nq = torch.stack([q[:, 0::2] * c - q[:, 1::2] * s, q[:, 0::2] * s + q[:, 1::2] * c], -1).flatten(1)",
    en: "pos = torch.arange(T).unsqueeze(1)  # positions from 0\nfreq = 10000 ** (-torch.arange(0, d, 2) / d)\nP = torch.zeros(T, d)\nP[:, 0::2], P[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)\nx = x + P  # sinusoidal positions; a learned P is an nn.Parameter\n# RoPE: columns (2i, 2i+1) of q and k turn by p·θ_i\ntheta = 10000 ** (-torch.arange(0, d_k, 2) / d_k)\nc, s = torch.cos(pos * theta), torch.sin(pos * theta)\nq = torch.stack([q[:, 0::2] * c - q[:, 1::2] * s, q[:, 0::2] * s + q[:, 1::2] * c], -1).flatten(1)",
};
pub const CODE_GENERATION: Msg = Msg {
    zh: "K_cache, V_cache = [], []\nfor t in range(T):\n    q, k, v = x[t] @ W_q, x[t] @ W_k, x[t] @ W_v  # 只算新词元\n    # 用 RoPE 时，先把 q 和 k 按位置 t 旋转（第 11 步）\n    K_cache.append(k); V_cache.append(v)  # 缓存每步多一行\n    K, V = torch.stack(K_cache), torch.stack(V_cache)\n    weights = torch.softmax(K @ q / math.sqrt(d_k), dim=0)  # 只有键 0…t\n    out_t = weights @ V  # 等于整句因果计算的第 t 行",
    en: "K_cache, V_cache = [], []\nfor t in range(T):\n    q, k, v = x[t] @ W_q, x[t] @ W_k, x[t] @ W_v  # the new token only\n    # with RoPE, first turn q and k as at position t (step 11)\n    K_cache.append(k); V_cache.append(v)  # the caches grow a row a step\n    K, V = torch.stack(K_cache), torch.stack(V_cache)\n    weights = torch.softmax(K @ q / math.sqrt(d_k), dim=0)  # keys 0…t only\n    out_t = weights @ V  # row t of the whole causal pass",
};

// The transformer block's steps (13 to 16).
pub const RESIDUAL_TITLE: Msg = Msg {
    zh: "残差连接：原样保留，再加上新的",
    en: "The residual connection: keep the vector, add what is new",
};
pub const RESIDUAL_TEXT: Msg = Msg {
    zh: "注意力的输出不会替换词元原来的向量，而是加到它上面：x + MHA(x)。前馈网络之后也一样：h + FFN(h)。这条一路往下加的通道叫“残差流”：每个子层只写入一点修改，词元自己的信息一直都在，梯度也能直接往回传。在“Transformer 块”卡片里看每个 ⊕ 的两个加数和它们的和。",
    en: "Attention's output does not replace the token's vector; it is added to it: x + MHA(x). The same after the feed-forward network: h + FFN(h). This channel that keeps adding up is the residual stream: each sublayer writes a change into it, the token's own information stays, and gradients flow straight back. In the Transformer block card, see each ⊕ with its two addends and their sum.",
};
pub const LAYER_NORM_TITLE: Msg = Msg {
    zh: "LayerNorm：每个词元自己归一化",
    en: "LayerNorm: each token normalised on its own",
};
pub const LAYER_NORM_TEXT: Msg = Msg {
    zh: "LayerNorm 只看一个词元自己的 d 个特征：减去它们的均值 μ，再除以 σ = √(方差 + ε)，得到均值 0、标准差约为 1 的一行；然后每个特征乘上学到的 γ、加上学到的 β。它不看别的词元，也不看批次里别的句子。后置（原始 Transformer）放在每次相加之后，前置（GPT-2）放在每个子层之前。",
    en: "LayerNorm looks at one token's own d features: it subtracts their mean μ, divides by σ = √(variance + ε), and gets a row of mean 0 and standard deviation close to 1; then each feature is multiplied by a learned γ and shifted by a learned β. It looks at no other token and no other sentence of the batch. Post-norm (the original Transformer) puts it after each sum, pre-norm (GPT-2) before each sublayer.",
};
pub const FEED_FORWARD_TITLE: Msg = Msg {
    zh: "前馈网络：逐个词元加工",
    en: "The feed-forward network: one token at a time",
};
pub const FEED_FORWARD_TEXT: Msg = Msg {
    zh: "前馈网络是两层全连接：先乘 W₁（d → d_ff，通常 d_ff = 4·d）加 b₁，经过激活函数（ReLU 把负数变成 0，GELU 只留下一点），再乘 W₂ 加 b₂ 回到 d 维。每个词元用同样的权重、完全分开计算：注意力负责在词元之间交换信息，前馈网络负责加工每个词元自己。",
    en: "The feed-forward network is two dense layers: multiply by W₁ (d → d_ff, usually d_ff = 4·d) and add b₁, apply the activation (ReLU turns negatives into 0, GELU keeps a little of them), then multiply by W₂ and add b₂ to come back to d. Every token uses the same weights, computed entirely apart: attention moves information between tokens, the feed-forward network works on each token itself.",
};
pub const STACKING_TITLE: Msg = Msg {
    zh: "叠加多层：上一层的输出是下一层的输入",
    en: "Stacking layers: each layer's output is the next one's input",
};
pub const STACKING_TEXT: Msg = Msg {
    zh: "一个 Transformer 由很多个这样的块叠成，每层有自己的 W_Q、W_K、W_V、W_O、W₁、W₂、γ、β。第 l 层读进第 l − 1 层的输出，所以越往上，每个词元的向量里混进的上下文越多。用“Transformer 块”卡片里的层选择器切换：上面的四张图会显示那一层的注意力。",
    en: "A transformer is many such blocks stacked, each layer with its own W_Q, W_K, W_V, W_O, W₁, W₂, γ and β. Layer l reads layer l − 1's output, so the higher the layer, the more context each token's vector holds. Switch layers with the picker in the Transformer block card: the four diagrams above show that layer's attention.",
};
pub const NO_BLOCK: Msg = Msg {
    zh: "现在没有 Transformer 块：从课程菜单打开“Transformer 块”，或者在“输入与设置”的场景里选“一个完整的 Transformer 块”。",
    en: "There is no transformer block now: open “Transformer block” from the lesson menu, or pick “A whole transformer block” among the scenarios in Input and settings.",
};
pub const CODE_RESIDUAL: Msg = Msg {
    zh: "h = norm1(x + self_attn(x, x, x)[0])  # 后置：先相加，再归一化\ny = norm2(h + ffn(h))\n# 前置（norm_first=True）：h = x + self_attn(norm1(x), …)；y = h + ffn(norm2(h))",
    en: "h = norm1(x + self_attn(x, x, x)[0])  # post-norm: add, then normalise\ny = norm2(h + ffn(h))\n# pre-norm (norm_first=True): h = x + self_attn(norm1(x), …); y = h + ffn(norm2(h))",
};
pub const CODE_LAYER_NORM: Msg = Msg {
    zh: "mu = x.mean(-1, keepdim=True)  # 每个词元自己的均值\nvar = x.var(-1, unbiased=False, keepdim=True)  # 有偏方差\nln = (x - mu) / torch.sqrt(var + 1e-5) * gamma + beta  # 等于 nn.LayerNorm(d)(x)",
    en: "mu = x.mean(-1, keepdim=True)  # each token's own mean\nvar = x.var(-1, unbiased=False, keepdim=True)  # the biased variance\nln = (x - mu) / torch.sqrt(var + 1e-5) * gamma + beta  # equals nn.LayerNorm(d)(x)",
};
pub const CODE_FEED_FORWARD: Msg = Msg {
    zh: "hidden = x @ W_1 + b_1  # T×d_ff\nactivated = torch.relu(hidden)  # 或 F.gelu(hidden)\nffn = activated @ W_2 + b_2  # 每一行只用到 x 的同一行",
    en: "hidden = x @ W_1 + b_1  # T×d_ff\nactivated = torch.relu(hidden)  # or F.gelu(hidden)\nffn = activated @ W_2 + b_2  # each row uses only the same row of x",
};
pub const CODE_STACKING: Msg = Msg {
    zh: "layer = nn.TransformerEncoderLayer(d, h, d_ff, dropout=0.0, batch_first=True)\nencoder = nn.TransformerEncoder(layer, num_layers=2)  # 每层复制一份自己的权重\ny = encoder(x)  # 第 2 层读第 1 层的输出",
    en: "layer = nn.TransformerEncoderLayer(d, h, d_ff, dropout=0.0, batch_first=True)\nencoder = nn.TransformerEncoder(layer, num_layers=2)  # each layer gets its own copy of the weights\ny = encoder(x)  # layer 2 reads layer 1's output",
};
pub const NORM_PREDICT_PROMPT: Msg = Msg {
    zh: "先猜一猜：LayerNorm 把“{token}”的特征减去均值、除以 σ 之后（乘 γ、加 β 之前），这一行的均值是 0。它的标准差是多少？选好后才显示数字。",
    en: "Guess first: once LayerNorm has taken the mean off {token}'s features and divided by σ (before γ and β), the row has mean 0. What is its standard deviation? The numbers appear once you have chosen.",
};
pub const NORM_GUESS_ZERO: Msg = Msg {
    zh: "等于 0",
    en: "exactly 0",
};
pub const NORM_GUESS_ONE: Msg = Msg {
    zh: "约等于 1",
    en: "about 1",
};
pub const NORM_GUESS_ROOT_D: Msg = Msg {
    zh: "√d（d 是特征数）",
    en: "√d (d features)",
};
pub const NORM_GUESS_SAME: Msg = Msg {
    zh: "和原来的 σ 一样",
    en: "the same σ as before",
};
pub const NORM_RIGHT: Msg = Msg {
    zh: "猜对了：归一化后的这一行标准差是 {s}（ε 让它比 1 略小一点），不管原来的 σ 是 {before}。",
    en: "Right: the normalised row's standard deviation is {s} (ε makes it a hair under 1), whatever the σ of {before} before.",
};
pub const NORM_WRONG: Msg = Msg {
    zh: "差一点：除以 σ 正是为了让标准差变成 1。归一化后的这一行标准差是 {s}，原来的 σ 是 {before}。",
    en: "Not quite: dividing by σ is exactly what makes the standard deviation 1. The normalised row's standard deviation is {s}; the σ before was {before}.",
};
