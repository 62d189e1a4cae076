// The settle-up's transfers with their ticks (docs/clubs.md): a transfer may be ticked as paid by its
// payer or its payee (POST /api/clubs/CODE/ticks); every member sees who ticked it and when, and only
// the one who ticked may untick it. Names are players' text: textContent only.
import { el } from "./clubapi.js";
import { lang, t } from "./i18n.js";

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang() === "zh" ? "zh-CN" : "en-SG",
    { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** The list items of ``transfers`` (of the scope ``scope``: "period" or "tonight"), each with its
 * sentence ``lines[i]``, its tick and, for its payer or payee, the box that ticks it; ``post(path,
 * body)`` sends and reloads (null: refused). */
export function transferItems(transfers, lines, scope, me, post) {
  return transfers.map((x, i) => {
    const li = el("li", "", x.tick ? "transfer ticked" : "transfer");
    li.dataset.payer = x.payer;
    li.dataset.payee = x.payee;
    li.append(el("span", lines[i], "transfer-what"));
    const party = me === x.payer || me === x.payee;
    if (party) {
      const label = el("label", "", "tick-box");
      const box = el("input");
      box.type = "checkbox";
      box.checked = Boolean(x.tick);
      box.disabled = Boolean(x.tick) && x.tick.by_member !== me;
      if (box.disabled) label.title = t("club.tick_theirs", { name: x.tick.by });
      box.addEventListener("change", async () => {
        box.disabled = true;
        const done = await post("/ticks", { scope, payer: x.payer, payee: x.payee, paid: box.checked });
        if (!done) { // refused (the page says why): the box as it was
          box.checked = !box.checked;
          box.disabled = false;
        }
      });
      label.append(box, ` ${t("club.tick_paid")}`);
      li.append(" ", label);
    }
    if (x.tick) li.append(el("div", t("club.ticked_by", { name: x.tick.by, when: when(x.tick.at) }), "tick-who"));
    return li;
  });
}
