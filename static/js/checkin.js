/* The check-in desk (tournament/players/desk.html): refusals shown above the list, the search
 * box ready for the next name. A file, not an inline script: the Content-Security-Policy. */
(function () {
  "use strict";

  // A refused check-in answers 4xx with a message: show it above the list instead of dropping it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const box = document.getElementById("desk-error");
    const status = event.detail.xhr.status;
    if (status >= 400 && status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
      event.detail.target = box;
      event.detail.swapOverride = "innerHTML";
    } else if (status < 300 && box) {
      box.innerHTML = "";
    }
  });
  // After a tap on a row, the search box is ready for the next name.
  document.addEventListener("htmx:afterSwap", (event) => {
    const search = document.getElementById("desk-q");
    if (search && event.detail.target.classList.contains("desk-row")) {
      search.focus();
      search.select();
    }
  });
})();
