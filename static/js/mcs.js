/* The site's one namespace, window.MCS: a script shares what it offers under it and puts nothing
 * else on window (tests/config/test_frontend_rules.py). Loaded first on every page (base.html,
 * the hall's screen), it holds what several pages show alike: the clocks' format. */
(function () {
  "use strict";

  const MCS = window.MCS = window.MCS || {};

  const two = (n) => String(n).padStart(2, "0");

  MCS.clock = {
    /** Seconds as every clock of the site shows them: m:ss (the minutes run on past 59, below
     * zero is 0:00). The console, the round desk and the public pages use this one. */
    format(seconds) {
      const whole = Math.max(0, Math.floor(seconds));
      return Math.floor(whole / 60) + ":" + two(whole % 60);
    },
    /** A moment's time of day, HH:MM (the hall screen's wall clock). */
    timeOfDay(date) {
      return two(date.getHours()) + ":" + two(date.getMinutes());
    },
  };
})();
