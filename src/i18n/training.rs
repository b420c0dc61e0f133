//! Strings of the training card.

use super::Msg;

pub const TITLE: Msg = Msg {
    zh: "训练：让 W_Q、W_K 自己学出来",
    en: "Training: let W_Q and W_K learn",
};
pub const INTRO: Msg = Msg {
    zh: "W 不是写死的公式。训练时，先用当前的 W 算一遍注意力，再把结果和“标签”比较得到损失；反向传播求出损失对每个 W 元素的梯度，优化器沿着让损失变小的方向一点点改 W。按“播放”，看上面四张图和 W 矩阵一起变化。",
    en: "The W matrices are not fixed formulas. Training runs the head with the current W, compares the result with a label to get a loss, and backpropagation finds the loss's gradient for every entry of W; the optimizer then nudges W in the direction that lowers the loss. Press Play and watch the four diagrams above and the W matrices change together.",
};
pub const TASK: Msg = Msg {
    zh: "任务",
    en: "Task",
};
pub const TASK_PRONOUN: Msg = Msg {
    zh: "代词：第二个“他”要关注第一个“他”",
    en: "Pronoun: the second 他 must attend to the first",
};
pub const TASK_SPEAKER: Msg = Msg {
    zh: "同一说话人：每个音频帧关注同一个人的帧",
    en: "Same speaker: each audio frame attends to its own speaker's frames",
};
pub const TASK_RETRIEVE: Msg = Msg {
    zh: "取回：问题词元的输出要等于它所问动物的 V",
    en: "Retrieve: a question token's output must be the V of the animal it names",
};
pub const LOSS_PRONOUN: Msg = Msg {
    zh: "损失 L = −ln α′₃₁：第 3 个词元（第二个“他”）给第 1 个词元的权重越接近 1，损失越接近 0。目标：L < 0.05，也就是至少 95% 的注意力落在第一个“他”上。",
    en: "Loss L = −ln α′₃₁: the closer the weight of token 3 (the second 他) on token 1 gets to 1, the closer L gets to 0. Goal: L < 0.05, that is at least 95% of its attention on the first 他.",
};
pub const LOSS_SPEAKER: Msg = Msg {
    zh: "损失 L = 每一行 −ln(该帧给同一说话人所有帧的权重之和) 的平均值。目标：L < 0.05。只有 3 个声音特征能区分说话人，其余 5 个只是干扰。",
    en: "Loss L = the mean over rows of −ln(the weight a frame gives all frames of its own speaker). Goal: L < 0.05. Only 3 voice features tell the speakers apart; the other 5 are distraction.",
};
pub const LOSS_RETRIEVE: Msg = Msg {
    zh: "损失 L = 问题词元的输出 B_i 与目标动物的 V 之间的均方误差。这里 W_V 固定为单位矩阵（否则把 W_V 学成 0 就能作弊），只训练 W_Q 和 W_K。目标：L < 0.002。",
    en: "Loss L = the mean squared error between a question token's output B_i and the V of the animal it names. W_V stays the identity here (or learning W_V = 0 would cheat), so only W_Q and W_K train. Goal: L < 0.002.",
};
pub const HEADS: Msg = Msg {
    zh: "头数",
    en: "Heads",
};
/// What follows the number of heads in a choice, before that head's d_k:
/// "2 heads, d_k = 4".
pub const HEAD_ONE: Msg = Msg {
    zh: " 个头，",
    en: " head, ",
};
pub const HEAD_MANY: Msg = Msg {
    zh: " 个头，",
    en: " heads, ",
};
pub const HEADS_LOSS: Msg = Msg {
    zh: "几个头时，W 的 8 列平分给各个头；损失读的是各头权重的平均 ᾱ（PyTorch 默认返回的就是它）和各头输出的拼接，所以每个头都要学会这件事。看上面的“多头并排”：每个头的权重图都在变。",
    en: "With several heads the 8 columns of each W are shared out among them; the loss reads the heads' weights averaged, ᾱ (what PyTorch returns by default), and their joined outputs, so every head has to learn it. Watch the heads side by side above: each head's map changes.",
};
pub const OPTIMIZER: Msg = Msg {
    zh: "优化器",
    en: "Optimizer",
};
pub const SGD: Msg = Msg {
    zh: "SGD（随机梯度下降）",
    en: "SGD (gradient descent)",
};
pub const MOMENTUM: Msg = Msg {
    zh: "带动量的 SGD",
    en: "SGD with momentum",
};
pub const ADAM: Msg = Msg {
    zh: "Adam（自适应学习率）",
    en: "Adam",
};
pub const LEARNING_RATE: Msg = Msg {
    zh: "学习率",
    en: "Learning rate",
};
pub const PLAY: Msg = Msg {
    zh: "▶ 播放",
    en: "▶ Play",
};
pub const PAUSE: Msg = Msg {
    zh: "⏸ 暂停",
    en: "⏸ Pause",
};
pub const STEP: Msg = Msg {
    zh: "走一步",
    en: "Step",
};
pub const RESET: Msg = Msg {
    zh: "重新开始",
    en: "Reset",
};
pub const STEPS: Msg = Msg {
    zh: "步数：",
    en: "Steps: ",
};
pub const LOSS_NOW: Msg = Msg {
    zh: "当前损失：",
    en: "Loss now: ",
};
pub const REACHED: Msg = Msg {
    zh: "达到目标了！训练好的 W 已经显示在上面的图里，可以逐步讲解、导出或复制链接。",
    en: "Goal reached! The trained W is in the diagrams above: step through it, export it or copy its link.",
};
pub const CURVE_ARIA: Msg = Msg {
    zh: "损失随训练步数下降的曲线，虚线是目标",
    en: "The loss falling with the training steps; the dashed line is the goal",
};
pub const GRADIENTS: Msg = Msg {
    zh: "梯度 ∂L/∂W：颜色越深，这一格对损失的影响越大；每一步都朝着梯度的反方向改 W（Adam 和动量还会按各格的历史调整步长）",
    en: "Gradients ∂L/∂W: the deeper the colour, the more that cell moves the loss; each step changes W against the gradient (Adam and momentum also scale each cell's step by its history)",
};
pub const LARGEST: Msg = Msg {
    zh: "改动最大的一格：",
    en: "Biggest change: ",
};
pub const FROZEN: Msg = Msg {
    zh: "（这个任务里固定不变）",
    en: "(frozen in this task)",
};
pub const LEARNING_STEP: Msg = Msg {
    zh: "回到讲解的“W 是学出来的”一步",
    en: "Back to the walkthrough's “The W matrices are learned” step",
};
