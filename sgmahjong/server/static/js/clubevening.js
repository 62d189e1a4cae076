// The club page's evenings and notifications (docs/clubs.md, "Evenings and notifications";
// GET /api/clubs/CODE/sessions): each evening's time in the club's zone (and the reader's own, by the
// browser's Intl), the answers with names and counts, In / Maybe / Out (changeable), the calendar file;
// the owner proposes, cancels, and opens the table in one tap when enough are in (those in are told).
// "Tell me when a table opens" asks the browser's permission only on that tap, subscribes this
// browser's push (the server's VAPID key) and gives the subscription to the server. A notification that
// arrives while the page is open is also shown on the page (the service worker posts it here).
// Every name is a player's text: textContent.
import { actButton, clubRequest, el, failText } from "./clubapi.js";
import { lang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").pop() || "");
const api = `/api/clubs/${encodeURIComponent(code)}`;
const ANSWERS = ["in", "maybe", "out"];
const myZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
let data = null;

function status(text, bad = false) {
  $("evening-status").textContent = text;
  $("evening-status").classList.toggle("bad", bad);
}

function when(seconds, zone) {
  return new Intl.DateTimeFormat(lang() === "zh" ? "zh-CN" : "en-SG", {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hour12: false,
    timeZone: zone,
  }).format(new Date(seconds * 1000));
}

const button = actButton;

async function post(path, body = {}) {
  try {
    const answer = await clubRequest("POST", `${api}${path}`, body);
    status("");
    await load();
    return answer;
  } catch (err) {
    status(failText(err), true);
    return null;
  }
}

/** The owner's one tap: a club table, then the evening told of it (those in are notified). */
async function openTable(s) {
  try {
    const table = await clubRequest("POST", `${api}/tables`, {});
    await clubRequest("POST", `${api}/sessions/${s.id}/opened`, { table: table.code });
    location.href = table.url;
  } catch (err) {
    status(failText(err), true);
  }
}

function eveningCard(s) {
  const box = el("article", "", "evening");
  box.dataset.session = String(s.id);
  box.append(el("h3", t("evening.at", { when: when(s.starts, s.zone), zone: s.zone }), "evening-when"));
  if (myZone && myZone !== s.zone) {
    box.append(el("p", t("evening.your_time", { when: when(s.starts, myZone) }), "muted evening-local"));
  }
  box.append(el("p", t("evening.counts", { ...s.counts, needed: s.needed }), "evening-counts"));
  const lists = el("ul", "", "evening-answers");
  for (const a of ANSWERS) {
    const names = s.answers.filter((x) => x.answer === a).map((x) => x.name);
    const li = el("li", "", `answer-${a}`);
    li.append(el("strong", `${t(`evening.${a}`)}: `), el("span", names.length ? names.join(", ") : t("evening.nobody"),
      names.length ? "" : "muted"));
    lists.append(li);
  }
  box.append(lists);
  const choose = el("div", "", "evening-choose");
  choose.setAttribute("role", "group");
  for (const a of ANSWERS) {
    const b = button(t(`evening.${a}`), s.mine === a ? "" : "secondary", () => post(`/sessions/${s.id}/answer`, { answer: a }));
    b.dataset.answer = a;
    b.setAttribute("aria-pressed", String(s.mine === a));
    choose.append(b);
  }
  box.append(choose);
  const more = el("p", "", "evening-more");
  const ics = el("a", t("evening.ics"));
  ics.href = s.ics;
  ics.setAttribute("download", "");
  more.append(ics);
  if (s.table) {
    const go = el("a", t("evening.table"), "evening-table");
    go.href = s.table;
    more.append(" · ", go);
  }
  box.append(more);
  if (data.owner) {
    const acts = el("p", "", "evening-owner");
    if (s.ready && !s.table) acts.append(el("span", t("evening.ready"), "good"), " ",
      button(t("evening.open"), "", () => openTable(s)));
    acts.append(" ", button(t("evening.cancel"), "secondary small", () => {
      if (confirm(t("evening.cancel_confirm"))) post(`/sessions/${s.id}/cancel`);
    }));
    box.append(acts);
  }
  return box;
}

function pushable() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function renderPush() {
  const on = Boolean(data.push.on) && pushable() && Notification.permission === "granted";
  $("push-toggle").textContent = t(on ? "evening.push_off" : "evening.push_on");
  $("push-toggle").setAttribute("aria-pressed", String(on));
  $("push-toggle").hidden = !pushable();
  $("push-state").textContent = !pushable() ? t("evening.push_none")
    : Notification.permission === "denied" ? t("evening.push_denied") : on ? t("evening.push_is_on") : "";
}

function render() {
  $("evening-card").hidden = false;
  const list = data.sessions.map(eveningCard);
  $("evenings").replaceChildren(...(list.length ? list : [el("p", t("evening.none"), "muted")]));
  $("evening-propose").hidden = !data.owner;
  if (!$("evening-needed").dataset.set) {
    $("evening-needed").value = String(data.needed);
    $("evening-needed").dataset.set = "1";
  }
  $("evening-when-label").textContent = t("evening.when", { zone: data.zone });
  renderPush();
}

async function load() {
  try {
    data = await clubRequest("GET", `${api}/sessions`);
    render();
  } catch (_err) {
    $("evening-card").hidden = true; // not a member: the club's page says so
  }
}

function keyBytes(b64) {
  const raw = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function togglePush() {
  const on = $("push-toggle").getAttribute("aria-pressed") === "true";
  if (on) {
    await post("/push", { on: false });
    return;
  }
  // the browser's permission is asked here, on the member's tap, and only here
  if ((await Notification.requestPermission()) !== "granted") {
    renderPush();
    return;
  }
  try {
    const registration = await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: keyBytes(data.push.key),
    });
    await post("/push", { on: true, subscription: subscription.toJSON(), lang: lang() });
  } catch (err) {
    status(err && err.code ? failText(err) : t("error.push_subscription"), true);
  }
}

function notice(message) {
  if (!message || message.type !== "push" || message.club !== code) return;
  $("club-notice-text").textContent = `${message.title} ${message.body || ""}`;
  $("club-notice-go").href = message.url || location.pathname;
  $("club-notice").hidden = false;
  load();
}

$("push-toggle").addEventListener("click", togglePush);
$("evening-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const made = await post("/sessions", { local: $("evening-when").value, needed: Number($("evening-needed").value) });
  if (made) $("evening-when").value = "";
});
if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("message", (e) => notice(e.data));
load();
