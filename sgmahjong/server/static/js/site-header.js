// The site header (brand, navigation, language switch) of the lobby and the reference pages, drawn
// once here so a new page is one line in LINKS. Importing this module fills every
// <header class="site-header">. On a phone the header stays one row: the brand is the tile mark and
// the links fold behind a Menu button (a list that opens below the header, over the page).
import { langSwitch, t } from "./i18n.js";

const LINKS = [
  ["/", "nav.lobby"],
  ["/how-to-play", "nav.howto"],
  ["/scoring", "nav.scoring"],
  ["/calculator", "nav.calculator"],
  ["/me", "nav.me"],
  ["/leaderboard", "nav.leaderboard"],
  ["/clubs", "nav.clubs"],
  ["/events", "nav.events"],
];

let headers = 0;

export function renderSiteHeader(header) {
  const navId = `site-nav-${++headers}`;
  const brand = document.createElement("a");
  brand.className = "brand";
  brand.href = "/";
  const brandText = document.createElement("span");
  brandText.className = "brand-text";
  brandText.textContent = t("brand");
  brand.append(brandText);
  const nav = document.createElement("nav");
  nav.id = navId;
  nav.setAttribute("aria-label", t("nav.label"));
  for (const [href, key] of LINKS) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = t(key);
    if (href === location.pathname) a.setAttribute("aria-current", "page");
    nav.append(a);
  }
  const menu = document.createElement("button");
  menu.type = "button";
  menu.className = "menu-toggle secondary";
  menu.setAttribute("aria-expanded", "false");
  menu.setAttribute("aria-controls", navId);
  menu.textContent = `☰ ${t("pages.menu")}`;
  const setOpen = (open) => {
    header.classList.toggle("nav-open", open);
    menu.setAttribute("aria-expanded", String(open));
  };
  menu.addEventListener("click", () => setOpen(!header.classList.contains("nav-open")));
  header.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && header.classList.contains("nav-open")) {
      setOpen(false);
      menu.focus();
    }
  });
  document.addEventListener("click", (e) => {
    if (!header.contains(e.target)) setOpen(false);
  });
  const tools = document.createElement("div");
  tools.className = "header-tools";
  tools.append(menu, langSwitch());
  header.replaceChildren(brand, nav, tools);
}

document.querySelectorAll("header.site-header").forEach(renderSiteHeader);
