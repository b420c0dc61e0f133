// Which cards and heatmaps are on screen. The app patches only those, so an
// input costs what the learner can see, and brings a diagram up to date in
// the task after the frame it comes into view (see `[data-far]` in
// main.css, which keeps its stale numbers from showing in that frame).
// A heatmap is watched on its own, not with its card: in a card partly on
// screen, the heatmaps out of sight wait too. With RoPE on, the projection
// card's last lines and the scores card's first can share the screen with
// the RoPE card, and patching all eight of their heatmaps made new random
// weights cost 26–28 ms p95 instead of 6–8. The rest of a card (its text,
// its bars, the fusion flow) follows the card, so a screen reader moving
// through a card it has scrolled to never meets an earlier input's words.
//
// Measured with the weights heatmap in the middle of a 1280×800 screen
// (`cargo xtask bench`): patching the cards within even a tenth of a
// viewport off screen as well doubled the cost of selecting a query at
// T = 16 (6.7 → 15.5 ms p95), and the browser's own margin for
// `content-visibility: auto`, a viewport and a half, trebled it.
const MARGIN = '0px';

// A card or heatmap off screen carries `data-far`: the app, main.css and
// the tests all read it there.
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
  // A card or heatmap reached with the keyboard is brought up to date at
  // once, before a screen reader reads out what has focus.
  document.addEventListener(
    'focusin',
    (event) => {
      let far = false;
      for (let e = event.target.closest?.('[data-far]'); e; e = e.parentElement.closest('[data-far]')) {
        e.removeAttribute('data-far');
        far = true;
      }
      if (far) changed();
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

// How `isDrawn` watches an element (`Drawn` in state.rs).
const WITH_CARD = 0;
const ON_ITS_OWN = 1;

// Whether `element` is drawn: while the card holding it is on screen
// (`WITH_CARD`), while it is on screen itself (`ON_ITS_OWN`), or anywhere;
// never before start-up reaches a card made for later (`data-later`). What
// is watched is watched from the first time it is asked about, and counts as
// on screen until the observer first reports on it. An element outside
// every card is always drawn.
export function isDrawn(element, how) {
  const card = element.closest('.card');
  if (!card || all) return true;
  if (laterWaits && card.hasAttribute('data-later')) return false;
  if (how !== WITH_CARD && how !== ON_ITS_OWN) return true;
  const watched = how === WITH_CARD ? card : element;
  if (observer && !observed.has(watched)) {
    observed.add(watched);
    observer.observe(watched);
  }
  return !watched.hasAttribute('data-far');
}

// Counts every card as on screen (`on`), or only those that are.
export function drawAll(on) {
  all = on;
}
