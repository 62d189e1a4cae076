// The rating card of /me (signed in): rank, rating, place on the board and the chart of rating over
// the last ranked matches (GET /api/me/rating). Hidden for a guest.
import { esc, getJSON } from "./api.js";
import { t } from "./i18n.js";
import { rankName, ratingChart } from "./ranks.js";

const $ = (id) => document.getElementById(id);

export async function showRating() {
  const card = $("rating-card");
  if (!card) return;
  const d = await getJSON("/api/me/rating?season=all");
  card.hidden = !d.signed_in;
  if (!d.signed_in) return;
  const s = d.standing;
  $("rating").innerHTML = s
    ? `<div class="me-totals"><div class="stat" data-stat="rank"><b>${esc(rankName(s))}</b>${esc(t("rank.rank"))}</div>` +
      `<div class="stat" data-stat="rating"><b>${s.rating}</b>${esc(t("rank.rating_label"))}</div>` +
      `<div class="stat" data-stat="points"><b>${s.points}${s.target ? ` / ${s.target}` : ""}</b>${esc(t("rank.points"))}</div>` +
      `<div class="stat" data-stat="position"><b>#${s.position}</b>${esc(t("rank.position"))}</div>` +
      `<div class="stat" data-stat="matches"><b>${s.matches}</b>${esc(t("rank.matches"))}</div></div>` +
      `<div class="me-chart" id="rating-chart">${ratingChart(d.history)}</div>`
    : `<p class="muted">${esc(t("rank.unrated"))}</p>`;
}

showRating().catch(() => {});
