// A club table's link back to its club and its stakes, in the table page's top bar: GET
// /api/tables/CODE/club answers the club (its name, link, points or stakes) to the club's members, and
// nothing to anyone else or at a table of no club. The club's name is players' text: textContent.
import { clubRequest, el, stakesLabel } from "./clubapi.js";
import { t } from "./i18n.js";

const code = decodeURIComponent(location.pathname.split("/").pop() || "");

async function show() {
  const box = document.getElementById("table-club");
  if (!box || !code) return;
  let club = null;
  try {
    club = (await clubRequest("GET", `/api/tables/${encodeURIComponent(code)}/club`)).club;
  } catch (_err) {
    return; // the table page says what went wrong with the table itself
  }
  if (!club) return;
  const back = el("a", t("tableclub.back", { club: club.name }), "table-club-link");
  back.href = club.url;
  const stakes = club.money ? t("tableclub.stakes", { stakes: stakesLabel(club.stake) }) : t("tableclub.points");
  box.replaceChildren(back, el("span", ` · ${stakes}`, "table-club-stakes"));
  box.hidden = false;
}

show();
