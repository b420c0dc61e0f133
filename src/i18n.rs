//! Both languages of every user-visible string. A [`Msg`] cannot be written
//! without its zh-CN and English text, so no string exists in one language only.

use leptos::prelude::*;

pub mod block;
pub mod cards;
pub mod controls;
pub mod errors;
pub mod experiment;
pub mod generation;
pub mod heads;
pub mod lessons;
pub mod mistakes;
pub mod order;
pub mod projection;
pub mod raster;
pub mod share;
pub mod training;
pub mod walkthrough;

/// The interface language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// The BCP 47 tag, for `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }

    /// The language a link names with `lang=zh` or `lang=en`; anything else is ignored.
    pub fn from_link(value: &str) -> Option<Self> {
        match value {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// Chinese for a browser that prefers any Chinese locale, English otherwise.
    pub fn from_browser_tag(tag: &str) -> Self {
        if tag.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}

/// One user-visible string in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Msg {
    pub zh: &'static str,
    pub en: &'static str,
}

impl Msg {
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::Zh => self.zh,
            Lang::En => self.en,
        }
    }
}

/// The shared interface language, provided once by the app.
#[derive(Clone, Copy)]
pub struct LangContext(pub RwSignal<Lang>);

/// `msg` in the current language, as a signal for use in `view!`.
pub fn tr(msg: Msg) -> Signal<&'static str> {
    let LangContext(lang) = expect_context::<LangContext>();
    Signal::derive(move || msg.get(lang.get()))
}

pub const TITLE: Msg = Msg {
    zh: "注意力实验室",
    en: "Attention Lab",
};
/// Where a learner adds numbers up by hand.
pub const ROUNDED: Msg = Msg {
    zh: "图上的数字四舍五入到两位小数；求和用的是精确值，所以手算可能差 0.01 左右。",
    en: "Numbers shown are rounded to 2 decimals; sums use the exact values, so adding the rounded ones by hand can be off by about 0.01.",
};
/// The link from an embedded figure to the whole app.
pub const OPEN_FULL_APP: Msg = Msg {
    zh: "在注意力实验室中打开完整版 ↗",
    en: "Open the full Attention Lab ↗",
};
/// The first Tab of the page: past the header and the controls.
pub const SKIP_TO_DIAGRAMS: Msg = Msg {
    zh: "跳到图示",
    en: "Skip to the diagrams",
};
/// What the live region says after the query or its weights change.
pub const ANNOUNCE_WEIGHTS: Msg = Msg {
    zh: "查询词 {token}：权重 {weights}",
    en: "Query {token}: weights {weights}",
};
/// The same for a long row: its heaviest keys, each with its weight.
pub const ANNOUNCE_HEAVIEST: Msg = Msg {
    zh: "查询词 {token}：权重最大的是 {weights}",
    en: "Query {token}: most weight on {weights}",
};
/// The same while the walkthrough waits for a guess: the weights stay unsaid.
pub const ANNOUNCE_HIDDEN: Msg = Msg {
    zh: "查询词 {token}：先猜它最关注哪个词，猜完再揭晓权重",
    en: "Query {token}: guess which word it attends to most; the weights show after your guess",
};
pub const TAGLINE: Msg = Msg {
    zh: "一个注意力头，每个数字都看得见、改得动",
    en: "One attention head, every number visible and editable",
};
/// The tagline while the layer has several heads.
pub const TAGLINE_HEADS: Msg = Msg {
    zh: "多个注意力头，每个数字都看得见、改得动",
    en: "Several attention heads, every number visible and editable",
};
pub const SWITCH_LANGUAGE: Msg = Msg {
    zh: "English",
    en: "中文",
};
/// Starts with the button's own text, which speech users say to press it (WCAG 2.5.3).
pub const SWITCH_LANGUAGE_LABEL: Msg = Msg {
    zh: "English：切换到英文界面",
    en: "中文: switch the interface to Chinese",
};
pub const COPY_LINK: Msg = Msg {
    zh: "复制链接",
    en: "Copy link",
};
pub const LINK_COPIED: Msg = Msg {
    zh: "链接已复制",
    en: "Link copied",
};
pub const WEIGHTS_TITLE: Msg = Msg {
    zh: "注意力权重 α′ = softmax(QKᵀ / √d_k)",
    en: "Attention weights α′ = softmax(QKᵀ / √d_k)",
};
pub const WEIGHTS_EXPLAINED: Msg = Msg {
    zh: "第 i 行是第 i 个词分给每个词的注意力，每行加起来等于 1。",
    en: "Row i is how token i shares its attention among all tokens; each row adds up to 1.",
};
pub const WEIGHTS_ARIA: Msg = Msg {
    zh: "注意力权重：行是查询词，列是被关注的词",
    en: "Attention weights: rows are queries, columns are the tokens attended to",
};
/// Before the smallest row sum of a matrix too tall to list them.
pub const ROW_SUMS_FROM: Msg = Msg {
    zh: "每一行的和：最小",
    en: "Every row's sum lies between",
};
/// Between the smallest and the largest row sum.
pub const ROW_SUMS_TO: Msg = Msg {
    zh: "，最大",
    en: "and",
};
/// The fusion's last row in a long sequence: every key but the heaviest
/// eight, together ({n} is how many).
pub const FUSION_REST: Msg = Msg {
    zh: "其余 {n} 个",
    en: "{n} others",
};
/// Above the thin bars of a long row: what their heights are measured against.
pub const BARS_SCALED: Msg = Msg {
    zh: "键太多，柱子画得很细；高度按这一行最大的权重缩放：最高的柱子是",
    en: "With this many keys the bars are thin, and their heights are scaled to the row's largest weight; the tallest bar is",
};
pub const ROW_SUM: Msg = Msg {
    zh: "行和",
    en: "Row sum",
};
pub const LEGEND_WEIGHT: Msg = Msg {
    zh: "权重",
    en: "Weight",
};
/// Said when a new deployment of the app is ready (the offline worker found it).
pub const UPDATE_READY: Msg = Msg {
    zh: "注意力实验室有新版本了。你的工作已保存，重新载入就能用新版本。",
    en: "A new version of Attention Lab is ready. Your work is saved; reload to use it.",
};
/// In an LMS, when the learner's work is larger than SCORM 1.2 keeps.
pub const WORK_CUT_SHORT: Msg = Msg {
    zh: "课程平台最多保存 4096 个字符，这里的内容超出了：下次打开时会回到同样的步骤和语言，从列表选的场景会按列表里的样子回来，但屏幕上改过的数字不会保留。可以在“保存与分享”里下载场景 JSON 留底。",
    en: "The course platform keeps at most 4096 characters, and this is more: next time you return to the same step and language, and a scenario picked from the list comes back as the list has it, but not the numbers you changed on screen. Save and share can download the scenario as JSON to keep them.",
};
pub const UPDATE_RELOAD: Msg = Msg {
    zh: "重新载入",
    en: "Reload",
};
pub const INPUT_PROBLEM: Msg = Msg {
    zh: "无法计算：输入有误",
    en: "Cannot compute: the input has a problem",
};
pub const SHOW_AS_TABLES: Msg = Msg {
    zh: "以表格显示",
    en: "Show as tables",
};

// Diagram 2 (dot products) and diagram 3 (softmax).
pub const SCORES_TITLE: Msg = Msg {
    zh: "打分：α = QKᵀ / √d_k",
    en: "Scores: α = QKᵀ / √d_k",
};
pub const SCORES_EXPLAINED: Msg = Msg {
    zh: "每一格是查询行 Q_i 与键行 K_j 的点积再除以 √d_k：越大表示越匹配。",
    en: "Each cell is the dot product of query row Q_i and key row K_j, divided by √d_k: the larger, the better they match.",
};
/// What to do with the scores on screen; left out of an exported figure.
pub const SCORES_HINT: Msg = Msg {
    zh: "点一个格子，看它是怎么算出来的。",
    en: " Select a cell to see it worked out.",
};
pub const SCORES_ARIA: Msg = Msg {
    zh: "缩放后的打分：行是查询词，列是键词",
    en: "Scaled scores: rows are queries, columns are keys",
};
pub const SCORES_LEGEND: Msg = Msg {
    zh: "打分",
    en: "Score",
};
pub const SCORES_LEGEND_ARIA: Msg = Msg {
    zh: "打分的颜色刻度：蓝色为负，白色为零，红色为正",
    en: "Colour scale of the scores: blue is negative, white is zero, red is positive",
};
pub const Q_ROW_ARIA: Msg = Msg {
    zh: "参与相乘的查询行 Q_i",
    en: "The query row Q_i being multiplied",
};
pub const K_ROW_ARIA: Msg = Msg {
    zh: "参与相乘的键行 K_j",
    en: "The key row K_j being multiplied",
};
pub const SCALING_OFF: Msg = Msg {
    zh: "缩放已关闭：打分就是点积本身。",
    en: "Scaling is off: the score is the dot product itself.",
};
pub const SCORE_MASKED: Msg = Msg {
    zh: "这个键被遮住了：softmax 会忽略这个打分，它的权重正好是 0。",
    en: "This key is masked: softmax ignores this score, and its weight is exactly 0.",
};
pub const SOFTMAX_TITLE: Msg = Msg {
    zh: "归一化：α′ = softmax(α)",
    en: "Softmax: α′ = softmax(α)",
};
pub const SOFTMAX_EXPLAINED: Msg = Msg {
    zh: "softmax 把查询词的一行打分变成权重：每个键取 e 的打分次方，再除以这一行的总和，所以权重都在 0 到 1 之间，加起来等于 1。",
    en: "Softmax turns a query's row of scores into weights: e to the power of each key's score, divided by the row's total, so every weight lies between 0 and 1 and they add up to 1.",
};
pub const BARS_ARIA: Msg = Msg {
    zh: "所选查询词的注意力权重柱状图，每个键一根柱子",
    en: "Bar chart of the selected query's attention weights, one bar per key",
};
pub const BARS_CAPTION: Msg = Msg {
    zh: "所选查询词",
    en: "Selected query",
};
pub const BARS_HINT: Msg = Msg {
    zh: "轻点或指向一根柱子（键盘用 Tab 和方向键），看它的 softmax 算式。",
    en: "Tap or point at a bar (with the keyboard: Tab, then the arrows) to see its softmax worked out.",
};
pub const WEIGHT_MASKED: Msg = Msg {
    zh: "这个键被遮住了：它不参与求和，权重正好是 0。",
    en: "This key is masked: it is left out of the sum, and its weight is exactly 0.",
};
pub const SUM_OVER_ALLOWED: Msg = Msg {
    zh: "Σₖ 只对没有被遮住的键求和。",
    en: "Σₖ runs over the keys that are not masked.",
};
pub const SOFTMAX_SHIFTED: Msg = Msg {
    zh: "这些打分很大，e^α 会溢出，所以分子和分母同时除以 e^m（m 是这一行最大的打分）；权重不变。",
    en: "These scores are so large that e^α would overflow, so top and bottom are both divided by e^m (m is the row's largest score); the weight is unchanged.",
};
pub const ROW_SUMS_ARIA: Msg = Msg {
    zh: "每个查询词的权重之和",
    en: "The sum of each query's weights",
};
pub const WEIGHTS_LEGEND_ARIA: Msg = Msg {
    zh: "权重的颜色刻度，从 0 到 1",
    en: "Colour scale of the weights, from 0 to 1",
};

// Diagram 4, the fusion B_i = Σ_j α′_ij V_j.
pub const FUSION_TITLE: Msg = Msg {
    zh: "融合：B_i = Σ_j α′_ij V_j",
    en: "Fusion: B_i = Σ_j α′_ij V_j",
};
pub const FUSION_EXPLAINED: Msg = Msg {
    zh: "每个值向量 V_j 乘上权重 α′_ij 流入输出 B_i（线越粗权重越大）；柱子把各个词对 B_i 每个分量的贡献叠在一起。",
    en: "Each value row V_j, scaled by its weight α′_ij, flows into the output B_i (thicker means heavier); each bar stacks what every token adds to one component of B_i.",
};
pub const FUSION_ARIA: Msg = Msg {
    zh: "融合图：每个值向量按注意力权重流入所选词的输出 B_i，每个分量的柱子按词叠加各自的贡献",
    en: "Fusion diagram: every value row flows into the selected token's output B_i in proportion to its attention weight; each component's bar stacks every token's contribution",
};
pub const FUSION_HINT: Msg = Msg {
    zh: "轻点或指向某个分量的柱子（键盘用 Tab 和方向键），看它的求和算式。",
    en: "Tap or point at a component's bar (with the keyboard: Tab, then the arrows) to see its sum written out.",
};
pub const FUSION_LEGEND: Msg = Msg {
    zh: "词的颜色：",
    en: "Token colours:",
};
/// The word for a masked key: on the fusion's connectors, after a masked cell's name.
pub const MASKED: Msg = Msg {
    zh: "已遮住",
    en: "masked",
};
pub const FUSION_TICK: Msg = Msg {
    zh: "每根柱子上的黑色横线是各段之和，也就是 B_i 的这个分量（柱子上方的数字）。",
    en: "The black tick across each bar is the sum of its pieces: that component of B_i, the number above the bar.",
};
pub const FUSION_OUTPUT_TITLE: Msg = Msg {
    zh: "输出矩阵 B = α′V",
    en: "Output matrix B = α′V",
};
/// What to do with the output matrix on screen; left out of an exported figure.
pub const FUSION_OUTPUT_HINT: Msg = Msg {
    zh: "（轻点一行选中那个词）",
    en: " (click or tap a row to select its token)",
};
pub const FUSION_OUTPUT_ARIA: Msg = Msg {
    zh: "输出矩阵 B：每行是一个词的输出",
    en: "Output matrix B: one row per token",
};

#[cfg(test)]
mod tests;
