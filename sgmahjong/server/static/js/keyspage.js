// The keys page (/keys): every key of the table, the keys that ask it (ask.js) and how a screen reader
// plays, in the page's language. Linked from every table.
import "./site-header.js";
import { KEY_HELP } from "./keys.js";
import { ASK_KEYS } from "./ask.js";
import { t } from "./i18n.js";

function keysTable(el, rows) {
  const table = document.createElement("table");
  table.className = "data keys-table";
  const head = table.createTHead().insertRow();
  for (const key of ["keys.page.col.key", "keys.page.col.does"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  for (const [keys, what] of rows) {
    const row = body.insertRow();
    const cell = row.insertCell();
    keys.split(/(, | … )/).forEach((part) => {
      if (part === ", " || part === " … ") cell.append(part);
      else {
        const kbd = document.createElement("kbd");
        kbd.textContent = part;
        cell.append(kbd);
      }
    });
    row.insertCell().textContent = t(what);
  }
  el.append(table);
}

keysTable(document.getElementById("keys-play"), [...KEY_HELP, ["Tab, Enter", "keys.short.tab"]]);
keysTable(document.getElementById("keys-ask"), ASK_KEYS);
