//! Strings of a heatmap drawn as a raster (long sequences) and its magnifier.

use super::Msg;

/// What the folded hint says before it is opened.
pub const HINT_SUMMARY: Msg = Msg {
    zh: "每个像素是一个格子（怎么看？）",
    en: "Each pixel is one cell (how to read it)",
};
pub const HINT: Msg = Msg {
    zh: "格子太多，数字写不下。移动鼠标（或聚焦后按方向键）时放大镜显示周围的数字；点一下（或按回车）选中格子；按住拖过一片区域可以放大它，键盘上按 + 放大、− 缩小、Esc 显示全部。",
    en: "Too many cells to print their numbers. Move the pointer (or focus it and use the arrow keys) and the magnifier shows the numbers around it; click (or press Enter) to select a cell; drag across a region to zoom into it, or press + to zoom in, − to zoom out and Esc to show it all.",
};
pub const SHOW_ALL: Msg = Msg {
    zh: "显示全部",
    en: "Show all",
};
/// Before the shown rows and columns, e.g. "rows 10–40, columns 0–511".
pub const ROWS: Msg = Msg {
    zh: "行",
    en: "rows",
};
pub const COLUMNS: Msg = Msg {
    zh: "列",
    en: "columns",
};
pub const MAGNIFIER: Msg = Msg {
    zh: "放大镜：所选格子周围的数字",
    en: "Magnifier: the numbers around the chosen cell",
};
