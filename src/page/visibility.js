// Which diagrams are on screen. The app patches only those, so an input
// costs what the learner can see, and brings a diagram up to date in the
// task after the frame it comes into view (see `[data-far]` in main.css,
// which keeps its stale numbers from showing in that frame). Each diagram
// is watched on its own, not with its card: in a card partly on screen, the
// diagrams out of sight wait too. With RoPE on, the projection card's last
// lines and the scores card's first share the screen with the RoPE card;
// bringing both cards up to date whole made new random weights cost
// 26–28 ms p95 instead of 8–9, and bringing their heatmaps alone up to date
// (their legends and formulas still following the cards) 14 ms at T = 16.
// A card drawn as a whole (an `ActionCard` that computes its view only on
// screen) passes its own element.
//
// Measured with the weights heatmap in the middle of a 1280×800 screen
// (`cargo xtask bench`): patching the cards within even a tenth of a
// viewport off screen as well doubled the cost of selecting a query at
// T = 16 (6.7 → 15.5 ms p95), and the browser's own margin for
// `content-visibility: auto`, a viewport and a half, trebled it.
const MARGIN = '0px';

// A diagram off screen carries `data-far`: the app, main.css and the tests
// all read it there.
const observed = new WeakSet();
// The box watched in place of a diagram that has none of its own → that diagram.
const standsFor = new WeakMap();
let observer = null;
// While set, every card counts as on screen: an export or a printout shows them all.
let all = false;
// While set, the cards below the four diagrams (`data-later`) are not drawn:
// at start-up the page draws the cards above them first, and these in the
// task after that frame (docs/performance-log.md: start-up).
let laterWaits = false;

// Calls `changed` whenever a diagram comes on screen or goes off it, and, with
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
      for (const { target, isIntersecting, boundingClientRect: box } of entries) {
        // A diagram laid out as its children (`display: contents`, as the
        // fusion flow's, whose legend goes below the sum line) has no box to
        // intersect: its parent's stands for it. Asked here, after the
        // frame's layout, the style costs nothing to work out.
        if (!isIntersecting && !box.width && getComputedStyle(target).display === 'contents') {
          observer.unobserve(target);
          standsFor.set(target.parentElement, target);
          observer.observe(target.parentElement);
          continue;
        }
        (standsFor.get(target) ?? target).toggleAttribute('data-far', !isIntersecting);
      }
      changed();
    },
    { rootMargin: MARGIN },
  );
  // A diagram reached with the keyboard is brought up to date at once,
  // before a screen reader reads out what has focus. Only the nearest far
  // element can hold it: cards drawn whole hold no diagrams, and a raster's
  // block is watched for its canvas and magnifier both.
  document.addEventListener(
    'focusin',
    (event) => {
      const far = event.target.closest?.('[data-far]');
      if (!far) return;
      far.removeAttribute('data-far');
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

// Whether `element` is drawn: while it is on screen, or with `anywhere`,
// on screen or off it; never before start-up reaches a card made for later
// (`data-later`). It is watched from the first time it is asked about, and
// counts as on screen until the observer first reports on it. An element
// outside every card is always drawn.
export function isDrawn(element, anywhere) {
  const card = element.closest('.card');
  if (!card || all) return true;
  if (laterWaits && card.closest('[data-later]')) return false;
  if (anywhere) return true;
  // A raster's canvas and its magnifier are one heatmap: their block is watched.
  const watched = element.closest('.raster-block') ?? element;
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
