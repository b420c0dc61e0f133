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
pub const SAVED_IN_LMS: Msg = Msg {
    zh: "你的改动会自动保存在课程平台里，下次打开这个活动时从这里继续。",
    en: "Your edits are saved in the course platform automatically: next time you open this activity, you continue from here.",
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
pub const SINGLE_FILE: Msg = Msg {
    zh: "下载为单个文件",
    en: "Download as one file",
};
pub const SINGLE_FILE_HINT: Msg = Msg {
    zh: "一个 HTML 文件，里面就是整个应用：直接双击打开，不用联网，也不用服务器，打开时就是现在屏幕上的场景和步骤。",
    en: "One HTML file holding the whole app: open it straight from disk, with no network or server, and it shows the scenario and step on screen now.",
};
pub const LMS: Msg = Msg {
    zh: "用于课程平台（SCORM 1.2）",
    en: "For a learning platform (SCORM 1.2)",
};
pub const LMS_HINT: Msg = Msg {
    zh: "下载一个 SCORM 1.2 压缩包，上传到 Moodle、Canvas 或 Blackboard。它从现在的状态打开，向平台报告学生是否完成以及用时（不打分），并在平台里保存学生的进度。",
    en: "Download a SCORM 1.2 zip to upload to Moodle, Canvas or Blackboard. It opens on the state on screen now, tells the platform when a learner has completed it and the time they spent (no grade), and keeps their work in the platform.",
};
pub const COMPLETED_WHEN: Msg = Msg {
    zh: "何时算完成：",
    en: "Completed when:",
};
pub const COMPLETED_WALKTHROUGH: Msg = Msg {
    zh: "走完整个引导（在最后一步按“完成”）",
    en: "the walkthrough is finished (Finish at its last step)",
};
/// {scenario}: the scenario picker's name of a preset.
pub const COMPLETED_PREDICTION: Msg = Msg {
    zh: "在“{scenario}”场景中回答了预测题",
    en: "a prediction is answered in “{scenario}”",
};
pub const SCORM: Msg = Msg {
    zh: "下载用于课程平台的压缩包",
    en: "Download for an LMS",
};
pub const PACKAGE_FAILED: Msg = Msg {
    zh: "无法生成文件：这个页面读不到自己的文件 attention-lab.html。第一次生成需要联网，之后离线也可以。",
    en: "Could not build the file: this page cannot read its own attention-lab.html. The first time needs the network; after that it works offline too.",
};
