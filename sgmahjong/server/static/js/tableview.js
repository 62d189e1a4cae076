// The table page's game, drawn from the view (docs/protocol.md's `view`): the four seats and their
// ponds (felt.js), my hand and the offers above it, the centre, the ledger, the tracker, the timers and
// the hand's result. table.js owns the state and the connection and calls these after each message.
//
//   const view = initTableView({state, flow, a11y, sendAction, seatName, seatLabel, windOf, positionOf, touch})
//   view.renderPlay()   view.renderActions()   view.updateTimers()   view.readyNext()   view.peek(on)
//   view.placeMoveBar()   view.renderTrackerPanel()   view.loadPatternNames()
import { backElement, sortTiles, tileElement, tileName } from "./tiles.js";
import { ACTION_KEYS, DISCARD_KEYS } from "./keys.js";
import { esc, patternNames } from "./api.js";
import { button, kbd, signed, tilesRow } from "./dom.js";
import { chowInfo, legalGroups, myHand } from "./moves.js";
import { fillResult, renderReady } from "./result.js";
import { SEAT_LETTERS as WIND_LETTERS, WIND_GLYPH, pondElement } from "./felt.js";
import { renderTracker } from "./tracker.js";
import { rankBadge } from "./ranks.js";
import { appendRankedEnd } from "./ranked_end.js";
import { t } from "./i18n.js";
import { tableName } from "./names.js";

const $ = (id) => document.getElementById(id);
const windName = (i) => t(`wind.${WIND_LETTERS[i]}`);

export function initTableView(ctx) {
  const { state, flow, a11y, sendAction, seatName, seatLabel, windOf, positionOf } = ctx;
  const TOUCH = ctx.touch;

  function renderPlay() {
    const v = state.view;
    // keyboard users keep their place in the hand across redraws
    const focused = document.activeElement && document.activeElement.closest
      ? document.activeElement.closest("#hand .slot") : null;
    const focusIndex = focused ? Number(focused.dataset.index) : null;
    $("seating").hidden = true;
    $("play").hidden = false;
    const felt = $("felt");
    felt.querySelectorAll(".seat, .pond").forEach((el) => el.remove());
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
      if (!mine) el.append(concealedRow(sv, pos));
      if (mine) el.append(handElement(sv));
      // each seat's discards, sets and bonus tiles together, in front of it and turned towards it
      felt.append(el, pondElement(v, s, pos, { seatName, meldTitle }));
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
    document.title = `${mine ? t("table.your_move_title") : ""}${state.table ? tableName(state.table.name) : t("table.code")} — sgmahjong`;
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

  /** The tiles another seat holds: their backs (a count beside them on a phone), face up once shown. */
  function concealedRow(sv, pos) {
    const row = document.createElement("div");
    row.className = "row";
    const hidden = document.createElement("div");
    hidden.className = "hidden";
    hidden.dataset.count = String(sv.concealed_count ?? 0);
    const side = pos === "left" || pos === "right";
    if (sv.concealed && sv.concealed.length) {
      // revealed at the end of a hand
      for (const tile of sortTiles(sv.concealed)) hidden.append(tileElement(tile, { size: "sm" }));
      hidden.classList.add("shown");
    } else {
      for (let i = 0; i < (sv.concealed_count || 0); i += 1) hidden.append(backElement({ size: "sm", side }));
    }
    row.append(hidden);
    return row;
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

  function renderTrackerPanel() {
    const box = $("tracker");
    const on = $("tracker-toggle").checked;
    box.hidden = !on || !state.view;
    $("tracker-panel").hidden = box.hidden;
    if (on && state.view) renderTracker(box, state.view);
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

  // -- accounts: a signed-in player's rank beside the seat's name (the summary's seat "rank") ----------
  function addRank(plateEl, s) {
    if (!s || s.kind !== "human" || !s.rank) return;
    const span = document.createElement("span");
    span.innerHTML = rankBadge(s.rank);
    plateEl.append(span.firstChild);
  }
  return { renderPlay, renderActions, renderHandInteractivity, placeMoveBar, readyNext, loadPatternNames, peek,
    renderTrackerPanel, updateTimers };
}
