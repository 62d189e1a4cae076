// The site header (brand and navigation) of the lobby and the reference pages, drawn once here so a
// new page is one line in LINKS. Importing this module fills every <header class="site-header">.
const LINKS = [
  ["/", "Lobby"],
  ["/how-to-play", "How to play"],
  ["/scoring", "Scoring"],
  ["/calculator", "Calculator"],
];

export function renderSiteHeader(header) {
  const brand = document.createElement("a");
  brand.className = "brand";
  brand.href = "/";
  brand.textContent = "sgmahjong 新加坡麻将";
  const nav = document.createElement("nav");
  for (const [href, text] of LINKS) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (href === location.pathname) a.setAttribute("aria-current", "page");
    nav.append(a);
  }
  header.replaceChildren(brand, nav);
}

document.querySelectorAll("header.site-header").forEach(renderSiteHeader);
