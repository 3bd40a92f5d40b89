// ctxlake dashboard: refresh <main> every 10 s while the tab is visible (a short poll of the
// same URL, same-origin, with the login cookie). The page works without this file: reload.
// The fetched HTML is escaped by the server and parsed inert (DOMParser runs no script).
(function () {
  "use strict";
  var EVERY_MS = 10000;
  function swap(html) {
    var next = new DOMParser().parseFromString(html, "text/html").querySelector("main");
    var cur = document.querySelector("main");
    if (!next || !cur) return;
    // Marks when the data was last swapped in (the browser test looks for it).
    next.setAttribute("data-refreshed", new Date().toISOString());
    cur.replaceWith(document.importNode(next, true));
  }
  function tick() {
    if (document.hidden) return setTimeout(tick, EVERY_MS);
    fetch(location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (t) { if (t) swap(t); })
      .catch(function () {})
      .then(function () { setTimeout(tick, EVERY_MS); });
  }
  setTimeout(tick, EVERY_MS);
})();
