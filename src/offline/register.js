// Registers the offline worker (src/offline/sw.js) for the app's folder, and
// tells the app when a new deployment is ready: the app offers to reload
// (`lab-update-ready`), and once the learner accepts (`lab-update-accept`),
// the new worker takes over and the page reloads, never before. A page
// opened from a file, or in a browser without workers, does nothing here.
// The worker's first install downloads the whole bundle again for its
// cache: it waits until the page has loaded and the browser is idle, so it
// never competes with drawing the first diagrams.
function register() {
  let accepted = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (accepted) location.reload();
  });
  navigator.serviceWorker
    .register('./sw.js', { scope: './' })
    .then((registration) => {
      const offer = () => window.dispatchEvent(new Event('lab-update-ready'));
      // A new version waits only when an older one controls this page.
      const waiting = () => registration.waiting && navigator.serviceWorker.controller;
      if (waiting()) offer();
      registration.addEventListener('updatefound', () => {
        const worker = registration.installing;
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed' && navigator.serviceWorker.controller) offer();
        });
      });
      window.addEventListener('lab-update-accept', () => {
        accepted = true;
        registration.waiting?.postMessage('skip-waiting');
      });
    })
    // No worker (a development server without sw.js): the app works online.
    .catch(() => {});
}

if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  addEventListener('load', () => {
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 3000 });
    else setTimeout(register, 1000);
  });
}
