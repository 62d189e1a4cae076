// /leaderboard: the top of this season's or the all-time board (GET /api/leaderboard), the signed-in
// player's own place, and the ladder's rules written out from the server's ladder, in players' words
// (a rating, games played, a rank; "How ratings work" opens a short explanation).
import { esc, getJSON } from "./api.js";
import { t } from "./i18n.js";
import { showTrouble } from "./trouble.js";
import { rankName } from "./ranks.js";

const $ = (id) => document.getElementById(id);
let shown = "current";

function row(r, me) {
  const mine = me && me.position === r.position ? ' class="mine"' : "";
  return `<tr data-position="${r.position}"${mine}><td class="num">${r.position}</td><td>${esc(r.name)}</td>` +
    `<td class="rank">${esc(rankName(r))}</td><td class="num pts">${r.points}${r.target ? ` / ${r.target}` : ""}</td>` +
    `<td class="num rating">${r.rating}</td><td class="num">${r.matches}</td></tr>`;
}

function renderBoard(d) {
  $("season-current").textContent = t("board.season", { season: d.current });
  for (const [id, key] of [["season-current", "current"], ["season-all", "all"]]) {
    $(id).setAttribute("aria-pressed", String(shown === key));
    $(id).classList.toggle("secondary", shown !== key);
  }
  if (d.me) $("board-me").textContent = t("board.me", { position: d.me.position, rank: rankName(d.me), rating: d.me.rating });
  else $("board-me").textContent = t(d.signed_in ? "board.me_unrated" : "board.sign_in");
  if (!d.rows.length) {
    $("board").innerHTML = `<p class="muted">${esc(t("board.empty"))}</p>`;
    return;
  }
  const head = ["pos", "name", "rank", "points", "rating", "matches"].map((k) =>
    `<th class="${["pos", "points", "rating", "matches"].includes(k) ? "num" : ""}${k === "points" ? " pts" : ""}">` +
    `${esc(t(`board.col.${k}`))}</th>`).join("");
  $("board").innerHTML = `<div class="table-scroll"><table class="data board"><thead><tr>${head}</tr></thead>` +
    `<tbody>${d.rows.map((r) => row(r, d.me)).join("")}</tbody></table></div>`;
}

function renderLadder(d) {
  const l = d.ladder;
  const ranks = l.ranks.map((r) => `<tr data-rank="${esc(r.key)}"><td>${esc(t(`rank.${r.key}`))}</td>` +
    r.points.map((p) => `<td class="num">${p > 0 ? "+" : ""}${p}</td>`).join("") +
    `<td class="num">${r.target === null ? "—" : r.target}</td></tr>`).join("");
  const head = ["rank", "first", "second", "third", "fourth", "target"].map((k) =>
    `<th${k === "rank" ? "" : ' class="num"'}>${esc(t(`board.ladder.${k}`))}</th>`).join("");
  $("ladder").innerHTML =
    `<p>${esc(t("board.rule.ranked", { rounds: l.rounds }))}</p>` +
    `<p>${esc(t("board.rule.rating"))} <button type="button" class="link-button" data-rating-help>${esc(t("board.how"))}</button></p>` +
    `<div class="table-scroll"><table class="data ladder"><thead><tr>${head}</tr></thead><tbody>${ranks}</tbody></table></div>` +
    `<p>${esc(t("board.rule.points"))}</p>` +
    `<p>${esc(t("board.rule.provisional", { n: l.provisional }))}</p>` +
    `<p>${esc(t("board.rule.seasons", { months: d.months }))}</p>`;
}

async function load(season) {
  shown = season;
  try {
    const d = await getJSON(`/api/leaderboard?season=${season}`);
    renderBoard(d);
    renderLadder(d);
  } catch (err) {
    showTrouble($("board"), err, () => load(season));
  }
}

$("season-current").addEventListener("click", () => load("current"));
// "How ratings work": a short explanation in the page's language (a dialog, so a player never needs the docs)
const help = $("rating-help");
$("rating-help-open").addEventListener("click", () => help.showModal());
$("ladder").addEventListener("click", (ev) => { if (ev.target.closest("[data-rating-help]")) help.showModal(); });
$("season-all").addEventListener("click", () => load("all"));
document.title = t("board.doc_title");
load("current");
