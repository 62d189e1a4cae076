// /clubs: my clubs (GET /api/clubs), start one (POST /api/clubs), and the invite page
// (/invite/CODE, whose link preview names the club and who sent it, or /clubs#invite=CODE: invite.js).
import { presetName } from "./api.js";
import { clubRequest, el, failText, stakesLabel } from "./clubapi.js";
import { t } from "./i18n.js";
import { showInvite } from "./invite.js";

const $ = (id) => document.getElementById(id);

function status(text, bad = false) {
  $("clubs-status").textContent = text;
  $("clubs-status").classList.toggle("bad", bad);
}

function renderClubs(d) {
  if (invite && !d.has_identity) $("mine-card").hidden = true; // a new friend: the invite is the page
  const list = $("my-clubs");
  list.replaceChildren();
  if (!d.clubs.length) list.append(el("li", t(d.has_identity ? "clubs.none" : "clubs.no_identity"), "muted"));
  for (const c of d.clubs) {
    const li = el("li");
    const a = el("a", c.name);
    a.href = c.url;
    const mode = c.money ? stakesLabel(c.stake) : t("clubs.in_points");
    li.append(a, el("span", ` · ${mode} · ${presetName(c.preset)}`, "muted"));
    if (c.role === "owner") li.append(el("span", ` · ${t("club.role.owner")}`, "muted"));
    list.append(li);
  }
  const preset = $("club-preset");
  if (!preset.options.length) {
    for (const p of d.presets) preset.append(new Option(presetName(p), p));
  }
  $("club-name").maxLength = d.name_max;
}

async function load() {
  try {
    renderClubs(await clubRequest("GET", "/api/clubs"));
  } catch (err) {
    status(failText(err), true);
  }
}

$("create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const club = await clubRequest("POST", "/api/clubs", {
      name: $("club-name").value, preset: $("club-preset").value, // points first: stakes only with money on
    });
    location.href = club.url;
  } catch (err) {
    status(failText(err), true);
  }
});

const invite = new URLSearchParams(location.hash.slice(1)).get("invite")
  || decodeURIComponent((location.pathname.match(/^\/invite\/([^/]+)$/) || [])[1] || "");
if (invite) {
  $("clubs-intro").hidden = true;
  $("create-card").hidden = true;
  showInvite(invite);
}
document.title = t("clubs.doc_title");
load();
