// The service worker (served at /sw.js; docs/delivery.md): the pages open without the network.
//
// It keeps one release's pages, modules, styles and tile font (BUILD, filled in by the server's
// static build, server/http/assets.py) in the cache "sgmj-r-<release>", and:
//   pages     network first (4 s), else the release's copy of the page (a table page: the table's
//             page, which shows "offline, reconnecting" until the server answers again);
//   /static/  release and hashed URLs: the cache, else the network (then kept: 中文 fonts, sounds);
//             other /static/ paths: the network, else the cache;
//   GET /api/rules and /api/reference: the network, else the last answer;
//   POST /api/score (the calculator): the network, else this device's answer to the same hand, else
//             503 {"code": "offline"}: the page then scores it with the offline scorer if kept, or waits.
// The offline scorer (BUILD.scorer, null when the server has no Pyodide): Pyodide's files and the core
// zip, kept in the cache "sgmj-scorer" only when the calculator page asks (the player's "Keep the
// calculator for offline use": about 5 MB), across releases; when a release brings other files (a new
// core zip), they are fetched all together and only then the old ones dropped (the cache holds one set).
//   /static/pyodide/...  the kept copy, else the network (not kept).
// Messages (with a MessagePort for the answer): "scorer" -> {available, bytes, pyodide, core, kept,
// updating};
// "keep-scorer" -> {kept: true} or {error}.
// Notifications (docs/clubs.md, "Evenings and notifications"): a "push" from the server (JSON: title,
// body, url, tag, club) is shown as a notification, and posted to the open pages ({type: "push", ...}:
// a club's page shows it too); a click on it focuses a page at its URL or opens one (this site's only).
// A new release's worker takes over at once (skipWaiting): its URLs differ from the old release's, so
// a page still open on the old release goes on loading the old release's files (the previous release's
// cache is kept, and the server keeps serving its files), never a mix of both.
const BUILD = { release: "dev", precache: [], shell: {} };
const CACHE = `sgmj-r-${BUILD.release}`;
const DATA = "sgmj-data";
const SCORER = "sgmj-scorer";
const DATA_LIMIT = 200; // answers kept in DATA (the oldest dropped beyond)
const RELEASES_KEPT = 2; // release caches kept: this one and the one before
const PAGE_WAIT = 4000; // ms a page waits for the network before the kept copy is shown
const IMMUTABLE = /^\/static\/(r\/|.*\.[0-9a-f]{10}\.\w+$)/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(BUILD.precache)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const releases = (await caches.keys()).filter((name) => name.startsWith("sgmj-r-") && name !== CACHE);
    for (const name of releases.slice(0, Math.max(0, releases.length - (RELEASES_KEPT - 1)))) {
      await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.startsWith("/static/pyodide/")) {
    event.respondWith(scorerFile(request));
  } else if (request.method === "POST" && url.pathname === "/api/score") {
    event.respondWith(score(request));
  } else if (request.method !== "GET") {
    return;
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(IMMUTABLE.test(url.pathname) ? cacheFirst(request) : networkFirst(request, CACHE));
  } else if (url.pathname === "/api/rules" || url.pathname === "/api/reference") {
    event.respondWith(networkFirst(request, DATA));
  }
});

function shellOf(path) {
  if (path.startsWith("/t/")) return BUILD.shell["/t/"];
  if (path.startsWith("/replay/")) return BUILD.shell["/replay/"];
  return BUILD.shell[path];
}

async function page(request, url) {
  const shell = shellOf(url.pathname);
  const network = fetch(request);
  if (!shell) return network;
  const late = new Promise((resolve) => setTimeout(resolve, PAGE_WAIT, null));
  try {
    const res = await Promise.race([network, late]);
    if (res) return res;
  } catch (_err) {
    /* offline: the kept copy */
  }
  const kept = await caches.match(shell);
  return kept || network;
}

async function cacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.status === 200) (await caches.open(CACHE)).put(request, res.clone());
  return res;
}

async function networkFirst(request, cacheName) {
  try {
    const res = await fetch(request);
    if (res.status === 200) await keep(cacheName, request, res.clone());
    return res;
  } catch (err) {
    const hit = await caches.match(request, { cacheName });
    if (hit) return hit;
    throw err;
  }
}

async function keep(cacheName, key, res) {
  const cache = await caches.open(cacheName);
  await cache.put(key, res);
  if (cacheName !== DATA) return;
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - DATA_LIMIT))) await cache.delete(old);
}

async function score(request) {
  const body = await request.clone().text();
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const key = new Request(`/api/score?hand=${hex}`);
  try {
    const res = await fetch(request);
    if (res.status === 200 || res.status === 400) await keep(DATA, key, res.clone());
    return res;
  } catch (_err) {
    const hit = await caches.match(key, { cacheName: DATA });
    if (hit) return hit;
    const answer = { error: "offline: scoring a new hand needs the server", code: "offline" };
    return new Response(JSON.stringify(answer), { status: 503, headers: { "Content-Type": "application/json" } });
  }
}

self.addEventListener("message", (event) => {
  const port = event.ports && event.ports[0];
  const type = event.data && event.data.type;
  if (!port) return;
  if (type === "scorer") {
    event.waitUntil(scorerFacts().then((facts) => port.postMessage(facts)));
  } else if (type === "keep-scorer") {
    event.waitUntil(keepScorer().then(
      () => port.postMessage({ kept: true }),
      (err) => port.postMessage({ error: String(err && err.message ? err.message : err) }),
    ));
  }
});

async function scorerFile(request) {
  return (await caches.match(request, { cacheName: SCORER })) || fetch(request);
}

async function keptScorerFiles() {
  const cache = await caches.open(SCORER);
  return (await cache.keys()).map((req) => new URL(req.url).pathname);
}

async function scorerFacts() {
  const scorer = BUILD.scorer;
  if (!scorer) return { available: false };
  const kept = await keptScorerFiles();
  const all = scorer.files.every((path) => kept.includes(path));
  const updating = kept.length > 0 && !all; // kept before, another version now: fetched anew
  if (updating) keepScorer().catch(() => {});
  return { available: true, bytes: scorer.bytes, pyodide: scorer.pyodide, core: scorer.core, kept: all, updating };
}

let keeping = null;

/** Keep this release's scorer files (all or none: Cache.addAll), then drop any other version's. */
function keepScorer() {
  if (!BUILD.scorer) return Promise.reject(new Error("this server has no offline scorer"));
  keeping = keeping || (async () => {
    const cache = await caches.open(SCORER);
    await cache.addAll(BUILD.scorer.files);
    for (const req of await cache.keys()) {
      if (!BUILD.scorer.files.includes(new URL(req.url).pathname)) await cache.delete(req);
    }
  })().finally(() => {
    keeping = null;
  });
  return keeping;
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_err) {
    data = {};
  }
  event.waitUntil((async () => {
    await self.registration.showNotification(String(data.title || "sgmahjong"), {
      body: String(data.body || ""), tag: data.tag ? String(data.tag) : undefined, lang: data.lang,
      icon: "/static/icons/icon-192.png", data: { url: String(data.url || "/") },
    });
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of pages) client.postMessage({ ...data, type: "push" });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = pages.find((client) => new URL(client.url).pathname === url.pathname);
    if (open) return open.focus();
    return self.clients.openWindow(url.href);
  })());
});
