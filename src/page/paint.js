// The painter: draws the painted diagrams' colours and numbers on a canvas
// under their SVG (heatmaps up to 32 rows and columns, `matrix/markup.rs`
// `paint`; wide softmax bars, `softmax/bars/markup.rs` `bar_paint`), from
// lines the Rust side writes. Drawing a few hundred cells on a canvas costs
// far less than restyling as many rectangles and laying out as many texts.
// The SVG keeps each cell's value, name, class and mask flag, for the tests,
// screen readers and the highlight.
//
// Every canvas is drawn here, on the main thread. A painter worker drew them
// on another core until issue 37, whose bench met every latency bar as well
// without it (docs/performance-log.md), so the simpler path stayed.
import { afterMarkup, stateOf } from './morph.js';
import { relight } from './highlight.js';

/** One heatmap cell as `matrix::markup::paint` writes its line, tab-separated. */
export function readCell(line) {
  const [fill, value, text, ink, cls, masked, name] = line.split('\t');
  return { fill, value, text, ink, cls, masked, name };
}

/**
 * One softmax bar as `bar_paint` writes its line, tab-separated: its class,
 * value and mask flag; a wide bar's fill, top, height, printed number and that
 * number's height; last, its name. A thin bar has no drawing of its own.
 */
export function readBar(line) {
  const f = line.split('\t');
  const [cls, value, masked] = f;
  // Eight fields are enough to draw a bar; the writer adds the name.
  const bar = { cls, value, masked, name: f.at(-1), wide: f.length >= 8 };
  if (bar.wide) {
    Object.assign(bar, { fill: f[3], top: Number(f[4]), height: Number(f[5]), text: f[6], textY: Number(f[7]) });
  }
  return bar;
}

/** What a host last painted, read: its cells, or its bars (for an export, `share.js`). */
export function lastPaint(host) {
  const state = stateOf(host);
  return { cells: state.cellFields, bars: state.barLines?.slice(1).map(readBar) };
}

// Paints a heatmap from `paint`'s lines, one per cell in the order the cells
// are drawn. Only what changed since the last paint is set on the cells.
export function paint(host, encoded) {
  const state = stateOf(host);
  const cells = (state.cells ??= host.querySelectorAll('rect.cell'));
  const lines = encoded.split('\n');
  const n = Math.min(cells.length, lines.length);
  const before = state.cellLines;
  const old = state.cellFields;
  const fields = [];
  let changed = false;
  // A class written anew drops the highlight (`lit`), which is put back then.
  let restyled = false;
  for (let i = 0; i < n; i++) {
    if (before && before[i] === lines[i]) {
      fields.push(old[i]);
      continue;
    }
    changed = true;
    const f = readCell(lines[i]);
    fields.push(f);
    const was = (before && old[i]) || {};
    const cell = cells[i];
    if (was.value !== f.value) cell.setAttribute('data-value', f.value);
    if (was.name !== f.name) cell.setAttribute('aria-label', f.name);
    if (was.cls !== f.cls) {
      cell.setAttribute('class', f.cls);
      restyled = true;
    }
    if (was.masked !== f.masked) {
      if (f.masked) cell.setAttribute('data-masked', 'true');
      else cell.removeAttribute('data-masked');
    }
  }
  state.cellLines = lines;
  state.cellFields = fields;
  if (!changed) return;
  if (state.look || printing) drawHeatmap(host);
  else later(host, drawHeatmap);
  if (restyled) relight(host);
}

// Paints the bars of `chart` (`softmax/bars/markup.rs`) from `bar_paint`'s
// lines: a first line with the outlines of the thin bars, one per colour,
// tab-separated, then one line per bar ([`readBar`]). Only what changed since
// the last paint is set, so pointing at another bar touches two bars'
// classes. The lines may be a paint ahead of or behind the markup (wide bars
// on a thin chart, while the markup and the paint catch up), so what a line
// lacks is not drawn and what the page lacks is skipped.
export function paintBars(host, encoded) {
  const state = stateOf(host);
  const bars = (state.bars ??= [...host.querySelectorAll('g.bar')].map((g) => [g, g.querySelector('.bar-value')]));
  const [outlines, ...lines] = encoded.split('\n');
  const before = state.barLines;
  const outlined = before?.[0].split('\t') ?? [];
  const paths = host.querySelectorAll('path.bars-thin');
  outlines.split('\t').forEach((d, k) => {
    if (paths[k] && d !== outlined[k]) paths[k].setAttribute('d', d);
  });
  // A bar's line less its class: a new class alone (another bar pointed at)
  // leaves the drawing as it is.
  const drawing = (line) => line?.slice(line.indexOf('\t') + 1);
  let changed = !before;
  for (let j = 0; j < Math.min(bars.length, lines.length); j++) {
    const was = before?.[j + 1];
    if (was === lines[j]) continue;
    const f = readBar(lines[j]);
    const old = was === undefined ? {} : readBar(was);
    changed ||= drawing(lines[j]) !== drawing(was);
    const [g, bar] = bars[j];
    if (old.cls !== f.cls) g.setAttribute('class', f.cls);
    if (old.name !== f.name) g.setAttribute('aria-label', f.name);
    if (old.value !== f.value) bar.setAttribute('data-value', f.value);
    if (old.masked !== f.masked) {
      if (f.masked) bar.setAttribute('data-masked', 'true');
      else bar.removeAttribute('data-masked');
    }
  }
  state.barLines = [outlines, ...lines];
  if (!changed || !host.querySelector('canvas.bars')) return;
  if (state.look || printing) drawBars(host);
  else later(host, drawBars);
}

// New markup rewrote the cells: they hold only what the markup says, so the
// last lines are painted again on the new elements.
afterMarkup((host, state, rewritten) => {
  if (!rewritten) return;
  const cells = state.cellLines;
  const bars = state.barLines;
  Object.assign(state, { cells: null, cellLines: null, cellFields: null, boxes: null, columns: null, look: null });
  if (cells) paint(host, cells.join('\n'));
  Object.assign(state, { barLines: null, bars: null });
  if (bars) paintBars(host, bars.join('\n'));
});

// Draws the wide bars and their numbers on the chart's canvas: each bar
// across where its `rect.bar-value` stands, with the fill, top and height of
// its line, its number centred above it in the labels' ink.
function drawBars(host) {
  const state = stateOf(host);
  const canvas = host.querySelector('canvas.bars');
  const svg = canvas?.nextElementSibling;
  if (!svg || !state.barLines) return;
  const look = lookOf(host, svg);
  const columns = (state.columns ??= state.bars.map(([, bar]) => ['x', 'width'].map((a) => Number(bar.getAttribute(a)))));
  const rects = [];
  const texts = [];
  state.barLines.slice(1).forEach((line, j) => {
    const bar = readBar(line);
    if (!bar.wide || !columns[j]) return;
    const [x, width] = columns[j];
    rects.push({ fill: bar.fill, alpha: 1, x, y: bar.top, width, height: bar.height });
    texts.push({ ink: bar.masked ? look.muted : look.ink, alpha: 1, text: bar.text, x: x + width / 2, y: bar.textY });
  });
  paintCanvas(host, canvas, svg, { rects, texts });
}

// The hosts drawn for the first time since their markup was written (at
// start-up, or after new markup rewrote the cells: a new shape, labels or
// language), drawn together just before the next frame. A first drawing
// reads the SVG's computed font, and reading it between two cards' markup
// would make the browser work out the styles of the whole page again for
// each card at start-up; by the frame they are worked out once, for the
// frame. Later paints (new values) draw at once, so the pixels of an edit
// never wait on the frame's own work.
const unpainted = new Map();
let frame = 0;

// Has `redraw(host)` called just before the next frame.
function later(host, redraw) {
  unpainted.set(host, redraw);
  frame ||= requestAnimationFrame(drawUnpainted);
}

// A printout is laid out without a frame: while one is prepared, canvases
// are drawn at once.
let printing = false;
addEventListener('beforeprint', () => {
  printing = true;
  drawUnpainted();
});
addEventListener('afterprint', () => {
  printing = false;
});

function drawUnpainted() {
  cancelAnimationFrame(frame);
  frame = 0;
  for (const [host, redraw] of unpainted) {
    if (host.isConnected) redraw(host);
    // A host taken out of the page before its frame is drawn by its next
    // paint, even if that paint brings the same lines.
    else Object.assign(stateOf(host), { cellLines: null, barLines: null });
  }
  unpainted.clear();
}

// The look of a painted diagram's SVG that its canvas copies: the font, and
// the ink of the labels and of masked bars' numbers.
// Read once per markup, from the computed style, without reading layout.
function lookOf(host, svg) {
  const state = stateOf(host);
  if (!state.look) {
    const style = getComputedStyle(svg);
    const ink = (name) => style.getPropertyValue(name).trim() || style.color;
    state.look = {
      font: `${style.fontSize} ${style.fontFamily}`,
      ink: ink('--ink'),
      muted: ink('--muted'),
    };
  }
  return state.look;
}

// Draws a painted heatmap from its last paint.
function drawHeatmap(host) {
  const state = stateOf(host);
  const canvas = host.querySelector('canvas.cells');
  const svg = canvas?.nextElementSibling;
  if (!svg || !state.cellFields) return;
  state.boxes ??= Array.from(state.cells, (c) => ['x', 'y', 'width', 'height'].map((a) => Number(c.getAttribute(a))));
  paintCanvas(host, canvas, svg, cellShapes(state.boxes, state.cellFields));
}

// Draws `shapes` on `canvas` at the size of `svg` in its units, in its font,
// and tells the host (a `painted` event, whose detail is when, for whoever
// waits for the pixels: the tests, the benchmark).
function paintCanvas(host, canvas, svg, shapes) {
  drawShapes(canvas.getContext('2d'), {
    width: Number(svg.getAttribute('width')),
    height: Number(svg.getAttribute('height')),
    ratio: window.devicePixelRatio || 1,
    font: lookOf(host, svg).font,
    ...shapes,
  });
  host.dispatchEvent(new CustomEvent('painted', { bubbles: true, detail: { at: performance.now() } }));
}

// A heatmap's cells as shapes: each cell's fill over its box (a masked
// cell's is greyed already), then its printed number at its centre.
function cellShapes(boxes, cells) {
  const n = Math.min(boxes.length, cells.length);
  const rects = new Array(n);
  const texts = new Array(n);
  for (let i = 0; i < n; i++) {
    const [x, y, width, height] = boxes[i];
    const cell = cells[i];
    rects[i] = { fill: cell.fill, alpha: 1, x, y, width, height };
    texts[i] = { ink: cell.ink, alpha: 1, text: cell.text, x: x + width / 2, y: y + height / 2 };
  }
  return { rects, texts };
}

// Draws `job`'s rectangles, then its texts (centred on their x and y), at
// `job`'s size in SVG units times the device's pixels per CSS pixel, for
// sharp digits.
function drawShapes(g, job) {
  const { canvas } = g;
  const { ratio, width, height, rects, texts } = job;
  // Setting a size clears the canvas even when unchanged, so only on change.
  if (canvas.width !== Math.ceil(width * ratio)) canvas.width = Math.ceil(width * ratio);
  if (canvas.height !== Math.ceil(height * ratio)) canvas.height = Math.ceil(height * ratio);
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  // Plain loops: these run for every cell of every change.
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i];
    if (g.globalAlpha !== r.alpha) g.globalAlpha = r.alpha;
    g.fillStyle = r.fill;
    g.fillRect(r.x, r.y, r.width, r.height);
  }
  g.font = job.font;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  // Inks are few (dark or light for contrast): set one only when it changes.
  let ink = null;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i];
    if (g.globalAlpha !== t.alpha) g.globalAlpha = t.alpha;
    if (t.ink !== ink) g.fillStyle = ink = t.ink;
    g.fillText(t.text, t.x, t.y);
  }
  g.globalAlpha = 1;
}
