// The replay's arrow keys: left and right step, Home and End jump (the links do the work).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, textarea, select")) return;
  const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  const action = keys[event.key];
  const link = action && document.querySelector(`[data-replay] [data-action="${action}"]`);
  if (link) {
    event.preventDefault();
    link.click();
  }
});
