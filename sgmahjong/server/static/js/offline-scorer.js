// The calculator's offline scorer, page side (docs/delivery.md). The service worker (sw.js) knows
// whether this server offers it (Pyodide installed with `make pyodide`), keeps its files when the player
// asks ("Keep the calculator for offline use"), and says whether they are kept. When the server cannot
// be reached and they are, js/score-worker.js scores the hand with the server's own Python under
// Pyodide, and the answer comes back as the server's would (a Response of the same JSON).
// Nothing of Pyodide is fetched before the player opts in, or before scoring offline with it kept.
import { t } from "./i18n.js";

let worker = null;
let started = null; // a promise: the worker has loaded Pyodide and the scorer
let nextId = 0;
const waiting = new Map(); // id -> resolve of a hand being scored

const QUIET_MS = 3000; // a worker that does not answer "scorer" by then is an older one without it

/** Ask the service worker (`type`: "scorer" for the facts, "keep-scorer" to keep the files). */
function ask(type) {
  const sw = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!sw) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    sw.postMessage({ type }, [channel.port2]);
    if (type === "scorer") setTimeout(resolve, QUIET_MS, null);
  });
}

/** The offline scorer's facts: {available, bytes, pyodide, core, kept, updating}, or null without a
 * service worker. */
export function scorerInfo() {
  return ask("scorer");
}

function startWorker(info) {
  if (started) return started;
  worker = new Worker(new URL("./score-worker.js", import.meta.url), { type: "module" });
  started = new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === "ready") resolve();
      else if (msg.type === "failed") reject(new Error(msg.reason));
      else if (msg.type === "answer" && waiting.has(msg.id)) {
        waiting.get(msg.id)(msg);
        waiting.delete(msg.id);
      }
    };
    worker.onerror = (event) => reject(new Error(event.message || "the offline scorer did not start"));
  });
  started.catch(() => {
    worker.terminate();
    started = null;
  });
  worker.postMessage({ type: "start", pyodide: info.pyodide, core: info.core });
  return started;
}

/** The offline answer to a POST /api/score body, as a Response (or null when the scorer is not kept on
 * this device). `loading()` is called first when Pyodide still has to start (seconds). */
export async function scoreOffline(body, loading) {
  const info = await scorerInfo();
  if (!info || !info.kept) return null;
  if (!started) loading();
  await startWorker(info);
  const id = ++nextId;
  const msg = await new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.postMessage({ type: "score", id, body: JSON.stringify(body) });
  });
  return new Response(msg.answer, { status: msg.status, headers: { "Content-Type": "application/json" } });
}

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}

/** The control "Keep the calculator for offline use (about N MB)" in `box` (a button and its state),
 * shown when the server offers the offline scorer and a service worker runs the page. */
export async function initKeepControl(box) {
  const button = box.querySelector("button");
  const state = box.querySelector("[role=status]");
  const show = (info) => {
    box.hidden = !(info && info.available);
    if (box.hidden) return;
    button.textContent = t("calc.offline.keep", { size: megabytes(info.bytes) });
    button.hidden = Boolean(info.kept);
    state.textContent = info.kept ? t("calc.offline.ready") : "";
    box.dataset.kept = info.kept ? "true" : "false";
  };
  const keep = async () => {
    button.disabled = true;
    state.textContent = t("calc.offline.keeping");
    const answer = await ask("keep-scorer"); // joins a download under way (a new version's files)
    button.disabled = false;
    if (answer && answer.error) {
      state.textContent = t("calc.offline.failed", { reason: answer.error });
      return;
    }
    show(await scorerInfo());
  };
  const start = async () => {
    const info = await scorerInfo();
    show(info);
    if (info && info.updating) {
      button.hidden = true;
      await keep();
    }
  };
  button.addEventListener("click", keep);
  if (!navigator.serviceWorker) return;
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener("controllerchange", start, { once: true });
    return;
  }
  await start();
}
