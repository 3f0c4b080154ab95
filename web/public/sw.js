// Collecte's service worker: the app shell for offline use, and the last calendar loaded.
// Hand-written and small on purpose. Bump VERSION to drop old caches.
const VERSION = 'v1';
const SHELL = `collecte-shell-${VERSION}`;
const DATA = `collecte-data-${VERSION}`;

// The calendar of a place and its city: network first, the last copy when offline.
const CALENDAR = /^\/public\/cities\/[^/]+(\/places\/[^/]+\/collections)?$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      const response = await fetch('/', { cache: 'no-cache' });
      const html = await response.clone().text();
      // index.html names its hashed scripts and styles: cache them with it.
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      await cache.put('/', response);
      await cache.addAll([...new Set([...assets, '/manifest.webmanifest', '/icon.svg'])]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== SHELL && key !== DATA) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === 'navigate') {
    // Network first so that a new version shows at once; the cached shell when offline.
    event.respondWith(
      (async () => {
        try {
          const response = await fetch(request);
          if (response.ok) (await caches.open(SHELL)).put('/', response.clone());
          return response;
        } catch {
          return (await caches.match('/')) ?? Response.error();
        }
      })(),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Hashed names never change: cache first, stored on first use (lazy screens included).
    event.respondWith(
      (async () => {
        const cached = await caches.match(request);
        if (cached) return cached;
        const response = await fetch(request);
        if (response.ok) (await caches.open(SHELL)).put(request, response.clone());
        return response;
      })(),
    );
    return;
  }
  if (CALENDAR.test(url.pathname)) {
    event.respondWith(
      (async () => {
        const cache = await caches.open(DATA);
        // Collections are asked for a range starting today: keep one copy per place whatever the range.
        const key = url.origin + url.pathname;
        try {
          const response = await fetch(request);
          if (response.ok) await cache.put(key, response.clone());
          return response;
        } catch (err) {
          const cached = await cache.match(key);
          if (cached) return cached;
          throw err;
        }
      })(),
    );
  }
});
