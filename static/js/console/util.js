/* Small helpers the console's scripts share (window.MonopolyConsole); loaded first. */
(function (global) {
  "use strict";

  const C = global.MonopolyConsole || (global.MonopolyConsole = {});
  const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

  C.$ = (sel, el) => (el || document).querySelector(sel);
  C.$$ = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  C.esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ESCAPES[c]);
  /** A whole number typed by the banker, or null. */
  C.int = (value) => {
    if (value === null || value === undefined) return null;
    const s = String(value).trim();
    return /^-?\d+$/.test(s) ? parseInt(s, 10) : null;
  };
  /** t(key, {name: …}): the server's translation of key with %(name)s filled in. */
  C.translator = (strings) => (key, params) =>
    String(strings[key] || key).replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? params[k] : ""));
  /** The games' statuses in which the clock can run. */
  C.LIVE = ["setup", "running", "final_round"];
})(window);
