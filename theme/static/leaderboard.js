// Suite tabs for the leaderboard page. Without this script every panel shows, one after another.
(function () {
  "use strict";
  var data = document.getElementById("leaderboard-data");
  var tablist = document.querySelector("[role=tablist]");
  if (!data || !tablist) return;
  var leaderboard = JSON.parse(data.textContent);
  var tabs = Array.prototype.slice.call(tablist.querySelectorAll("[role=tab]"));
  var panels = tabs.map(function (tab) { return document.getElementById(tab.getAttribute("aria-controls")); });

  function select(index, focus) {
    tabs.forEach(function (tab, i) {
      var on = i === index;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      panels[i].hidden = !on;
    });
    if (focus) tabs[index].focus();
  }

  tabs.forEach(function (tab, i) {
    tab.addEventListener("click", function () { select(i, false); });
    tab.addEventListener("keydown", function (event) {
      var next = { ArrowRight: (i + 1) % tabs.length, ArrowLeft: (i - 1 + tabs.length) % tabs.length, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(next, true);
    });
  });
  document.documentElement.dataset.rows = String(leaderboard.row_count);
  tablist.hidden = false;
  select(0, false);
})();
