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
    if (a.data !== b.data) a.data = b.data;
    return;
  }
  if (a.nodeType !== Node.ELEMENT_NODE) return;
  for (const { name, value } of b.attributes) {
    if (a.getAttribute(name) !== value) a.setAttribute(name, value);
  }
  for (const { name } of Array.from(a.attributes)) {
    if (!b.hasAttribute(name)) a.removeAttribute(name);
  }
  patchChildren(a, b);
}
