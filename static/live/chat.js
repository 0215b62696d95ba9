// The chat beside a live table or a tournament page. Everything in it
// arrives from the server over the page's socket; this script only
// - opens and closes it on a phone (one tap, with an unread count), never letting
//   it reach down over the hand;
// - switches a spectator's two rooms (tabs) and counts what arrives in the other;
// - hides the players' free-text form while a deal is played (the server refuses
//   free text then anyway);
// - keeps each log scrolled to its newest message and clears the form once sent.
(function () {
  "use strict";

  function chat() { return document.getElementById("chat"); }
  function toggle() { return document.getElementById("chat-toggle"); }
  function narrow() { return window.matchMedia("(max-width: 999px)").matches; }
  var unread = 0;

  function isOpen() { var c = chat(); return !!c && (!narrow() || c.classList.contains("chat-open")); }

  function setUnread(n) {
    unread = n;
    var badge = document.querySelector("#chat-toggle [data-chat-unread]");
    if (!badge) return;
    badge.textContent = n > 0 ? String(n) : "";
    badge.hidden = n <= 0;
    var t = toggle();
    if (t) t.setAttribute("data-unread", String(n));
  }

  // On a phone the open chat hangs from the top of the screen and stops above
  // the hand; at the player's turn, if it cannot fit there, it closes.
  function fit() {
    var c = chat();
    if (!c) return;
    if (!narrow() || !c.classList.contains("chat-open")) { c.style.maxHeight = ""; return; }
    var hand = document.querySelector("#table-root [data-hand]");
    if (!hand) { c.style.maxHeight = ""; return; }
    var room = hand.getBoundingClientRect().top - 6;
    var root = document.getElementById("table-root");
    if (room < 140 && root && root.classList.contains("my-turn")) { setOpen(false); return; }
    c.style.maxHeight = Math.max(140, room) + "px";
  }

  function setOpen(open) {
    var c = chat();
    if (!c) return;
    c.classList.toggle("chat-open", open);
    var t = toggle();
    if (t) t.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) { setUnread(0); scrollAll(); }
    fit();
  }

  function scrollAll() {
    document.querySelectorAll("#chat .chat-log").forEach(function (log) { log.scrollTop = log.scrollHeight; });
  }

  function showRoom(name) {
    document.querySelectorAll("#chat [data-chat-tab]").forEach(function (tab) {
      var on = tab.getAttribute("data-chat-tab") === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      if (on) { var b = tab.querySelector(".chat-unread"); if (b) { b.textContent = ""; b.hidden = true; } }
    });
    document.querySelectorAll("#chat [data-chat-room]").forEach(function (room) {
      room.hidden = room.getAttribute("data-chat-room") !== name;
    });
    scrollAll();
  }

  // Players may write free text only between deals.
  function phase() {
    var c = chat();
    var root = document.getElementById("table-root");
    if (!c) return;
    var dealing = !!root && root.hasAttribute("data-deal") && !root.classList.contains("between-deals");
    c.toggleAttribute("data-dealing", dealing);
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#chat-toggle")) { setOpen(!chat().classList.contains("chat-open")); return; }
    if (event.target.closest("[data-chat-close]")) { setOpen(false); var t = toggle(); if (t) t.focus(); return; }
    var tab = event.target.closest("[data-chat-tab]");
    if (tab) showRoom(tab.getAttribute("data-chat-tab"));
  });

  document.addEventListener("keydown", function (event) {
    var c = chat();
    if (event.key === "Escape" && c && narrow() && c.classList.contains("chat-open")) setOpen(false);
  });

  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest && event.target.closest("form[data-chat-form]");
    if (form) form.reset();
  });

  var NEW = /id="chat-log-(\w+)" hx-swap-oob="beforeend"/;
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var message = event.detail.message || "";
    phase();
    fit();
    if (message.indexOf("chat-log-") < 0) return;
    var found = NEW.exec(message);
    if (found) {
      var log = document.getElementById("chat-log-" + found[1]);
      if (log) log.scrollTop = log.scrollHeight;
      var room = document.querySelector('#chat [data-chat-room="' + found[1] + '"]');
      if (!isOpen()) setUnread(unread + 1);
      else if (room && room.hidden) {
        var badge = document.querySelector('#chat [data-chat-tab="' + found[1] + '"] .chat-unread');
        if (badge) { badge.textContent = String((Number(badge.textContent) || 0) + 1); badge.hidden = false; }
      }
    } else {
      scrollAll();
    }
  });

  // Once the socket is open (first time or again), ask for the recent messages:
  // the page may have been drawn a while ago, or the connection was lost.
  document.addEventListener("htmx:wsOpen", function (event) {
    if (!chat() || !event.detail.socketWrapper) return;
    event.detail.socketWrapper.send(JSON.stringify({ type: "chat-sync" }));
  });

  // A message that arrived while the log was being redrawn may be there twice.
  function dedupe() {
    var seen = {};
    document.querySelectorAll("#chat [data-chat-message]").forEach(function (item) {
      if (seen[item.id]) item.remove(); else seen[item.id] = true;
    });
  }
  document.addEventListener("htmx:wsAfterMessage", dedupe);

  // The live region keeps only its last few sentences (each was read once).
  document.addEventListener("htmx:wsAfterMessage", function () {
    var said = document.getElementById("chat-announcer");
    while (said && said.children.length > 10) said.firstElementChild.remove();
  });

  window.addEventListener("resize", fit);
  window.addEventListener("scroll", fit, { passive: true });
  document.addEventListener("DOMContentLoaded", function () { phase(); scrollAll(); });
})();
