// The table page (/t/{code}): seating before the match, then the game itself.
//
// Everything drawn here comes from the server's messages (docs/protocol.md): `table` (TableSummary),
// `view` (the engine's match_view for this seat, plus the timer), `event` (redacted engine events).
// The page keeps no game logic: it shows the view and offers exactly the view's legal_actions.
import { backElement, sortTiles, tileElement, tileName } from "./tiles.js";
import { parseHand, suited } from "./notation.js";
import { TableConnection, loadToken, saveToken } from "./protocol.js";
import { ACTION_KEYS, DISCARD_KEYS, renderKeyHelp } from "./keys.js";
import { esc, patternNames, postJSON } from "./api.js";

const WIND_GLYPH = { E: "東", S: "南", W: "西", N: "北" };
const WIND_LETTERS = ["E", "S", "W", "N"];
const WIND_NAMES = ["East", "South", "West", "North"];
const POSITIONS = ["bottom", "right", "top", "left"];

const $ = (id) => document.getElementById(id);

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

// -- small helpers ---------------------------------------------------------------------------------

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  const s = state.table && state.table.seats[seat];
  if (s && s.name) return s.name;
  if (s && s.kind === "bot") return `Bot ${seat + 1}`;
  return `Seat ${seat + 1}`;
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

function tilesRow(tiles, size, cls = "tiles") {
  const row = document.createElement("span");
  row.className = cls;
  for (const t of tiles) row.append(tileElement(t, { size }));
  return row;
}

function kbd(text) {
  const k = document.createElement("kbd");
  k.textContent = text;
  return k;
}

// -- seating (lobby status) ------------------------------------------------------------------------

function renderSeating() {
  const t = state.table;
  $("seating").hidden = false;
  $("play").hidden = true;
  $("share-link").textContent = location.origin + "/t/" + state.code;
  const list = $("seat-list");
  list.innerHTML = "";
  const seated = state.seat !== null;
  for (const s of t.seats) {
    const card = document.createElement("div");
    card.className = "seat-card" + (s.seat === state.seat ? " mine" : "");
    card.dataset.seat = String(s.seat);
    const who = s.kind === "empty" ? "<i>empty</i>"
      : s.kind === "bot" ? `🤖 ${esc(s.name || "bot")} <span class="muted">(${esc(s.bot_level || "")})</span>`
        : `${esc(s.name)}${s.seat === state.seat ? " (you)" : ""}${s.connected ? "" : " <span class=\"muted\">offline</span>"}`;
    card.innerHTML = `<div class="wind"><span class="cjk">${WIND_GLYPH[WIND_LETTERS[s.seat]]}</span> ` +
      `${WIND_NAMES[s.seat]}</div><div class="who">${who}</div>`;
    const buttons = document.createElement("div");
    if (s.kind === "empty" && !seated) {
      buttons.append(button("Sit here", "join", () => join(s.seat)));
    }
    if (s.kind === "empty" && seated) {
      buttons.append(button("Add bot", "add-bot", () =>
        state.conn.send({ type: "add_bot", seat: s.seat, level: $("bot-level").value })));
    }
    if (s.kind === "bot" && seated) {
      buttons.append(button("Remove bot", "remove-bot", () =>
        state.conn.send({ type: "remove_bot", seat: s.seat }), "secondary"));
    }
    card.append(buttons);
    list.append(card);
  }
  $("join-form").hidden = seated;
  $("seated-controls").hidden = !seated;
  const changed = Object.entries(t.changed_rules || {});
  $("rules-summary").textContent = changed.length
    ? "House rules: " + changed.map(([k, v]) => `${k} = ${v}`).join(", ")
    : "Rules: the defaults of RULES.md (limit 5 tai, all pay).";
}

function button(label, action, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.dataset.action = action;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) {
    $("join-name").focus();
    toast("Type your display name first.");
    return;
  }
  try {
    const res = await postJSON(`/api/tables/${encodeURIComponent(state.code)}/join`, { name, seat });
    saveToken(state.code, res.token);
    state.token = res.token;
    state.conn.reconnect(res.token);
  } catch (err) {
    toast(err.message);
  }
}

// -- the game --------------------------------------------------------------------------------------

/** My concealed tiles in display order: sorted, the drawn tile apart at the end. */
function myHand(seatView) {
  const tiles = [...(seatView.concealed || [])];
  const drawn = seatView.drawn || null;
  if (drawn) {
    const total = tiles.length + 3 * (seatView.melds || []).length;
    if (total % 3 === 2) {
      const i = tiles.lastIndexOf(drawn);
      if (i >= 0) tiles.splice(i, 1);
    }
  }
  const out = sortTiles(tiles).map((t) => ({ tile: t, drawn: false }));
  if (drawn) out.push({ tile: drawn, drawn: true });
  return out;
}

/** The view's legal actions, grouped. */
function legalGroups(view) {
  const g = { discards: new Set(), chows: [], pong: false, kongs: [], win: false, pass: false };
  for (const a of view.legal_actions || []) {
    const [kind, arg] = a.split(" ");
    if (kind === "discard") g.discards.add(arg);
    else if (kind === "chow") g.chows.push(a);
    else if (kind === "pong") g.pong = true;
    else if (kind === "kong") g.kongs.push(a);
    else if (kind === "win") g.win = true;
    else if (kind === "pass") g.pass = true;
  }
  return g;
}

/** "chow 345s" -> {tiles: [3s,4s,5s], key: Z|X|C} relative to the last discard. */
function chowInfo(action, discard) {
  const arg = action.split(" ")[1];
  const suit = arg.slice(-1);
  const lo = Number(arg[0]);
  const tiles = [lo, lo + 1, lo + 2].map((n) => `${n}${suit}`);
  let key = null;
  const d = discard ? suited(discard) : null;
  if (d && d[1] === suit) {
    if (d[0] === lo) key = ACTION_KEYS.chow_left;
    else if (d[0] === lo + 1) key = ACTION_KEYS.chow_middle;
    else if (d[0] === lo + 2) key = ACTION_KEYS.chow_right;
  }
  return { tiles, key };
}

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
  $("seating").hidden = true;
  $("play").hidden = false;
  const felt = $("felt");
  felt.querySelectorAll(".seat, .discards").forEach((el) => el.remove());
  const centre = felt.querySelector(".centre");
  const active = new Set(v.awaiting || []);
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
        for (const t of sortTiles(sv.concealed)) hidden.append(tileElement(t, { size: "sm" }));
        hidden.style.flexDirection = "row";
        hidden.style.flexWrap = "wrap";
      } else {
        for (let i = 0; i < (sv.concealed_count || 0); i += 1) {
          hidden.append(backElement({ size: side ? "sm" : "sm", side }));
        }
      }
      row.append(hidden);
    }
    row.append(meldsElement(sv.melds || [], mine ? "md" : "sm"));
    const bonus = document.createElement("div");
    bonus.className = "bonus";
    for (const t of sv.bonus || []) bonus.append(tileElement(t, { size: mine ? "sm" : "xs" }));
    row.append(bonus);
    el.append(row);
    if (mine) el.append(handElement(sv));
    felt.append(el);

    const disc = document.createElement("div");
    disc.className = `discards pos-${pos}`;
    disc.dataset.discards = String(s);
    const list = sv.discards || [];
    list.forEach((t, i) => {
      const te = tileElement(t, { size: "sm" });
      if (v.last_discard && v.last_discard.seat === s && i === list.length - 1) te.classList.add("last");
      disc.append(te);
    });
    centre.append(disc);
  }

  $("prevailing").textContent = WIND_GLYPH[WIND_LETTERS[v.prevailing || 0]];
  $("prevailing").title = `${WIND_NAMES[v.prevailing || 0]} round`;
  $("wall-count").textContent = String(v.wall_remaining);
  $("turn-status").textContent = turnStatus(v);
  const hn = v.hand_number ?? v.hand ?? (state.table && state.table.hand_number);
  $("match-info").textContent = `${WIND_NAMES[v.prevailing || 0]} round` +
    (typeof hn === "number" ? `, hand ${hn}` : "") + (state.seat === null ? " — watching" : "");
  renderActions();
  renderLedger();
  renderResult();
  updateTimers();
}

function plate(seat, sv) {
  const v = state.view;
  const p = document.createElement("div");
  p.className = "plate";
  const wind = sv.wind || windOf(seat);
  const badge = document.createElement("span");
  badge.className = "wind-badge";
  badge.textContent = WIND_GLYPH[wind] || wind;
  badge.title = `${WIND_NAMES[WIND_LETTERS.indexOf(wind)] || wind} seat`;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = seatName(seat) + (seat === state.seat ? " (you)" : "");
  p.append(badge, name);
  if (v.dealer === seat) {
    const d = document.createElement("span");
    d.className = "dealer";
    d.textContent = "莊 dealer";
    d.title = "dealer";
    p.append(d);
  }
  const s = state.table && state.table.seats[seat];
  if (s && s.kind === "human" && !s.connected) {
    const off = document.createElement("span");
    off.className = "offline";
    off.textContent = "offline (bot plays)";
    p.append(off);
  }
  const score = document.createElement("span");
  score.className = "score";
  const total = matchTotal(seat);
  score.textContent = (total > 0 ? "+" : "") + total;
  score.title = "match score";
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

function meldsElement(melds, size) {
  const wrap = document.createElement("div");
  wrap.className = "melds";
  for (const m of melds) {
    const el = document.createElement("span");
    el.className = "meld";
    el.dataset.meld = m.kind || "";
    el.title = meldTitle(m);
    m.tiles.forEach((t, i) => {
      // a concealed kong shows its two end tiles face down
      if (m.concealed && m.tiles.length === 4 && (i === 0 || i === 3)) el.append(backElement({ size }));
      else el.append(tileElement(t, { size }));
    });
    if (m.concealed) el.dataset.concealed = "true";
    wrap.append(el);
  }
  return wrap;
}

function meldTitle(m) {
  const from = typeof m.from === "number" ? ` from ${seatName(m.from)}` : "";
  return `${m.concealed ? "concealed " : ""}${m.kind || "set"}${from}`;
}

function handElement(sv) {
  const area = document.createElement("div");
  area.className = "my-area";
  const hand = document.createElement("div");
  hand.id = "hand";
  const tiles = myHand(sv);
  tiles.forEach((entry, i) => {
    const slot = document.createElement("div");
    slot.className = "slot" + (entry.drawn ? " drawn" : "");
    slot.dataset.index = String(i);
    const te = tileElement(entry.tile, { extraClass: entry.drawn ? "just-drawn" : "" });
    te.tabIndex = -1;
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

function renderHandInteractivity() {
  const v = state.view;
  const g = legalGroups(v);
  document.querySelectorAll("#hand .slot").forEach((slot) => {
    const tile = slot.querySelector(".tile").dataset.tile;
    const ok = !state.pending && g.discards.has(tile);
    slot.classList.toggle("can-discard", ok);
    slot.querySelector(".tile").title = ok ? `Discard ${tileName(tile)}` : tileName(tile);
  });
}

function turnStatus(v) {
  if (v.phase === "ended" || v.result) return "Hand over";
  if (v.phase === "claim") {
    const w = v.window;
    if (w && w.kind === "kong") return `${seatName(w.seat)} adds a kong of ${w.tile}: it can be robbed`;
    if (w && w.kind === "eighth") return `${seatName(w.seat)} drew the eighth flower: it can be robbed`;
    const d = v.last_discard;
    return d ? `${seatName(d.seat)} discarded — claims open` : "Claims open";
  }
  if (typeof v.turn === "number") return v.turn === state.seat ? "Your turn" : `${seatName(v.turn)}'s turn`;
  return "";
}

function renderActions() {
  const v = state.view;
  const box = $("actions");
  box.innerHTML = "";
  if (!v) return;
  if (v.result) {
    if (state.status === "between_hands" && state.seat !== null) {
      const b = button("Next hand", "next", readyNext);
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
  if (g.win) add("win", "Win 胡", ACTION_KEYS.win);
  for (const k of g.kongs) {
    const tile = k.split(" ")[1];
    add(k, "Kong 槓", g.kongs.length === 1 || k === g.kongs[0] ? ACTION_KEYS.kong : null, [tile, tile, tile, tile]);
  }
  if (g.pong) add("pong", "Pong 碰", ACTION_KEYS.pong, discard ? [discard, discard, discard] : null);
  const chows = g.chows.map((c) => [c, chowInfo(c, discard)]);
  chows.sort((a, b) => "ZXC".indexOf(a[1].key) - "ZXC".indexOf(b[1].key));
  for (const [c, info] of chows) {
    add(c, "Chow 吃", info.key, info.tiles);
  }
  if (g.pass) add("pass", "Pass", ACTION_KEYS.pass);
  if (g.discards.size && !box.children.length) {
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = "Your turn: click a tile (or press its key) to discard it.";
    box.append(hint);
  } else if (g.discards.size) {
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = "…or discard a tile.";
    box.append(hint);
  }
  if (!box.children.length) {
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = state.seat === null ? "You are watching this table." : "Waiting for the others…";
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
  $("ledger").innerHTML = `<table><thead><tr><th>seat</th><th>this hand</th><th>match</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

function signed(n) {
  const x = Number(n) || 0;
  return x > 0 ? `+${x}` : String(x);
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
    renderReady();
    return;
  }
  el.dataset.shown = key;
  el.hidden = false;
  el.innerHTML = "";
  const h = document.createElement("h2");
  if (r.drawn_game || r.winner === null || r.winner === undefined) {
    h.textContent = "Drawn hand (荒牌)";
    el.dataset.outcome = "draw";
  } else {
    const how = r.self_drawn ? "self-drawn (自摸)" : `on ${seatName(r.shooter)}'s discard`;
    h.textContent = `${seatName(r.winner)} wins ${how}: ${r.tai} tai${r.limit ? " (limit)" : ""}`;
    el.dataset.outcome = "win";
    el.dataset.winner = String(r.winner);
  }
  el.append(h);

  if (r.liable !== null && r.liable !== undefined) {
    const p = document.createElement("p");
    p.className = "liable";
    p.textContent = `${seatName(r.liable)} pays for all (包)` +
      (r.liable_reason ? `: ${String(r.liable_reason).replaceAll("_", " ")}` : "");
    el.append(p);
  }
  if (r.drawn_game && r.kong_made) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = "A kong was made in this hand, so the deal passes.";
    el.append(p);
  }
  if (r.kind && r.kind !== "normal" && !r.drawn_game) {
    const p = document.createElement("p");
    p.className = "win-kind";
    p.textContent = `Special win: ${patternName(r.kind)}`;
    el.append(p);
  }

  if (r.hand) {
    const hand = parseHand(r.hand);
    const row = document.createElement("div");
    row.className = "hand-row winning-hand";
    row.append(tilesRow(sortTiles(hand.concealed), null));
    for (const m of hand.melds) {
      const me = meldsElement([{ kind: m.concealed ? "kong" : "set", tiles: m.tiles, concealed: m.concealed }], null);
      row.append(me);
    }
    if (hand.winning) {
      const w = tileElement(hand.winning);
      w.classList.add("winning-tile");
      w.title = `winning tile: ${tileName(hand.winning)}`;
      const wrap = document.createElement("span");
      wrap.className = "tiles";
      wrap.append("+", w);
      row.append(wrap);
    }
    if (hand.bonus.length) row.append(tilesRow(hand.bonus, "sm"));
    el.append(row);
    const code = document.createElement("p");
    code.className = "muted";
    code.innerHTML = `<code>${esc(r.hand)}</code>`;
    el.append(code);
  }

  if (r.patterns && r.patterns.length) {
    const t = document.createElement("table");
    t.className = "data patterns";
    t.innerHTML = `<thead><tr><th>pattern</th><th class="num">tai</th></tr></thead><tbody>` +
      r.patterns.map((p) => `<tr data-pattern="${esc(p.id || p.name)}"><td>${esc(patternName(p.id || p.name))}</td>` +
        `<td class="num">${p.tai}</td></tr>`).join("") +
      `<tr><th>total${r.limit ? " (capped at the limit)" : ""}</th><th class="num">${r.tai}</th></tr></tbody>`;
    el.append(t);
  }

  if (r.payments) {
    const t = document.createElement("table");
    t.className = "data payments";
    const hand = v.hand_ledger || [0, 0, 0, 0];
    t.innerHTML = `<thead><tr><th>seat</th><th class="num">win payment</th><th class="num">hand total</th>` +
      `<th class="num">match</th></tr></thead><tbody>` +
      [0, 1, 2, 3].map((s) => `<tr data-seat="${s}"><td>${esc(seatName(s))}${s === r.liable ? " (pays for all, 包)" : ""}` +
        `${s === r.shooter && !r.self_drawn ? " (shooter)" : ""}</td><td class="num">${signed(r.payments[s])}</td>` +
        `<td class="num">${signed(hand[s])}</td><td class="num">${signed((v.match_ledger || v.ledger || [])[s])}</td></tr>`).join("") +
      `</tbody>`;
    el.append(t);
  }

  if (r.revealed && Object.keys(r.revealed).length) {
    const d = document.createElement("details");
    d.open = true;
    d.innerHTML = "<summary>Hands at the end</summary>";
    for (const [seat, tiles] of Object.entries(r.revealed)) {
      const row = document.createElement("div");
      row.className = "revealed-row";
      row.dataset.seat = seat;
      const name = document.createElement("span");
      name.textContent = seatName(Number(seat));
      row.append(name, tilesRow(sortTiles(tiles), null));
      d.append(row);
    }
    el.append(d);
  }

  if (r.wall_reveal) {
    const d = document.createElement("details");
    d.className = "wall-reveal";
    d.innerHTML = `<summary>Wall reveal (${r.wall_reveal.wall.length} tiles in draw order) ` +
      `<span class="verify">checking…</span></summary>`;
    d.append(tilesRow(r.wall_reveal.wall, null));
    const p = document.createElement("p");
    p.className = "muted";
    p.innerHTML = `salt <code>${esc(r.wall_reveal.salt)}</code>, published hash <code>${esc(v.wall_hash || "")}</code>`;
    d.append(p);
    el.append(d);
    verifyWall(v.wall_hash, r.wall_reveal).then((ok) => {
      const s = d.querySelector(".verify");
      if (s) s.textContent = ok === null ? "" : ok ? "✓ matches the hash published before the hand" : "✗ does not match the published hash";
    });
  }

  if (v.standings) el.append(standingsElement(v.standings));

  if (typeof v.hand_number === "number") {
    const p = document.createElement("p");
    p.className = "muted";
    p.innerHTML = `<a class="hand-log" href="/api/tables/${encodeURIComponent(state.code)}/hands/${v.hand_number}/log" ` +
      `download="sgmahjong-${esc(state.code)}-hand-${v.hand_number}.jsonl">Download this hand's log</a> ` +
      `(replay it with <code>sgmahjong replay FILE</code>).`;
    el.append(p);
  }

  if (state.status === "between_hands" && state.seat !== null) {
    const b = button("Next hand", "next", readyNext);
    b.prepend(kbd(ACTION_KEYS.next));
    b.disabled = state.readySent;
    el.append(b);
    const ready = document.createElement("span");
    ready.className = "ready-list muted";
    el.append(" ", ready);
    renderReady();
  } else if (state.status === "finished" || v.standings) {
    const p = document.createElement("p");
    p.innerHTML = `The match is over. <a href="/">Back to the lobby</a>`;
    el.append(p);
  }
}

/** Between hands: who the next hand still waits for. */
function renderReady() {
  const el = document.querySelector("#result .ready-list");
  if (!el || !state.table) return;
  const waiting = state.table.seats.filter((s) => s.kind === "human" && s.connected && !s.ready)
    .map((s) => (s.seat === state.seat ? "you" : s.name));
  el.textContent = waiting.length ? `Waiting for: ${waiting.join(", ")}` : "";
}

async function verifyWall(hash, reveal) {
  if (!hash || !window.crypto || !crypto.subtle) return null;
  const data = new TextEncoder().encode(`${reveal.salt}:${reveal.wall.join(" ")}`);
  const digest = await crypto.subtle.digest("SHA-256", data);
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex === hash;
}

function standingsElement(standings) {
  const wrap = document.createElement("div");
  wrap.id = "standings";
  const h = document.createElement("h2");
  h.textContent = "Final standings";
  wrap.append(h);
  const rows = (Array.isArray(standings) ? standings : Object.values(standings)).map((s, i) => {
    if (typeof s === "number") return { seat: i, score: s };
    return s;
  });
  const amount = (s) => s.amount ?? s.score ?? s.total ?? 0;
  rows.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0) || amount(b) - amount(a));
  const t = document.createElement("table");
  t.className = "data";
  t.innerHTML = `<thead><tr><th>place</th><th>player</th><th class="num">score</th></tr></thead><tbody>` +
    rows.map((s, i) => `<tr data-seat="${s.seat}"><td>${s.rank ?? i + 1}</td><td>${esc(seatName(s.seat))}</td>` +
      `<td class="num">${signed(amount(s))}</td></tr>`).join("") + `</tbody>`;
  wrap.append(t);
  return wrap;
}

// -- events (log and instant payments) -------------------------------------------------------------

function logLine(text, cls = "") {
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  const log = $("log");
  log.append(li);
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** The engine's kong and win events carry a data field "kind" that shadows the event kind. */
function eventKind(e) {
  if (["exposed", "concealed", "added"].includes(e.kind) && e.tile) return "kong";
  if (Array.isArray(e.payments) && "tai" in e && "self_drawn" in e && !("revealed" in e) && e.seat !== null) {
    return "win";
  }
  return e.kind;
}

function eventText(e) {
  const who = seatName(e.seat);
  const kind = eventKind(e);
  const tile = e.tile ? ` ${e.tile}` : "";
  switch (kind) {
    case "hand_start":
      state.readySent = false;
      return `A new hand begins${e.wall_hash ? ` (wall hash ${String(e.wall_hash).slice(0, 12)}…)` : ""}.`;
    case "deal":
      return e.seat === state.seat && e.tiles ? `You were dealt ${e.tiles.join(" ")}.` : null;
    case "draw":
      return e.seat === state.seat && e.tile ? `You drew ${e.tile}.` : null;
    case "bonus":
      return `${who} laid out${tile || (e.tiles ? " " + e.tiles.join(" ") : " a bonus tile")}.`;
    case "discard":
      return `${who} discarded${tile}.`;
    case "chow":
      return `${who} chows ${(e.tiles || []).join(" ")}.`;
    case "pong":
      return `${who} pongs ${e.tile}.`;
    case "kong":
      return `${who} ${e.kind === "concealed" ? "declares a concealed kong of" : e.kind === "added" ? "adds a kong of" : "kongs"} ${e.tile}.`;
    case "payment":
      return paymentText(e);
    case "win":
      return `${who} wins${e.self_drawn ? " by self-draw" : ""}: ${e.tai} tai!`;
    case "drawn_game":
      return "The wall is down to 15 tiles: drawn hand.";
    default:
      return null;
  }
}

function paymentText(e) {
  const amounts = e.amounts || e.payments || e.deltas;
  const reason = e.reason || e.label || e.why || e.what || "payment";
  if (Array.isArray(amounts)) {
    const parts = amounts.map((a, s) => (a ? `${seatName(s)} ${signed(a)}` : null)).filter(Boolean);
    return `Payment (${String(reason).replaceAll("_", " ")}): ${parts.join(", ")}`;
  }
  const amount = e.amount !== undefined ? ` ${e.amount}` : "";
  return `Payment to ${seatName(e.seat)}: ${String(reason).replaceAll("_", " ")}${amount}`;
}

function onEvent(msg) {
  const e = msg.event || {};
  const text = eventText(e);
  if (!text) return;
  if (eventKind(e) === "payment") {
    logLine(text, "pay");
    flash(text);
  } else {
    logLine(text);
  }
}

function flash(text) {
  const felt = $("felt");
  const el = document.createElement("div");
  el.className = "flash";
  el.textContent = text;
  felt.append(el);
  setTimeout(() => el.remove(), 3500);
}

// -- timers ----------------------------------------------------------------------------------------

function updateTimers() {
  const t = state.timer;
  document.querySelectorAll("[data-timer-seat]").forEach((el) => {
    el.textContent = "";
  });
  if (!t) {
    if ($("turn-timer")) $("turn-timer").textContent = "";
    return;
  }
  const left = Math.max(0, Math.ceil((t.deadline - performance.now()) / 1000));
  for (const s of t.seats || []) {
    const el = document.querySelector(`[data-timer-seat="${s}"]`);
    if (el) el.textContent = `${left}s`;
  }
  const centre = $("turn-timer");
  if (centre) centre.textContent = t.seats && t.seats.includes(state.seat) ? `${left}s to decide` : "";
  if (t.kind === "next_hand") {
    const b = document.querySelector("#result [data-action=next]");
    if (b) b.lastChild.textContent = `Next hand (${left}s)`;
  }
}

// -- keyboard --------------------------------------------------------------------------------------

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const target = ev.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  const v = state.view;
  if (!v) return;
  const key = ev.key === " " ? "Space" : ev.key.length === 1 ? ev.key.toUpperCase() : ev.key;
  if (v.result) {
    if (key === ACTION_KEYS.next && state.status === "between_hands") {
      ev.preventDefault();
      readyNext();
    }
    return;
  }
  const idx = DISCARD_KEYS.indexOf(key);
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
  if (state.table.status === "lobby" || !state.view) {
    if (state.table.status === "lobby") renderSeating();
    return;
  }
  renderPlay();
}

function start() {
  $("table-code").textContent = state.code;
  renderKeyHelp($("key-help"), true);
  loadPatternNames();
  for (const level of ["random", "greedy", "strong"]) $("bot-level").add(new Option(level, level));
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
    if (navigator.clipboard) navigator.clipboard.writeText($("share-link").textContent);
  });
  $("join-form").addEventListener("submit", (ev) => ev.preventDefault());
  document.addEventListener("keydown", onKey);
  setInterval(updateTimers, 250);

  state.token = loadToken(state.code);
  state.conn = new TableConnection(state.code, state.token, {
    status(ok) {
      const c = $("conn");
      c.textContent = ok ? "connected" : "reconnecting…";
      c.className = "conn " + (ok ? "ok" : "bad");
      document.body.dataset.connected = ok ? "true" : "false";
    },
    welcome(msg) {
      state.seat = typeof msg.seat === "number" ? msg.seat : null;
      document.body.dataset.seat = state.seat === null ? "spectator" : String(state.seat);
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
      document.body.dataset.status = state.table.status;
      if (!state.status) state.status = state.table.status;
      if (state.table.status !== "lobby") state.status = state.table.status;
      render();
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
      document.body.dataset.version = String(msg.view.version);
    },
    event: onEvent,
    error(msg) {
      if (msg.code === "bad_token") {
        saveToken(state.code, null);
        state.token = null;
      }
      if (msg.ref === "action") state.pending = false;
      if (state.view) renderActions();
      toast(msg.message || msg.code);
    },
  });
}

if (!state.code) {
  document.body.innerHTML = "<main class=\"page\"><p class=\"error\">No table code in the address.</p>" +
    "<p><a href=\"/\">Back to the lobby</a></p></main>";
} else {
  start();
}
