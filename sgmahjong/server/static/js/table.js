// The table page (/t/{code}): seating before the match, then the game itself.
//
// Everything drawn here comes from the server's messages (docs/protocol.md): `table` (TableSummary),
// `view` (the engine's match_view for this seat, plus the timer), `event` (redacted engine events).
// The page keeps no game logic: it shows the view and offers exactly the view's legal_actions.
import { backElement, sortTiles, tileElement, tileName } from "./tiles.js";
import { TableConnection, loadToken, saveToken } from "./protocol.js";
import { ACTION_KEYS, DISCARD_KEYS, renderKeyHelp } from "./keys.js";
import { esc, patternNames, postJSON } from "./api.js";
import { button, kbd, meldsElement, signed, tilesRow } from "./dom.js";
import { chowInfo, legalGroups, myHand } from "./moves.js";
import { fillResult, renderReady } from "./result.js";
import { bonusRow, discardPool, highlightCopies } from "./felt.js";
import { renderTracker } from "./tracker.js";
import { playerName } from "./names.js";
import { houseRulesInWords } from "./rulewords.js";
import { langSwitch, shownAfter, t } from "./i18n.js";
import { soundSwitch } from "./sound.js";
import { createFeel } from "./feel.js";
import { errorText } from "./errors.js";
import { initFlow } from "./matchflow.js";
import { identityReady } from "./identity.js";
import { initChat } from "./chat.js";
import { tableAvatars } from "./avatars.js";
import { rankBadge } from "./ranks.js";
import { initA11y } from "./a11y.js";
import { appendRankedEnd, rankedOutcome, showLeaveNote } from "./ranked_end.js";

const WIND_GLYPH = { E: "東", S: "南", W: "西", N: "北" };
const WIND_LETTERS = ["E", "S", "W", "N"];
const windName = (i) => t(`wind.${WIND_LETTERS[i]}`);
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
const NAME_KEY = "sgmahjong:name";
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

// -- seating (lobby status) ------------------------------------------------------------------------

function renderSeating() {
  const tb = state.table;
  $("seating").hidden = false;
  $("play").hidden = true;
  $("share-link").textContent = location.origin + "/t/" + state.code;
  showCountdown(tb);
  const list = $("seat-list");
  list.innerHTML = "";
  const seated = state.seat !== null;
  for (const s of tb.seats) {
    const card = document.createElement("div");
    card.className = "seat-card" + (s.seat === state.seat ? " mine" : "");
    card.dataset.seat = String(s.seat);
    const mine = s.seat === state.seat;
    const who = s.kind === "empty" ? `<i>${t("table.empty")}</i>`
      : s.kind === "bot" ? esc(seatName(s.seat))
        : `${esc(mine ? t("table.name_you", { name: s.name }) : s.name)}` +
          `${s.connected ? "" : ` <span class="muted">${t("table.offline")}</span>`}`;
    card.innerHTML = `<div class="wind"><span class="cjk">${WIND_GLYPH[WIND_LETTERS[s.seat]]}</span> ` +
      `${windName(s.seat)}</div><div class="who">${who}${s.kind === "human" && s.rank ? ` ${rankBadge(s.rank)}` : ""}</div>`;
    const avatar = state.avatars.of(s.seat, s.kind);
    if (avatar) card.querySelector(".who").prepend(avatar, " ");
    const buttons = document.createElement("div");
    if (s.kind === "empty" && !seated) {
      buttons.append(button(t("table.sit"), "join", () => join(s.seat)));
    }
    if (s.kind === "empty" && seated) {
      buttons.append(button(t("table.add_bot"), "add-bot", () =>
        state.conn.send({ type: "add_bot", seat: s.seat, level: $("bot-level").value })));
    }
    if (s.kind === "bot" && seated) {
      buttons.append(button(t("table.remove_bot"), "remove-bot", () =>
        state.conn.send({ type: "remove_bot", seat: s.seat }), "secondary"));
    }
    card.append(buttons);
    list.append(card);
  }
  $("join-form").hidden = seated;
  $("seated-controls").hidden = !seated;
  const changed = Object.entries(tb.changed_rules || {});
  $("rules-summary").textContent = changed.length
    ? t("table.house_rules", { list: houseRulesInWords(tb.changed_rules) })
    : t("table.default_rules");
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) {
    $("join-name").focus();
    toast(t("table.name_first"));
    return;
  }
  try {
    await identityReady;
    const res = await postJSON(`/api/tables/${encodeURIComponent(state.code)}/join`, { name, seat });
    clearToast();
    try { localStorage.setItem(NAME_KEY, name); } catch (_err) { /* private mode */ }
    saveToken(state.code, res.token);
    state.token = res.token;
    state.conn.reconnect(res.token);
  } catch (err) {
    toast(err.code ? errorText(err) : err.message);
  }
}

// -- the game --------------------------------------------------------------------------------------

function sendAction(action) {
  if (!state.view || state.pending) return;
  if (!(state.view.legal_actions || []).includes(action)) return;
  if (state.conn.send({ type: "action", action, version: state.view.version })) {
    state.pending = true;
    document.querySelectorAll("#actions button, #hand .slot").forEach((el) => el.classList.add("sent"));
    renderActions();
    renderHandInteractivity();
  }
}

function renderPlay() {
  const v = state.view;
  // keyboard users keep their place in the hand across redraws
  const focused = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("#hand .slot") : null;
  const focusIndex = focused ? Number(focused.dataset.index) : null;
  $("seating").hidden = true;
  $("play").hidden = false;
  const felt = $("felt");
  felt.querySelectorAll(".seat, .discards").forEach((el) => el.remove());
  const centre = felt.querySelector(".centre");
  // Whose move it is. During a claim window only my own decision is highlighted: showing who else may
  // claim would tell everyone which seats hold a pair or a wait.
  const active = new Set(visibleSeats(v, v.awaiting || []));
  if (v.phase === "turn" && typeof v.turn === "number") active.add(v.turn);

  for (let s = 0; s < 4; s += 1) {
    const sv = v.seats[s];
    const pos = positionOf(s);
    const mine = s === state.seat;
    const el = document.createElement("div");
    el.className = `seat pos-${pos}` + (active.has(s) && v.phase !== "ended" ? " active" : "") + (mine ? " me" : "");
    el.dataset.seat = String(s);
    el.append(plate(s, sv));

    const row = document.createElement("div");
    row.className = "row";
    if (!mine) {
      const hidden = document.createElement("div");
      hidden.className = "hidden";
      hidden.dataset.count = String(sv.concealed_count ?? 0);
      const side = pos === "left" || pos === "right";
      if (sv.concealed && sv.concealed.length) {
        // revealed at the end of a hand
        for (const tile of sortTiles(sv.concealed)) hidden.append(tileElement(tile, { size: "sm" }));
        hidden.style.flexDirection = "row";
        hidden.style.flexWrap = "wrap";
      } else {
        for (let i = 0; i < (sv.concealed_count || 0); i += 1) {
          hidden.append(backElement({ size: side ? "sm" : "sm", side }));
        }
      }
      row.append(hidden);
    }
    row.append(meldsElement(sv.melds || [], mine ? "md" : "sm", meldTitle));
    row.append(bonusRow(sv.bonus || [], mine ? "sm" : "xs"));
    el.append(row);
    if (mine) el.append(handElement(sv));
    felt.append(el);

    centre.append(discardPool(v, s, pos, seatName));
  }
  placeMoveBar();

  $("prevailing").textContent = WIND_GLYPH[WIND_LETTERS[v.prevailing || 0]];
  $("prevailing").title = t("table.round_of", { wind: windName(v.prevailing || 0) });
  $("wall-count").textContent = String(v.wall_remaining);
  $("turn-status").textContent = turnStatus(v);
  const hn = v.hand_number ?? v.hand ?? (state.table && state.table.hand_number);
  $("match-info").textContent = t("table.round_of", { wind: windName(v.prevailing || 0) }) +
    (typeof hn === "number" ? t("table.hand_n", { n: hn }) : "") + (state.seat === null ? t("table.watching") : "");
  renderActions();
  renderLedger();
  renderResult();
  renderTrackerPanel();
  updateTimers();
  if (focusIndex !== null) {
    const slots = document.querySelectorAll("#hand .slot .tile");
    if (slots.length) slots[Math.min(focusIndex, slots.length - 1)].focus({ preventScroll: true });
  }
  a11y.afterRender();
  // a tab in the background shows in its title when the table waits for you
  const mine = (v.legal_actions || []).length > 0 && !v.result;
  document.title = `${mine ? t("table.your_move_title") : ""}${state.table ? state.table.name : t("table.code")} — sgmahjong`;
}

/** The seats of `seats` whose pending decision may be shown: all on a turn, only mine on a claim. */
function visibleSeats(v, seats) {
  if (!v || v.phase !== "claim") return seats;
  return seats.filter((s) => s === state.seat);
}

function plate(seat, sv) {
  const v = state.view;
  const p = document.createElement("div");
  p.className = "plate";
  const wind = sv.wind || windOf(seat);
  const badge = document.createElement("span");
  badge.className = "wind-badge";
  badge.textContent = WIND_GLYPH[wind] || wind;
  badge.title = WIND_LETTERS.includes(wind) ? t("table.seat_wind", { wind: t(`wind.${wind}`) }) : wind;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = seat === state.seat ? t("table.name_you", { name: seatName(seat) }) : seatName(seat);
  name.title = name.textContent;
  p.append(badge, name);
  const avatar = state.avatars.of(seat, state.table && state.table.seats[seat] && state.table.seats[seat].kind);
  if (avatar) p.prepend(avatar);
  addRank(p, state.table && state.table.seats[seat]);
  if (v.dealer === seat) {
    const d = document.createElement("span");
    d.className = "dealer";
    d.textContent = t("table.dealer");
    d.title = t("table.dealer_title");
    p.append(d);
  }
  const s = state.table && state.table.seats[seat];
  if (s && s.kind === "human" && !s.connected) {
    const off = document.createElement("span");
    off.className = "offline";
    off.textContent = t("table.offline_bot");
    p.append(off);
  }
  const score = document.createElement("span");
  score.className = "score";
  const total = matchTotal(seat);
  score.textContent = (total > 0 ? "+" : "") + total;
  score.title = t("table.match_score");
  p.append(score);
  const timer = document.createElement("span");
  timer.className = "timer";
  timer.dataset.timerSeat = String(seat);
  p.append(timer);
  return p;
}

function matchTotal(seat) {
  const v = state.view;
  const ledger = v.match_ledger || v.ledger || [0, 0, 0, 0];
  return ledger[seat] || 0;
}

function meldTitle(m) {
  const kind = t(`table.meld.${["chow", "pong", "kong"].includes(m.kind) ? m.kind : "set"}`);
  if (m.concealed) return t("table.meld.concealed", { kind });
  return typeof m.from === "number" ? t("table.meld.from", { kind, who: seatName(m.from) }) : kind;
}

function handElement(sv) {
  const area = document.createElement("div");
  area.className = "my-area";
  const hand = document.createElement("div");
  hand.id = "hand";
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", t("table.hand_label"));
  const tiles = flow.arrange(myHand(sv));
  tiles.forEach((entry, i) => {
    const slot = document.createElement("div");
    slot.className = "slot" + (entry.drawn ? " drawn" : "");
    slot.dataset.index = String(i);
    const te = tileElement(entry.tile, { extraClass: entry.drawn ? "just-drawn" : "" });
    te.tabIndex = 0; // reachable with Tab; Enter discards it (onKey)
    te.setAttribute("role", "button");
    slot.append(te);
    if (DISCARD_KEYS[i]) slot.append(kbd(DISCARD_KEYS[i]));
    slot.addEventListener("click", () => {
      if (slot.classList.contains("can-discard")) sendAction(`discard ${entry.tile}`);
    });
    hand.append(slot);
  });
  area.append(hand);
  return area;
}

/** The offers (Chow / Pong / Kong / Win / Pass with their tiles and keys) and the claim timer sit just
 * above my hand; a spectator has none. The bar is one element moved into each redraw of my seat. */
function placeMoveBar() {
  const bar = state.moveBar;
  const area = document.querySelector("#felt .seat.me .my-area");
  if (!area || state.seat === null) {
    bar.hidden = true;
    $("play").append(bar);
    return;
  }
  bar.hidden = false;
  area.prepend(bar);
}

function renderHandInteractivity() {
  const v = state.view;
  const g = legalGroups(v);
  const slots = document.querySelectorAll("#hand .slot");
  slots.forEach((slot, i) => {
    const tile = slot.querySelector(".tile").dataset.tile;
    const ok = !state.pending && g.discards.has(tile);
    slot.classList.toggle("can-discard", ok);
    const te = slot.querySelector(".tile");
    te.title = ok ? t("table.discard_tile", { tile: tileName(tile) }) : tileName(tile);
    te.setAttribute("aria-label", a11y.tileLabel(tile, i, slots.length));
    te.setAttribute("aria-disabled", ok ? "false" : "true");
  });
}

function turnStatus(v) {
  if (v.phase === "ended" || v.result) return t("table.hand_over");
  if (v.phase === "claim") {
    const w = v.window;
    if (w && w.kind === "kong") return t("table.kong_robbable", { who: seatLabel(w.seat), tile: w.tile });
    if (w && w.kind === "eighth") return t("table.eighth_robbable", { who: seatLabel(w.seat) });
    const d = v.last_discard;
    return d ? t("table.claims_open_after", { who: seatLabel(d.seat) }) : t("table.claims_open");
  }
  if (typeof v.turn === "number") {
    return v.turn === state.seat ? t("table.your_turn") : t("table.their_turn", { who: seatLabel(v.turn) });
  }
  return "";
}

function renderActions() {
  const v = state.view;
  const box = $("actions");
  box.innerHTML = "";
  if (!v) return;
  if (v.result) {
    if (state.status === "between_hands" && state.seat !== null) {
      const b = button(t("table.next_hand"), "next", readyNext);
      b.prepend(kbd(ACTION_KEYS.next));
      b.disabled = state.readySent;
      box.append(b);
    }
    return;
  }
  const g = legalGroups(v);
  const discard = v.last_discard ? v.last_discard.tile : v.window ? v.window.tile : null;
  const add = (action, label, key, tiles) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = action.split(" ")[0];
    b.dataset.move = action;
    if (key) {
      b.dataset.key = key;
      b.append(kbd(key === "Space" ? "Space" : key));
    }
    b.append(label);
    if (tiles) b.append(tilesRow(tiles, null));
    b.disabled = state.pending;
    b.addEventListener("click", () => sendAction(action));
    box.append(b);
  };
  if (g.win) add("win", t("table.win"), ACTION_KEYS.win);
  for (const k of g.kongs) {
    const tile = k.split(" ")[1];
    add(k, t("table.kong"), g.kongs.length === 1 || k === g.kongs[0] ? ACTION_KEYS.kong : null, [tile, tile, tile, tile]);
  }
  if (g.pong) add("pong", t("table.pong"), ACTION_KEYS.pong, discard ? [discard, discard, discard] : null);
  const chows = g.chows.map((c) => [c, chowInfo(c, discard)]);
  chows.sort((a, b) => "ZXC".indexOf(a[1].key) - "ZXC".indexOf(b[1].key));
  for (const [c, info] of chows) {
    add(c, t("table.chow"), info.key, info.tiles);
  }
  if (g.pass) add("pass", t("table.pass"), ACTION_KEYS.pass);
  if (g.discards.size && !box.children.length) {
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = t(TOUCH ? "table.hint_discard_touch" : "table.hint_discard");
    box.append(hint);
  } else if (g.discards.size) {
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = t("table.hint_or_discard");
    box.append(hint);
  }
  if (!box.children.length && state.seat !== null) {
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = t("table.hint_waiting");
    box.append(hint);
  }
  renderHandInteractivity();
}

function readyNext() {
  if (state.readySent) return;
  if (state.conn.send({ type: "next" })) {
    state.readySent = true;
    renderActions();
    const b = document.querySelector("#result [data-action=next]");
    if (b) b.disabled = true;
  }
}

function renderLedger() {
  const v = state.view;
  const hand = v.hand_ledger || [0, 0, 0, 0];
  const total = v.match_ledger || v.ledger || [0, 0, 0, 0];
  const rows = [0, 1, 2, 3].map((s) =>
    `<tr data-seat="${s}" class="${s === state.seat ? "me" : ""}"><td><span class="cjk">${WIND_GLYPH[windOf(s)]}</span> ` +
    `${esc(seatName(s))}</td><td class="hand-amount">${signed(hand[s])}</td><td class="total-amount">${signed(total[s])}</td></tr>`);
  $("ledger").innerHTML = `<table><thead><tr><th>${t("table.ledger.seat")}</th><th>${t("table.ledger.hand")}</th>` +
    `<th>${t("table.ledger.match")}</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

// -- pattern names (from the scoring reference) ---------------------------------------------------

const PATTERN_NAMES = new Map();

function patternName(id) {
  return PATTERN_NAMES.get(id) || String(id).replaceAll("_", " ");
}

function loadPatternNames() {
  patternNames().then((names) => {
    for (const [k, v] of names) PATTERN_NAMES.set(k, v);
    if (state.view && state.view.result) {
      document.querySelectorAll("#result .patterns tr[data-pattern] td:first-child").forEach((td) => {
        td.textContent = patternName(td.parentElement.dataset.pattern);
      });
    }
  });
}

// -- hand result -----------------------------------------------------------------------------------

function renderResult() {
  const v = state.view;
  const el = $("result");
  const r = v.result;
  if (!r) {
    el.hidden = true;
    el.innerHTML = "";
    delete el.dataset.shown;
    return;
  }
  const key = `${v.version}`;
  if (el.dataset.shown === key) {
    renderReady(el, state.table, state.seat);
    return;
  }
  el.dataset.shown = key;
  el.hidden = false;
  el.innerHTML = "";
  $("felt").classList.remove("peeking");
  fillResult(el, v, {
    seatName: seatLabel,
    seatLabel,
    seatWind: (seat) => WIND_GLYPH[windOf(seat)] || "",
    onPeek: () => peek(true),
    patternName,
    code: state.code,
    canGoNext: state.status === "between_hands" && state.seat !== null,
    readySent: state.readySent,
    onNext: readyNext,
    matchOver: state.status === "finished",
  });
  renderReady(el, state.table, state.seat);
  if (state.ranked !== false && (state.status === "finished" || v.standings)) {
    appendRankedEnd(el, state.code, seatLabel, () => el.dataset.shown === key);
  }
  flow.decorateResult(el);
  a11y.decorateResult(el, v);
}

/** "Show the table": the result steps aside so the final board shows; a button brings it back. */
function peek(on) {
  $("felt").classList.toggle("peeking", on);
  $("peek-board").hidden = !on;
  if (on) $("peek-board").focus({ preventScroll: true });
  else {
    const b = document.querySelector("#result [data-action=peek]");
    if (b) b.focus({ preventScroll: true });
  }
}

// -- the tile tracker (my own view only) -----------------------------------------------------------

function trackerOn() {
  try { return localStorage.getItem(TRACKER_KEY) === "1"; } catch (_err) { return false; }
}

function renderTrackerPanel() {
  const box = $("tracker");
  const on = $("tracker-toggle").checked;
  box.hidden = !on || !state.view;
  if (on && state.view) renderTracker(box, state.view);
}

// -- events (log and instant payments) -------------------------------------------------------------

function onEvent(msg) {
  const e = msg.event || {};
  if (e.kind === "hand_start") state.readySent = false;
  flow.onEvent(e);
  a11y.onEvent(e);
  if (state.feel) state.feel.onEvent(e);
}

// -- timers ----------------------------------------------------------------------------------------

function updateTimers() {
  const tm = state.timer;
  document.querySelectorAll("[data-timer-seat]").forEach((el) => {
    el.textContent = "";
  });
  if (!tm) {
    if ($("turn-timer")) $("turn-timer").textContent = "";
    $("call-timer").textContent = "";
    return;
  }
  const left = Math.max(0, Math.ceil((tm.deadline - performance.now()) / 1000));
  for (const s of visibleSeats(state.view, tm.seats || [])) {
    const el = document.querySelector(`[data-timer-seat="${s}"]`);
    if (el) el.textContent = t("table.seconds", { s: left });
  }
  const centre = $("turn-timer");
  const mine = tm.seats && tm.seats.includes(state.seat) && tm.kind !== "next_hand";
  if (centre) centre.textContent = mine ? t("table.seconds_to_decide", { s: left }) : "";
  $("call-timer").textContent = mine ? t("table.seconds", { s: left }) : "";
  if (tm.kind === "next_hand") {
    const b = document.querySelector("#result [data-action=next]");
    if (b) b.lastChild.textContent = t("table.next_hand_in", { s: left });
  }
}

// -- keyboard --------------------------------------------------------------------------------------

/** Where typing goes to the element itself: text fields (the name box), never a checkbox or a select. */
function typing(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA") return true;
  return target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "range"].includes(target.type);
}

/** A checkbox or select keeps Space, Enter and the arrows (a keyboard user works it); a game key
 * pressed on it plays instead (and does not pick an option by its first letter). */
function optionControl(target) {
  return target && (target.tagName === "SELECT" || (target.tagName === "INPUT" && !typing(target)));
}

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = ev.target;
  if (typing(target)) return;
  if (optionControl(target) && ["Enter", " ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Tab"].includes(ev.key)) return;
  const key = ev.key === " " ? "Space" : ev.key.length === 1 ? ev.key.toUpperCase() : ev.key;
  if (state.chat && state.chat.onKey(key)) { ev.preventDefault(); return; }
  const v = state.view;
  if (!v) return;
  // a focused button or link answers Enter and Space itself (no second action from the game keys)
  if (target && (target.tagName === "BUTTON" || target.tagName === "A" || target.tagName === "SUMMARY")
      && (key === "Enter" || key === "Space")) return;
  // a focused tile of my hand: Enter discards it
  if (key === "Enter" && target && target.closest && target.closest("#hand .slot")) {
    const slot = target.closest("#hand .slot");
    ev.preventDefault();
    if (slot.classList.contains("can-discard")) sendAction(`discard ${slot.querySelector(".tile").dataset.tile}`);
    return;
  }
  if (v.result) {
    if (key === ACTION_KEYS.next && state.status === "between_hands") {
      ev.preventDefault();
      readyNext();
    }
    return;
  }
  const idx = DISCARD_KEYS.indexOf(key);
  if (optionControl(target) && (idx >= 0 || Object.values(ACTION_KEYS).includes(key))) ev.preventDefault();
  if (idx >= 0) {
    const slot = document.querySelector(`#hand .slot[data-index="${idx}"]`);
    if (slot && slot.classList.contains("can-discard")) {
      ev.preventDefault();
      sendAction(`discard ${slot.querySelector(".tile").dataset.tile}`);
    }
    return;
  }
  const btn = document.querySelector(`#actions button[data-key="${key}"]`);
  if (btn && !btn.disabled) {
    ev.preventDefault();
    btn.click();
  }
}

// -- wiring ----------------------------------------------------------------------------------------

function render() {
  if (!state.table) return;
  // the chat: under the seats in the lobby, at the top of the side panel during the match
  const chatHome = state.table.status === "lobby" ? $("seating") : document.querySelector("#play > aside.side");
  if (state.chat.panel.parentElement !== chatHome) {
    if (chatHome.id === "seating") chatHome.append(state.chat.panel); else chatHome.prepend(state.chat.panel);
  }
  if (state.table.status === "lobby" || !state.view) {
    if (state.table.status === "lobby") renderSeating();
    return;
  }
  renderPlay();
}

/** After a mouse click or tap on an option (a checkbox, a select), the keyboard goes back to the game. */
function optionsLetGo() {
  let pointer = false;
  document.addEventListener("pointerdown", () => { pointer = true; }, true);
  document.addEventListener("keydown", () => { pointer = false; }, true);
  document.addEventListener("change", (ev) => {
    if (pointer && optionControl(ev.target) && ev.target.closest("#play")) ev.target.blur();
  });
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
    renderTrackerPanel();
  });
  $("peek-board").addEventListener("click", () => peek(false));
  renderKeyHelp($("key-help"), true);
  loadPatternNames();
  for (const level of ["beginner", "greedy", "strong", "expert"]) {
    const opt = new Option(t(`bot.${level}`), level);
    opt.title = t(`botlevel.${level}`);
    $("bot-level").add(opt);
  }
  $("header-tools").append(soundSwitch(), langSwitch());
  state.feel = createFeel({ felt: $("felt"), mySeat: () => state.seat, seatName });
  placeMoveBar();
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
  $("join-form").addEventListener("submit", (ev) => ev.preventDefault());
  try { $("join-name").value = localStorage.getItem(NAME_KEY) || ""; } catch (_err) { /* private mode */ }
  document.addEventListener("keydown", onKey);
  setInterval(updateTimers, 250);

  state.token = loadToken(state.code);
  state.avatars = tableAvatars(state.code, () => render());
  state.chat = initChat({ code: state.code, send: (m) => state.conn.send(m), mySeat: () => state.seat,
    seatName, positionOf });
  state.conn = new TableConnection(state.code, state.token, {
    status(ok) {
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
      document.title = `${state.table.name} — sgmahjong`;
      $("table-name").textContent = state.table.name;
      state.avatars.update(state.table);
      document.body.dataset.status = state.table.status;
      if (!state.status) state.status = state.table.status;
      if (state.table.status !== "lobby") state.status = state.table.status;
      rankedNote();
      render();
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
      if (state.view) renderActions();
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
    rankedOutcome(state.code).then((o) => { state.ranked = Boolean(o.ranked); rankedNote(); })
      .catch(() => { state.ranked = undefined; });
  }
  showLeaveNote(state.ranked === true && state.table.status !== "finished");
}

// -- accounts: a signed-in player's rank beside the seat's name (the summary's seat "rank") ----------
function addRank(plateEl, s) {
  if (!s || s.kind !== "human" || !s.rank) return;
  const span = document.createElement("span");
  span.innerHTML = rankBadge(s.rank);
  plateEl.append(span.firstChild);
}

// -- quick play: the countdown before bots fill the empty seats (the summary's "starts_in") ----------
let countdownTimer = null;
function showCountdown(tb) {
  clearInterval(countdownTimer);
  let el = document.getElementById("starts-in");
  if (tb.starts_in === null || tb.starts_in === undefined) {
    if (el) el.remove();
    return;
  }
  if (!el) {
    el = document.createElement("p");
    el.id = "starts-in";
    el.className = "starts-in";
    el.setAttribute("role", "status");
    $("seating").prepend(el);
  }
  const until = Date.now() + tb.starts_in * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    el.textContent = t("quick.starts_in", { s: left });
    if (!left) clearInterval(countdownTimer);
  };
  tick();
  countdownTimer = setInterval(tick, 1000);
}

