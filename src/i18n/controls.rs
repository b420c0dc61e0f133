//! Strings of the controls panel.

use super::{Lang, Msg};
use crate::lab::LabError;

pub const CONTROLS_TITLE: Msg = Msg {
    zh: "输入与设置",
    en: "Input and settings",
};
pub const TOKENS: Msg = Msg {
    zh: "词元（点击选为查询）",
    en: "Tokens (click one to make it the query)",
};
pub const TOKEN_PARTS: Msg = Msg {
    zh: "每个词元：点粗体的词把它选为查询；在框里改名字（回车确认）；“填充”把它标为补齐用的位置（作为键被遮住）；× 删除。",
    en: "Each token: click the bold word to make it the query; type in its box to rename it (Enter); “Pad” marks it as padding (masked as a key); × removes it.",
};
pub const RENAME: Msg = Msg {
    zh: "重命名词元",
    en: "Rename token",
};
pub const PAD: Msg = Msg {
    zh: "填充",
    en: "Pad",
};
pub const PAD_LABEL: Msg = Msg {
    zh: "把这个词元标为填充（作为键时被遮住）",
    en: "Mark this token as padding (masked as a key)",
};
pub const REMOVE: Msg = Msg {
    zh: "删除这个词元",
    en: "Remove this token",
};
pub const NEW_TOKEN: Msg = Msg {
    zh: "新词元",
    en: "New token",
};
pub const ADD: Msg = Msg {
    zh: "添加",
    en: "Add",
};
pub const D_MODEL: Msg = Msg {
    zh: "d_model（输入维度）",
    en: "d_model (input features)",
};
pub const D_K: Msg = Msg {
    zh: "d_k（每个头的 Q、K、V 的维度）",
    en: "d_k (each head's width of Q, K and V)",
};
/// Why d_k moves when the number of heads does.
pub const D_K_FOLLOWS_HEADS: Msg = Msg {
    zh: "改变头数 h 时，d_k 随之变为 d_model / h。",
    en: "Changing the number of heads h sets d_k to d_model / h.",
};
pub const HEADS: Msg = Msg {
    zh: "头数 h",
    en: "Heads h",
};
pub const W_O: Msg = Msg {
    zh: "输出投影 W_O（把各个头拼接后再乘）",
    en: "Output projection W_O (applied to the joined heads)",
};
pub const BLOCK: Msg = Msg {
    zh: "Transformer 块（残差、LayerNorm、前馈网络，可叠多层）",
    en: "Transformer block (residuals, LayerNorm, feed-forward; stackable)",
};
/// Why the sizes and W_O cannot change while there is a block.
pub const FIXED_BY_BLOCK: Msg = Msg {
    zh: "Transformer 块的每一层都建立在 d_model、d_k 和 W_O 上，所以有块时它们保持不变；关掉块就能再改。",
    en: "Every layer of a transformer block is built on d_model, d_k and W_O, so they stay fixed while there is a block; turn the block off to change them.",
};
pub const RANDOMIZE_W_O: Msg = Msg {
    zh: "随机生成 W_O",
    en: "Random W_O",
};
pub const SCALE: Msg = Msg {
    zh: "除以 √d_k",
    en: "Divide by √d_k",
};
pub const CAUSAL: Msg = Msg {
    zh: "因果掩码（只看前面的词）",
    en: "Causal mask (look only at earlier tokens)",
};
pub const SEED: Msg = Msg {
    zh: "随机种子",
    en: "Seed",
};
pub const RESET: Msg = Msg {
    zh: "恢复默认",
    en: "Reset",
};
pub const RESET_CONFIRM: Msg = Msg {
    zh: "把这个场景恢复为默认的数值吗？你在这里的改动都会丢失。",
    en: "Return this scenario to its default numbers? Your edits here will be lost.",
};
pub const RANDOMIZE: Msg = Msg {
    zh: "随机生成 W",
    en: "Random W",
};
pub const SEQUENCE: Msg = Msg {
    zh: "批次中的序列",
    en: "Sequence of the batch",
};

/// Why an edit was refused, in the learner's language.
pub fn lab_error(error: &LabError, lang: Lang) -> String {
    let (msg, detail) = match error {
        LabError::TooManyTokens => (
            Msg {
                zh: "词元太多：每个序列最多 512 个（批次很大时更少）",
                en: "Too many tokens: at most 512 per sequence (fewer in a large batch)",
            },
            String::new(),
        ),
        LabError::LastToken => (
            Msg {
                zh: "至少要保留一个词元",
                en: "At least one token must stay",
            },
            String::new(),
        ),
        LabError::BadLabel => (
            Msg {
                zh: "词元需要 1 到 32 个字符",
                en: "A token needs 1 to 32 characters",
            },
            String::new(),
        ),
        LabError::NotANumber(text) => (
            Msg {
                zh: "不是有限的数字：",
                en: "Not a finite number: ",
            },
            format!("“{text}”"),
        ),
        LabError::TooLarge(text) => (
            Msg {
                zh: "数字的绝对值不能超过 1000：",
                en: "A number must be between −1000 and 1000: ",
            },
            text.clone(),
        ),
        LabError::BadSeed(text) => (
            Msg {
                zh: "种子必须是 0 或正整数：",
                en: "A seed must be a whole number, 0 or more: ",
            },
            format!("“{text}”"),
        ),
        LabError::BadLink(part) => (
            Msg {
                zh: "链接里保存的状态已损坏，已改用默认场景。出问题的部分：",
                en: "The link's saved state is damaged, so the default scenario is shown. The damaged part: ",
            },
            part.clone(),
        ),
        LabError::IgnoredParameter(name) => (
            Msg {
                zh: "链接里有一个参数无法读取，已忽略：",
                en: "A parameter of the link could not be read and was ignored: ",
            },
            name.clone(),
        ),
        LabError::BadSize(size) => (
            Msg {
                zh: "维度必须在 2 到 16 之间（多头时 d_k 可以是 1，但所有头的 d_k 加起来不超过 64）：",
                en: "A size must be from 2 to 16 (with several heads d_k may be 1, and all heads' d_k together at most 64): ",
            },
            size.to_string(),
        ),
        LabError::BadHeads(heads) => (
            Msg {
                zh: "头数须为 1 到 8，能平分 W 的列，且各头的分数共不超过 1,048,576 个：",
                en: "Heads: 1 to 8, sharing the W columns equally, with at most 1,048,576 scores in all: ",
            },
            heads.to_string(),
        ),
        LabError::OutOfRange => (
            Msg {
                zh: "没有这个位置",
                en: "There is no such position",
            },
            String::new(),
        ),
        LabError::FixedByBlock => (FIXED_BY_BLOCK, String::new()),
        LabError::BadLayers(layers) => (
            Msg {
                zh: "层数须为 1 到 4：",
                en: "Layers: 1 to 4, not ",
            },
            layers.to_string(),
        ),
        LabError::OddForRope(d_k) => (
            Msg {
                zh: "RoPE 把 Q 和 K 的列两两一组旋转，所以每个头的 d_k 必须是偶数，现在是 ",
                en: "RoPE turns the columns of Q and K in pairs, so each head's d_k must be even, not ",
            },
            d_k.to_string(),
        ),
        LabError::Import(error) => (
            Msg {
                zh: "无法导入，当前场景保持不变。",
                en: "Not imported; the current scenario is unchanged. ",
            },
            super::errors::attention_error(error, lang),
        ),
    };
    format!("{}{detail}", msg.get(lang))
}

pub const SCENARIO: Msg = Msg {
    zh: "场景",
    en: "Scenario",
};
pub const SCENARIO_SENTENCE: Msg = Msg {
    zh: "句子：我 / 喜欢 / 打 / 篮球",
    en: "Sentence: 我 / 喜欢 / 打 / 篮球 (I / like / play / basketball)",
};
pub const SCENARIO_PRONOUN: Msg = Msg {
    zh: "代词：他说他今天不能来",
    en: "Pronoun: 他说他今天不能来 (he said he can't come today)",
};
pub const SCENARIO_PRONOUN_HEADS: Msg = Msg {
    zh: "代词，两个头：他说他今天不能来",
    en: "Pronoun with two heads: 他说他今天不能来",
};
pub const SCENARIO_AUDIO: Msg = Msg {
    zh: "音频帧：2 段 × 5 帧，带填充",
    en: "Audio frames: 2 clips × 5 frames, with padding",
};
pub const SCENARIO_DIARIZATION: Msg = Msg {
    zh: "说话人日志：A、B 两人交替",
    en: "Speaker diarization: speakers A and B take turns",
};
pub const SCENARIO_LONG_DIARIZATION: Msg = Msg {
    zh: "说话人日志（长）：2 段 × 200 帧，带填充",
    en: "Speaker diarization at length: 2 clips × 200 frames, with padding",
};
pub const SCENARIO_WORD_ORDER: Msg = Msg {
    zh: "词序：正弦位置编码",
    en: "Word order: sinusoidal positions",
};
pub const SCENARIO_GENERATION: Msg = Msg {
    zh: "逐词生成：RoPE 与 KV 缓存",
    en: "Generation: RoPE and a KV cache",
};
pub const SCENARIO_BLOCK: Msg = Msg {
    zh: "一个完整的 Transformer 块（两层）",
    en: "A whole transformer block (two layers)",
};
pub const SCENARIO_BLANK: Msg = Msg {
    zh: "自定义：从空白开始",
    en: "Custom: start from blank",
};
pub const SCENARIO_CURRENT: Msg = Msg {
    zh: "自定义：从当前状态开始",
    en: "Custom: start from what is on screen",
};
pub const NOTES_SENTENCE: Msg = Msg {
    zh: "四个词元，维度都是 4。选中“我”：它的权重行接近 [0.5, 0.2, 0.2, 0.1]，一半注意力留给自己。再看“打”和“篮球”，它们互相关注最多：动作和它的对象配成了一对。",
    en: "Four tokens, every size 4: 我 / 喜欢 / 打 / 篮球, “I like to play basketball”. Select 我 (I): its row of weights comes out near [0.5, 0.2, 0.2, 0.1], half of its attention on itself. Then look at 打 (play) and 篮球 (basketball): each attends most to the other, pairing the action with its object.",
};
pub const NOTES_PRONOUN: Msg = Msg {
    zh: "第二个“他”指谁？选中第 3 个词元：它最关注的是第一个“他”，这就是代词找到了它指代的人。两个“他”的向量只差一个“出现得早”的特征，W_Q 让后出现的人称去找更早的人称。",
    en: "Who is the second 他? Select token 3: it attends most to the first 他, the pronoun finding the person it refers to. The two 他 vectors differ only in a feature saying how early they come, and W_Q makes a later person look for an earlier one.",
};
pub const NOTES_PRONOUN_HEADS: Msg = Msg {
    zh: "同一句话，两个头，每个头 d_k = 3。X 除了原来的四个特征，还多了两个位置特征 cos(πp/4) 和 sin(πp/4)，像一根每个词转 45° 的指针。在“多头”卡片里比较两张小图：头 1 按内容找，第二个“他”最关注第一个“他”；头 2 只看位置，每个词都最关注它前面的那个词，对角线下方紧挨着一条亮线。点“头 1”“头 2”，下面四张图跟着切换。W_O 是单位矩阵，所以输出就是两个头并排；改改 W_O，看输出怎样把两个头混在一起。",
    en: "The same sentence with two heads of d_k = 3. Besides its four features, X has two position features, cos(πp/4) and sin(πp/4): a hand that turns 45° per token. Compare the two small maps in the Heads card: head 1 matches on content, and the second 他 attends most to the first 他; head 2 reads only the positions, and every token attends most to the one just before it, a bright line just below the diagonal. Pick Head 1 or Head 2 and the four diagrams follow. W_O is the identity, so the output is the two heads side by side; edit W_O and watch the output mix them.",
};
pub const NOTES_AUDIO: Msg = Msg {
    zh: "两段短音频成一批，每帧 4 个特征，注意力维度 8。用“批次中的序列”切换到第 2 段：它只有 3 帧是真的，后 2 帧是填充。看权重矩阵：填充列全是 0（被遮住），每行仍然加起来等于 1。",
    en: "Two short clips in one batch: 4 features per frame, attention size 8. Switch to sequence 2 under “Sequence of the batch”: only its first 3 frames are real, the last 2 are padding. In the weights, the padding columns are exactly 0 (masked) and every row still adds up to 1.",
};
pub const NOTES_DIARIZATION: Msg = Msg {
    zh: "每一帧来自说话人 A 或 B，声音特征各有方向。选中 A3：它把注意力给了隔得很远的 A1、A2，而不是身边的 B 帧。同一个人的声音在时间上反复出现，注意力一步就能把它们归到一起。",
    en: "Each frame comes from speaker A or B, whose voices point in different directions. Select A3: it attends to A1 and A2, far back in time, rather than to the B frames around it. The same voice recurs over time, and attention groups it in a single step.",
};
pub const NOTES_LONG_DIARIZATION: Msg = Msg {
    zh: "A、B 两人的两段对话，每段 200 帧，每帧 8 个特征：两个音色、一个音高、一个响度、四个说话内容。词元名只是帧的编号，谁在说话要从图里看出来。每行要把 1 分给多达 200 帧，单个权重都很小（约 0.01），所以要看的是图案。在权重矩阵里，每一轮发言是对角线上的一个方块；同一个人再开口的地方，方块又出现在对角线外，拼成一张“谁在何时说话”的棋盘。一帧关注同一说话人的每一轮发言，不管隔得多远，因为 X 里没有任何时间信息。Q 和 K 的第一列是说话人轴：A 为正，B 为负。停顿的行把注意力几乎平均分给所有帧。用“批次中的序列”切换到第 2 段：只有前 140 帧是真的，后 60 列是填充，被遮住，权重全是 0。",
    en: "Two conversations between speakers A and B, 200 frames each, 8 features per frame: two of timbre, pitch, loudness and four of what is said. The labels only number the frames: who speaks is for the heatmap to show. Each row shares out 1 among up to 200 frames, so single weights are small (about 0.01); look at the pattern. In the weights, every turn is a square block on the diagonal, and the same blocks come back off the diagonal wherever that speaker talks again, a checkerboard of who speaks when. A frame attends to every turn of its own speaker, however far away, because nothing in X says when a frame comes. The first column of Q and K is a speaker axis: positive for A, negative for B. Rows of pauses spread their attention almost evenly. Switch to sequence 2 under “Sequence of the batch”: only its first 140 frames are real, and the 60 padding columns are masked, every weight exactly 0.",
};
pub const NOTES_WORD_ORDER: Msg = Msg {
    zh: "X 加上了正弦位置编码：打乱词序，输出就变了。",
    en: "Sinusoidal positions added to X: shuffle the words and the output changes.",
};
pub const NOTES_GENERATION: Msg = Msg {
    zh: "因果注意力，Q、K 用 RoPE 旋转：可以带 KV 缓存逐词生成。",
    en: "Causal, with Q and K turned by RoPE: to generate token by token with a KV cache.",
};
pub const NOTES_BLOCK: Msg = Msg {
    zh: "注意力之后还有残差、LayerNorm 和前馈网络，叠成两层。留意：残差让每个词元保留自己的向量（第一个 ⊕ 的左边就是 x）；LayerNorm 只看一个词元自己的特征；前馈网络一次只处理一个词元，而注意力把词元混在一起；ReLU 把负的隐藏数变成 0。",
    en: "After attention come the residual, LayerNorm and the feed-forward network, stacked twice. Notice: the residual keeps each token's own vector (the first ⊕ starts from x itself); LayerNorm looks at one token's own features; the feed-forward network handles one token at a time, while attention mixes them; ReLU turns the negative hidden numbers into 0.",
};
pub const NOTES_CUSTOM: Msg = Msg {
    zh: "这是你自己的场景：改词元、改 X 和 W 的任何数字，看每张图怎么跟着变。",
    en: "This scenario is yours: change the tokens and any number of X or W, and watch every diagram follow.",
};
