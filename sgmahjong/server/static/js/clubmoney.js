// Points first (docs/clubs.md): a club's ledger is in points unless its owner turns money on, which
// needs the notice of the law (Singapore's Gambling Control Act 2022, Malaysia's law) confirmed; the
// owner can turn it off again. Every member sees which mode the club is in. Amounts: points, or cents
// formatted as money when the club is in money.
import { money, signedMoney, stakesLabel } from "./clubapi.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const STAKES = [10, 20, 50, 100, 200];

/** "12 points" / "$2.40": a transfer's or a total's amount in the club's mode. */
export function amount(club, points, cents) {
  return club.money ? money(cents) : t(Math.abs(points) === 1 ? "club.points_one" : "club.points_n",
    { n: Math.abs(points) });
}

/** A member's signed figure: "+12" points, or "+$2.40". */
export function signedAmount(club, points, cents) {
  return club.money ? signedMoney(cents) : points > 0 ? `+${points}` : String(points);
}

/** The mode line every member sees, and the owner's controls. */
export function renderMoney(club) {
  $("money-mode").textContent = club.money ? t("club.mode_money", { stakes: stakesLabel(club.stake) })
    : t("club.mode_points");
  $("money-card").dataset.mode = club.money ? "money" : "points";
  $("money-open").hidden = club.money || !$("money-form").hidden;
  $("money-off").hidden = !club.money;
  if (!$("money-stake").options.length) {
    for (const s of STAKES) $("money-stake").append(new Option(stakesLabel(s), String(s), s === 20, s === 20));
  }
}

/** Wire the owner's controls: ``post(path, body)`` sends and reloads the page's data. */
export function wireMoney(post) {
  $("money-open").addEventListener("click", () => {
    $("money-form").hidden = false;
    $("money-open").hidden = true;
    $("money-law").scrollIntoView({ block: "nearest" });
  });
  $("money-cancel").addEventListener("click", () => {
    $("money-form").hidden = true;
    $("money-confirm").checked = false;
    $("money-open").hidden = false;
  });
  $("money-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const done = await post("/money", { money: true, law_confirmed: $("money-confirm").checked,
      stake: Number($("money-stake").value) });
    if (done) {
      $("money-form").hidden = true;
      $("money-confirm").checked = false;
    }
  });
  $("money-off").addEventListener("click", () => post("/money", { money: false }));
}
