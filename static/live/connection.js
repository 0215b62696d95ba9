// The live table's connection state. When the socket drops,
// the page says so at once and stops offering moves; it reconnects on a short,
// capped backoff whatever the close code, and offers moves again only once the
// server has sent the current table (it does so on every connect).
(function () {
  "use strict";

  // Not found / not allowed: the server closes with 4404 and retrying cannot help.
  var FINAL_CODES = [4404];
  // htmx's ws extension reconnects by itself after these; after any other code
  // (1000 normal, 1001 going away: a server restart) this script does.
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013];

  // First try within half a second, then doubling, never more than 2 s apart
  // (so a player is back within about 2 s of the server); the random half
  // spreads a restarted server's returning clients.
  function reconnectDelay(attempt) {
    var base = Math.min(2000, 500 * Math.pow(2, attempt));
    return base / 2 + Math.random() * (base / 2);
  }
  htmx.config.wsReconnectDelay = reconnectDelay;

  var state = "connecting"; // "connecting" | "live" | "offline" | "resyncing"
  var ownAttempts = 0;
  var leaving = false;

  window.addEventListener("pagehide", function () { leaving = true; });

  function banner() { return document.getElementById("connection-status"); }
  function root() { return document.getElementById("table-root"); }

  function setControlsEnabled(enabled) {
    var r = root();
    if (!r) return;
    r.querySelectorAll("button").forEach(function (button) {
      if (enabled) {
        if (button.hasAttribute("data-offline")) {
          button.disabled = false;
          button.removeAttribute("data-offline");
        }
      } else if (!button.disabled) {
        button.disabled = true;
        button.setAttribute("data-offline", "");
      }
    });
  }

  function show(newState) {
    state = newState;
    var b = banner();
    var offline = newState === "offline" || newState === "resyncing";
    if (b) b.hidden = !offline;
    document.documentElement.classList.toggle("table-offline", offline);
    document.documentElement.dataset.connection = newState;
    setControlsEnabled(!offline);
  }

  // Only the table's own socket: the person's socket on every page
  // (static/js/person.js) says nothing about the table.
  function fromTable(event) {
    return !!(event.target && event.target.closest && event.target.closest(".live-wrap"));
  }

  document.addEventListener("htmx:wsClose", function (event) {
    if (leaving || !fromTable(event)) return;
    var code = event.detail.event ? event.detail.event.code : 1006;
    var wrapper = event.detail.socketWrapper;
    // A move clicked just before the drop would be sent on reconnect, made on
    // a table the player has not seen: drop it.
    if (wrapper && wrapper.queue) wrapper.queue.length = 0;
    show("offline");
    if (FINAL_CODES.indexOf(code) >= 0 || EXTENSION_RETRIES.indexOf(code) >= 0 || !wrapper) return;
    var element = event.target;
    setTimeout(function () {
      if (document.body.contains(element)) wrapper.reconnect();
    }, reconnectDelay(ownAttempts));
    ownAttempts += 1;
  });

  document.addEventListener("htmx:wsOpen", function (event) {
    if (!fromTable(event)) return;
    ownAttempts = 0;
    // Connected, but the table shown may be stale until the server's first frame.
    if (state === "offline") show("resyncing");
  });

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (!fromTable(event)) return;
    if (state === "live" || state === "offline" || !root()) return;
    // Only the whole table makes the page current again, not a refusal message.
    if ((event.detail.message || "").indexOf('id="table-root"') >= 0) show("live");
  });
})();
