// The page's polite live region (issue 14): what the learner's last action
// changed, in a sentence or two. Said once the page has settled, so a held
// arrow key or a drag is said once, at its end; while training plays, it
// waits for the run to stop, however slowly it draws. Each kind of news
// (`announce.rs`) keeps only its latest.
const pending = new Map();
let timer = 0;

export function announce(kind, text) {
  pending.set(kind, text);
  clearTimeout(timer);
  timer = setTimeout(say, 400);
}

function say() {
  if (document.querySelector('[data-testid="train-progress"][data-playing="true"]')) {
    timer = setTimeout(say, 400);
    return;
  }
  const region = document.querySelector('[data-testid="announce"]');
  if (region) region.textContent = [...pending.values()].join(' ');
  pending.clear();
}

// While the walkthrough waits for a guess, the cards that show the weights
// are blurred on screen (walkthrough.css) and inert: out of the
// accessibility tree and the keyboard's reach.
export function conceal(hidden) {
  for (const card of document.querySelectorAll('[data-diagram="softmax"], [data-diagram="fusion"]')) {
    card.toggleAttribute('inert', hidden);
  }
}
