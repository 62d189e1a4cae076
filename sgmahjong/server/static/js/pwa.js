// Installs the service worker (/sw.js, docs/delivery.md) once the page has loaded, so the pages open
// without the network next time. Every page loads this module.
function register() {
  navigator.serviceWorker.register("/sw.js").catch(() => {
    /* not over HTTPS, or storage refused: the pages work online as before */
  });
}

if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
