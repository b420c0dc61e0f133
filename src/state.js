// The browser skips drawing the cards far from the viewport (their
// `content-visibility: auto`) and says so with an event as a card leaves or
// comes near. The app stops patching a skipped card's diagrams, so an input
// costs what is on screen, and brings them up to date as the card comes near.

const skipped = new Set();
// While set, every card counts as drawn: an export copies them all.
let all = false;

// Calls `changed` whenever the browser starts or stops skipping a card.
export function watchSkipped(changed) {
  document.addEventListener(
    'contentvisibilityautostatechange',
    (event) => {
      if (!event.target.classList.contains('card')) return;
      if (event.skipped) skipped.add(event.target);
      else skipped.delete(event.target);
      changed();
    },
    true,
  );
}

// Whether the card holding `element` is drawn (an element outside every card is).
export function cardDrawn(element) {
  const card = element.closest('.card');
  return all || !card || !skipped.has(card);
}

// Counts every card as drawn (`on`), or only those the browser draws.
export function drawAll(on) {
  all = on;
}
