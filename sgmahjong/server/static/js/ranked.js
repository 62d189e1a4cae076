// The ranked queue (POST /api/ranked/join|poll|leave): join, see how many are waiting, how long you
// have waited and the rating window, then go to the table found (the ticket is the seat's token).
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
  say(t("ranked.waiting", { n: body.waiting, s: 0, w: "…" }));
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
      : t("ranked.waiting", { n: d.waiting, s: Math.round(d.waited), w: d.window }));
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
