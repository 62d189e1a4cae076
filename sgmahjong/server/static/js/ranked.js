// The ranked queue (POST /api/ranked/join|poll|leave): join, see how many are waiting, how long you
// have waited and the rating window (alone: that a match needs four), then go to the table found (the ticket is the seat's token).
import { postJSON } from "./api.js";
import { t } from "./i18n.js";
import { saveToken } from "./protocol.js";

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

function waitingUI(on) {
  $("ranked-btn").hidden = on;
  $("ranked-leave").hidden = !on;
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
