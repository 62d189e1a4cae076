// The table page (/t/{code}): seating before the match, then the game itself.
//
// Everything drawn here comes from the server's messages (docs/protocol.md): `table` (TableSummary),
// `view` (the engine's match_view for this seat, plus the timer), `event` (redacted engine events).
// The page keeps no game logic: it shows the view and offers exactly the view's legal_actions.
// This module holds the page's state and its connection; the drawing is in tableview.js (the game) and
// seating.js (before the match), the keys in tablekeys.js, the options sheet in sheet.js.
import { TableConnection, loadToken, saveToken } from "./protocol.js";
import { renderKeyHelp } from "./keys.js";
import { highlightCopies } from "./felt.js";
import { playerName, tableName } from "./names.js";
import { connectionNotice } from "./trouble.js";
import { langSwitch, shownAfter, t } from "./i18n.js";
import { soundSwitch } from "./sound.js";
import { createFeel } from "./feel.js";
import { errorText } from "./errors.js";
import { initFlow } from "./matchflow.js";
import { initChat } from "./chat.js";
import { tableAvatars } from "./avatars.js";
import { initA11y } from "./a11y.js";
import { rankedOutcome, showLeaveNote } from "./ranked_end.js";
import { shareButton } from "./share.js";
import { NAME_KEY, initSeating } from "./seating.js";
import { initTableView } from "./tableview.js";
import { optionsLetGo, tableKeys } from "./tablekeys.js";
import { initSheet } from "./sheet.js";

const WIND_GLYPH = { E: "東", S: "南", W: "西", N: "北" };
const WIND_LETTERS = ["E", "S", "W", "N"];
const POSITIONS = ["bottom", "right", "top", "left"];

const $ = (id) => document.getElementById(id);
const TRACKER_KEY = "sgmahjong:tracker";
/** A touch screen (no mouse, no keyboard to speak of): tap wording, no key labels. */
const TOUCH = Boolean(window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches);

function tableCode() {
  const m = location.pathname.match(/\/t\/([^/]+)/);
  if (m) return decodeURIComponent(m[1]);
  return new URLSearchParams(location.search).get("code") || "";
}

const state = {
  code: tableCode(),
  token: null,
  seat: null, // my seat (null = spectator)
  table: null, // TableSummary
  view: null,
  status: null,
  timer: null, // {kind, seats, deadline (ms, performance clock), seconds}
  pending: false, // an action was sent and its answer not yet seen
  readySent: false,
  lastHandNumber: null,
  conn: null,
};
// match flow, log, hints and the player's options (matchflow.js)
const flow = initFlow({ state, sendAction, seatName: seatLabel, toast, rerender: () => render() });
// screen readers: announcements, the keys that ask the table, the hand by arrow keys (a11y.js)
const a11y = initA11y({ state, seatName, windOf });

// -- small helpers ---------------------------------------------------------------------------------

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  const s = state.table && state.table.seats[seat];
  if (s) return playerName(state.table.seats, seat);
  return t("table.seat_n", { n: seat + 1 });
}

/** The seat's name after the wind it holds this hand (東 Ann): the result's and the ledger's label. */
function seatLabel(seat) {
  return `${WIND_GLYPH[windOf(seat)] || ""} ${seatName(seat)}`;
}

function windOf(seat) {
  const v = state.view;
  if (v && v.seats && v.seats[seat] && v.seats[seat].wind) return v.seats[seat].wind;
  if (v && typeof v.dealer === "number") return WIND_LETTERS[(seat - v.dealer + 4) % 4];
  return WIND_LETTERS[seat];
}

function positionOf(seat) {
  const base = state.seat === null ? 0 : state.seat;
  return POSITIONS[(seat - base + 4) % 4];
}

function toast(message) {
  const el = $("toast");
  el.textContent = message;
  el.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove("show"), 4000);
}

function clearToast() {
  clearTimeout(toast.timer);
  $("toast").classList.remove("show");
}
const seating = initSeating({ state, seatName, toast, clearToast });
const view = initTableView({ state, flow, a11y, sendAction, seatName, seatLabel, windOf, positionOf, touch: TOUCH });
const sheet = initSheet();

// -- the game --------------------------------------------------------------------------------------

function sendAction(action) {
  if (!state.view || state.pending) return;
  if (!(state.view.legal_actions || []).includes(action)) return;
  if (state.conn.send({ type: "action", action, version: state.view.version })) {
    state.pending = true;
    document.querySelectorAll("#actions button, #hand .slot").forEach((el) => el.classList.add("sent"));
    view.renderActions();
  }
}

function trackerOn() {
  try { return localStorage.getItem(TRACKER_KEY) === "1"; } catch (_err) { return false; }
}

// -- events (log and instant payments) -------------------------------------------------------------

function onEvent(msg) {
  const e = msg.event || {};
  if (e.kind === "hand_start") state.readySent = false;
  flow.onEvent(e);
  a11y.onEvent(e);
  if (state.feel) state.feel.onEvent(e);
}

// -- wiring ----------------------------------------------------------------------------------------

function render() {
  if (!state.table) return;
  // the chat: under the seats in the lobby, at the top of the side panel during the match
  const chatHome = state.table.status === "lobby" ? $("seating") : document.querySelector("#play > aside.side");
  if (state.chat.panel.parentElement !== chatHome) {
    if (chatHome.id === "seating") chatHome.append(state.chat.panel); else chatHome.prepend(state.chat.panel);
  }
  sheet.setAvailable(state.seat !== null && state.table.status !== "lobby" && Boolean(state.view));
  if (state.table.status === "lobby" || !state.view) {
    if (state.table.status === "lobby") seating.renderSeating();
    return;
  }
  view.renderPlay();
}

// The page is shown (i18n.js) once it holds the table as it is: the first view, the seating card of a
// table not started, or the connection's first failure (offline); nothing moves when the view comes.
let firstDrawn = null;
const FIRST_DRAW_MS = 2000; // at most this long hidden waiting for the server (app.css shows it at 3 s)
shownAfter(new Promise((resolve) => {
  firstDrawn = resolve;
  setTimeout(resolve, FIRST_DRAW_MS);
}));

function start() {
  $("table-code").textContent = state.code;
  state.moveBar = $("move-bar");
  if (TOUCH) document.body.classList.add("touch");
  optionsLetGo();
  highlightCopies($("felt"));
  $("tracker-toggle").checked = trackerOn();
  $("tracker-toggle").addEventListener("change", () => {
    try { localStorage.setItem(TRACKER_KEY, $("tracker-toggle").checked ? "1" : "0"); } catch (_err) { /* private */ }
    view.renderTrackerPanel();
  });
  $("peek-board").addEventListener("click", () => view.peek(false));
  renderKeyHelp($("key-help"), true);
  view.loadPatternNames();
  for (const level of ["beginner", "greedy", "strong", "expert"]) {
    const opt = new Option(t(`bot.${level}`), level);
    opt.title = t(`botlevel.${level}`);
    $("bot-level").add(opt);
  }
  $("header-tools").append(soundSwitch(), langSwitch());
  state.feel = createFeel({ felt: $("felt"), mySeat: () => state.seat, seatName });
  view.placeMoveBar();
  $("bot-level").value = "greedy";
  $("start-btn").addEventListener("click", () => state.conn.send({ type: "start" }));
  $("leave-btn").addEventListener("click", () => {
    // answered by `welcome` with seat null: the token no longer works
    state.conn.send({ type: "leave" });
    saveToken(state.code, null);
    state.token = null;
    state.conn.token = null;
  });
  $("copy-link").addEventListener("click", () => {
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText($("share-link").textContent).then(() => {
      $("copy-link").textContent = t("table.copied");
      setTimeout(() => { $("copy-link").textContent = t("table.copy"); }, 2000);
    }).catch(() => {});
  });
  shareButton($("table-share"), () => {
    const name = (state.table && state.table.name) || state.code;
    return { title: t("share.table_title", { name }), text: t("share.table_text", { name }),
      url: `${location.origin}/t/${state.code}` };
  });
  $("join-form").addEventListener("submit", (ev) => ev.preventDefault());
  try { $("join-name").value = localStorage.getItem(NAME_KEY) || ""; } catch (_err) { /* private mode */ }
  document.addEventListener("keydown", tableKeys({ state, sendAction, readyNext: view.readyNext, openSheet: sheet.open }));
  setInterval(view.updateTimers, 250);

  state.token = loadToken(state.code);
  state.avatars = tableAvatars(state.code, () => render());
  state.chat = initChat({ code: state.code, send: (m) => state.conn.send(m), mySeat: () => state.seat,
    seatName, seatKind: (seat) => (state.table && state.table.seats[seat] ? state.table.seats[seat].kind : "empty"),
    positionOf });
  const notice = connectionNotice($("felt"), () => state.conn.reconnect(state.conn.token));
  state.conn = new TableConnection(state.code, state.token, {
    status(ok) {
      notice.set(ok);
      if (!ok && !state.table) $("play").hidden = false; // never reached: the table's frame, not a blank page
      const c = $("conn");
      c.textContent = ok ? t("table.connected") : t(navigator.onLine ? "table.reconnecting" : "table.offline_reconnecting");
      c.className = "conn " + (ok ? "ok" : "bad");
      document.body.dataset.connected = ok ? "true" : "false";
      if (!ok) firstDrawn();
    },
    welcome(msg) {
      state.seat = typeof msg.seat === "number" ? msg.seat : null;
      document.body.dataset.seat = state.seat === null ? "spectator" : String(state.seat);
      if (state.seat !== null) clearToast();
      state.chat.onSeat();
      if (state.seat === null && state.token) {
        // the token no longer matches a seat
        saveToken(state.code, null);
        state.token = null;
      }
      render();
    },
    table(msg) {
      state.table = msg.table;
      document.title = `${tableName(state.table.name)} — sgmahjong`;
      $("table-name").textContent = tableName(state.table.name);
      state.avatars.update(state.table);
      document.body.dataset.status = state.table.status;
      if (!state.status) state.status = state.table.status;
      if (state.table.status !== "lobby") state.status = state.table.status;
      rankedNote();
      render();
      state.chat.onSeat(); // the mute list's names: someone sat, left or was replaced by a bot
      flow.onTable();
      if (state.table.status === "lobby") firstDrawn();
    },
    view(msg) {
      const prevVersion = state.view ? state.view.version : null;
      state.view = msg.view;
      if (msg.status) state.status = msg.status;
      if (msg.status) document.body.dataset.status = msg.status;
      if (state.table) state.table.status = msg.status || state.table.status;
      state.pending = false;
      if (!msg.view.result) state.readySent = false;
      state.timer = msg.timer ? {
        kind: msg.timer.kind,
        seats: msg.timer.seats,
        seconds: msg.timer.seconds,
        deadline: performance.now() + (msg.timer.remaining_ms || 0),
      } : null;
      if (prevVersion !== msg.view.version || true) render();
      if (state.feel) state.feel.afterRender();
      flow.afterView();
      a11y.onView(msg.view);
      document.body.dataset.version = String(msg.view.version);
      firstDrawn();
    },
    event: onEvent,
    chat: (msg) => state.chat.onChat(msg),
    chat_state: (msg) => state.chat.onState(msg),
    chat_log: (msg) => state.chat.onLog(msg),
    watchers: (msg) => state.chat.onWatchers(msg),
    log: (msg) => flow.onLog(msg),
    hints: (msg) => { flow.onHints(msg); a11y.onHints(msg); },
    rematch: (msg) => flow.onRematch(msg),
    error(msg) {
      if (msg.code === "bad_token") {
        // a token this table no longer knows: watch instead
        saveToken(state.code, null);
        state.token = null;
        state.conn.token = null;
        state.conn.send({ type: "hello", token: null });
      }
      if (msg.ref === "action") state.pending = false;
      if (state.view) view.renderActions();
      toast(errorText(msg));
    },
  });
}

if (!state.code) {
  document.body.innerHTML = `<main class="page"><p class="error">${t("table.no_code")}</p>` +
    `<p><a href="/">${t("common.back_to_lobby")}</a></p></main>`;
  firstDrawn();
} else {
  start();
}

// -- ranked: "leaving places you last" while a ranked match goes on (ranked_end.js) ---------------------
function rankedNote() {
  if (state.ranked === undefined) {
    state.ranked = null; // asking
    rankedOutcome(state.code).catch(() => null).then((o) => {
      state.ranked = o ? Boolean(o.ranked) : undefined; // not answered: asked again with the next table message
      if (o) rankedNote();
    });
  }
  showLeaveNote(state.ranked === true && state.table.status !== "finished");
}
