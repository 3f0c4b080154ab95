// Collecte's service worker: the app shell for offline use, and the last public data read (never the collections).
// Hand-written and small on purpose. Bump VERSION to drop old caches.
const VERSION = 'v3';
const SHELL = `collecte-shell-${VERSION}`;
const DATA = `collecte-data-${VERSION}`;

// Files of the shell besides the hashed assets: served from the cache when the network is out of reach.
const STATIC = ['/manifest.webmanifest', '/icon.svg'];

// Public data kept for offline reading: network first, the last copy when offline. Not the collections (dates
// computed for a day: the app keeps its own copy, drops the past dates and says it is offline), not the service
// notices (in force now: the app keeps those of its last calendar with it and drops the ended ones), not the address
// suggestions (typed live), not files.
const KEPT = /^\/public\/(cities|city-groups|challenges|blog-posts|chat|cms)(\/|$)/;
// Nor the sorting guide's searches (each is counted by the city; offline, the app searches the city's materials it
// keeps, web/src/guide-offline.ts, and says so).
const NEVER = /\/(collections|notices|calendar\.ics|file|thumbnail|sorting-guide)$|^\/public\/places\//;

// Set on a kept copy answered in place of the network's (web/src/api.ts, getLiveOrKept): the app then says it is offline
// and, for the recycling points, computes open-now itself instead of showing the state the copy was saved with.
const KEPT_MARK = 'x-collecte-kept';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      const response = await fetch('/', { cache: 'no-cache' });
      const html = await response.clone().text();
      // index.html names its hashed scripts and styles: cache them with it.
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      // The entry names the screens loaded on first use (Défis, Actus, Assistant…): cache them too, so that they
      // open offline even when never opened before.
      const lazy = [];
      for (const script of assets.filter((a) => a.endsWith('.js'))) {
        const code = await (await fetch(script)).text();
        for (const m of code.matchAll(/["'`](?:\.\/|\/?assets\/)([\w-]+\.(?:js|css))["'`]/g)) lazy.push(`/assets/${m[1]}`);
      }
      await cache.put('/', response);
      await cache.addAll([...new Set([...assets, ...lazy, ...STATIC])]);
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

/** The network's answer, kept under `key`; the kept copy when the network is out of reach (marked when `mark`). */
async function networkFirst(request, cacheName, key = request, mark = false) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(key);
    if (!cached) throw err;
    if (!mark) return cached;
    const headers = new Headers(cached.headers);
    headers.set(KEPT_MARK, '1');
    return new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers });
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The agents' console (/console) is another app: never served from, nor stored as, the citizens' shell.
  if (url.pathname === '/console' || url.pathname.startsWith('/console/')) return;

  if (request.mode === 'navigate') {
    // Network first so that a new version shows at once; the cached shell when offline.
    event.respondWith(networkFirst(request, SHELL, '/').catch(async () => (await caches.match('/')) ?? Response.error()));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Hashed names never change: cache first, stored on first use.
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
  if (STATIC.includes(url.pathname)) {
    event.respondWith(networkFirst(request, SHELL, url.pathname));
    return;
  }
  if (KEPT.test(url.pathname) && !NEVER.test(url.pathname)) event.respondWith(networkFirst(request, DATA, request, true));
});

// Reminders and alerts (CONTRACT 12): the server's payload is JSON {title, body, url, tag}; a message with the tag of
// one already shown replaces it (a retried reminder never shows twice).
self.addEventListener('push', (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;
  }
  const title = (message && message.title) || 'Collecte';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: (message && message.body) || '',
      tag: (message && message.tag) || undefined,
      icon: '/icon.svg',
      lang: 'fr',
      data: { url: (message && message.url) || '/' },
    }),
  );
});

// A tap on the notification: the app's window already open at that page takes the focus (else one of the app's
// windows goes there), or a new window opens it.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  event.waitUntil(
    (async () => {
      // Only a page of this app: a payload's url elsewhere opens the app's home.
      const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((w) => w.url === url);
      if (same) return same.focus();
      const any = windows.find((w) => new URL(w.url).origin === self.location.origin && 'navigate' in w);
      if (any) {
        try {
          // navigate() works on a window this worker controls; another is left as it is and a new one opens.
          const moved = await any.navigate(url);
          if (moved) return moved.focus();
        } catch {
          // Not controlled by this worker.
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
