//! Strings of the "save and share" card: export, import and the embed code.

use super::Msg;

pub const TITLE: Msg = Msg {
    zh: "保存与分享",
    en: "Save and share",
};
pub const SAVED_NOTE: Msg = Msg {
    zh: "你的改动会自动保存在这台设备的浏览器里，刷新页面也不会丢失。",
    en: "Your edits are saved in this browser automatically and survive a reload.",
};
pub const EXPORT: Msg = Msg {
    zh: "导出图示与数据",
    en: "Export the diagrams and data",
};
pub const EXPORT_SVG: Msg = Msg {
    zh: "图示 SVG",
    en: "Diagrams as SVG",
};
pub const EXPORT_PNG: Msg = Msg {
    zh: "图示 PNG",
    en: "Diagrams as PNG",
};
pub const EXPORT_SCENARIO: Msg = Msg {
    zh: "场景 JSON",
    en: "Scenario JSON",
};
pub const EXPORT_TRACE: Msg = Msg {
    zh: "完整计算过程 JSON",
    en: "Full trace JSON",
};
pub const MATRIX: Msg = Msg {
    zh: "矩阵",
    en: "Matrix",
};
/// After one of a head's matrices, naming the head ({n}, from 1): "Q (head 2)".
pub const OF_LAYER: Msg = Msg {
    zh: "（第 {n} 层）",
    en: " (layer {n})",
};
pub const OF_HEAD: Msg = Msg {
    zh: "（头 {n}）",
    en: " (head {n})",
};
pub const AS_LATEX: Msg = Msg {
    zh: "LaTeX 矩阵（bmatrix）",
    en: "LaTeX bmatrix",
};
pub const AS_NUMPY: Msg = Msg {
    zh: "Python / NumPy 列表",
    en: "Python / NumPy list",
};
pub const COPY: Msg = Msg {
    zh: "复制",
    en: "Copy",
};
pub const COPIED: Msg = Msg {
    zh: "已复制",
    en: "Copied",
};
pub const COPY_FAILED: Msg = Msg {
    zh: "无法复制：请选中文字后按 Ctrl+C",
    en: "Could not copy: select the text and press Ctrl+C",
};
pub const IMPORT: Msg = Msg {
    zh: "导入场景 JSON",
    en: "Import a scenario JSON",
};
pub const IMPORT_HINT: Msg = Msg {
    zh: "粘贴或上传与“场景 JSON”同样格式的文件。PyTorch 里可以用 x.tolist() 和 W.T.tolist() 得到这些列表（nn.Linear 的权重要转置）。",
    en: "Paste or upload a file in the same format as “Scenario JSON”. In PyTorch, x.tolist() and W.T.tolist() give these lists (nn.Linear weights need the transpose).",
};
pub const IMPORT_BUTTON: Msg = Msg {
    zh: "导入",
    en: "Import",
};
pub const UPLOAD: Msg = Msg {
    zh: "或上传文件：",
    en: "Or upload a file:",
};
pub const IMPORTED: Msg = Msg {
    zh: "已导入。",
    en: "Imported.",
};
pub const EMBED: Msg = Msg {
    zh: "嵌入课程页面",
    en: "Embed in a course page",
};
pub const EMBED_HINT: Msg = Msg {
    zh: "选择要显示的面板，把下面的代码粘贴到课程页面。加上那一行脚本，框架会自动调整高度。",
    en: "Choose the panels to show and paste the code below into a course page. With its one script line, the frame fits its height automatically.",
};
pub const EMBED_LOCK: Msg = Msg {
    zh: "只读（隐藏控件，悬停解释仍可用）",
    en: "Read-only (controls hidden, hover explanations still work)",
};
pub const EMBED_CODE: Msg = Msg {
    zh: "嵌入代码",
    en: "Embed code",
};
pub const NOTHING_TO_EXPORT: Msg = Msg {
    zh: "现在的输入算不出结果，没有可以导出的内容。",
    en: "The current input cannot be computed, so there is nothing to export.",
};
pub const IMPORT_EMPTY: Msg = Msg {
    zh: "请先粘贴或上传场景 JSON。",
    en: "Paste or upload a scenario JSON first.",
};
