// A place in the ranked queue kept while playing bots (docs/accounts.md, "Playing bots while you wait").
// The leaderboard's queue box opens an ordinary unrated bots table and leaves the ticket here
// (localStorage "sgmahjong:ranked-wait": {ticket, code}); that table's page keeps asking about it, but
// only while the page is in view: a page hidden or closed stops asking, and the server drops the ticket
// after queue_stale_seconds (30 s), so nobody is matched while not looking. When a match is found the
// page says so at once, and one tap takes the player to the ranked seat (leaving the bots table costs
// nothing: it is unrated).
import { postJSON } from "./api.js";
import { t } from "./i18n.js";
import { saveToken } from "./protocol.js";

export const WAIT_KEY = "sgmahjong:ranked-wait";
const POLL_MS = 1000;

export function loadWait() {
  try { return JSON.parse(localStorage.getItem(WAIT_KEY) || "null"); } catch (_err) { return null; }
}

export function saveWait(wait) {
  try {
    if (wait) localStorage.setItem(WAIT_KEY, JSON.stringify(wait)); else localStorage.removeItem(WAIT_KEY);
  } catch (_err) { /* private mode: the place is kept as long as this page */ }
}

function bar() {
  let el = document.getElementById("ranked-wait");
  if (!el) {
    el = document.createElement("div");
    el.id = "ranked-wait";
    el.className = "ranked-wait";
    el.setAttribute("role", "status");
    el.innerHTML = `<p class="ranked-wait-text"></p><div class="ranked-wait-actions"></div>`;
    document.body.prepend(el);
  }
  return el;
}

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

function show(state, text, actions) {
  const el = bar();
  el.dataset.state = state;
  el.setAttribute("role", state === "found" ? "alert" : "status");
  el.querySelector(".ranked-wait-text").textContent = text;
  el.querySelector(".ranked-wait-actions").replaceChildren(...actions);
}

/** On the bots table whose code `code` the stored wait names: keep the place and tell of a match. */
export function keepPlace(code) {
  const wait = loadWait();
  if (!wait || wait.code !== code) return;
  let timer = null;
  const stop = () => { clearInterval(timer); timer = null; };
  const leave = async () => {
    stop();
    saveWait(null);
    await postJSON("/api/ranked/leave", { ticket: wait.ticket }).catch(() => {});
    show("left", t("ranked.left"), []);
  };
  async function poll() {
    if (document.visibilityState !== "visible") return; // hidden: not asking, so the place lapses
    try {
      const d = await postJSON("/api/ranked/poll", { ticket: wait.ticket });
      if (d.status === "matched") {
        stop();
        saveWait(null);
        saveToken(d.code, wait.ticket); // the ticket is the ranked seat's token
        const go = button(t("rankwait.go"), "rankwait-go", () => { location.href = d.url; });
        show("found", `${t("rankwait.found")} ${t("rankwait.free_to_leave")}`, [go]);
        go.focus();
        return;
      }
      show("waiting", t("rankwait.queued", { s: Math.round(d.waited || 0), n: d.waiting }),
        [button(t("ranked.leave"), "secondary", leave)]);
    } catch (err) {
      if (err.code !== "gone") return; // offline for a moment: ask again next time
      stop();
      saveWait(null);
      show("gone", t("rankwait.gone"), []);
    }
  }
  timer = setInterval(poll, POLL_MS);
  poll();
}

const m = location.pathname.match(/^\/t\/([^/]+)/);
if (m) keepPlace(decodeURIComponent(m[1]));
