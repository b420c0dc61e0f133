// The DOM half of the cards' and diagrams' events that is cheaper in
// JavaScript: one listener for many kinds of event, and keyboard focus in
// composites.

// Calls `handler` with each event of `types` (space-separated) on `element`:
// one Rust closure for all of a diagram's events, where a Leptos `on:` each
// would cost its own copy of the listener code (`listen.rs` `on_events`).
export function listenTo(element, types, handler) {
  for (const type of types.split(' ')) element.addEventListener(type, handler);
}

// Composites with one tab stop (a roving tabindex): an ARIA grid, whose rows
// are its [role=row]s and cells their [role=gridcell]s, or a single row
// marked data-rove, whose cells are its focusable items. Tab enters and
// leaves a composite in one press, however many cells it has; the arrow
// keys move within it (`rove.rs`, as `geometry::grid::focus_step` says).

function composite(target) {
  const box = target.closest('[role="grid"], [data-rove]');
  if (!box) return null;
  const grid = box.getAttribute('role') === 'grid';
  const rows = grid ? box.querySelectorAll('[role="row"]') : [box];
  const cells = (row) => row.querySelectorAll(grid ? '[role="gridcell"]' : '[tabindex]');
  return { box, grid, rows, cells };
}

// Where the cell holding `target` stands: its row and column, and the
// composite's rows (with bit 15 set for a single row of controls, not a
// grid) and that row's cells; null outside a composite.
function where(target) {
  const c = composite(target);
  for (let r = 0; c && r < c.rows.length; r++) {
    const cells = c.cells(c.rows[r]);
    for (let k = 0; k < cells.length; k++) {
      if (cells[k].contains(target)) return [r, k, c.rows.length | (c.grid ? 0 : 0x8000), cells.length];
    }
  }
  return null;
}

// `where` for `rove.rs`, two 16-bit halves a number (a composite has at most
// 512 rows, one per token): the cell's row and column, then the composite's
// rows and columns, with the top bit set for a single row of controls (not
// a grid), and 0 outside a composite.
export const placeOf = (target) => pack(where(target)?.slice(0, 2));
export const shapeOf = (target) => pack(where(target)?.slice(2));
const pack = (pair) => (pair ? ((pair[0] << 16) | pair[1]) >>> 0 : 0);

// What takes focus in a cell: the cell itself, or the control inside it.
const focusable = (cell) => (cell.hasAttribute('tabindex') ? cell : cell.querySelector('[tabindex], button, input, select, textarea'));

// Makes `element` its composite's one tab stop.
function stopAt(box, element) {
  for (const stop of box.querySelectorAll('[tabindex="0"]')) if (stop !== element) stop.tabIndex = -1;
  element.tabIndex = 0;
}

// Moves focus to the cell at (`row`, `col`) of `target`'s composite.
export function roveTo(target, row, col) {
  const c = composite(target);
  const cell = c && c.rows[row] && c.cells(c.rows[row])[col];
  const element = cell && focusable(cell);
  if (!element) return;
  stopAt(c.box, element);
  element.focus();
  // A cell marked data-follows is chosen as the keyboard reaches it, as a
  // radio button is: the token chips, whose arrows move the query.
  if (element.hasAttribute('data-follows')) element.click();
}

// Focus that comes by pointer, or that the page gives back (the cell editor
// returns it to its cell), makes its cell the tab stop, so Tab away and back
// returns there.
document.addEventListener('focusin', (event) => {
  const c = composite(event.target);
  if (c && event.target.tabIndex === -1) stopAt(c.box, event.target);
});
