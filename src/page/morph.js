// The differ: brings a host's DOM up to date with freshly written markup by
// patching only what differs. Replacing the whole markup would make the
// browser parse, restyle and lay out every element on each edit; patching in
// place touches only the changed attributes and texts, and keeps keyboard
// focus where it is.
//
// Most edits change numbers, not structure: the same tags in the same order
// with new attribute values and texts. Then the markup is compared with the
// previous markup tag by tag as text, and only the tags and texts that differ
// are applied, without parsing the markup into nodes at all. Anything else
// takes the general path: parse, then patch node by node.
//
// This file also keeps what the page's machinery knows about each host, in
// one `WeakMap` (`stateOf`) rather than on the DOM elements: the painter
// (`paint.js`) and the highlight (`highlight.js`) keep theirs there too, and
// hear of new markup through `afterMarkup`.

/** What the page's machinery knows about one host (a diagram's or a card's element). */
export class HostState {
  // The differ's: the markup last applied, its tokens and shape, and the
  // host's elements as last seen.
  markup = undefined;
  tokens = null;
  shape = null;
  live = null;
  elements = null;
  // The painter's (`paint.js`).
  cells = null;
  cellLines = null;
  cellFields = null;
  boxes = null;
  bars = null;
  barLines = null;
  columns = null;
  look = null;
  // The highlight's (`highlight.js`): the lit rows and columns, and the
  // chosen control's action and index.
  lit = null;
  chosen = null;
}

const states = new WeakMap();

/** The state kept for `host`, made on first use. */
export function stateOf(host) {
  let state = states.get(host);
  if (!state) {
    state = new HostState();
    states.set(host, state);
  }
  return state;
}

// What runs after a host's markup is applied: `(host, state, rewritten)`,
// `rewritten` when the markup was parsed anew (its elements may be new), as
// opposed to patched tag by tag.
const listeners = [];

/** Has `listener(host, state, rewritten)` called after every markup applied. */
export function afterMarkup(listener) {
  listeners.push(listener);
}

export function morph(host, markup) {
  const state = stateOf(host);
  // A host's first markup goes in without being cut into tokens: at start-up
  // every diagram is written once and most then only repaint, so the tokens
  // of that markup are worked out when, if ever, new markup comes.
  let tokens = null;
  let shape = null;
  if (state.markup !== undefined) {
    state.tokens ??= state.markup.match(TOKEN) ?? [];
    state.shape ??= shapeOf(state.tokens);
    tokens = markup.match(TOKEN) ?? [];
    shape = shapeOf(tokens);
    if (state.shape === shape && patchTokens(host, state, state.tokens, tokens)) {
      state.markup = markup;
      state.tokens = tokens;
      for (const listener of listeners) listener(host, state, false);
      return;
    }
  }
  const template = document.createElement('template');
  template.innerHTML = markup;
  patchChildren(host, template.content);
  state.markup = markup;
  state.tokens = tokens;
  state.shape = shape;
  state.elements = null;
  for (const listener of listeners) listener(host, state, true);
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
function patchTokens(host, state, before, after) {
  // The elements as last seen; if anything else added or removed one since,
  // look again, and the tag-by-tag check below finds the difference.
  const live = (state.live ??= host.getElementsByTagName('*'));
  if (state.elements?.length !== live.length) state.elements = null;
  const elements = (state.elements ??= host.querySelectorAll('*'));
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
