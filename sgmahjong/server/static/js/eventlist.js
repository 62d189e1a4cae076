// /events: the visitor's events (GET /api/events) and a form to organise one (POST /api/events; a
// player with a name: a guest is asked to choose one on /me first). Names are text: textContent only.
import { presetName } from "./api.js";
import { clubRequest, el, failText } from "./clubapi.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function status(text, bad = false) {
  $("events-status").textContent = text;
  $("events-status").classList.toggle("bad", bad);
}

function render(data) {
  const list = $("my-events");
  list.replaceChildren();
  if (!data.events.length) list.append(el("li", t("events.none"), "muted"));
  for (const e of data.events) {
    const li = document.createElement("li");
    const link = el("a", e.name);
    link.href = `/event/${encodeURIComponent(e.code)}`;
    li.append(link, document.createTextNode(` — ${t(`event.format.${e.format}`)}, ${
      t(`event.status.${e.status}`, { n: e.round, rounds: e.rounds })}`));
    list.append(li);
  }
  const presets = $("event-preset");
  if (!presets.options.length) {
    for (const p of data.presets) {
      const o = el("option", presetName(p));
      o.value = p;
      presets.append(o);
    }
  }
  $("event-name").maxLength = data.name_max;
  const clubs = $("event-club");
  if (!clubs.options.length) {
    for (const c of data.clubs || []) {
      const o = el("option", c.name);
      o.value = c.code;
      clubs.append(o);
    }
  }
  // an event for a club's members: only a club's owner makes one
  $("event-entry").querySelector("option[value=club]").disabled = !clubs.options.length;
}

$("event-entry").addEventListener("change", () => {
  $("event-club-label").hidden = $("event-entry").value !== "club";
});

async function load() {
  try {
    render(await clubRequest("GET", "/api/events"));
  } catch (err) {
    status(failText(err), true);
  }
}

$("event-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    const made = await clubRequest("POST", "/api/events", {
      name: $("event-name").value, format: $("event-format").value,
      rounds: Number($("event-rounds").value), hands: Number($("event-hands").value),
      absent: $("event-absent").value, preset: $("event-preset").value,
      options: { pace: $("event-pace").value },
      starts: $("event-starts").value || null, entry: $("event-entry").value,
      club: $("event-entry").value === "club" ? $("event-club").value : null,
    });
    location.href = made.url;
  } catch (err) {
    status(failText(err), true);
  }
});
load();
