// The replay viewer (/replay/CODE/N): a finished hand step by step, from any seat's point of view or
// with every hand open, the end of the hand, the wall check, the review by the strong bot (fast) or by
// the expert and the analysis board (replay-expert.js). Everything comes from
// GET /api/tables/CODE/hands/N/replay (frames: the state after each step), .../review?seat=S and the
// expert's routes; the page keeps no game logic.
import { getJSON, patternNames } from "./api.js";
import { errorText } from "./errors.js";
import { showTrouble, unreachable } from "./trouble.js";
import { logItem } from "./tablelog.js";
import { parseTiles } from "./notation.js";
import { fillResult, wallDigest } from "./result.js";
import { SEAT_LETTERS, WIND_GLYPH, renderFelt } from "./felt.js";
import { has, langSwitch, shownAfter, t } from "./i18n.js";
import { playerName, tableName } from "./names.js";
import { tileElement, tileName } from "./tiles.js";
import { wallFromSecret } from "./wallcheck.js";
import { messageElement, spectatorName } from "./chat.js";
import { scrollLater } from "./dom.js";
import { boardStep, expertMark, loadExpert, setupExpert } from "./replay-expert.js";
import { shareButton } from "./share.js";

const $ = (id) => document.getElementById(id);
const OPEN = "all";

function routeParts() {
  const m = location.pathname.match(/\/replay\/([^/]+)\/(\d+)/);
  return m ? { code: decodeURIComponent(m[1]), number: Number(m[2]) } : { code: "", number: 0 };
}

const query = new URLSearchParams(location.search);
const state = {
  ...routeParts(),
  data: null,
  step: 0,
  pov: query.get("seat") === OPEN ? OPEN : Number(query.get("seat") || 0) % 4 || 0,
  review: null,  // the strong bot's review (fast), or ...
  expert: null,  // ... the expert's (priced decisions)
  patterns: new Map(),
};

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  return playerName(state.data && state.data.seats, seat);  // as the table page names its players
}

function frame() {
  return state.data.frames[state.step];
}

/** The tiles of an action's notation ("345p" -> 3p 4p 5p), or null if it is not tiles. */
function tilesOf(notation) {
  try {
    return parseTiles(notation);
  } catch (_err) {
    return null;
  }
}

/** An action's canonical text ("discard 5p", "chow 345p", "pass": format_action) in the page's language,
 * as plain text with the tiles by name (where no picture is drawn: moves without tiles). */
function moveText(text) {
  const [kind, tile] = String(text || "").split(" ", 2);
  const named = tile ? (tilesOf(tile) || [tile]).map(tileName).join(" – ") : "";
  if (tile && has(`replay.act.${kind}`)) return t(`replay.act.${kind}`, { tile: named });
  if (!tile && has(`replay.act.${kind}_bare`)) return t(`replay.act.${kind}_bare`);
  if (!tile && has(`replay.act.${kind}`)) return t(`replay.act.${kind}`);
  return String(text || "");
}

const MARKS = ["\u0001", "\u0002"];

/** A filled strings template whose placeholders were filled with MARKS, as nodes: each mark replaced
 * by its node (a move with its tile pictures), in the order the language puts them. */
function withNodes(text, nodes) {
  const span = document.createElement("span");
  span.className = "move";
  for (const part of text.split(/([\u0001\u0002])/)) {
    const at = MARKS.indexOf(part);
    span.append(at >= 0 ? nodes[at] : part);
  }
  return span;
}

function tilePictures(tiles) {
  const row = document.createElement("span");
  row.className = "move-tiles";
  for (const tile of tiles) row.append(tileElement(tile, { size: "xs" }));
  return row;
}

/** An action as words and tile pictures (the step's title, the review's rows), as the table log shows. */
function moveNode(text) {
  const [kind, tile] = String(text || "").split(" ", 2);
  const tiles = tile && has(`replay.act.${kind}`) ? tilesOf(tile) : null;
  if (!tiles) return document.createTextNode(moveText(text));
  return withNodes(t(`replay.act.${kind}`, { tile: MARKS[0] }), [tilePictures(tiles)]);
}

/** Whether step `f` is the claim window closing (nobody claimed the discard): said without a seat. */
function closes(f) {
  return String(f.action || "").split(" ", 1)[0] === "close";
}

/** The step's title: who did what, the tiles as pictures. */
function actionLine(f) {
  if (f.number === 0) return document.createTextNode(t("replay.deal"));
  if (closes(f)) return document.createTextNode(t("replay.nobody_claims"));
  return withNodes(t("replay.action", { who: seatName(f.seat), move: MARKS[0] }), [moveNode(f.action)]);
}

function render() {
  const data = state.data;
  const f = frame();
  const v = f.view;
  const open = state.pov === OPEN;
  const bottom = open ? 0 : state.pov;
  const active = new Set(v.awaiting || []);
  renderFelt($("felt"), v, { bottom, open, seatName, active });
  $("prevailing").textContent = WIND_GLYPH[SEAT_LETTERS[v.prevailing || 0]];
  $("wall-count").textContent = String(v.wall_remaining);
  $("step-status").textContent = v.phase === "ended" ? t("table.hand_over")
    : v.phase === "claim" ? t("table.claims_open") : t("replay.turn", { who: seatName(v.turn) });
  $("step-number").textContent = String(state.step);
  $("step-total").textContent = String(data.frames.length - 1);
  $("slider").value = String(state.step);
  $("step-action").replaceChildren(actionLine(f));
  const list = $("step-events");
  list.innerHTML = "";
  const mySeat = open ? null : state.pov;
  for (const e of f.events) {  // words and tile pictures, as the table log
    const li = logItem(e, { seatName, mySeat: open ? e.seat : mySeat });
    if (!li) continue;
    if (open && e.kind === "deal") li.querySelector(".log-text").textContent = t("pages.dealt_to", { who: seatName(e.seat) });
    list.append(li);
  }
  renderReviewMark();
  boardStep();
  renderChat();
  const end = $("end-panel");
  end.hidden = !v.result;
  if (v.result && !end.dataset.filled) {
    end.dataset.filled = "1";
    fillResult(end, { ...v, hand_number: data.hand_number, match_ledger: v.hand_ledger }, {
      seatName, patternName: (id) => state.patterns.get(id) || String(id).replaceAll("_", " "),
      code: data.code, canGoNext: false, matchOver: false, replayLink: false,
    });
  }
  document.querySelectorAll("#review-list tr[data-step]").forEach((tr) =>
    tr.classList.toggle("current", Number(tr.dataset.step) === state.step));
  const share = new URL(location.href);
  share.search = `?seat=${state.pov}&step=${state.step}`;
  $("share").href = share.pathname + share.search;
}

/** The chat said up to this step (each message is stored with the number of actions applied by then). */
function renderChat() {
  const said = (state.data.chat || []).filter((m) => m.step <= state.step);
  $("replay-chat-panel").hidden = !(state.data.chat || []).length;
  const list = $("replay-chat");
  list.replaceChildren(...said.map((m) => messageElement(m, m.seat === null ? spectatorName(m) : seatName(m.seat))));
  scrollLater(list);
}

function go(step) {
  const n = state.data.frames.length - 1;
  state.step = Math.max(0, Math.min(n, step));
  history.replaceState(null, "", `?seat=${state.pov}&step=${state.step}`);
  render();
  announceStep();
}

/** A screen reader hears each step it moves to: "Step 12 of 80: West discards 5 Bamboo". */
function announceStep() {
  const f = frame();
  const text = f.number === 0 ? t("replay.deal") : closes(f) ? t("replay.nobody_claims")
    : t("replay.action", { who: seatName(f.seat), move: moveText(f.action) });
  $("replay-announce").textContent = t("a11y.step", { n: state.step, total: state.data.frames.length - 1, text });
}

// -- the wall check ----------------------------------------------------------------------------------

async function checkWall() {
  const el = $("wall-check");
  const result = state.data.result || {};
  const reveal = result.wall_reveal;
  const published = state.data.wall_hash;
  if (!reveal) {
    el.textContent = t("replay.wall_none");
    return;
  }
  const hex = await wallDigest(reveal);
  if (hex === null) {
    el.textContent = t("replay.no_webcrypto");
    return;
  }
  const ok = hex === published;
  el.className = ok ? "ok" : "bad";
  el.dataset.match = ok ? "true" : "false";
  el.innerHTML = "";
  const line = document.createElement("span");
  line.textContent = ok ? t("replay.wall_ok") : t("replay.wall_bad");
  const detail = document.createElement("span");
  detail.className = "muted";
  for (const [label, value] of [["replay.published", published], ["replay.computed", hex]]) {
    const code = document.createElement("code");
    code.textContent = value;
    detail.append(document.createElement("br"), `${t(label)} `, code);
  }
  el.append(line, detail);
  if (reveal.scheme === "sha256-ctr-v1" && reveal.secret) {
    const wall = await wallFromSecret(reveal.secret, reveal.dealer ?? 0);
    if (wall === null) return;
    const same = wall.length === reveal.wall.length && wall.every((x, i) => x === reveal.wall[i]);
    el.dataset.shuffle = same ? "true" : "false";
    const shuffle = document.createElement("span");
    shuffle.className = same ? "" : "bad";
    shuffle.textContent = t(same ? "replay.shuffle_ok" : "replay.shuffle_bad");
    el.append(document.createElement("br"), shuffle);
  }
}

// -- the review --------------------------------------------------------------------------------------

/** "ready", "complete" or "N tiles from ready" for a shanten number. */
function awayText(shanten) {
  const n = Number(shanten);
  if (n <= 0) return t(n === 0 ? "replay.away.ready" : "replay.away.complete");
  return n === 1 ? t("replay.away.one") : t("replay.away.n", { n });
}

/** A flagged decision's reason in the page's language (the server's English for a code we do not know). */
function reasonText(d) {
  const code = d.reason_code;
  if (!code || !has(`replay.reason.${code}`)) return d.reason || "";
  const p = d.reason_params || {};
  const params = { ...p };
  if (p.tile) params.tile = tileName(p.tile);
  if (p.bot_tile) params.bot_tile = tileName(p.bot_tile);
  if (p.shanten !== undefined) params.away = awayText(p.shanten);
  if (p.bot_shanten !== undefined) params.bot_away = awayText(p.bot_shanten);
  if (p.winner !== undefined) params.winner = seatName(p.winner);
  if (typeof p.risk === "number") params.risk = p.risk.toFixed(2);
  if (typeof p.bot_risk === "number") params.bot_risk = p.bot_risk.toFixed(2);
  return t(`replay.reason.${code}`, params);
}

function fmt(a, b) {
  return a === null || a === undefined ? "" : `${a} / ${b}`;
}

async function loadReview() {
  const seat = Number($("review-seat").value);
  if ($("review-mode").value === "expert") {
    await loadExpert(seat);
    return;
  }
  state.expert = null;
  $("match-btn").hidden = true;
  $("match-summary").replaceChildren();
  $("review-btn").disabled = true;
  $("review-summary").textContent = t("replay.reviewing");
  try {
    state.review = await getJSON(`/api/tables/${encodeURIComponent(state.code)}/hands/${state.number}/review?seat=${seat}`);
  } catch (err) {
    $("review-summary").textContent = err.code ? errorText(err) : err.message;
    return;
  } finally {
    $("review-btn").disabled = false;
  }
  const s = state.review.summary;
  $("review-summary").textContent = t("replay.summary", {
    who: seatName(seat), n: s.decisions, pct: Math.round(100 * s.agreement), agreed: s.agreed, flagged: s.flagged,
  });
  $("review-summary").dataset.agreement = String(s.agreement);
  const table = document.createElement("table");
  const head = document.createElement("tr");
  for (const key of ["step", "you", "bot", "shanten", "useful"]) {
    const th = document.createElement("th");
    th.textContent = t(`replay.col.${key}`);
    if (key === "shanten" || key === "useful") th.title = t(`replay.col.${key}_title`);
    head.append(th);
  }
  table.createTHead().append(head);
  const body = document.createElement("tbody");
  for (const d of state.review.decisions) {
    const tr = document.createElement("tr");
    tr.dataset.step = String(d.number - 1);
    tr.className = d.flagged ? "flagged" : d.agree ? "" : "differ";
    for (const cell of [String(d.number), moveNode(d.player), moveNode(d.bot), fmt(d.player_shanten, d.bot_shanten), fmt(d.player_useful, d.bot_useful)]) {
      const td = document.createElement("td");
      td.append(cell);
      tr.append(td);
    }
    tr.addEventListener("click", () => {
      if (state.pov !== OPEN) state.pov = seat;
      $("pov").value = String(state.pov);
      go(d.number - 1);
      revealMark();
    });
    body.append(tr);
    if (d.flagged) {
      const why = document.createElement("tr");
      why.className = "reason flagged";
      why.innerHTML = "<td></td><td colspan=\"4\"></td>";
      why.lastChild.textContent = reasonText(d);
      body.append(why);
    }
  }
  table.append(body);
  $("review-list").replaceChildren(table);
  render();
}

/** After a click on a reviewed decision: its mark (and the expert's options) brought into view, in the
 * next frame, once the step is drawn. */
function revealMark() {
  const reveal = () => {
    const mark = document.querySelector(".review-mark");
    if (mark) mark.scrollIntoView({ block: "nearest" });
  };
  requestAnimationFrame(reveal);
  // the page may still be settling (late fonts, a progress bar going away, the board redrawn): while
  // it does, for a moment, the mark is kept in view, unless the reader scrolls first
  const watch = new ResizeObserver(() => requestAnimationFrame(reveal));
  const stop = () => {
    watch.disconnect();
    for (const kind of ["wheel", "touchstart", "keydown"]) removeEventListener(kind, stop);
  };
  for (const kind of ["wheel", "touchstart", "keydown"]) addEventListener(kind, stop, { passive: true });
  watch.observe(document.body);
  setTimeout(stop, 3000);
}

/** Under the step's title: the reviewed decision taken at this state, if any. */
function renderReviewMark() {
  document.querySelectorAll(".review-mark").forEach((el) => el.remove());
  const expert = expertMark();
  if (expert) $("step-action").after(expert);
  if (!state.review) return;
  const d = state.review.decisions.find((x) => x.number - 1 === state.step);
  if (!d) return;
  const el = document.createElement("span");
  el.className = "review-mark" + (d.agree ? " ok" : "");
  el.append(d.agree ? withNodes(t("replay.mark_agree", { move: MARKS[0] }), [moveNode(d.player)])
    : withNodes(t("replay.mark_differ", { move: MARKS[0], bot: MARKS[1] }), [moveNode(d.player), moveNode(d.bot)]));
  if (!d.agree && d.flagged) el.append(` ${reasonText(d)}`);
  if (d.player_shanten !== null && !d.agree) {
    const more = document.createElement("span");
    more.className = "muted";
    more.textContent = " " + t("replay.mark_more", {
      shanten: fmt(d.player_shanten, d.bot_shanten), useful: fmt(d.player_useful, d.bot_useful),
      value: fmt(d.player_value.toFixed(2), d.bot_value.toFixed(2)),
      risk: fmt(d.player_risk.toFixed(2), d.bot_risk.toFixed(2)),
    });
    el.append(more);
  }
  $("step-action").after(el);
}

// -- start ---------------------------------------------------------------------------------------------

/** The wind seat `seat` held in this hand (the dealer is East), as the felt shows it. */
function windHeld(seat) {
  const v = state.data.frames[0].view;
  const sv = v.seats && v.seats[seat];
  return (sv && sv.wind) || SEAT_LETTERS[(seat - (v.dealer || 0) + 4) % 4];
}

function fillSelects() {
  const pov = $("pov");
  const rev = $("review-seat");
  const board = $("board-seat");
  for (let s = 0; s < 4; s += 1) {
    pov.append(new Option(t("replay.pov_seat", { wind: t(`wind.${windHeld(s)}`), name: seatName(s) }), String(s)));
    rev.append(new Option(seatName(s), String(s)));
    board.append(new Option(seatName(s), String(s)));
  }
  board.value = String(state.pov === OPEN ? 0 : state.pov);
  pov.append(new Option(t("replay.pov_open"), OPEN));
  pov.value = String(state.pov);
  rev.value = String(state.pov === OPEN ? 0 : state.pov);
  pov.addEventListener("change", () => {
    state.pov = pov.value === OPEN ? OPEN : Number(pov.value);
    if (state.pov !== OPEN) board.value = String(state.pov);
    go(state.step);
  });
}

async function main() {
  $("header-tools").append(langSwitch());
  try {
    state.data = await getJSON(`/api/tables/${encodeURIComponent(state.code)}/hands/${state.number}/replay`);
  } catch (err) {
    const el = $("replay-error");
    el.hidden = false;
    if (unreachable(err) || err.status >= 500) showTrouble(el, err, () => location.reload());
    else el.textContent = err.code ? errorText(err) : t("replay.none", { error: err.message });
    return;
  }
  const data = state.data;
  $("replay").hidden = false;
  $("replay-title").textContent = t("replay.title", { name: tableName(data.name), n: data.hand_number });
  $("table-link").href = `/t/${encodeURIComponent(data.code)}`;
  shareButton($("replay-share"), () => ({
    title: t("share.replay_title", { name: data.name, n: data.hand_number }),
    text: t("share.replay_text", { name: data.name, n: data.hand_number }),
    url: `${location.origin}/replay/${encodeURIComponent(data.code)}/${data.hand_number}`,
  }));
  document.title = t("replay.doc_title", { name: tableName(data.name), n: data.hand_number });
  $("slider").max = String(data.frames.length - 1);
  fillSelects();
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.step - 1));
  $("next").addEventListener("click", () => go(state.step + 1));
  $("last").addEventListener("click", () => go(data.frames.length));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("review-btn").addEventListener("click", loadReview);
  setupExpert({ state, $, moveNode, moveText, seatName, reasonText, go, render, withNodes, MARKS, revealMark });
  if (query.get("review") === "expert") $("review-mode").value = "expert";
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.target instanceof HTMLSelectElement) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (e.key in moves) {
      e.preventDefault();
      go(state.step + moves[e.key]);
    } else if (e.key === "Home") go(0);
    else if (e.key === "End") go(data.frames.length);
  });
  const step = Number(query.get("step"));
  state.step = Number.isFinite(step) ? Math.max(0, Math.min(data.frames.length - 1, step)) : 0;
  state.patterns = await patternNames();
  render();
  checkWall();
}

shownAfter(main());
