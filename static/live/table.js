// The live table's few client-side duties. Everything the table shows arrives as
// server-rendered HTML over the WebSocket and is morphed in (idiomorph), so
// focus and elements survive; this script only adds what HTML cannot:
// - the announce menu (button and F2) and keyboard play (arrows / number keys
//   move along the playable cards, Enter plays; bid buttons have letter keys);
// - focus on a card (or a bid) when the turn becomes the viewer's;
// - the polite live region (outside the swapped root) saying what happened;
// - the tab title and an optional short sound on your turn (off by default,
//   remembered in this browser's localStorage);
// - the turn clock, and gathering a completed trick toward its winner after
//   the table's trick pause;
// - asking for a full refresh when a version was missed.
(function () {
  "use strict";

  var SOUND_KEY = "blot-turn-sound";
  var baseTitle = document.title;
  var lastVersion = null;
  var wasMyTurn = false;
  var gatherTimer = null;

  function root() { return document.getElementById("table-root"); }

  function isMyTurn(r) {
    return !!r && r.dataset.seat !== "" && r.dataset.toAct === r.dataset.seat;
  }

  function playable(r) {
    return Array.prototype.slice.call(r.querySelectorAll("button[data-card]"));
  }

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
    var sound = event.target.closest("#turn-sound");
    if (sound) { setSound(sound.getAttribute("aria-pressed") !== "true"); }
  });

  function typing(event) {
    var t = event.target;
    // The auction's value chips are radio buttons: keys still reach the table there.
    if (t && t.tagName === "INPUT" && t.type === "radio") return false;
    return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
  }

  document.addEventListener("keydown", function (event) {
    var r = root();
    if (!r) return;
    if (event.key === "F2") {
      if (toggleAnnounceMenu(true)) event.preventDefault();
      return;
    }
    if (event.key === "Escape") { toggleAnnounceMenu(false); return; }
    if (typing(event) || event.altKey || event.ctrlKey || event.metaKey) return;
    var cards = playable(r);
    if (cards.length) {
      var at = cards.indexOf(document.activeElement);
      var to = -1;
      if (event.key === "ArrowRight" || event.key === "ArrowDown") to = at < 0 ? 0 : (at + 1) % cards.length;
      else if (event.key === "ArrowLeft" || event.key === "ArrowUp") to = at < 0 ? cards.length - 1 : (at - 1 + cards.length) % cards.length;
      else if (/^[1-9]$/.test(event.key)) to = Number(event.key) - 1;
      if (to >= 0 && to < cards.length) {
        cards[to].focus();
        event.preventDefault();
        return;
      }
    }
    if (event.key.length === 1) {
      var bid = r.querySelector("#controls button[data-key='" + event.key.toLowerCase() + "']");
      if (bid) { bid.click(); event.preventDefault(); }
    }
  });

  function tick() {
    var r = root();
    var out = r && r.querySelector("[data-countdown]");
    if (!out) return;
    var left = Math.max(0, Math.round((Number(r.dataset.deadline) - Date.now()) / 1000));
    // The unit comes from the page, in the reader's language ("{seconds} s").
    out.textContent = (out.dataset.format || "{seconds} s").replace("{seconds}", left);
    out.classList.toggle("urgent", left <= 5);
  }
  setInterval(tick, 250);

  // A completed trick stays in the middle for the table's pause, then its cards
  // slide toward the winner's place (a CSS transition on the class).
  function scheduleGather(r) {
    if (gatherTimer) { clearTimeout(gatherTimer); gatherTimer = null; }
    var trick = r.querySelector("[data-trick][data-complete][data-pause]");
    if (!trick) return;
    var key = r.dataset.version;
    gatherTimer = setTimeout(function () {
      var now = root();
      if (now && now.dataset.version === key) {
        var t = now.querySelector("[data-trick][data-complete]");
        if (t) t.classList.add("gathered");
      }
    }, Number(trick.dataset.pause) || 0);
  }

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function setSound(on) {
    try { window.localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
    var button = document.getElementById("turn-sound");
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      var ctx = new Ctx();
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.08, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
      osc.connect(gain); gain.connect(ctx.destination);
      osc.start(); osc.stop(ctx.currentTime + 0.25);
      osc.onended = function () { ctx.close(); };
    } catch (e) { /* no audio: the title and the clock still say it */ }
  }

  function say(text) {
    var region = document.getElementById("table-announcer");
    if (region && text) region.textContent = text;
  }

  // The first control shown (the auction shows only the chosen value's trumps).
  function visibleControl(r) {
    var controls = r.querySelectorAll("#controls button[data-action]");
    for (var i = 0; i < controls.length; i++) {
      if (controls[i].offsetParent !== null) return controls[i];
    }
    return null;
  }

  // Focus belongs on the table when the turn becomes yours: on the card (or bid)
  // that was focused before, else the first playable card, else the first bid.
  function focusForTurn(r) {
    var active = document.activeElement;
    // Focus kept through the morph, or somewhere else on purpose: leave it.
    if (active && active !== document.body && active !== document.documentElement) return;
    var target = playable(r)[0] || visibleControl(r);
    if (target) target.focus({ preventScroll: true });
  }

  // Between deals, alone with bots: "Next deal" takes the focus (Enter deals),
  // unless the focus is somewhere on purpose.
  function focusNextDeal(r) {
    var next = r.querySelector("[data-action='next-deal']");
    var active = document.activeElement;
    if (next && (!active || active === document.body || active === document.documentElement)) {
      next.focus({ preventScroll: true });
    }
  }

  function afterUpdate() {
    var r = root();
    if (!r) return;
    tick();
    var mine = isMyTurn(r);
    document.title = mine ? "● " + (r.dataset.turnTitle || "") + " · " + baseTitle : baseTitle;
    if (lastVersion !== null && r.dataset.version !== lastVersion) {
      say(r.dataset.say);
      if (mine && !wasMyTurn && soundOn()) beep();
    }
    if (mine) focusForTurn(r);
    else focusNextDeal(r);
    if (r.dataset.version !== lastVersion) scheduleGather(r);
    lastVersion = r.dataset.version;
    wasMyTurn = mine;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("turn-sound");
    if (button) button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    afterUpdate();
  });

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
  document.addEventListener("htmx:wsAfterMessage", afterUpdate);
})();
