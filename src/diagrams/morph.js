// Brings a diagram's DOM up to date with freshly written markup by patching
// only what differs. Replacing the whole markup would make the browser parse,
// restyle and lay out every element on each edit; patching in place touches
// only the changed attributes and texts, and keeps keyboard focus where it is.
//
// Most edits change numbers, not structure: the same tags in the same order
// with new attribute values and texts. Then the markup is compared with the
// previous markup tag by tag as text, and only the tags and texts that differ
// are applied, without parsing the markup into nodes at all. Anything else
// takes the general path: parse, then patch node by node.

// This file also runs as the painter worker (see `drawCells`), which has no page.
const inWorker = typeof document === 'undefined';

export function morph(host, markup) {
  // A host's first markup goes in without being cut into tokens: at start-up
  // every diagram is written once and most then only repaint, so the tokens
  // of that markup are worked out when, if ever, new markup comes.
  let tokens = null;
  let shape = null;
  if (host.markup !== undefined) {
    host.tokens ??= host.markup.match(TOKEN) ?? [];
    host.shape ??= shapeOf(host.tokens);
    tokens = markup.match(TOKEN) ?? [];
    shape = shapeOf(tokens);
    if (host.shape === shape && patchTokens(host, host.tokens, tokens)) {
      host.markup = markup;
      host.tokens = tokens;
      relight(host);
      rechoose(host);
      return;
    }
  }
  const template = document.createElement('template');
  template.innerHTML = markup;
  patchChildren(host, template.content);
  host.markup = markup;
  host.tokens = tokens;
  host.shape = shape;
  host.elements = null;
  // The cells now hold only what the markup says: paint the last lines again.
  const last = host.painted;
  host.painted = null;
  host.fields = null;
  host.cells = null;
  host.boxes = null;
  host.look = null;
  if (last) paint(host, last.join('\n'));
  const bars = host.barLines;
  host.barLines = null;
  host.bars = null;
  if (bars) paintBars(host, bars.join('\n'));
  relight(host);
  rechoose(host);
}

// A tag (start, end or self-closing) or a run of text. The markup comes from
// `svg.rs`, which escapes every value, so no `<` or `"` hides inside either.
const TOKEN = /<[^>]*>|[^<]+/g;
const ATTRIBUTE = /([^\s=]+)="([^"]*)"/g;
const CONTROL = /^<(input|option)[\s>/]/;

// The structure of the markup: every tag's name and kind, and where text runs are.
function shapeOf(tokens) {
  let shape = '';
  for (const t of tokens) shape += t[0] === '<' ? t.slice(0, tagEnd(t)) + (t.endsWith('/>') ? '/' : '') : '#';
  return shape;
}

function tagEnd(tag) {
  const space = tag.indexOf(' ');
  return space < 0 ? tag.length - 1 : space;
}

// Applies the differences between two token lists of the same shape to the
// DOM that `before` produced. Returns false, leaving the rest to the general
// path, if the DOM turns out not to match the tokens.
function patchTokens(host, before, after) {
  // The elements as last seen; if anything else added or removed one since,
  // look again, and the tag-by-tag check below finds the difference.
  const live = (host.live ??= host.getElementsByTagName('*'));
  if (host.elements?.length !== live.length) host.elements = null;
  const elements = (host.elements ??= host.querySelectorAll('*'));
  let element = -1;
  // For each open element: its index and how many child nodes it has so far.
  const open = [{ index: -1, children: 0 }];
  for (let i = 0; i < after.length; i++) {
    const token = after[i];
    const parent = open[open.length - 1];
    if (token[0] !== '<') {
      const ordinal = parent.children++;
      if (token === before[i]) continue;
      const node = (parent.index < 0 ? host : elements[parent.index])?.childNodes[ordinal];
      if (!node || node.nodeType !== Node.TEXT_NODE) return false;
      node.data = unescape(token);
    } else if (token[1] === '/') {
      open.pop();
    } else {
      element++;
      parent.children++;
      if (!token.endsWith('/>')) open.push({ index: element, children: 0 });
      if (token === before[i]) {
        // A control the learner touched shows what the markup says, even
        // when the markup did not change (an edit that was refused).
        if (CONTROL.test(token) && elements[element]) syncState(elements[element]);
        continue;
      }
      const node = elements[element];
      if (!node || node.localName !== token.slice(1, tagEnd(token))) return false;
      patchTag(node, before[i], token);
    }
  }
  return element === elements.length - 1;
}

// Applies the attributes of tag `after` that differ from tag `before` to
// `node`. The markup writer puts a tag's attributes in a fixed order, so the
// two lists usually name the same attributes in the same order and are
// compared pairwise; otherwise they are compared by name.
function patchTag(node, before, after) {
  const old = attributeList(before);
  const fresh = attributeList(after);
  let same = old.length === fresh.length;
  for (let k = 0; same && k < fresh.length; k += 2) same = old[k] === fresh[k];
  if (!same) {
    patchAttributes(node, attributesOf(before), attributesOf(after));
    return;
  }
  for (let k = 0; k < fresh.length; k += 2) {
    if (old[k + 1] !== fresh[k + 1]) node.setAttribute(fresh[k], unescape(fresh[k + 1]));
  }
  syncState(node);
}

// A tag's attributes as a flat list, name then value, in order: a plain scan,
// much cheaper than a regular expression per attribute on the hot path. The
// writer escapes every value, so a `"` only ever closes one.
function attributeList(tag) {
  const out = [];
  let at = tag.indexOf(' ');
  while (at >= 0) {
    const equals = tag.indexOf('="', at);
    if (equals < 0) break;
    const close = tag.indexOf('"', equals + 2);
    out.push(tag.slice(at + 1, equals), tag.slice(equals + 2, close));
    at = tag.indexOf(' ', close);
  }
  return out;
}

function attributesOf(tag) {
  const attributes = new Map();
  for (const [, name, value] of tag.matchAll(ATTRIBUTE)) attributes.set(name, value);
  return attributes;
}

function patchAttributes(node, before, after) {
  for (const [name, value] of after) {
    if (before.get(name) !== value) node.setAttribute(name, unescape(value));
  }
  for (const name of before.keys()) {
    if (!after.has(name)) node.removeAttribute(name);
  }
  syncState(node);
}

// A form control shows its live state (value, checked, selected), which its
// attributes stop driving once the learner has touched it; set the state from
// the attributes so the control shows what the markup says. A field being
// typed into keeps what is typed.
function syncState(node) {
  if (node.localName === 'input') {
    if (node.type === 'checkbox') node.checked = node.hasAttribute('checked');
    else if (node !== document.activeElement) node.value = node.getAttribute('value') ?? '';
  } else if (node.localName === 'option') {
    node.selected = node.hasAttribute('selected');
  }
}

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

// Undoes `svg.rs`'s escaping.
function unescape(text) {
  return text.includes('&') ? text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]) : text;
}

function patchChildren(old, fresh) {
  let a = old.firstChild;
  let b = fresh.firstChild;
  while (b) {
    const nextB = b.nextSibling;
    if (!a) {
      old.appendChild(b);
    } else if (a.nodeType === b.nodeType && a.nodeName === b.nodeName) {
      patchNode(a, b);
      a = a.nextSibling;
    } else {
      const nextA = a.nextSibling;
      old.replaceChild(b, a);
      a = nextA;
    }
    b = nextB;
  }
  while (a) {
    const next = a.nextSibling;
    old.removeChild(a);
    a = next;
  }
}

function patchNode(a, b) {
  // Most leaves (cells, labels) are unchanged by one edit; a native comparison
  // skips them fast. Containers are not compared whole: that would compare
  // their subtree again at every level.
  if (a.childElementCount === 0 && a.isEqualNode(b)) return;
  if (a.nodeType === Node.TEXT_NODE) {
    a.data = b.data;
    return;
  }
  if (a.nodeType !== Node.ELEMENT_NODE) return;
  const fresh = b.attributes;
  for (let i = 0; i < fresh.length; i++) {
    const { name, value } = fresh[i];
    if (a.getAttribute(name) !== value) a.setAttribute(name, value);
  }
  const old = a.attributes;
  for (let i = old.length - 1; i >= 0; i--) {
    const name = old[i].name;
    if (!b.hasAttribute(name)) a.removeAttribute(name);
  }
  syncState(a);
  if (a.firstChild || b.firstChild) patchChildren(a, b);
}

// Paints a heatmap written with `painted` (`matrix/markup.rs`) from the lines
// `paint` there writes: fill, value, printed text, text colour, class and mask
// flag, tab-separated, one line per cell in the order the cells are drawn.
// Colours and numbers go on the canvas under the SVG; the cells keep their
// value, printed text (their name), class and mask flag. Drawing a few hundred
// cells on a canvas costs far less than restyling as many rectangles and
// laying out as many texts.
export function paint(host, encoded) {
  const cells = (host.cells ??= host.querySelectorAll('rect.cell'));
  const lines = encoded.split('\n');
  const n = Math.min(cells.length, lines.length);
  // What the previous paint wrote: unchanged cells are skipped, and changed
  // ones only get the attributes that differ.
  const before = host.painted;
  const old = host.fields;
  const fields = [];
  let changed = false;
  for (let i = 0; i < n; i++) {
    if (before && before[i] === lines[i]) {
      fields.push(old[i]);
      continue;
    }
    changed = true;
    const f = lines[i].split('\t');
    fields.push(f);
    const was = (before && old[i]) || [];
    const cell = cells[i];
    if (was[1] !== f[1]) cell.setAttribute('data-value', f[1]);
    if (was[2] !== f[2]) cell.setAttribute('aria-label', f[2]);
    if (was[4] !== f[4]) cell.setAttribute('class', f[4]);
    if (was[5] !== f[5]) {
      if (f[5]) cell.setAttribute('data-masked', 'true');
      else cell.removeAttribute('data-masked');
    }
  }
  host.painted = lines;
  host.fields = fields;
  if (!changed) return;
  if (host.look || printing) {
    draw(host, cells, fields, lines);
  } else {
    unpainted.add(host);
    frame ||= requestAnimationFrame(drawUnpainted);
  }
  relight(host);
}

// Paints the bars written by `chart` (`softmax/bars/markup.rs`) from what
// `bar_paint` there writes: a first line with the outlines of the thin bars,
// one per colour, tab-separated, then one line per bar, tab-separated: its
// class, value and mask flag and, unless thin, its fill, top, height, printed
// number and that number's height. Only what changed since the last paint is
// set, so pointing at another bar touches two bars, not all of them. The
// lines may be a paint ahead of or behind the markup (wide bars on a thin
// chart, while the markup and the paint catch up), so a field a line lacks
// is removed and one the page lacks is skipped.
export function paintBars(host, encoded) {
  const bars = (host.bars ??= [...host.querySelectorAll('g.bar')].map((g) => [
    g,
    g.querySelector('.bar-value'),
    g.querySelector('.bar-number'),
  ]));
  const [outlines, ...lines] = encoded.split('\n');
  const before = host.barLines;
  const was = before?.[0].split('\t') ?? [];
  const paths = host.querySelectorAll('path.bars-thin');
  outlines.split('\t').forEach((d, k) => {
    if (paths[k] && d !== was[k]) paths[k].setAttribute('d', d);
  });
  for (let j = 0; j < Math.min(bars.length, lines.length); j++) {
    if (before && before[j + 1] === lines[j]) continue;
    const f = lines[j].split('\t');
    const old = before?.[j + 1]?.split('\t') ?? [];
    const [g, bar, number] = bars[j];
    if (old[0] !== f[0]) g.setAttribute('class', f[0]);
    if (old[1] !== f[1]) bar.setAttribute('data-value', f[1]);
    if (old[2] !== f[2]) {
      if (f[2]) bar.setAttribute('data-masked', 'true');
      else bar.removeAttribute('data-masked');
    }
    for (const [k, element, name] of [[3, bar, 'fill'], [4, bar, 'y'], [5, bar, 'height'], [7, number, 'y']]) {
      if (old[k] === f[k] || !element) continue;
      if (f[k] === undefined) element.removeAttribute(name);
      else element.setAttribute(name, f[k]);
    }
    if (number && old[6] !== f[6]) number.textContent = f[6] ?? '';
  }
  host.barLines = [outlines, ...lines];
}

// The hosts drawn for the first time since their markup was written (at
// start-up, or after new markup rewrote the cells: a new shape, labels or
// language), drawn together just before the next frame. A first drawing
// reads the SVG's computed font, and reading it between two cards' markup
// would make the browser work out the styles of the whole page again for
// each card at start-up; by the frame they are worked out once, for the
// frame. Later paints (new values) draw at once, so the pixels of an edit
// never wait on the frame's own work.
const unpainted = new Set();
let frame = 0;

// A printout is laid out without a frame: while one is prepared, canvases
// are drawn at once.
let printing = false;
if (!inWorker) {
  addEventListener('beforeprint', () => {
    printing = true;
    drawUnpainted();
  });
  addEventListener('afterprint', () => {
    printing = false;
  });
}

function drawUnpainted() {
  cancelAnimationFrame(frame);
  frame = 0;
  for (const host of unpainted) {
    if (host.isConnected && host.fields) draw(host, host.cells, host.fields, host.painted);
    // A host taken out of the page before its frame is drawn by its next
    // paint, even if that paint brings the same lines.
    else host.painted = null;
  }
  unpainted.clear();
}

// Draws a painted heatmap: sends its canvas's size, font and cells to
// `drawCells`, on the painter worker if there is one. Nothing here reads
// layout: sizes come from the SVG's attributes, the font from its computed
// style.
function draw(host, cells, fields, lines) {
  const canvas = host.querySelector('canvas.cells');
  const svg = canvas?.nextElementSibling;
  if (!svg) return;
  if (!host.look) {
    const style = getComputedStyle(svg);
    host.look = {
      font: `${style.fontSize} ${style.fontFamily}`,
      masked: Number(style.getPropertyValue('--masked-opacity')) || 1,
    };
  }
  const boxes = (host.boxes ??= Array.from(cells, (c) => ['x', 'y', 'width', 'height'].map((a) => Number(c.getAttribute(a)))));
  const job = {
    width: Number(svg.getAttribute('width')),
    height: Number(svg.getAttribute('height')),
    ratio: window.devicePixelRatio || 1,
    font: host.look.font,
    masked: host.look.masked,
    boxes,
    fields,
  };
  if (!worker) {
    drawCells(canvas.getContext('2d'), job);
    return;
  }
  // The worker gets the paint's lines, a few strings to copy rather than an
  // array per cell, and the boxes only when the markup gave new ones.
  const message = { id: (host.painterId ??= painters++), job: { ...job, fields: undefined, lines, boxes: undefined } };
  if (host.boxesPosted !== boxes) message.job.boxes = host.boxesPosted = boxes;
  // A canvas handed to the worker is drawn there from then on. A host keeps
  // one id for its canvas, so a canvas that new markup replaced is dropped by
  // the worker when the new one arrives.
  if (host.canvas === canvas) {
    worker.postMessage(message);
    return;
  }
  host.canvas = canvas;
  hosts.set(message.id, new WeakRef(host));
  message.canvas = canvas.transferControlToOffscreen();
  message.job.boxes = host.boxesPosted = boxes;
  worker.postMessage(message, [message.canvas]);
  forget.register(host, message.id);
}

// Draws every cell's fill, then every number, at the SVG's own size in its
// units, times the device's pixels per CSS pixel for sharp digits, from each
// cell's fields as `paint` reads them (fill, value, printed text, text colour,
// class, mask flag). The painter worker runs it, or the main thread where
// there is none.
function drawCells(g, job) {
  const { canvas } = g;
  const { ratio, width, height, boxes, fields } = job;
  // Setting a size clears the canvas even when unchanged, so only on change.
  if (canvas.width !== Math.ceil(width * ratio)) canvas.width = Math.ceil(width * ratio);
  if (canvas.height !== Math.ceil(height * ratio)) canvas.height = Math.ceil(height * ratio);
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const n = Math.min(boxes.length, fields.length);
  // Indexing, not destructuring: this loop runs for every cell of every change.
  for (let i = 0; i < n; i++) {
    const box = boxes[i];
    const alpha = fields[i][5] ? job.masked : 1;
    if (g.globalAlpha !== alpha) g.globalAlpha = alpha;
    g.fillStyle = fields[i][0];
    g.fillRect(box[0], box[1], box[2], box[3]);
  }
  g.globalAlpha = 1;
  g.font = job.font;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  // Inks are few (dark or light for contrast): set one only when it changes.
  let ink = null;
  for (let i = 0; i < n; i++) {
    const box = boxes[i];
    if (fields[i][3] !== ink) g.fillStyle = ink = fields[i][3];
    g.fillText(fields[i][2], box[0] + box[2] / 2, box[1] + box[3] / 2);
  }
}

// The painter: a worker that draws the painted heatmaps' canvases, handed to
// it with `transferControlToOffscreen`. Filling a few hundred cells and
// printing their numbers, then rastering the canvas (software rendering does
// that at the end of the task that drew), took 2.5-3.5 ms of the main thread
// for a 16 x 16 heatmap; the worker does it on another core while the main
// thread finishes the input. The worker runs this very file (the page's
// policy allows scripts from its own origin only, so no made-up script), and
// it starts with the page, so it is ready for the first frame's drawing.
// Where module workers or offscreen canvases are missing, the main thread
// draws.
let worker = null;
let painters = 0;
if (!inWorker && typeof OffscreenCanvas !== 'undefined' && HTMLCanvasElement.prototype.transferControlToOffscreen) {
  try {
    worker = new Worker(import.meta.url, { type: 'module', name: 'painter' });
    // Each drawing done is told to its host as a `painted` event, for
    // whoever waits for the pixels (the tests, the benchmark).
    worker.onmessage = ({ data }) => hosts.get(data)?.deref()?.dispatchEvent(new Event('painted', { bubbles: true }));
  } catch {
    worker = null;
  }
}
const hosts = new Map();

// A host that is gone takes its canvas out of the worker.
const forget = new FinalizationRegistry((id) => {
  hosts.delete(id);
  worker?.postMessage({ id, gone: true });
});

// The worker's side: it keeps each host's canvas and draws the latest job
// for each once per task, so jobs that queue up while it draws (a fast drag)
// are drawn once, not in turn.
if (inWorker) {
  const canvases = new Map();
  const jobs = new Map();
  let flushing = false;
  const flush = () => {
    flushing = false;
    for (const [id, job] of jobs) {
      const canvas = canvases.get(id);
      if (!canvas) continue;
      drawCells(canvas.g, { ...job, boxes: canvas.boxes, fields: job.lines.map((line) => line.split('\t')) });
      postMessage(id);
    }
    jobs.clear();
  };
  onmessage = ({ data }) => {
    if (data.gone) {
      canvases.delete(data.id);
      jobs.delete(data.id);
      return;
    }
    if (data.canvas) canvases.set(data.id, { g: data.canvas.getContext('2d') });
    if (data.job.boxes) canvases.get(data.id).boxes = data.job.boxes;
    jobs.set(data.id, data.job);
    if (!flushing) {
      flushing = true;
      setTimeout(flush, 0);
    }
  };
}

// Highlights the heatmap cells of `rows` and `cols` (the selected query, the
// row and column a product is made of) with the class `lit`. Only those cells
// and the ones lit before are touched, so a new selection costs a row, not
// the matrix. The markup and paint never write `lit`; the highlight is kept on
// the host and put back after each of them.
export function light(host, rows, cols) {
  host.lit = { rows: Array.from(rows), cols: Array.from(cols) };
  relight(host);
}

// Marks the chosen one of a card's `select` controls (`data-index`): its
// button gets aria-pressed="true" and its item the class `selected`. Like a
// highlight, the choice is kept on the host and put back after each markup,
// which writes every such control unchosen.
export function choose(host, index) {
  host.chosen = String(index);
  rechoose(host);
}

function rechoose(host) {
  if (host.chosen === undefined) return;
  for (const button of host.querySelectorAll('[data-action="select"][aria-pressed="true"]')) {
    if (button.dataset.index === host.chosen) continue;
    button.setAttribute('aria-pressed', 'false');
    button.parentElement.classList.remove('selected');
  }
  const button = host.querySelector(`[data-action="select"][data-index="${host.chosen}"]`);
  if (!button) return;
  // The markup may have rewritten either one.
  if (button.getAttribute('aria-pressed') !== 'true') button.setAttribute('aria-pressed', 'true');
  button.parentElement.classList.add('selected');
}

function relight(host) {
  const want = new Set();
  for (const r of host.lit?.rows ?? []) {
    for (const cell of host.querySelectorAll(`rect.cell[data-row="${r}"]`)) want.add(cell);
  }
  for (const c of host.lit?.cols ?? []) {
    for (const cell of host.querySelectorAll(`rect.cell[data-col="${c}"]`)) want.add(cell);
  }
  for (const cell of host.querySelectorAll('rect.cell.lit')) {
    if (!want.has(cell)) cell.classList.remove('lit');
  }
  for (const cell of want) if (!cell.classList.contains('lit')) cell.classList.add('lit');
}
