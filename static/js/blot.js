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

// A form whose variant select names each variant's usual format
// (data-format-defaults='{"belote": "first_to:1000", ...}') switches its format
// to that one when the variant changes; without this file the server's default
// and its refusal of a format the variant lacks still hold.
document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-format-defaults]");
  if (!select || !select.form) return;
  let defaults = {};
  try { defaults = JSON.parse(select.dataset.formatDefaults); } catch (e) { return; }
  const format = select.form.querySelector("select[name=format]");
  const wanted = defaults[select.value];
  if (format && wanted) format.value = wanted;
});
