// The offline worker (issue 40): caches the whole bundle when the app is
// first opened, then answers every request of the app's folder from that
// cache, so a later visit with no network opens the app (with the learner's
// work, which lives in the page's own storage). tools/minify.mjs writes the
// shipped sw.js from this file, putting in the bundle's files and a version
// that changes with any of their bytes; a new deployment is therefore a new
// worker, which waits until the learner accepts the page's offer to reload
// (src/offline/register.js), so code never changes under a learner mid-task.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `attention-lab-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener('activate', (event) => {
  // Only this version's cache stays: an old one is never read again.
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('attention-lab-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      // The app's page, whatever its link holds (?s=…, embed=1): the cached
      // page, which reads the link itself. Other pages of the folder (the
      // single file, examples/) are answered like any file.
      const page = new URL('index.html', self.registration.scope).href;
      const path = request.url.split(/[?#]/)[0];
      const app = request.mode === 'navigate' && (path === self.registration.scope || path === page);
      const cached = await cache.match(app ? page : request, { ignoreSearch: app });
      if (cached) return cached;
      // A file of the folder the first visit did not cache (the single file,
      // which the Save card builds from) is kept once fetched, so the card
      // works offline from then on.
      const response = await fetch(request);
      if (response.ok && !app) await cache.put(request, response.clone());
      return response;
    }),
  );
});
