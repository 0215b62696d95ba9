// "Leave table" and "Resign" ask first: each link opens the page's confirm
// dialog (its form posts the action), whose safe button has the focus, so Enter
// never leaves or resigns by accident. Without this script the links lead to
// confirm pages.
(function () {
  "use strict";
  var DIALOGS = { leave: "leave-dialog", resign: "resign-dialog" };
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-action='leave'], a[data-action='resign']");
    if (!link) return;
    var dialog = document.getElementById(DIALOGS[link.dataset.action]);
    if (!dialog || typeof dialog.showModal !== "function") return;
    event.preventDefault();
    dialog.showModal();
    var safe = dialog.querySelector("[autofocus]");
    if (safe) safe.focus();
  });
})();
