// A signed-in person's own socket on every page (games/live/receive/person.py).
// What it brings is server-rendered HTML that htmx's ws extension swaps in by id:
// the notices (challenges, "your match is ready") replace themselves. This script
// adds only what HTML cannot: going to a table when the server says so (paired,
// a challenge accepted), and reconnecting after closes the extension leaves.
(function () {
  "use strict";

  var SIGNED_OUT = 4403;
  var EXTENSION_RETRIES = [1006, 1011, 1012, 1013];
  var attempts = 0;
  // Where this page is already going: the socket's "go" and a status poll's
  // HX-Redirect can both arrive, and a second navigation aborts the first.
  var leavingTo = null;

  function leave(url) {
    if (leavingTo) return;
    leavingTo = url;
    window.location.assign(url);
  }

  function fromPersonSocket(event) {
    return !!(event.target && event.target.id === "person-socket");
  }

  // "Your match is ready" is not shown at that match's own table (a pushed
  // banner is drawn for every page of the person alike).
  function hideHereBanner() {
    document.querySelectorAll("#your-matches [data-your-match]").forEach(function (link) {
      if (link.getAttribute("href") === window.location.pathname) {
        link.closest(".your-match").hidden = true;
      }
    });
  }

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (!fromPersonSocket(event)) return;
    hideHereBanner();
    var go = document.getElementById("person-go");
    var url = go && go.getAttribute("data-go");
    if (!url || url.charAt(0) !== "/" || url.charAt(1) === "/") return;
    go.removeAttribute("data-go");
    if (window.location.pathname !== url) leave(url);
  });

  // Once the page is leaving, polls stop and a later HX-Redirect is not followed.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (leavingTo) event.preventDefault();
  });
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    var target = xhr && xhr.getResponseHeader("HX-Redirect");
    if (!target) return;
    if (leavingTo) event.preventDefault();
    else leavingTo = target;
  });
  // Back from the browser's cache: the page is here again, not leaving.
  window.addEventListener("pageshow", function () {
    leavingTo = null;
  });

  // html[data-person-socket] says whether pushes can arrive ("open" / "closed").
  document.addEventListener("htmx:wsOpen", function (event) {
    if (!fromPersonSocket(event)) return;
    attempts = 0;
    document.documentElement.setAttribute("data-person-socket", "open");
  });

  // A server restart closes with 1000/1001: the extension does not come back by
  // itself then; the first message after reconnecting redraws every notice.
  document.addEventListener("htmx:wsClose", function (event) {
    if (!fromPersonSocket(event)) return;
    document.documentElement.setAttribute("data-person-socket", "closed");
    var code = event.detail.event ? event.detail.event.code : 1006;
    var wrapper = event.detail.socketWrapper;
    if (code === SIGNED_OUT || EXTENSION_RETRIES.indexOf(code) >= 0 || !wrapper) return;
    var element = event.target;
    var delay = Math.min(5000, 500 * Math.pow(2, attempts));
    attempts += 1;
    setTimeout(function () {
      if (document.body.contains(element)) wrapper.reconnect();
    }, delay / 2 + Math.random() * (delay / 2));
  });
})();
