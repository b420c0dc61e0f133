// The highlight: which heatmap cells are lit (the selected query, the row and
// column a product is made of) and which of a card's `select` controls is
// chosen. Neither the markup nor the paint writes them; they are kept in the
// host's state and put back after each markup (`afterMarkup`) and each paint
// that rewrote the cells' classes, so a new selection touches a few
// elements, not the matrix or the list.
import { afterMarkup, stateOf } from './morph.js';

// Highlights the heatmap cells of `rows` and `cols` with the class `lit`.
// Only those cells and the ones lit before are touched, so a new selection
// costs a row, not the matrix.
export function light(host, rows, cols) {
  stateOf(host).lit = { rows: Array.from(rows), cols: Array.from(cols) };
  relight(host);
}

// Marks the chosen one of a card's controls named `action` (`data-action`,
// `crate::action::SELECT`) by its `data-index`: its button gets
// aria-pressed="true" and its item the class `selected`. The markup writes
// every such control unchosen.
export function choose(host, action, index) {
  stateOf(host).chosen = { action, index: String(index) };
  rechoose(host);
}

// What shows a control as chosen: the list item it is in (a token's chip,
// among its row's other controls), or else its parent.
const holder = (control) => control.closest('li') ?? control.parentElement;

function rechoose(host) {
  const { chosen } = stateOf(host);
  if (!chosen) return;
  // Only the marked and the newly chosen are touched: a new query touches
  // two chips, not the whole list. A button says it is pressed; a picture of
  // the same choice (a head's map beside its button) is marked through its
  // holder's class alone. The markup may have rewritten any of them.
  const name = `[data-action="${chosen.action}"]`;
  const mark = (control, on) => {
    if (control.localName === 'button' && control.getAttribute('aria-pressed') !== String(on)) {
      control.setAttribute('aria-pressed', String(on));
    }
    holder(control).classList.toggle('selected', on);
  };
  for (const control of host.querySelectorAll(`${name}[aria-pressed="true"], .selected ${name}`)) {
    if (control.dataset.index !== chosen.index) mark(control, false);
  }
  for (const control of host.querySelectorAll(`${name}[data-index="${chosen.index}"]`)) mark(control, true);
}

// Puts the class `lit` back on the cells of the lit rows and columns, and
// takes it off every other cell.
export function relight(host) {
  const { lit } = stateOf(host);
  const want = new Set();
  for (const r of lit?.rows ?? []) {
    for (const cell of host.querySelectorAll(`rect.cell[data-row="${r}"]`)) want.add(cell);
  }
  for (const c of lit?.cols ?? []) {
    for (const cell of host.querySelectorAll(`rect.cell[data-col="${c}"]`)) want.add(cell);
  }
  for (const cell of host.querySelectorAll('rect.cell.lit')) {
    if (!want.has(cell)) cell.classList.remove('lit');
  }
  for (const cell of want) if (!cell.classList.contains('lit')) cell.classList.add('lit');
}

afterMarkup((host) => {
  relight(host);
  rechoose(host);
});
