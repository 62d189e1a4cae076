// The invite page (/invite/CODE, or /clubs#invite=CODE). As the page opens it asks what the link is (POST
// /api/clubs/invitation: the club's name, stakes and house rules, who sent the link, how many members)
// or why it joins nobody (revoked, expired, unknown: said at once, in the page's language, with no
// Join). Join joins in one step: a new friend's display name is asked on the same screen, a suggestion
// filled in, and sent with the join; the invite never leaves the screen. Names are shown as text.
import { presetName } from "./api.js";
import { clubRequest, failText, stakesLabel } from "./clubapi.js";
import { t } from "./i18n.js";
import { rememberName, rememberedName } from "./identity.js";
import { shareButton } from "./share.js";

const $ = (id) => document.getElementById(id);
const DEAD = ["invite_unknown", "invite_revoked", "invite_expired"];

/** A ready-made display name in the page's language: "Guest 4821", "客人4821". */
export function guestName() {
  return t("pages.guest", { n: 1000 + Math.floor(Math.random() * 9000) });
}

function say(text, bad = false) {
  $("invite-status").textContent = text;
  $("invite-status").classList.toggle("bad", bad);
}

/** A link that joins nobody: the card says why and offers no Join. */
function dead(err) {
  $("invite-card").classList.add("dead");
  $("invite-title").textContent = t(err.code === "invite_unknown" ? "clubs.invite_unknown" : "clubs.invite_dead");
  $("invite-club").textContent = "";
  $("invite-stakes").textContent = "";
  $("join-form").hidden = true;
  say(failText(err), true);
}

function describe(seen) {
  const c = seen.club;
  $("invite-title").textContent = t("clubs.invite_from", { name: seen.inviter });
  $("invite-club").textContent = c.name;
  const members = t(seen.members === 1 ? "clubs.members_one" : "clubs.members_n", { n: seen.members });
  $("invite-stakes").textContent = [
    c.money ? t("clubs.invite_stakes", { stakes: stakesLabel(c.stake), points: stakesLabel(c.cents_per_point).split("/")[0] })
      : t("clubs.in_points"),
    t("clubs.invite_rules", { rules: presetName(c.preset) }),
    members,
  ].join(" · ");
  $("invite-print").textContent = t("clubs.invite_print", { print: seen.fingerprint });
}

async function join(invite, seen, button) {
  const body = { invite };
  if (seen.needs_name) body.name = $("join-name").value;
  button.disabled = true;
  say("");
  try {
    const club = await clubRequest("POST", "/api/clubs/join", body);
    if (body.name) rememberName(body.name.trim());
    location.href = `${club.url}#welcome`; // the club's page welcomes them once
  } catch (err) {
    button.disabled = false;
    if (DEAD.includes(err.code)) dead(err);
    else say(failText(err), true);
  }
}

/** Show the invite of `invite` (its code) in the invite card, and join by it in one step. */
export async function showInvite(invite) {
  $("invite-card").hidden = false;
  let seen;
  try {
    seen = await clubRequest("POST", "/api/clubs/invitation", { invite });
  } catch (err) {
    dead(err);
    return;
  }
  describe(seen);
  if (seen.member) {
    $("invite-open").href = seen.url;
    $("invite-member").hidden = false;
    say(t("clubs.invite_member"));
    // a member may pass the link on to another friend (as the /invite/CODE link, which has a preview)
    const url = `${location.origin}/invite/${encodeURIComponent(invite)}`;
    shareButton($("invite-share"), () => ({ title: t("share.invite_title", { club: seen.club.name }),
      text: t("share.invite_text", { club: seen.club.name }), url }), "share.share_invite");
    $("invite-share").hidden = false;
    return;
  }
  const field = $("join-name");
  $("join-name-row").hidden = !seen.needs_name;
  field.disabled = !seen.needs_name; // a player with a name is not asked again
  if (seen.needs_name) {
    field.maxLength = seen.name_max;
    field.value = rememberedName().slice(0, seen.name_max) || guestName();
  }
  $("join-form").hidden = false;
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    join(invite, seen, $("join-btn"));
  });
}
