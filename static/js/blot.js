// Small progressive enhancements; every page works without this file.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  const text = "value" in source ? source.value : source.textContent;
  navigator.clipboard.writeText(text).then(() => {
    const label = button.textContent;
    button.textContent = "✓";
    setTimeout(() => { button.textContent = label; }, 1200);
  });
});

// The header's language switcher submits as soon as a language is picked (without
// this file, its <noscript> button does).
document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-autosubmit]");
  if (select && select.form) select.form.submit();
});
