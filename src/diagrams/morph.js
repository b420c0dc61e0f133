// Brings a diagram's DOM up to date with freshly written markup by patching
// only what differs. Replacing the whole markup would make the browser parse,
// restyle and lay out every element on each edit; patching in place touches
// only the changed attributes and texts, and keeps keyboard focus where it is.

export function morph(host, markup) {
  const template = document.createElement('template');
  template.innerHTML = markup;
  patchChildren(host, template.content);
  // The cells now show what the markup says, not what was last painted.
  host.painted = null;
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
  if (a.firstChild || b.firstChild) patchChildren(a, b);
}

// Repaints the cells of a heatmap whose shape is unchanged, from the lines
// `matrix/markup.rs` `paint` writes: fill, value, text, text colour, class and
// mask flag, tab-separated, one line per cell in the order the cells were drawn.
export function paint(host, encoded) {
  const cells = host.querySelectorAll('rect.cell');
  const lines = encoded.split('\n');
  // What the previous paint wrote: unchanged cells are skipped without
  // touching the DOM, and changed ones only get the fields that differ.
  const before = host.painted;
  const n = Math.min(cells.length, lines.length);
  for (let i = 0; i < n; i++) {
    if (before && before[i] === lines[i]) continue;
    const [fill, value, text, ink, cls, masked] = lines[i].split('\t');
    const old = before && before[i] ? before[i].split('\t') : [];
    const cell = cells[i];
    if (old[0] !== fill) cell.setAttribute('fill', fill);
    if (old[1] !== value) cell.setAttribute('data-value', value);
    if (old[4] !== cls) cell.setAttribute('class', cls);
    if (old[5] !== masked || !before) {
      if (masked) cell.setAttribute('data-masked', 'true');
      else cell.removeAttribute('data-masked');
    }
    const label = cell.nextElementSibling;
    if (label) {
      if (old[2] !== text) label.textContent = text;
      if (old[3] !== ink) label.setAttribute('fill', ink);
    }
  }
  host.painted = lines;
}
