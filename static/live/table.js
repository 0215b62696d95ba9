// The live table's few client-side duties: the announce menu (button and F2),
// the turn countdown, and asking for a full refresh when a version was missed.
// Everything else arrives as server-rendered HTML over the WebSocket.
(function () {
  "use strict";

  function root() { return document.getElementById("table-root"); }

  function toggleAnnounceMenu(open) {
    var menu = document.getElementById("announce-menu");
    if (!menu) return false;
    menu.hidden = open === undefined ? !menu.hidden : !open;
    if (!menu.hidden) {
      var first = menu.querySelector("button");
      if (first) first.focus();
    }
    return true;
  }

  document.addEventListener("click", function (event) {
    var opener = event.target.closest("[data-action='announce-menu']");
    if (opener) { toggleAnnounceMenu(); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "F2" && root()) {
      if (toggleAnnounceMenu(true)) event.preventDefault();
    } else if (event.key === "Escape") {
      toggleAnnounceMenu(false);
    }
  });

  function tick() {
    var r = root();
    var out = r && r.querySelector("[data-countdown]");
    if (!out) return;
    var left = Math.max(0, Math.round((Number(r.dataset.deadline) - Date.now()) / 1000));
    out.textContent = left + " s";
    out.classList.toggle("urgent", left <= 5);
  }
  setInterval(tick, 250);

  // Each message carries the whole table at its version; a jump of more than one
  // means this client missed something, so it asks the server for a fresh view.
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var r = root();
    var match = /data-version="(\d+)"/.exec(event.detail.message || "");
    if (!r || !match) return;
    var incoming = Number(match[1]);
    var shown = Number(r.dataset.version);
    if (incoming > shown + 1 || incoming < shown) {
      event.detail.socketWrapper.send(JSON.stringify({ type: "refresh" }));
    }
  });
  document.addEventListener("htmx:wsAfterMessage", tick);
})();
