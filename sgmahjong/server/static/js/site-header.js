// The site header (brand, navigation, language switch) of the lobby and the reference pages, drawn
// once here so a new page is one line in LINKS. Importing this module fills every
// <header class="site-header">.
import { langSwitch, t } from "./i18n.js";

const LINKS = [
  ["/", "nav.lobby"],
  ["/how-to-play", "nav.howto"],
  ["/scoring", "nav.scoring"],
  ["/calculator", "nav.calculator"],
  ["/me", "nav.me"],
  ["/leaderboard", "nav.leaderboard"],
];

export function renderSiteHeader(header) {
  const brand = document.createElement("a");
  brand.className = "brand";
  brand.href = "/";
  brand.textContent = t("brand");
  const nav = document.createElement("nav");
  nav.setAttribute("aria-label", t("nav.label"));
  for (const [href, key] of LINKS) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = t(key);
    if (href === location.pathname) a.setAttribute("aria-current", "page");
    nav.append(a);
  }
  const tools = document.createElement("div");
  tools.className = "header-tools";
  tools.append(langSwitch());
  header.replaceChildren(brand, nav, tools);
}

document.querySelectorAll("header.site-header").forEach(renderSiteHeader);
