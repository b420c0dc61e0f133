// Which cards are on screen. The app patches only their diagrams, so an
// input costs what the learner can see, and brings a card up to date in the
// task after the frame it comes into view (see `.card[data-far]` in
// main.css, which keeps its stale diagrams from showing in that frame).
//
// Measured with the weights heatmap in the middle of a 1280×800 screen
// (`cargo xtask bench`): patching the cards within even a tenth of a
// viewport off screen as well doubled the cost of selecting a query at
// T = 16 (6.7 → 15.5 ms p95), and the browser's own margin for
// `content-visibility: auto`, a viewport and a half, trebled it.
const MARGIN = '0px';

// A card off screen carries `data-far`: the app, main.css and the tests all
// read it there.
const observed = new WeakSet();
let observer = null;
// While set, every card counts as on screen: an export or a printout shows them all.
let all = false;
// While set, the cards below the four diagrams (`data-later`) are not drawn:
// at start-up the page draws the cards above them first, and these in the
// task after that frame (ARCHITECTURE.md: start-up).
let laterWaits = false;

// Calls `changed` whenever a card comes on screen or goes off it, and, with
// `deferLater`, once the first frame is drawn and the later cards may draw.
export function watchSkipped(changed, deferLater) {
  if (deferLater) {
    // An observer's first report comes in the task after the first frame
    // (whatever the page's clock: a test's fake one stops timers and
    // animation frames, not the drawing).
    laterWaits = true;
    const firstFrame = new IntersectionObserver(() => {
      firstFrame.disconnect();
      laterWaits = false;
      changed();
    });
    firstFrame.observe(document.documentElement);
  }
  observer = new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting } of entries) target.toggleAttribute('data-far', !isIntersecting);
      changed();
    },
    { rootMargin: MARGIN },
  );
  // A card reached with the keyboard is brought up to date at once, before a
  // screen reader reads out what has focus.
  document.addEventListener(
    'focusin',
    (event) => {
      const card = event.target.closest?.('.card');
      if (!card?.hasAttribute('data-far')) return;
      card.removeAttribute('data-far');
      changed();
    },
    true,
  );
  // A printout shows every card.
  const print = (on) => () => {
    all = on;
    changed();
  };
  addEventListener('beforeprint', print(true));
  addEventListener('afterprint', print(false));
}

// Whether the card holding `element` is on screen (an element outside every
// card is). A card is watched from the first time it is asked about, and
// counts as on screen until the observer first reports on it. With
// `anywhere`, a card on screen or off it is drawn, once start-up allows.
export function cardDrawn(element, anywhere) {
  const card = element.closest('.card');
  if (!card || all) return true;
  if (laterWaits && card.hasAttribute('data-later')) return false;
  if (anywhere) return true;
  if (observer && !observed.has(card)) {
    observed.add(card);
    observer.observe(card);
  }
  return !card.hasAttribute('data-far');
}

// Counts every card as on screen (`on`), or only those that are.
export function drawAll(on) {
  all = on;
}
