// The loader the communes' websites include (docs/widgets.md):
//   <div data-collecte="calendrier" data-city="UUID" data-place="UUID" data-color="#0055a4"></div>
//   <script src="https://collecte.example.fr/widget.js" async></script>
// Each such element becomes a frame of this server's `/embed/KIND?city=…`, titled in French, whose height follows its
// content: the page inside posts `{collecte: 'height', height}` and only a message from that very frame, from this
// server's origin, is believed. Nothing is stored (no cookie, no storage of the host page) and nothing of the host
// page is read but these attributes. A few lines of our own rather than iframe-resizer: its parent script alone is
// larger than this file's whole budget (3 KiB gzipped), for the one thing needed here.
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  const origin = script ? new URL(script.src).origin : location.origin;
  const titles: Record<string, string> = {
    calendrier: 'Jours de collecte des déchets',
    tri: 'Où jeter mes déchets\u00a0?',
    points: 'Points d’apport et déchèteries',
    demande: 'Signaler un problème au service des déchets',
  };
  const frames: HTMLIFrameElement[] = [];

  function draw(host: HTMLElement): void {
    if (host.dataset.collecteReady) return;
    const kind = host.dataset.collecte ?? '';
    const city = host.dataset.city ?? '';
    if (!titles[kind] || !city) {
      // Written once: writing it again is a change the observer below sees, which would draw again, without end.
      const help = 'Module Collecte\u00a0: indiquez data-collecte (calendrier, tri, points ou demande) et data-city.';
      if (host.textContent !== help) host.textContent = help;
      return;
    }
    host.dataset.collecteReady = '1';
    const query = new URLSearchParams({ city });
    if (host.dataset.place) query.set('place', host.dataset.place);
    if (host.dataset.color) query.set('color', host.dataset.color);
    const frame = document.createElement('iframe');
    frame.src = `${origin}/embed/${kind}?${query}`;
    frame.title = titles[kind];
    frame.loading = 'lazy';
    // Geolocation for « Me localiser » and the points nearest first; nothing else.
    frame.allow = 'geolocation';
    frame.style.cssText = 'display:block;width:100%;min-height:200px;height:480px;border:0;overflow:hidden';
    host.replaceChildren(frame);
    frames.push(frame);
  }

  addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== origin) return;
    const data = event.data as { collecte?: unknown; height?: unknown } | null;
    if (!data || data.collecte !== 'height' || typeof data.height !== 'number' || !(data.height > 0)) return;
    const frame = frames.find((f) => f.contentWindow === event.source);
    if (frame) frame.style.height = `${Math.min(Math.ceil(data.height), 20000)}px`;
  });

  const drawAll = () => document.querySelectorAll<HTMLElement>('[data-collecte]').forEach(draw);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', drawAll);
  else drawAll();
  // Elements added later (a CMS block opened after load) are drawn too.
  new MutationObserver(drawAll).observe(document.documentElement, { childList: true, subtree: true });
})();
