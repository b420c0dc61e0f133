// In a page embedded in an iframe, tells the course page around it how tall
// the content is whenever that changes, so the iframe can fit it without a
// scroll bar of its own. examples/embed.js is the course page's half.
export function reportHeight() {
  if (window.parent === window) return;
  const send = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    window.parent.postMessage({ type: 'attention-lab:height', height }, '*');
  };
  new ResizeObserver(send).observe(document.body);
  send();
}

// A link that picks panels (every embed does) shows them unfolded: a teacher
// who chose the training card means its controls, not its heading.
export function unfoldPanels() {
  requestAnimationFrame(() => {
    for (const fold of document.querySelectorAll('details.fold')) fold.open = true;
  });
}
