/* Small helpers the console's scripts share (MCS.util, MCS.console.LIVE); loaded first. */
(function () {
  "use strict";

  const MCS = window.MCS = window.MCS || {};
  const U = MCS.util = MCS.util || {};
  const C = MCS.console = MCS.console || {};
  const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

  U.$ = (sel, el) => (el || document).querySelector(sel);
  U.$$ = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  U.esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ESCAPES[c]);
  /** A whole number typed by the banker, or null. */
  U.int = (value) => {
    if (value === null || value === undefined) return null;
    const s = String(value).trim();
    return /^-?\d+$/.test(s) ? parseInt(s, 10) : null;
  };
  /** t(key, {name: …}): the server's translation of key with %(name)s filled in. */
  U.translator = (strings) => (key, params) =>
    String(strings[key] || key).replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? params[k] : ""));
  /** The games' statuses in which the clock can run. */
  C.LIVE = ["setup", "running", "final_round"];
})();
