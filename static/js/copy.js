/* Copy a banker link to the clipboard (tournament/rounds/bankers.html): buttons with
 * data-copy="<input id>" and data-copied="<the word for done>". */
(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const input = document.getElementById(button.dataset.copy);
    const done = () => { button.textContent = button.dataset.copied || "✓"; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done);
    } else {
      input.select(); document.execCommand("copy"); done();
    }
  });
})();
