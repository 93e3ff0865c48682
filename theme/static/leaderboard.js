// The leaderboard page's behaviour: suite tabs, the row filter, and an address that keeps both.
// Everything is read from the leaderboard embedded in the page; nothing is fetched. Without this
// script every suite and every row shows, one after another, and nothing is lost.
(function () {
  "use strict";
  var source = document.getElementById("leaderboard-data");
  var tablist = document.querySelector("[role=tablist]");
  var controls = document.querySelector("[data-controls]");
  var input = document.getElementById("filter");
  var status = document.getElementById("filter-status");
  if (!source || !tablist || !controls || !input || !status) return;

  var data = JSON.parse(source.textContent);
  var fields = data.fields;
  var rowCount = data.row_count;
  // What the filter searches: the fields of the searched columns that the data carries, the
  // family, and the text of the searched cells it leaves out (the hash, which the row shows in full).
  var SEARCHED = ["model_family"], SEARCHED_CELLS = [];
  data.columns.forEach(function (column, cell) {
    if (!column.searched) return;
    if (fields[column.key]) SEARCHED.push(column.key); else SEARCHED_CELLS.push(cell);
  });

  // The page lists a family's rows in ranking order under its suite's panel, in data.suites order.
  var groupOf = {};
  var tabs = Array.prototype.slice.call(tablist.querySelectorAll("[role=tab]"));
  var suites = data.suites.map(function (suite, s) {
    var tab = tabs[s];
    var panel = document.getElementById(tab.getAttribute("aria-controls"));
    var boxes = panel.querySelectorAll("[data-family]");
    var families = suite.families.map(function (name, f) {
      var family = { box: boxes[f], trs: boxes[f].querySelector("tbody").rows, rows: [], shown: 0 };
      groupOf[suite.name + "\u0000" + name] = family;
      return family;
    });
    return { tab: tab, panel: panel, families: families, count: tab.querySelector("[data-count]"),
             empty: panel.querySelector("[data-empty]"), shown: -1 };
  });
  // What the filter searches, one lower-case string per row, fields kept apart by a line break.
  var haystacks = new Array(rowCount);
  for (var i = 0; i < rowCount; i++) {
    var family = groupOf[fields.suite[i] + "\u0000" + fields.model_family[i]];
    var parts = [];
    for (var c = 0; c < SEARCHED.length; c++) parts.push(fields[SEARCHED[c]][i]);
    var cells = family.trs[family.rows.length].cells;
    for (var k = 0; k < SEARCHED_CELLS.length; k++) parts.push(cells[SEARCHED_CELLS[k]].textContent);
    haystacks[i] = parts.join("\n").toLowerCase();
    family.rows.push(i);
    family.shown++;
  }
  var visible = new Uint8Array(rowCount).fill(1);
  var selected = 0;
  var query = "";

  function plural(n) { return n === 1 ? " row" : " rows"; }

  // Show the rows matching every word of the query; touch only rows whose visibility changes.
  function filter(text) {
    query = text;
    var words = text.toLowerCase().split(/\s+/).filter(Boolean);
    var total = 0;
    suites.forEach(function (suite) {
      var inSuite = 0;
      suite.families.forEach(function (family) {
        var rows = family.rows, trs = family.trs, shown = 0;
        for (var k = 0; k < rows.length; k++) {
          var hay = haystacks[rows[k]], match = 1;
          for (var w = 0; w < words.length; w++) {
            if (hay.indexOf(words[w]) === -1) { match = 0; break; }
          }
          shown += match;
          if (visible[rows[k]] !== match) {
            visible[rows[k]] = match;
            trs[k].hidden = !match;
          }
        }
        if ((shown === 0) !== (family.shown === 0)) family.box.hidden = shown === 0;
        family.shown = shown;
        inSuite += shown;
      });
      if (suite.shown !== inSuite) {
        suite.count.textContent = String(inSuite);
        suite.empty.hidden = inSuite > 0;
        suite.tab.classList.toggle("no-match", inSuite === 0);
        suite.shown = inSuite;
      }
      total += inSuite;
    });
    if (!words.length) status.textContent = "Showing all " + rowCount + plural(rowCount) + ".";
    else if (total === 0) status.textContent = "No rows match \u201c" + text.trim() + "\u201d.";
    else status.textContent = "Showing " + total + " of " + rowCount + plural(rowCount) + " matching \u201c" + text.trim() + "\u201d.";
    // A chosen suite without a match gives way to the first suite that has one.
    if (suites[selected].shown === 0) {
      for (var s = 0; s < suites.length; s++) {
        if (suites[s].shown > 0) { select(s); break; }
      }
    }
  }

  function select(index, focus) {
    if (index !== selected) {
      suites[selected].tab.setAttribute("aria-selected", "false");
      suites[selected].tab.tabIndex = -1;
      suites[selected].panel.hidden = true;
      selected = index;
    }
    var suite = suites[index];
    suite.tab.setAttribute("aria-selected", "true");
    suite.tab.tabIndex = 0;
    suite.panel.hidden = false;
    if (focus) suite.tab.focus();
  }

  // The address: #<panel id>, and ?q=<filter> when there is one; it reopens the same view.
  function address() {
    return "#" + suites[selected].panel.id + (query ? "?q=" + encodeURIComponent(query) : "");
  }

  function remember(push) {
    var target = address();
    if (target === location.hash) return;
    try {
      history[push ? "pushState" : "replaceState"](null, "", target);
    } catch (error) {  // some browsers refuse history changes on file: pages
      if (push) location.hash = target; else location.replace(target);
    }
  }

  function restore() {
    var fragment = location.hash.slice(1);
    var mark = fragment.indexOf("?");
    var id = mark === -1 ? fragment : fragment.slice(0, mark);
    var text = "";
    if (mark !== -1) {
      try { text = new URLSearchParams(fragment.slice(mark + 1)).get("q") || ""; } catch (error) { text = ""; }
    }
    var index = -1;
    for (var s = 0; s < suites.length; s++) if (suites[s].panel.id === id) index = s;
    if (index === -1 && mark === -1 && id) return;  // another fragment of the page, such as #main
    select(index === -1 ? 0 : index);
    input.value = text;
    filter(text);
  }

  tabs.forEach(function (tab, index) {
    tab.addEventListener("click", function () { select(index); remember(true); });
  });
  tablist.addEventListener("keydown", function (event) {
    var last = suites.length - 1;
    var next = { ArrowRight: selected === last ? 0 : selected + 1, ArrowLeft: selected === 0 ? last : selected - 1,
                 Home: 0, End: last }[event.key];
    if (next === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    select(next, true);
    remember(true);
  });
  input.addEventListener("input", function () { filter(input.value); remember(false); });
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !input.value) return;
    event.preventDefault();
    input.value = "";
    filter("");
    remember(false);
  });
  window.addEventListener("popstate", restore);
  window.addEventListener("hashchange", restore);

  document.documentElement.classList.add("js");
  suites.forEach(function (suite, s) {
    suite.panel.setAttribute("role", "tabpanel");
    suite.panel.setAttribute("aria-labelledby", suite.tab.id);
    suite.panel.tabIndex = 0;
    suite.panel.hidden = s !== 0;
    suite.tab.setAttribute("aria-selected", s === 0 ? "true" : "false");
    suite.tab.tabIndex = s === 0 ? 0 : -1;
  });
  restore();
  tablist.hidden = false;
  controls.hidden = false;
})();
