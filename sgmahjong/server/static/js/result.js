// The end of a hand in players' words: the winning hand in tile pictures, the tai by pattern name, who
// pays whom (and every payment in a table), every hand, the wall reveal (checked against the hash
// published before the deal), after the last hand the standings; then the next hand and the replay.
import { sortTiles, tileElement, tileName } from "./tiles.js";
import { parseHand } from "./notation.js";
import { ACTION_KEYS } from "./keys.js";
import { esc } from "./api.js";
import { button, kbd, meldsElement, signed, tilesRow } from "./dom.js";
import { has, t } from "./i18n.js";
import { paymentReason } from "./events.js";
import { paymentSentences } from "./speech.js";

/** The 包 rule that made a seat liable (bao.py's names), in the page's language. */
export function liableReason(reason) {
  const r = String(reason);
  return has(`result.bao.${r}`) ? t(`result.bao.${r}`) : r.replaceAll("_", " ");
}

/**
 * Fill `el` with the result of the hand in view `v`.
 * ctx: {seatName(seat), patternName(id), code, canGoNext, readySent, onNext(), matchOver, and optionally
 * seatLabel(seat) (the name after the seat's wind, for the payments), onPeek() (a "show the table"
 * button), replayLink: false (no "watch the replay" link: on the replay page itself)}.
 */
export function fillResult(el, v, ctx) {
  const r = v.result;
  const h = document.createElement("h2");
  h.className = "result-title";
  const how = document.createElement("p");
  how.className = "result-how";
  if (r.drawn_game || r.winner === null || r.winner === undefined) {
    h.textContent = t("result.drawn");
    el.dataset.outcome = "draw";
  } else {
    // one line: the name may shorten (…), "wins: 5 tai" never does; how the hand was won below it
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = ctx.seatName(r.winner);
    who.title = ctx.seatName(r.winner);
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = t("result.wins_tai", { tai: r.tai, limit: r.limit ? t("result.limit") : "" });
    h.append(who, what);
    how.textContent = r.self_drawn ? t("result.how_self") : t("result.how_on", { shooter: ctx.seatName(r.shooter) });
    el.dataset.outcome = "win";
    el.dataset.winner = String(r.winner);
  }
  el.append(h);
  if (how.textContent) el.append(how);

  if (r.liable !== null && r.liable !== undefined) {
    const p = document.createElement("p");
    p.className = "liable";
    p.textContent = r.liable_reason
      ? t("result.pays_all_why", { who: ctx.seatName(r.liable), why: liableReason(r.liable_reason) })
      : t("result.pays_all", { who: ctx.seatName(r.liable) });
    el.append(p);
  }
  if (r.drawn_game && r.kong_made) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = t("result.kong_passes");
    el.append(p);
  }
  if (r.kind && r.kind !== "normal" && !r.drawn_game) {
    const p = document.createElement("p");
    p.className = "win-kind";
    p.textContent = t("result.special", { name: ctx.patternName(r.kind) });
    el.append(p);
  }

  if (r.hand) el.append(winningHand(r.hand));

  if (r.patterns && r.patterns.length) {
    const tbl = document.createElement("table");
    tbl.className = "data patterns";
    tbl.innerHTML = `<thead><tr><th>${t("result.col.pattern")}</th><th class="num">${t("result.col.tai")}</th></tr></thead><tbody>` +
      r.patterns.map((p) => `<tr data-pattern="${esc(p.id || p.name)}"><td>${esc(ctx.patternName(p.id || p.name))}</td>` +
        `<td class="num">${p.tai}</td></tr>`).join("") +
      `<tr><th>${t(r.limit ? "result.total_capped" : "result.total")}</th><th class="num">${r.tai}</th></tr></tbody>`;
    el.append(tbl);
  }

  if (r.payments) {
    el.append(whoPaysWhom(v, ctx));
    el.append(paymentsTable(v, ctx));
  }

  if (r.revealed && Object.keys(r.revealed).length) {
    const d = document.createElement("details");
    d.className = "hands-at-end";
    d.open = true;
    d.innerHTML = `<summary>${t("result.hands_at_end")}</summary>`;
    for (const [seat, tiles] of Object.entries(r.revealed)) {
      const row = document.createElement("div");
      row.className = "revealed-row";
      row.dataset.seat = seat;
      const name = document.createElement("span");
      name.textContent = (ctx.seatLabel || ctx.seatName)(Number(seat));
      row.append(name, tilesRow(sortTiles(tiles), null));
      d.append(row);
    }
    el.append(d);
  }

  if (r.wall_reveal) {
    const d = document.createElement("details");
    d.className = "wall-reveal";
    d.innerHTML = `<summary>${t("result.wall_reveal", { n: r.wall_reveal.wall.length })} ` +
      `<span class="verify">${t("result.checking")}</span></summary>`;
    d.append(tilesRow(r.wall_reveal.wall, null));
    const p = document.createElement("p");
    p.className = "muted";
    p.innerHTML = t("result.salt", { salt: `<code>${esc(r.wall_reveal.salt)}</code>`, hash: `<code>${esc(v.wall_hash || "")}</code>` });
    d.append(p);
    el.append(d);
    verifyWall(v.wall_hash, r.wall_reveal).then((ok) => {
      const s = d.querySelector(".verify");
      if (s) s.textContent = ok === null ? "" : ok ? t("result.wall_ok") : t("result.wall_bad");
    });
  }

  if (v.standings) el.append(standingsElement(v.standings, ctx.seatName));

  if (typeof v.hand_number === "number" && ctx.code) {
    const p = document.createElement("p");
    p.className = "hand-log-line";
    const a = document.createElement("a");
    a.className = "hand-log";
    a.href = `/api/tables/${encodeURIComponent(ctx.code)}/hands/${v.hand_number}/log`;
    a.download = `sgmahjong-${ctx.code}-hand-${v.hand_number}.jsonl`;
    a.textContent = t("result.download");
    p.append(a);
    el.append(p);
  }

  // what to do next, kept in view at the bottom of the panel
  const bar = document.createElement("div");
  bar.className = "result-actions";
  if (ctx.canGoNext) {
    const b = button(t("table.next_hand"), "next", ctx.onNext);
    b.prepend(kbd(ACTION_KEYS.next));
    b.disabled = ctx.readySent;
    bar.append(b);
  } else if (ctx.matchOver || v.standings) {
    const p = document.createElement("p");
    p.className = "match-over";
    p.append(t("result.match_over"), " ");
    const a = document.createElement("a");
    a.href = "/";
    a.textContent = t("common.back_to_lobby");
    p.append(a);
    bar.append(p);
  }
  if (ctx.onPeek) bar.append(button(t("table.show_table"), "peek", ctx.onPeek, "secondary peek-toggle"));
  if (typeof v.hand_number === "number" && ctx.code && ctx.replayLink !== false) {
    const a = document.createElement("a");
    a.className = "replay-link";
    a.href = `/replay/${encodeURIComponent(ctx.code)}/${v.hand_number}`;
    a.textContent = t("result.watch_replay");
    bar.append(a);
  }
  if (ctx.canGoNext) {
    const ready = document.createElement("p");
    ready.className = "ready-list muted";
    el.append(ready);
  }
  if (bar.childElementCount) el.append(bar);
}

/** The winning hand in tile pictures: the concealed tiles, the sets, the winning tile, the bonus tiles. */
function winningHand(text) {
  const hand = parseHand(text);
  const row = document.createElement("div");
  row.className = "hand-row winning-hand";
  const group = (label, content, cls) => {
    const g = document.createElement("figure");
    g.className = `hand-group ${cls}`;
    const cap = document.createElement("figcaption");
    cap.textContent = label;
    g.append(content, cap);
    return g;
  };
  row.append(group(t("result.hand.concealed"), tilesRow(sortTiles(hand.concealed), null), "concealed"));
  if (hand.melds.length) {
    const melds = meldsElement(hand.melds.map((m) => ({ kind: m.concealed ? "kong" : "set", tiles: m.tiles,
      concealed: m.concealed })), null);
    row.append(group(t("result.hand.sets"), melds, "sets"));
  }
  if (hand.winning) {
    const w = tileElement(hand.winning);
    w.classList.add("winning-tile");
    w.title = t("result.winning_tile", { tile: tileName(hand.winning) });
    const wrap = document.createElement("span");
    wrap.className = "tiles";
    wrap.append(w);
    row.append(group(t("result.hand.winning"), wrap, "winning"));
  }
  if (hand.bonus.length) {
    const bonus = tilesRow(hand.bonus, null);
    for (const tile of bonus.children) tile.title = tileName(tile.dataset.tile);
    row.append(group(t("result.hand.bonus"), bonus, "bonus"));
  }
  return row;
}

/** Who pays whom, in sentences: each instant payment, then the win (the table below has the sums). */
function whoPaysWhom(v, ctx) {
  const r = v.result;
  const label = ctx.seatLabel || ctx.seatName;
  const ul = document.createElement("ul");
  ul.className = "who-pays";
  const add = (what, amounts) => {
    for (const sentence of paymentSentences(amounts, (s) => label(s))) {
      const li = document.createElement("li");
      li.textContent = what ? t("say.payment", { what, sentences: sentence }) : sentence;
      ul.append(li);
    }
  };
  for (const p of r.instant || []) add(paymentReason(p.reason), p.amounts);
  if (!r.drawn_game && r.winner !== null && r.winner !== undefined) add("", r.payments);
  if (!ul.childElementCount) {
    const li = document.createElement("li");
    li.textContent = t("result.nobody_pays");
    ul.append(li);
  }
  return ul;
}

/**
 * Every payment of the hand, one row each: the instant payments in order (what, to whom, 包 if one seat
 * paid it all), the win payment, then each seat's hand total (the sum of the rows above) and match total.
 */
export function paymentsTable(v, ctx) {
  const r = v.result;
  const label = ctx.seatLabel || ctx.seatName;
  const hand = v.hand_ledger || [0, 0, 0, 0];
  const rows = [];
  for (const p of r.instant || []) {
    const what = paymentReason(p.reason);
    const text = p.liable !== null && p.liable !== undefined
      ? t("result.pay.instant_liable", { what, who: label(p.seat), liable: label(p.liable) })
      : t("result.pay.instant", { what, who: label(p.seat) });
    rows.push({ kind: "instant", text, amounts: p.amounts });
  }
  if (!r.drawn_game && r.winner !== null && r.winner !== undefined) {
    rows.push({ kind: "win", text: t("result.pay.win", { who: label(r.winner), tai: r.tai }), amounts: r.payments });
  }
  const sums = [0, 1, 2, 3].map((s) => rows.reduce((a, row) => a + (row.amounts[s] || 0), 0));
  if (sums.some((a, s) => a !== (hand[s] || 0))) {
    // a result stored before instant payments were listed: the rest of the hand total, unnamed
    rows.push({ kind: "other", text: t("result.pay.other"), amounts: sums.map((a, s) => (hand[s] || 0) - a) });
  }
  const match = v.match_ledger || v.ledger || [];
  const cells = (amounts, tag = "td") => [0, 1, 2, 3].map((s) => `<${tag} class="num" data-seat="${s}">` +
    `${amounts[s] ? signed(amounts[s]) : tag === "td" ? "·" : "0"}</${tag}>`).join("");
  const marks = (s) => (s === r.liable ? t("result.pays_all_mark") : "") +
    (s === r.shooter && !r.self_drawn ? t("result.shooter_mark") : "");
  const wrap = document.createElement("div");
  wrap.className = "table-scroll";
  const tbl = document.createElement("table");
  tbl.className = "data payments";
  tbl.innerHTML = `<thead><tr><th>${t("result.col.payment")}</th>` +
    [0, 1, 2, 3].map((s) => `<th class="num seat-col" data-seat="${s}">${esc(label(s))}${marks(s)}</th>`).join("") +
    `</tr></thead><tbody>` +
    rows.map((row) => `<tr class="pay-${row.kind}"><td>${esc(row.text)}</td>${cells(row.amounts)}</tr>`).join("") +
    `</tbody><tfoot><tr class="hand-total"><th>${t("result.col.hand_total")}</th>${cells(hand, "th")}</tr>` +
    `<tr class="match-total"><th>${t("result.col.match")}</th>${cells(match, "th")}</tr></tfoot>`;
  wrap.append(tbl);
  return wrap;
}

/** Between hands: who the next hand still waits for. */
export function renderReady(panel, table, mySeat) {
  const el = panel.querySelector(".ready-list");
  if (!el || !table) return;
  const waiting = table.seats.filter((s) => s.kind === "human" && s.connected && !s.ready)
    .map((s) => (s.seat === mySeat ? t("table.you_short") : s.name));
  el.textContent = waiting.length ? t("result.waiting_for", { list: waiting.join(", ") }) : "";
}

/** The SHA-256 (hex) of a revealed wall as committed before the deal, or null without WebCrypto. */
export async function wallDigest(reveal) {
  if (!window.crypto || !crypto.subtle) return null;
  const data = new TextEncoder().encode(`${reveal.salt}:${reveal.wall.join(" ")}`);
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function verifyWall(hash, reveal) {
  const hex = hash ? await wallDigest(reveal) : null;
  return hex === null ? null : hex === hash;
}

function standingsElement(standings, seatName) {
  const wrap = document.createElement("div");
  wrap.id = "standings";
  const h = document.createElement("h2");
  h.textContent = t("result.standings");
  wrap.append(h);
  const rows = (Array.isArray(standings) ? standings : Object.values(standings)).map((s, i) => {
    if (typeof s === "number") return { seat: i, score: s };
    return s;
  });
  const amount = (s) => s.amount ?? s.score ?? s.total ?? 0;
  rows.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0) || amount(b) - amount(a));
  const tbl = document.createElement("table");
  tbl.className = "data";
  tbl.innerHTML = `<thead><tr><th>${t("result.col.place")}</th><th>${t("result.col.player")}</th>` +
    `<th class="num">${t("result.col.score")}</th></tr></thead><tbody>` +
    rows.map((s, i) => `<tr data-seat="${s.seat}"><td>${s.rank ?? i + 1}</td><td>${esc(seatName(s.seat))}</td>` +
      `<td class="num">${signed(amount(s))}</td></tr>`).join("") + `</tbody>`;
  wrap.append(tbl);
  return wrap;
}
