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

// This file also runs as the painter worker (see `drawShapes`), which has no page.
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
  host.columns = null;
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
    // Whether a fold is open is the learner's, as a field's value is.
    if (!b.hasAttribute(name) && name !== 'open') a.removeAttribute(name);
  }
  syncState(a);
  if (a.firstChild || b.firstChild) patchChildren(a, b);
}

// Paints a heatmap written with `painted` (`matrix/markup.rs`) from the lines
// `paint` there writes: fill, value, printed text, text colour, class, mask
// flag and name, tab-separated, one line per cell in the order the cells are
// drawn. Colours and numbers go on the canvas under the SVG; the cells keep
// their value, name, class and mask flag. Drawing a few hundred
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
  // A class written anew drops the highlight (`lit`), which is put back then.
  let restyled = false;
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
    if (was[6] !== f[6]) cell.setAttribute('aria-label', f[6]);
    if (was[4] !== f[4]) {
      cell.setAttribute('class', f[4]);
      restyled = true;
    }
    if (was[5] !== f[5]) {
      if (f[5]) cell.setAttribute('data-masked', 'true');
      else cell.removeAttribute('data-masked');
    }
  }
  host.painted = lines;
  host.fields = fields;
  if (!changed) return;
  if (host.look || printing) drawHeatmap(host);
  else later(host, drawHeatmap);
  if (restyled) relight(host);
}

// Paints the bars written by `chart` (`softmax/bars/markup.rs`) from what
// `bar_paint` there writes: a first line with the outlines of the thin bars,
// one per colour, tab-separated, then one line per bar, tab-separated: its
// class, value and mask flag and, unless thin, its fill, top, height, printed
// number and that number's height. The bars keep their class, value and mask
// flag; wide bars and their numbers are drawn on the chart's canvas, and only
// what changed since the last paint is set, so pointing at another bar
// touches two bars' classes. The lines may be a paint ahead of or behind the
// markup (wide bars on a thin chart, while the markup and the paint catch
// up), so what a line lacks is not drawn and what the page lacks is skipped.
export function paintBars(host, encoded) {
  const bars = (host.bars ??= [...host.querySelectorAll('g.bar')].map((g) => [g, g.querySelector('.bar-value')]));
  const [outlines, ...lines] = encoded.split('\n');
  const before = host.barLines;
  const was = before?.[0].split('\t') ?? [];
  const paths = host.querySelectorAll('path.bars-thin');
  outlines.split('\t').forEach((d, k) => {
    if (paths[k] && d !== was[k]) paths[k].setAttribute('d', d);
  });
  let changed = !before;
  for (let j = 0; j < Math.min(bars.length, lines.length); j++) {
    if (before && before[j + 1] === lines[j]) continue;
    const f = lines[j].split('\t');
    const old = before?.[j + 1]?.split('\t') ?? [];
    // A new class alone (another bar pointed at) leaves the drawing as it is.
    changed ||= f.slice(1).join('\t') !== old.slice(1).join('\t');
    const [g, bar] = bars[j];
    if (old[0] !== f[0]) g.setAttribute('class', f[0]);
    if (old.at(-1) !== f.at(-1)) g.setAttribute('aria-label', f.at(-1));
    if (old[1] !== f[1]) bar.setAttribute('data-value', f[1]);
    if (old[2] !== f[2]) {
      if (f[2]) bar.setAttribute('data-masked', 'true');
      else bar.removeAttribute('data-masked');
    }
  }
  host.barLines = [outlines, ...lines];
  if (!changed || !host.querySelector('canvas.bars')) return;
  if (host.look || printing) drawBars(host);
  else later(host, drawBars);
}

// Draws the wide bars and their numbers on the chart's canvas: each bar
// across where its `rect.bar-value` stands, with the fill, top and height of
// its line, its number centred above it in the labels' ink.
function drawBars(host) {
  host.redraw = drawBars;
  const canvas = host.querySelector('canvas.bars');
  const svg = canvas?.nextElementSibling;
  if (!svg || !host.barLines) return;
  const look = lookOf(host, svg);
  const columns = (host.columns ??= host.bars.map(([, bar]) => ['x', 'width'].map((a) => Number(bar.getAttribute(a)))));
  const rects = [];
  const texts = [];
  host.barLines.slice(1).forEach((line, j) => {
    const f = line.split('\t');
    if (f.length < 8 || !columns[j]) return;
    const [x, width] = columns[j];
    rects.push([f[3], 1, x, Number(f[4]), width, Number(f[5])]);
    texts.push([f[2] ? look.muted : look.ink, 1, f[6], x + width / 2, Number(f[7])]);
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
  for (const [host, redraw] of unpainted) {
    if (host.isConnected) redraw(host);
    // A host taken out of the page before its frame is drawn by its next
    // paint, even if that paint brings the same lines.
    else host.painted = host.barLines = null;
  }
  unpainted.clear();
}

// The look of a painted diagram's SVG that its canvas copies: the font, and
// the ink of the labels and of masked bars' numbers.
// Read once per markup, from the computed style, without reading layout.
function lookOf(host, svg) {
  if (!host.look) {
    const style = getComputedStyle(svg);
    const ink = (name) => style.getPropertyValue(name).trim() || style.color;
    host.look = {
      font: `${style.fontSize} ${style.fontFamily}`,
      ink: ink('--ink'),
      muted: ink('--muted'),
    };
  }
  return host.look;
}

// Draws a painted heatmap from its last paint.
function drawHeatmap(host) {
  host.redraw = drawHeatmap;
  const canvas = host.querySelector('canvas.cells');
  const svg = canvas?.nextElementSibling;
  if (!svg || !host.fields) return;
  host.boxes ??= Array.from(host.cells, (c) => ['x', 'y', 'width', 'height'].map((a) => Number(c.getAttribute(a))));
  paintCanvas(host, canvas, svg, { boxes: host.boxes, fields: host.fields, lines: host.painted });
}

// Has `shapes` drawn on `canvas` at the size of `svg` in its units, in its
// font: on the painter worker if there is one. `shapes` holds either the
// rectangles and texts to draw, or a heatmap's cells (their boxes and fields,
// and the lines they were read from), which the worker turns into shapes
// itself.
function paintCanvas(host, canvas, svg, shapes) {
  const job = {
    width: Number(svg.getAttribute('width')),
    height: Number(svg.getAttribute('height')),
    ratio: window.devicePixelRatio || 1,
    font: lookOf(host, svg).font,
    ...shapes,
  };
  if (!worker || !ready) {
    drawShapes(canvas.getContext('2d'), job.fields ? { ...job, ...cellShapes(job) } : job);
    if (worker) drawnHere.add(host);
    contexts.add(canvas);
    host.dispatchEvent(new CustomEvent('painted', { bubbles: true, detail: performance.now() }));
    return;
  }
  // The worker gets a heatmap's lines, a few strings to copy rather than an
  // array per cell, and its boxes only when the markup gave new ones.
  const message = { id: (host.painterId ??= painters++), job: { ...job, fields: undefined, boxes: undefined } };
  const fresh = host.canvas !== canvas;
  if (job.boxes && (fresh || host.boxesPosted !== job.boxes)) message.job.boxes = host.boxesPosted = job.boxes;
  // A canvas handed to the worker is drawn there from then on. A host keeps
  // one id for its canvas, so a canvas that new markup replaced is dropped by
  // the worker when the new one arrives.
  if (!fresh) {
    post(message);
    return;
  }
  // A canvas drawn here before the worker was ready cannot be handed over:
  // new markup during the handover can bring it back in place of its
  // successor. It retires under a fresh one, as in `handOver`.
  if (contexts.has(canvas)) {
    const successor = canvas.cloneNode(false);
    canvas.className = 'retiring';
    canvas.after(successor);
    canvas = successor;
  }
  host.canvas = canvas;
  hosts.set(message.id, new WeakRef(host));
  message.canvas = canvas.transferControlToOffscreen();
  post(message, message.canvas);
  forget.register(host, message.id);
}

// What the painter is sent, posted as one message once the microtasks that
// wrote it are done: an input that changes several canvases wakes the worker
// once. Each post cost 0.15 ms or more of the main thread at T = 16, and an
// input in the softmax card made two (the heatmap and the bars).
let outbox = null;
function post(message, canvas) {
  if (!outbox) {
    outbox = { messages: [], canvases: [] };
    queueMicrotask(() => {
      worker.postMessage(outbox.messages, outbox.canvases);
      outbox = null;
    });
  }
  outbox.messages.push(message);
  if (canvas) outbox.canvases.push(canvas);
}

// A heatmap's cells as shapes: each cell's fill over its box (a masked
// cell's is greyed already), then its printed number at its centre, from
// each cell's fields as `paint` reads them (fill, value, printed text, text
// colour, class, mask flag, name).
function cellShapes({ boxes, fields }) {
  const n = Math.min(boxes.length, fields.length);
  const rects = new Array(n);
  const texts = new Array(n);
  for (let i = 0; i < n; i++) {
    const [x, y, width, height] = boxes[i];
    const f = fields[i];
    rects[i] = [f[0], 1, x, y, width, height];
    texts[i] = [f[3], 1, f[2], x + width / 2, y + height / 2];
  }
  return { rects, texts };
}

// Draws `job`'s rectangles ([fill, opacity, x, y, width, height]), then its
// texts ([ink, opacity, text, x, y], centred on x and y), at `job`'s size
// in SVG units times the device's pixels per CSS pixel, for sharp digits.
// The painter worker runs it, or the main thread where there is none.
function drawShapes(g, job) {
  const { canvas } = g;
  const { ratio, width, height, rects, texts } = job;
  // Setting a size clears the canvas even when unchanged, so only on change.
  if (canvas.width !== Math.ceil(width * ratio)) canvas.width = Math.ceil(width * ratio);
  if (canvas.height !== Math.ceil(height * ratio)) canvas.height = Math.ceil(height * ratio);
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  // Indexing, not destructuring: these loops run for every cell of every change.
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i];
    if (g.globalAlpha !== r[1]) g.globalAlpha = r[1];
    g.fillStyle = r[0];
    g.fillRect(r[2], r[3], r[4], r[5]);
  }
  g.font = job.font;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  // Inks are few (dark or light for contrast): set one only when it changes.
  let ink = null;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i];
    if (g.globalAlpha !== t[1]) g.globalAlpha = t[1];
    if (t[0] !== ink) g.fillStyle = ink = t[0];
    g.fillText(t[2], t[3], t[4]);
  }
  g.globalAlpha = 1;
}

// The painter: a worker that draws the painted canvases (heatmaps, wide
// bars), handed to it with `transferControlToOffscreen`. Filling a few
// hundred cells and printing their numbers, then rastering the canvas
// (software rendering does that at the end of the task that drew), took
// 2.5-3.5 ms of the main thread for a 16 x 16 heatmap; the worker does it on
// another core while the main thread finishes the input. The worker runs this
// very file (the page's policy allows scripts from its own origin only, so no
// made-up script); it is asked for as the page starts, and until it is ready
// the main thread draws (`handOver`). Where module workers or offscreen
// canvases are missing, the main thread always draws.
let worker = null;
let painters = 0;
if (!inWorker && typeof OffscreenCanvas !== 'undefined' && HTMLCanvasElement.prototype.transferControlToOffscreen) {
  try {
    worker = new Worker(import.meta.url, { type: 'module', name: 'painter' });
    // Each drawing done is told to its host as a `painted` event (its detail:
    // when, on the page's clock), for whoever waits for the pixels (the
    // tests, the benchmark).
    worker.onmessage = ({ data }) => {
      if (data === 'ready') {
        handOver();
        return;
      }
      for (const [id, at] of data) {
        const host = hosts.get(id)?.deref();
        host?.querySelector('canvas.retiring')?.remove();
        host?.dispatchEvent(new CustomEvent('painted', { bubbles: true, detail: at - performance.timeOrigin }));
      }
    };
  } catch {
    worker = null;
  }
}
const hosts = new Map();

// A worker starts only once the main thread has a moment, which at start-up
// comes after the first frame (650 ms after it was asked for, on a slow
// machine): until it says it is ready, canvases are drawn here, and then
// each is handed over. Its successor, a fresh canvas over it, is drawn by
// the worker, and it is removed once that drawing is done, so the page never
// shows a blank canvas.
let ready = false;
const drawnHere = new Set();
// Every canvas given a 2-D context here, which the worker can never take.
const contexts = new WeakSet();
function handOver() {
  ready = true;
  for (const host of drawnHere) {
    const old = host.querySelector('canvas.cells, canvas.bars');
    if (!host.isConnected || !old || !host.redraw) continue;
    const fresh = old.cloneNode(false);
    old.className = 'retiring';
    old.after(fresh);
    host.redraw(host);
  }
  drawnHere.clear();
}

// A host that is gone takes its canvas out of the worker.
const forget = new FinalizationRegistry((id) => {
  hosts.delete(id);
  if (worker) post({ id, gone: true });
});

// The worker's side: it keeps each host's canvas and draws the latest job
// for each once per task, so jobs that queue up while it draws (a fast drag)
// are drawn once, not in turn.
if (inWorker) {
  postMessage('ready');
  const canvases = new Map();
  const jobs = new Map();
  let flushing = false;
  const flush = () => {
    flushing = false;
    const drawn = [];
    for (const [id, job] of jobs) {
      const canvas = canvases.get(id);
      if (!canvas) continue;
      const cells = job.lines && cellShapes({ ...job, boxes: canvas.boxes, fields: job.lines.map((line) => line.split('\t')) });
      drawShapes(canvas.g, cells ? { ...job, ...cells } : job);
      drawn.push([id, performance.timeOrigin + performance.now()]);
    }
    jobs.clear();
    if (drawn.length) postMessage(drawn);
  };
  onmessage = ({ data }) => {
    for (const message of data) {
      if (message.gone) {
        canvases.delete(message.id);
        jobs.delete(message.id);
        continue;
      }
      if (message.canvas) canvases.set(message.id, { g: message.canvas.getContext('2d') });
      if (message.job.boxes) canvases.get(message.id).boxes = message.job.boxes;
      jobs.set(message.id, message.job);
    }
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

// What shows a control as chosen: the list item it is in (a token's chip,
// among its row's other controls), or else its parent.
const holder = (control) => control.closest('li') ?? control.parentElement;

function rechoose(host) {
  if (host.chosen === undefined) return;
  for (const button of host.querySelectorAll('[data-action="select"][aria-pressed="true"]')) {
    if (button.dataset.index === host.chosen) continue;
    button.setAttribute('aria-pressed', 'false');
    holder(button).classList.remove('selected');
  }
  const button = host.querySelector(`[data-action="select"][data-index="${host.chosen}"]`);
  if (!button) return;
  // The markup may have rewritten either one.
  if (button.getAttribute('aria-pressed') !== 'true') button.setAttribute('aria-pressed', 'true');
  holder(button).classList.add('selected');
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
