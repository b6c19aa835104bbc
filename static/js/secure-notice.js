// Service workers need a secure context (HTTPS, or localhost): without one, say what is lost.
(function () {
  "use strict";
  if (window.isSecureContext) return;
  const note = document.getElementById("insecure-notice");
  if (note) note.hidden = false;
})();
