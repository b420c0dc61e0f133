// Brings a diagram's DOM up to date with freshly written markup by patching
// only what differs. Replacing the whole markup would make the browser parse,
// restyle and lay out every element on each edit; patching in place touches
// only the changed attributes and texts, and keeps keyboard focus where it is.

export function morph(host, markup) {
  const template = document.createElement('template');
  template.innerHTML = markup;
  patchChildren(host, template.content);
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
  // Most of a diagram is unchanged by one edit; a native comparison skips it fast.
  if (a.isEqualNode(b)) return;
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
  const n = Math.min(cells.length, lines.length);
  for (let i = 0; i < n; i++) {
    const [fill, value, text, ink, cls, masked] = lines[i].split('\t');
    const cell = cells[i];
    if (cell.getAttribute('fill') !== fill) cell.setAttribute('fill', fill);
    if (cell.getAttribute('data-value') !== value) cell.setAttribute('data-value', value);
    if (cell.getAttribute('class') !== cls) cell.setAttribute('class', cls);
    if (masked) {
      if (!cell.hasAttribute('data-masked')) cell.setAttribute('data-masked', 'true');
    } else if (cell.hasAttribute('data-masked')) {
      cell.removeAttribute('data-masked');
    }
    const label = cell.nextElementSibling;
    if (label) {
      if (label.textContent !== text) label.textContent = text;
      if (label.getAttribute('fill') !== ink) label.setAttribute('fill', ink);
    }
  }
}
