// "Leave table" asks first: the link opens the page's confirm dialog (its form
// posts the leave). Without this script the link leads to a confirm page.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-action='leave']");
    var dialog = document.getElementById("leave-dialog");
    if (!link || !dialog || typeof dialog.showModal !== "function") return;
    event.preventDefault();
    dialog.showModal();
  });
})();
