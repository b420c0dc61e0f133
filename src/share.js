// The browser's half of "save and share": files to download, the diagrams as
// one standalone SVG or PNG, the clipboard, and reading an uploaded file. The
// texts themselves (JSON, LaTeX, NumPy, the embed code) are written in Rust.
import { lastPaint } from './page/paint.js';

// Offers `text` as a file download named `name`.
export function download(name, mime, text) {
  save(name, new Blob([text], { type: mime }));
}

// Offers `blob` as a file download named `name`.
export function save(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Presentation properties an SVG viewer needs when the page's stylesheet is
// not there: each element gets its computed values written inline.
const STYLED = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity',
  'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor',
  'dominant-baseline', 'paint-order', 'stroke-linecap', 'stroke-linejoin',
];
const SVG_NS = 'http://www.w3.org/2000/svg';

// Copies `from` into `to`, element by element, with every computed
// presentation property inline and hidden elements left out.
function inlineStyles(from, to) {
  const style = getComputedStyle(from);
  to.removeAttribute('class');
  to.removeAttribute('tabindex');
  to.setAttribute('style', STYLED.map((p) => `${p}:${style.getPropertyValue(p)}`).join(';'));
  const a = [...from.children];
  const b = [...to.children];
  for (let i = a.length - 1; i >= 0; i--) {
    const hidden = getComputedStyle(a[i]).display === 'none' || getComputedStyle(a[i]).visibility === 'hidden';
    if (hidden) b[i].remove();
    else inlineStyles(a[i], b[i]);
  }
}

// The text a label shows, less the on-screen instructions it carries
// ("click a row…"), which mean nothing on paper.
function labelText(element) {
  const copy = element.cloneNode(true);
  for (const instruction of copy.querySelectorAll('.instruction')) instruction.remove();
  return copy.textContent.trim();
}

// A paragraph as the lines the page wraps it into, each with where it
// starts, less its on-screen instructions.
function wrappedLines(paragraph) {
  const lines = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
  let line = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('.instruction')) continue;
    for (let i = 0; i < node.data.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getClientRects()[0];
      if (!box) continue;
      if (!line || box.top >= line.bottom - 1) {
        line = { text: '', left: box.left, bottom: box.bottom };
        lines.push(line);
      }
      line.text += node.data[i];
    }
  }
  return lines.map((l) => ({ ...l, text: l.text.trim() })).filter((l) => l.text);
}

// An SVG text at (x, y) styled as `element` is on the page.
function textLike(element, x, y, content) {
  const style = getComputedStyle(element);
  const text = document.createElementNS(SVG_NS, 'text');
  text.setAttribute('x', x);
  text.setAttribute('y', y - 0.3 * parseFloat(style.fontSize));
  text.setAttribute('style', `fill:${style.color};font-family:${style.fontFamily};font-size:${style.fontSize};font-weight:${style.fontWeight}`);
  text.textContent = content;
  return text;
}

// The shown diagrams as one SVG document: every diagram drawing placed where
// it is on the page, under its card's title and description, on a light
// card background whatever the page's colour scheme.
function composeSvg() {
  const root = document.documentElement;
  root.dataset.theme = 'light';
  try {
    return composeLight();
  } finally {
    delete root.dataset.theme;
  }
}

function composeLight() {
  const cards = [...document.querySelectorAll('[data-diagram]')].filter((c) => c.getClientRects().length > 0);
  if (cards.length === 0) return null;
  const left = Math.min(...cards.map((c) => c.getBoundingClientRect().left));
  const top = Math.min(...cards.map((c) => c.getBoundingClientRect().top));
  const right = Math.max(...cards.map((c) => c.getBoundingClientRect().right));
  const bottom = Math.max(...cards.map((c) => c.getBoundingClientRect().bottom));
  const out = document.createElementNS(SVG_NS, 'svg');
  const width = Math.ceil(right - left);
  const height = Math.ceil(bottom - top);
  out.setAttribute('width', width);
  out.setAttribute('height', height);
  out.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const page = getComputedStyle(cards[0]);
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', width);
  background.setAttribute('height', height);
  background.setAttribute('fill', page.backgroundColor);
  out.appendChild(background);
  for (const card of cards) {
    // The short labels the page writes in HTML around the drawings: card
    // titles, matrix names, the × and = between them, sub-headings.
    for (const label of card.querySelectorAll('h2, h3, figcaption, .operator')) {
      const box = label.getBoundingClientRect();
      if (box.width === 0) continue;
      out.appendChild(textLike(label, box.left - left, box.bottom - top, labelText(label)));
    }
    // What each section shows, line by line as on the page.
    for (const paragraph of card.querySelectorAll('.explain')) {
      if (paragraph.getClientRects().length === 0) continue;
      for (const line of wrappedLines(paragraph)) {
        out.appendChild(textLike(paragraph, line.left - left, line.bottom - top, line.text));
      }
    }
    for (const svg of card.querySelectorAll('svg')) {
      const box = svg.getBoundingClientRect();
      if (box.width === 0) continue;
      const copy = svg.cloneNode(true);
      inlineStyles(svg, copy);
      paintBack(svg, copy);
      copy.setAttribute('x', box.left - left);
      copy.setAttribute('y', box.top - top);
      copy.setAttribute('width', box.width);
      copy.setAttribute('height', box.height);
      out.appendChild(copy);
    }
  }
  return out;
}

// A painted heatmap (`paint.js` `paint`) shows its colours and numbers on a
// canvas under its SVG. The copy gets them back as fills and texts, from what
// the page last painted (`lastPaint`), so the figure stays vector and its
// numbers text.
function paintBack(svg, copy) {
  const frame = svg.parentElement;
  if (!frame?.classList.contains('painted')) return;
  const host = frame.parentElement;
  const style = getComputedStyle(svg);
  const text = (x, y, ink, content) => {
    const number = document.createElementNS(SVG_NS, 'text');
    number.setAttribute('x', x);
    number.setAttribute('y', y);
    number.setAttribute(
      'style',
      `fill:${ink};font-family:${style.fontFamily};font-size:${style.fontSize};text-anchor:middle;dominant-baseline:central`,
    );
    number.textContent = content;
    return number;
  };
  const { cells, bars } = lastPaint(host);
  // The wide softmax bars (`paint.js` `paintBars`): each bar's fill, top and
  // height, and its number above it.
  if (bars) {
    const ink = style.getPropertyValue('--ink').trim() || style.color;
    const muted = style.getPropertyValue('--muted').trim() || ink;
    copy.querySelectorAll('rect.bar-value').forEach((rect, j) => {
      const bar = bars[j];
      if (!bar?.wide) return;
      rect.style.fill = bar.fill;
      rect.setAttribute('y', bar.top);
      rect.setAttribute('height', bar.height);
      const x = Number(rect.getAttribute('x')) + Number(rect.getAttribute('width')) / 2;
      rect.after(text(x, bar.textY, bar.masked ? muted : ink, bar.text));
    });
    return;
  }
  if (!cells) return;
  copy.querySelectorAll('rect[data-row]').forEach((rect, i) => {
    const cell = cells[i];
    if (!cell?.fill) return;
    rect.style.fill = cell.fill;
    const at = (a, b) => Number(rect.getAttribute(a)) + Number(rect.getAttribute(b)) / 2;
    rect.after(text(at('x', 'width'), at('y', 'height'), cell.ink, cell.text));
  });
}

function svgText(svg) {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg);
}

// Downloads the shown diagrams as a standalone SVG; false when none is shown.
export function exportSvg(name) {
  const svg = composeSvg();
  if (!svg) return false;
  download(name, 'image/svg+xml', svgText(svg));
  return true;
}

// Downloads the shown diagrams as a PNG at twice the page's resolution.
export function exportPng(name) {
  const svg = composeSvg();
  if (!svg) return false;
  const width = Number(svg.getAttribute('width'));
  const height = Number(svg.getAttribute('height'));
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement('canvas');
    canvas.width = width * 2;
    canvas.height = height * 2;
    const context = canvas.getContext('2d');
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    canvas.toBlob((blob) => save(name, blob), 'image/png');
  };
  image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText(svg));
  return true;
}

// Copies `text`, then says on `button` for two seconds whether it worked
// (its data-copied or data-copy-failed text, in the page's language).
export function copyText(text, button) {
  const say = (label) => {
    const before = button.textContent;
    button.textContent = label;
    setTimeout(() => {
      if (button.textContent === label) button.textContent = before;
    }, 2000);
  };
  const copied = navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject();
  copied.then(
    () => say(button.dataset.copied),
    () => say(button.dataset.copyFailed),
  );
}

// Puts the text of the file chosen in `input` into `field`, then presses `button`.
export function readUpload(input, field, button) {
  const file = input.files && input.files[0];
  if (!file) return;
  file.text().then((text) => {
    field.value = text;
    input.value = '';
    button.click();
  });
}
