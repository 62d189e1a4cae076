// The ranked queue (POST /api/ranked/join|poll|leave): join, see how many are waiting, how long you
// have waited and the rating window (alone: that a match needs four), then go to the table found (the
// ticket is the seat's token). Before and while queueing: how many are online and queueing and the
// wait to expect (GET /api/ranked/status: counts only). Alone in the queue: play bots while the place
// is kept (ranked_wait.js, on the bots table's page).
import { getJSON, postJSON } from "./api.js";
import { t } from "./i18n.js";
import { saveToken } from "./protocol.js";
import { saveWait } from "./ranked_wait.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;
let ticket = null;
let timer = null;

function say(text) {
  $("ranked-status").textContent = text;
}

/** How the wait goes: alone, a few of the four, or the count and the rating window. */
export function waitingText(d) {
  const s = Math.round(d.waited || 0);
  if (d.waiting <= 1) return t("ranked.alone", { s });
  if (d.waiting < 4) return t("ranked.few", { n: d.waiting, s, w: d.window ?? "…" });
  return t("ranked.waiting", { n: d.waiting, s, w: d.window ?? "…" });
}

/** The queue's counts and the wait to expect ("not enough players yet" when it cannot be told). */
export function countsText(d) {
  const counts = t("ranked.counts", { online: d.online, waiting: d.waiting });
  if (d.estimate === null || d.estimate === undefined) return `${counts} ${t("ranked.no_estimate")}`;
  const wait = d.estimate < 60 ? t("ranked.estimate_s", { s: Math.max(1, d.estimate) })
    : t("ranked.estimate_min", { m: Math.round(d.estimate / 60) });
  return `${counts} ${wait}`;
}

function showCounts(d) {
  if (d && typeof d.online === "number") $("ranked-counts").textContent = countsText(d);
}

function waitingUI(on) {
  $("ranked-btn").hidden = on;
  $("ranked-leave").hidden = !on;
  if (!on) $("ranked-bots").hidden = true;
}

/** Play bots while waiting: an ordinary unrated table; its page keeps the place (ranked_wait.js). */
async function playBots() {
  const me = await getJSON("/api/me").catch(() => ({}));
  const made = await postJSON("/api/play", { name: me.name || "Player" });
  saveToken(made.code, made.token);
  clearInterval(timer);
  saveWait({ ticket, code: made.code });
  location.href = `/t/${made.code}`;
}

async function join() {
  say("");
  const res = await fetch("/api/ranked/join", {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: "{}",
  });
  const body = await res.json();
  if (!res.ok) {
    say(body.code === "sign_in" ? t("ranked.sign_in") : body.error);
    return;
  }
  ticket = body.ticket;
  waitingUI(true);
  say(waitingText({ waiting: body.waiting, waited: 0 }));
  showCounts(body);
  $("ranked-bots").hidden = body.waiting > 1;
  timer = setInterval(poll, POLL_MS);
}

async function poll() {
  if (!ticket) return;
  try {
    const d = await postJSON("/api/ranked/poll", { ticket });
    if (d.status === "matched") {
      clearInterval(timer);
      saveToken(d.code, ticket);
      say(t("ranked.found"));
      location.href = d.url;
      return;
    }
    say(d.status === "matching" ? t("ranked.found")
      : waitingText(d));
    showCounts(d);
    $("ranked-bots").hidden = d.status !== "waiting" || d.waiting > 1; // alone: bots while the place is kept
  } catch (err) {
    clearInterval(timer);
    ticket = null;
    waitingUI(false);
    say(err.message);
  }
}

async function leave() {
  clearInterval(timer);
  if (ticket) await postJSON("/api/ranked/leave", { ticket }).catch(() => {});
  ticket = null;
  waitingUI(false);
  say(t("ranked.left"));
}

$("ranked-btn").addEventListener("click", () => join().catch((err) => say(err.message)));
$("ranked-leave").addEventListener("click", leave);
$("ranked-bots").addEventListener("click", () => playBots().catch((err) => say(err.message)));
getJSON("/api/ranked/status").then(showCounts).catch(() => {});
