// Ranks and ratings as the pages show them (the ladder is server/ranking/ladder.py): a rank's name in
// the page's language, a provisional mark, and the small chart of rating over time.
import { esc } from "./api.js";
import { t } from "./i18n.js";

/** "雀士 Adept"-style rank label of a standing ({rank, provisional}) in the page's language. */
export function rankName(s) {
  return t(`rank.${s.rank}`) + (s.provisional ? ` ${t("rank.provisional_mark")}` : "");
}

/** A standing as a small badge: rank and rating. */
export function rankBadge(s) {
  return `<span class="rank-badge rank-${esc(s.rank)}" title="${esc(t("rank.rating", { rating: s.rating }))}">` +
    `${esc(rankName(s))}</span>`;
}

/** The rating over the last matches ([{rating}], oldest first) as an SVG line chart. */
export function ratingChart(points) {
  if (points.length < 2) return "";
  const w = 600;
  const h = 140;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const x = (i) => (i / (points.length - 1)) * (w - 10) + 5;
  const y = (v) => h - 5 - ((v - lo) / span) * (h - 10);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" ` +
    `aria-label="${esc(t("rank.chart", { n: points.length, rating: values[values.length - 1] }))}">` +
    `<polyline class="line" points="${line}"/></svg>`;
}
