// The replay's expert: the review that prices every decision of a seat (POST .../expert?seat=S, then
// polled for its progress), the whole match's summary (POST /api/tables/CODE/expert?seat=S) and the
// analysis board ("what would the expert do here?", POST .../analysis?seat=S&step=K). The replay page
// (replay.js) owns the state and hands its helpers in with setupExpert(); everything the server says
// is written as text.
import { getJSON, postJSON } from "./api.js";
import { errorText as codeText } from "./errors.js";
import { t } from "./i18n.js";

const POLL_MS = 800;
let page = null;  // { state, $, moveNode, moveText, seatName, reasonText, go, render, withNodes, MARKS, revealMark }

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** +1.2 (values are the points the seat's hand paid it on average), with `digits` decimals. */
function signed(x, digits = 1) {
  const v = Number(x);
  return (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(digits);
}

const points = (x) => Number(x).toFixed(1);

function valueText(o) {
  return t("replay.expert.value", { mean: signed(o.mean) });
}

/** A failed request in the page's language (busy, no choice there, one's own jobs queued already,
 * members only) or the server's own words. */
function errorText(err) {
  if (err.status === 503 && err.code === "busy") return t("replay.expert.busy");
  if (err.status === 409 && page.board) return t("replay.board.no_choice");
  return err.code ? codeText(err) : err.message;
}

/** POST to start (or join) a job, then GET (or POST again: `repost`, which queues what a busy
 * reviewer refused) until it is done; progress(answer) after each answer. */
async function run(url, progress, repost = false) {
  let answer = await postJSON(url, {});
  while (answer.status !== "done" && answer.complete !== true) {
    progress(answer);
    await sleep(POLL_MS);
    answer = repost ? await postJSON(url, {}) : await getJSON(url);
  }
  return answer;
}

/** The review's progress bar: moving from the first second (no value: the bar's own animation) while
 * the expert gets ready, with the seconds waited; then how many decisions it has looked at. */
function showProgress(done, total, started) {
  const bar = page.$("review-progress");
  bar.hidden = false;
  if (total) {
    bar.max = total;
    bar.value = done;
  } else {
    bar.removeAttribute("value");
  }
  page.$("review-summary").textContent = total ? t("replay.expert.progress", { done, total })
    : t("replay.expert.queued", { secs: Math.floor((Date.now() - started) / 1000) });
}

function stepLink(number, label, onClick) {
  const a = document.createElement("a");
  a.href = "#";
  a.textContent = label;
  a.className = "mistake";
  a.dataset.step = String(number - 1);
  a.addEventListener("click", (e) => {
    e.preventDefault();
    onClick();
  });
  return a;
}

// -- one hand ------------------------------------------------------------------------------------------

export async function loadExpert(seat) {
  const { state, $ } = page;
  state.review = null;
  state.expert = null;
  $("review-btn").disabled = true;
  $("review-list").replaceChildren();
  const started = Date.now();
  showProgress(0, 0, started);
  const tick = setInterval(() => {
    if (!page.$("review-progress").hasAttribute("value")) showProgress(0, 0, started);
  }, 1000);
  try {
    const url = `/api/tables/${encodeURIComponent(state.code)}/hands/${state.number}/expert?seat=${seat}`;
    const answer = await run(url, (a) => showProgress(a.done || 0, a.total || 0, started));
    state.expert = { seat, ...answer.review };
  } catch (err) {
    $("review-summary").textContent = errorText(err);
    return;
  } finally {
    clearInterval(tick);
    $("review-btn").disabled = false;
    $("review-progress").hidden = true;
  }
  renderExpert();
  page.render();
}

function costText(d) {
  return d.costly ? t("replay.expert.cost", { cost: points(d.cost) }) : "";
}

/** The exact values behind the plain words, folded away: each option's points give or take its error. */
function numbersLine(options, d = null) {
  const box = document.createElement("details");
  box.className = "numbers";
  const summary = document.createElement("summary");
  summary.textContent = t("replay.expert.numbers_more");
  const p = document.createElement("p");
  const list = options.map((o) => t("replay.expert.number", { move: page.moveText(o.action),
    mean: signed(o.mean, 2), se: Number(o.se).toFixed(2) }));
  if (d && d.costly) list.unshift(t("replay.expert.cost_numbers", { cost: Number(d.cost).toFixed(2), se: Number(d.cost_se).toFixed(2) }));
  p.textContent = t("replay.expert.numbers", { list: list.join("; ") });
  box.append(summary, p);
  return box;
}

function renderExpert() {
  const { state, $, moveNode, seatName, go } = page;
  const r = state.expert;
  const s = r.summary;
  const seat = r.seat;
  const head = document.createElement("div");
  head.textContent = t("replay.expert.summary", {
    who: seatName(seat), n: s.decisions, agreed: s.agreed, pct: Math.round(100 * s.agreement),
    costly: s.costly, loss: points(s.expected_loss),
  });
  const summary = $("review-summary");
  summary.replaceChildren(head);
  summary.dataset.agreement = String(s.agreement);
  const byNumber = new Map(r.decisions.map((d) => [d.number, d]));
  if ((s.biggest || []).length) {
    const line = document.createElement("div");
    line.className = "mistakes";
    line.append(t("replay.expert.biggest"), " ");
    s.biggest.forEach((n, i) => {
      const d = byNumber.get(n);
      if (i) line.append(", ");
      line.append(stepLink(n, t("replay.expert.at_step", { step: n, cost: d ? points(d.cost) : "?" }), () => show(seat, n)));
    });
    summary.append(line);
  }
  const units = document.createElement("div");
  units.className = "muted units";
  units.textContent = t("replay.expert.units", { deals: r.decisions.length ? r.decisions[0].options[0].deals : 0 });
  summary.append(units);
  const table = document.createElement("table");
  table.className = "expert-table";
  const headRow = document.createElement("tr");
  for (const key of ["step", "you", "expert", "cost"]) {
    const th = document.createElement("th");
    th.textContent = t(key === "expert" || key === "cost" ? `replay.expert.col.${key}` : `replay.col.${key}`);
    headRow.append(th);
  }
  table.createTHead().append(headRow);
  const body = document.createElement("tbody");
  // ranked by cost (the costly ones first), as the expert's own review ranks them
  const ranked = [...r.decisions].sort((a, b) => (b.costly - a.costly) || (b.cost - a.cost) || (a.number - b.number));
  for (const d of ranked) {
    const tr = document.createElement("tr");
    tr.dataset.step = String(d.number - 1);
    tr.className = d.costly ? "flagged" : (d.chosen === d.best) ? "" : "differ";
    const cost = d.costly ? points(d.cost) : "";
    const same = d.chosen === d.best;
    for (const cell of [String(d.number), moveNode(d.chosen), moveNode(d.best), cost || (same ? "✓" : t("replay.expert.close_call"))]) {
      const td = document.createElement("td");
      td.append(cell);
      tr.append(td);
    }
    if (cost) tr.lastChild.className = "cost";
    else if (d.chosen !== d.best) tr.lastChild.title = t("replay.expert.within_error");
    tr.addEventListener("click", () => show(seat, d.number));
    body.append(tr);
    if (d.costly && d.reason) {
      const why = document.createElement("tr");
      why.className = "reason flagged";
      why.append(document.createElement("td"), document.createElement("td"));
      why.lastChild.colSpan = 3;
      why.lastChild.textContent = page.reasonText(d);
      body.append(why);
    }
  }
  table.append(body);
  $("review-list").replaceChildren(table);
  $("match-btn").hidden = false;
  go(page.state.step);
}

/** Go to the state before decision `number`, from the reviewed seat's point of view. */
function show(seat, number) {
  const { state, $ } = page;
  if (state.pov !== "all") state.pov = seat;
  $("pov").value = String(state.pov);
  page.go(number - 1);
  page.revealMark();
}

/** The options of a decision or an analysis, best first: each move with its value ± error. */
function optionList(options, chosen, best) {
  const list = document.createElement("ol");
  list.className = "expert-options";
  for (const o of options) {
    const li = document.createElement("li");
    if (o.action === best) li.className = "best";
    if (o.action === chosen) li.classList.add("chosen");
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = valueText(o);
    li.append(page.moveNode(o.action), value);
    if (o.action === chosen) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = t("replay.expert.played");
      li.append(tag);
    }
    list.append(li);
  }
  return list;
}

/** Under the step's title: the expert's view of the reviewed decision taken at this state, if any. */
export function expertMark() {
  const { state, withNodes, MARKS, moveNode } = page;
  if (!state.expert) return null;
  const d = state.expert.decisions.find((x) => x.number - 1 === state.step);
  if (!d) return null;
  const el = document.createElement("div");
  el.className = "review-mark expert-mark" + (d.costly ? "" : " ok");
  el.append((d.chosen === d.best) ? withNodes(t("replay.expert.mark_agree", { move: MARKS[0] }), [moveNode(d.chosen)])
    : withNodes(t("replay.expert.mark_differ", { move: MARKS[0], best: MARKS[1] }), [moveNode(d.chosen), moveNode(d.best)]));
  const cost = costText(d);
  if (cost) el.append(` ${cost}`);
  el.append(optionList(d.options, d.chosen, d.best), numbersLine(d.options, d));
  return el;
}

// -- the whole match -----------------------------------------------------------------------------------

async function loadMatch() {
  const { state, $ } = page;
  const seat = state.expert ? state.expert.seat : Number($("review-seat").value);
  const out = $("match-summary");
  $("match-btn").disabled = true;
  try {
    const url = `/api/tables/${encodeURIComponent(state.code)}/expert?seat=${seat}`;
    const answer = await run(url, (a) => {
      const done = a.hands.filter((h) => h.status === "done").length;
      out.textContent = t("replay.expert.match_progress", { done, total: a.hands.length });
    }, true);
    renderMatch(seat, answer);
  } catch (err) {
    out.textContent = errorText(err);
  } finally {
    $("match-btn").disabled = false;
  }
}

function renderMatch(seat, answer) {
  const { state, $, seatName } = page;
  const s = answer.summary;
  const out = $("match-summary");
  const line = document.createElement("div");
  line.textContent = t("replay.expert.match", {
    who: seatName(seat), hands: s.hands, n: s.decisions, pct: Math.round(100 * s.agreement),
    loss: points(s.expected_loss), per_hand: points(s.per_hand_loss),
  });
  out.replaceChildren(line);
  if ((s.biggest || []).length) {
    const more = document.createElement("div");
    more.className = "mistakes";
    more.append(t("replay.expert.biggest"), " ");
    s.biggest.forEach((b, i) => {
      if (i) more.append(", ");
      const a = document.createElement("a");
      a.href = `/replay/${encodeURIComponent(state.code)}/${b.hand_number}?seat=${seat}&step=${b.number - 1}`;
      a.textContent = t("replay.expert.in_hand", { hand: b.hand_number, step: b.number, cost: points(b.cost) });
      more.append(a);
    });
    out.append(more);
  }
}

// -- the analysis board ------------------------------------------------------------------------------

async function analyse() {
  const { state, $, seatName } = page;
  const seat = Number($("board-seat").value);
  const step = state.step;
  const out = $("board-result");
  $("board-btn").disabled = true;
  out.textContent = t("replay.board.thinking");
  page.board = true;
  try {
    const url = `/api/tables/${encodeURIComponent(state.code)}/hands/${state.number}/analysis?seat=${seat}&step=${step}`;
    const answer = await run(url, () => {});
    const a = answer.analysis;
    const head = document.createElement("p");
    head.className = "board-head";
    head.append(page.withNodes(t("replay.board.best", { step, who: seatName(seat), move: page.MARKS[0] }), [page.moveNode(a.best)]));
    out.replaceChildren(head, optionList(a.options, a.played, a.best), numbersLine(a.options));
    out.dataset.step = String(step);
    const units = document.createElement("p");
    units.className = "muted units";
    units.textContent = t("replay.expert.units", { deals: a.options.length ? a.options[0].deals : 0 });
    out.append(units);
  } catch (err) {
    out.textContent = errorText(err);
  } finally {
    page.board = false;
    $("board-btn").disabled = false;
  }
}

/** After a step change: an analysis of another step is cleared (it would mislead). */
export function boardStep() {
  const out = page.$("board-result");
  if (out.dataset.step !== undefined && Number(out.dataset.step) !== page.state.step) {
    delete out.dataset.step;
    out.textContent = t("replay.board.hint");
  }
}

export function setupExpert(helpers) {
  page = { ...helpers, board: false };
  const { $ } = page;
  $("match-btn").addEventListener("click", loadMatch);
  $("board-btn").addEventListener("click", analyse);
  $("board-result").textContent = t("replay.board.hint");
}
