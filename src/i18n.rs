//! Both languages of every user-visible string. A [`Msg`] cannot be written
//! without its zh-CN and English text, so no string exists in one language only.

use leptos::prelude::*;

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
#[derive(Clone, Copy, Debug)]
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

/// A reactive closure giving `msg` in the current language, for use in `view!`.
pub fn tr(msg: Msg) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let LangContext(lang) = expect_context::<LangContext>();
    move || msg.get(lang.get())
}

pub const TITLE: Msg = Msg {
    zh: "注意力实验室",
    en: "Attention Lab",
};
pub const TAGLINE: Msg = Msg {
    zh: "一个注意力头，每个数字都看得见、改得动",
    en: "One attention head, every number visible and editable",
};
pub const SWITCH_LANGUAGE: Msg = Msg {
    zh: "English",
    en: "中文",
};
pub const SWITCH_LANGUAGE_LABEL: Msg = Msg {
    zh: "切换到英文界面",
    en: "Switch the interface to Chinese",
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
    zh: "注意力权重热力图：行是查询词，列是被关注的词",
    en: "Heatmap of attention weights: rows are queries, columns are the tokens attended to",
};
pub const ROW_SUM: Msg = Msg {
    zh: "行和",
    en: "Row sum",
};
pub const LEGEND_WEIGHT: Msg = Msg {
    zh: "权重",
    en: "Weight",
};
pub const INPUT_PROBLEM: Msg = Msg {
    zh: "无法计算：输入有误",
    en: "Cannot compute: the input has a problem",
};
pub const SHOW_AS_TABLES: Msg = Msg {
    zh: "以表格显示",
    en: "Show as tables",
};
