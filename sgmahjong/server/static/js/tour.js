// How to play's tour of the screen: the tutorial's table (js/learn-table.js) at one moment of its hand
// (South has discarded a dragon you can pong), each area numbered, and a list naming each number.
import { drawTable } from "./learn-table.js";
import { t } from "./i18n.js";
import HAND from "./tutorial-hand.js";

/** The areas, in the order they are numbered: [the strings key, where the number goes]. */
export const AREAS = [
  ["hand", ".learn-hand"],
  ["pond", '.learn-seat[data-seat="S"] [data-area="pond"]'],
  ["wall", '[data-area="wall"]'],
  ["claims", ".learn-claims"],
  ["scores", '[data-area="scores"]'],
];

export function renderTour(picture, legend) {
  const step = HAND.steps.find((s) => s.do === "pong") || HAND.steps[0];
  drawTable(picture, step.before, step);
  legend.replaceChildren();
  AREAS.forEach(([key, where], i) => {
    const area = picture.querySelector(where);
    const mark = document.createElement("span");
    mark.className = "tour-mark";
    mark.textContent = String(i + 1);
    area.classList.add("tour-area");
    const label = area.querySelector(":scope > .learn-label");
    if (label) label.prepend(mark); // a pond: beside its label
    else area.prepend(mark);
    const li = document.createElement("li");
    li.dataset.area = key;
    const b = document.createElement("b");
    b.textContent = t(`howto.tour.${key}`);
    li.append(b, ` ${t(`howto.tour.${key}.p`)}`);
    legend.append(li);
  });
}
