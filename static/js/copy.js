/* Copy a banker link to the clipboard (tournament/rounds/bankers.html): buttons with
 * data-copy="<input id>" and data-copied="<the word for done>". */
"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var input = document.getElementById(button.dataset.copy);
  var done = function () { button.textContent = button.dataset.copied || "✓"; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done);
  } else {
    input.select(); document.execCommand("copy"); done();
  }
});
