// The "How to play" page: a tour of the screen (tour.js), the gallery of all 46 tile faces, an
// illustrated walk through one example hand (walkthrough.js), key help, and the rule options table
// generated from GET /api/rules.
import "./site-header.js";
import { ALL_FACES, tileElement, tileName } from "./tiles.js";
import { renderKeyHelp } from "./keys.js";
import { getJSON, renderOptionsTable } from "./api.js";
import { t } from "./i18n.js";
import { renderWalkthrough } from "./walkthrough.js";
import { whenIdle } from "./dom.js";
import { renderTour } from "./tour.js";

renderTour(document.getElementById("tour-table"), document.getElementById("tour-legend"));
renderWalkthrough(document.getElementById("walk-steps"), whenIdle);
renderKeyHelp(document.getElementById("keys-table"));

// The gallery, far below the first screen, is built once the page is shown, nine faces at a time.
const gallery = document.getElementById("gallery");
gallery.className = "gallery";
const GALLERY_PIECE = 9;
for (let i = 0; i < ALL_FACES.length; i += GALLERY_PIECE) {
  whenIdle(() => {
    for (const face of ALL_FACES.slice(i, i + GALLERY_PIECE)) {
      const fig = document.createElement("figure");
      const cap = document.createElement("figcaption");
      const code = document.createElement("code");
      code.textContent = face;
      cap.append(code, document.createElement("br"), tileName(face));
      fig.append(tileElement(face), cap);
      gallery.append(fig);
    }
  });
}

getJSON("/api/rules")
  .then((rules) => renderOptionsTable(document.getElementById("options-table"), rules))
  .catch((err) => {
    document.getElementById("options-table").textContent = t("howto.options.failed", { reason: err.message });
  });
