// The tutorial (/learn): a first hand played with the player, step by step. Every position, every
// button offered and the score come from js/tutorial-hand.js, which tools/make_tutorial.py plays
// through the rules core; this page only draws them (the site's tiles) and waits for the right move.
import "./site-header.js";
import { tileName } from "./tiles.js";
import { DISCARD_KEYS } from "./keys.js";
import { t } from "./i18n.js";
import { CLAIM_KEYS, drawTable, el } from "./learn-table.js";
import HAND from "./tutorial-hand.js";

const $ = (id) => document.getElementById(id);
const SEATS = ["E", "S", "W", "N"];
/** The player's moves in order (the script's `do`), each with its words in the strings files. */
const STEP_KEYS = ["discard_n", "chow", "discard_9m", "pong", "discard_1s", "win"];
export const DONE_KEY = "sgmahjong_learned";

let at = -1; // -1: the introduction; 0..n-1: the player's moves; n: the result
let handOrder = []; // the hand tiles in the order drawn (keys 1..9, 0, Q, W, E, R)

function step() {
  return at >= 0 && at < HAND.steps.length ? HAND.steps[at] : null;
}

/** The element the player must use now. */
function target() {
  const s = step();
  if (!s) return at < 0 ? $("learn-start") : null;
  const [kind, tile] = s.do.split(" ");
  if (kind === "discard") return document.querySelector(`.learn-hand button[data-tile="${tile}"]`);
  return document.querySelector(`.learn-claims button[data-action="${kind}"]`);
}

function say(text) {
  $("learn-live").textContent = text;
}

function draw() {
  const n = HAND.steps.length;
  const s = step();
  const pos = at < 0 ? HAND.steps[0].before : s ? s.before : HAND.end;
  const scores = at >= n ? HAND.result.payments : {};
  handOrder = drawTable($("learn-table"), pos, s, scores, { tile: tapTile, claim: tapClaim });
  $("learn-note").textContent = "";
  const buttons = $("learn-coach-buttons");
  buttons.replaceChildren();
  let words;
  $("learn-intro").hidden = at >= 0;
  $("learn-coach").hidden = at < 0;
  if (at < 0) {
    words = t("learn.intro", { flower: tileName(HAND.steps[0].before.seats[0].bonus[0]),
      drawn: tileName(HAND.steps[0].before.drawn) });
    $("learn-intro-text").textContent = words;
  } else if (s) {
    $("learn-step").textContent = t("learn.step_of", { n: at + 1, total: n });
    words = t(`learn.do.${STEP_KEYS[at]}`, stepParams(s));
  } else {
    $("learn-step").textContent = t("learn.done_h");
    words = t("learn.done");
    showResult(buttons);
  }
  if (at >= 0) $("learn-say").textContent = words;
  $("learn-result").hidden = at < n;
  document.querySelectorAll(".learn-target").forEach((e) => e.classList.remove("learn-target"));
  const aim = target();
  if (aim) {
    aim.classList.add("learn-target");
    aim.setAttribute("aria-describedby", at < 0 ? "learn-intro-text" : "learn-say");
  }
  document.documentElement.dataset.learnStep = at < 0 ? "intro" : s ? STEP_KEYS[at] : "done";
  return { words, aim };
}

function stepParams(s) {
  const [, tile] = s.do.split(" ");
  const d = s.before.discard;
  return {
    tile: tile && tile.length <= 2 ? tileName(tile) : "",
    discard: d ? tileName(d.tile) : "",
    who: d ? t(`wind.${d.seat}`) : "",
  };
}

/** Move to step `i`: draw it, say it, and bring its target into view with the focus on it. */
function go(i) {
  at = i;
  const { words, aim } = draw();
  say(words);
  if (at >= 0) $("learn-coach").scrollIntoView({ block: "nearest" }); // the words, with the hand just above them
  if (aim) {
    aim.focus({ preventScroll: true });
    aim.scrollIntoView({ block: "nearest" });
  }
}

function wrong(elem, text) {
  const note = $("learn-note");
  note.textContent = text;
  say(text);
  if (elem) {
    elem.classList.remove("learn-wrong");
    void elem.offsetWidth; // restart the shake
    elem.classList.add("learn-wrong");
  }
  $("learn-coach").scrollIntoView({ block: "nearest" }); // the correction, in view
  const aim = target();
  if (aim) {
    aim.focus({ preventScroll: true });
    aim.scrollIntoView({ block: "nearest" });
  }
  document.documentElement.dataset.learnWrong = String(Number(document.documentElement.dataset.learnWrong || 0) + 1);
}

function tapTile(i) {
  const s = step();
  if (!s) return;
  const tile = handOrder[i];
  const button = document.querySelector(`.learn-hand button[data-index="${i}"]`);
  const [kind, want] = s.do.split(" ");
  if (kind === "discard" && tile === want) return go(at + 1);
  if (kind === "discard") {
    return wrong(button, t("learn.wrong.discard", { tile: tileName(tile), want: tileName(want) }));
  }
  return wrong(button, t("learn.wrong.claim_tile", { button: t(`table.${kind}`) }));
}

function tapClaim(kind) {
  const s = step();
  if (!s) return;
  const want = s.do.split(" ")[0];
  if (kind === want) return go(at + 1);
  const button = document.querySelector(`.learn-claims button[data-action="${kind}"]`);
  return wrong(button, t(`learn.wrong.${want}`));
}

function showResult(buttons) {
  const res = HAND.result;
  const box = $("learn-result");
  box.replaceChildren();
  box.append(el("h2", "", t("learn.result_h")));
  const table = el("table", "data patterns");
  const head = el("thead");
  const hr = el("tr");
  hr.append(el("th", "", t("result.col.pattern")), el("th", "num", t("result.col.tai")));
  head.append(hr);
  const body = el("tbody");
  for (const p of res.patterns) {
    const tr = el("tr");
    tr.dataset.pattern = p.id;
    tr.append(el("td", "", `${t(`pattern.${p.id}`)} — ${t(`learn.why.${p.id}`)}`), el("td", "num", String(p.tai)));
    body.append(tr);
  }
  const total = el("tr", "total");
  total.append(el("th", "", t("result.total")), el("th", "num", String(res.tai)));
  body.append(total);
  table.append(head, body);
  const pays = res.payments;
  const shooter = res.shooter;
  const others = SEATS.filter((s) => s !== "E" && s !== shooter);
  const pay = el("p", "learn-pay", t("learn.pay", {
    tai: res.tai,
    each: -pays[others[0]],
    shooter: t(`wind.${shooter}`),
    double: -pays[shooter],
    a: t(`wind.${others[0]}`),
    b: t(`wind.${others[1]}`),
    total: pays.E,
  }));
  box.append(table, pay);
  const play = el("a", "button", t("learn.play"));
  play.href = "/";
  const howto = el("a", "button secondary", t("learn.howto"));
  howto.href = "/how-to-play";
  const again = el("button", "secondary", t("learn.again"));
  again.type = "button";
  again.addEventListener("click", () => go(-1));
  buttons.append(play, howto, again);
  try { localStorage.setItem(DONE_KEY, "1"); } catch (_err) { /* private mode */ }
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || !step()) return;
  if ((e.key === "Enter" || e.key === " ") && e.target instanceof HTMLButtonElement) return; // the button's own
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  const i = DISCARD_KEYS.indexOf(key);
  if (i >= 0 && i < handOrder.length) {
    e.preventDefault();
    tapTile(i);
    return;
  }
  const kind = Object.keys(CLAIM_KEYS).find((k) => CLAIM_KEYS[k] === (key === " " ? " " : key));
  if (kind && document.querySelector(`.learn-claims button[data-action="${kind}"]`)) {
    e.preventDefault();
    tapClaim(kind);
  }
});

$("learn-table").setAttribute("aria-label", t("learn.table"));
$("learn-start").addEventListener("click", () => go(0));
at = -1;
draw();
