// The seat's hints panel (the server's `hints` message, sent to this seat only): how far the hand is
// from ready, or the tiles it waits on with the copies not yet seen and the tai each would score, and
// the dead waits (every copy already in sight) greyed out after them.
import { tileElement } from "./tiles.js";
import { t } from "./i18n.js";

/** The panel element (made once, placed first in the side column). */
export function hintsPanel() {
  let panel = document.getElementById("hints-panel");
  if (panel) return panel;
  panel = document.createElement("div");
  panel.className = "panel flow-hints";
  panel.id = "hints-panel";
  panel.hidden = true;
  const h = document.createElement("h3");
  h.textContent = t("flow.hints.title");
  const body = document.createElement("div");
  body.className = "hints-body";
  panel.append(h, body);
  const side = document.querySelector("#play > aside");
  if (side) side.prepend(panel);
  return panel;
}

function line(text, cls) {
  const p = document.createElement("p");
  p.className = cls;
  p.textContent = text;
  return p;
}

function taiText(score) {
  return score.valid ? String(score.tai) : "–";
}

/** Show hints `h` (null: hide the panel, e.g. at the end of a hand or for a spectator). */
export function renderHints(h, view) {
  const panel = hintsPanel();
  const body = panel.querySelector(".hints-body");
  if (!h || !view || view.result || view.seat === null || view.seat === undefined) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  body.innerHTML = "";
  panel.dataset.shanten = String(h.shanten);
  if (h.drawn_wins) body.append(line(t("flow.hints.drawn_wins"), "hint-win"));
  if (h.tiles % 3 === 2) {
    // 14 tiles with no drawn tile apart (after a chow or pong): the shanten after the best discard
    if (h.shanten < 0) body.append(line(t("flow.hints.complete"), "hint-status"));
    else if (h.shanten === 0) body.append(line(t("flow.hints.one_discard"), "hint-status"));
    else body.append(line(shantenText(h.shanten), "hint-status"));
    return;
  }
  if (h.shanten > 0) {
    body.append(line(shantenText(h.shanten), "hint-status"));
    return;
  }
  const dead = h.dead || [];
  const live = (h.waits || []).length > 0;
  body.append(line(t(live || !dead.length ? "flow.hints.ready" : "flow.hints.ready_dead"), "hint-status"));
  const list = document.createElement("ul");
  list.className = "waits";
  for (const w of h.waits || []) {
    const li = document.createElement("li");
    li.dataset.wait = w.tile;
    li.dataset.unseen = String(w.unseen);
    li.dataset.taiDiscard = w.discard.valid ? String(w.discard.tai) : "";
    li.dataset.taiSelf = w.self_drawn.valid ? String(w.self_drawn.tai) : "";
    li.dataset.hand = w.hand;
    li.append(tileElement(w.tile, { size: "xs" }));
    const text = document.createElement("span");
    text.className = "wait-text";
    const unseen = document.createElement("span");
    unseen.className = "unseen";
    unseen.textContent = t("flow.hints.unseen", { n: w.unseen });
    const tai = document.createElement("span");
    tai.className = "tai";
    tai.textContent = !w.discard.valid && !w.self_drawn.valid
      ? t("flow.hints.no_win")
      : t("flow.hints.tai", { d: taiText(w.discard), s: taiText(w.self_drawn) });
    text.append(unseen, " · ", tai);
    li.append(text);
    list.append(li);
  }
  for (const tile of dead) {
    // a wait with every copy in sight (the seat's own tiles and sets, discards, exposed sets): no win on it
    const li = document.createElement("li");
    li.className = "dead";
    li.dataset.wait = tile;
    li.dataset.unseen = "0";
    li.append(tileElement(tile, { size: "xs" }));
    const text = document.createElement("span");
    text.className = "wait-text";
    text.textContent = t("flow.hints.dead");
    li.append(text);
    list.append(li);
  }
  body.append(list);
  body.append(line(t("flow.hints.note"), "muted"));
}

function shantenText(n) {
  return n === 1 ? t("flow.hints.shanten_one") : t("flow.hints.shanten", { n });
}
