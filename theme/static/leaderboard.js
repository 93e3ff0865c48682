// The leaderboard page's one state (its view), which the reader's tabs, tools and address change.
// The state: the suite shown, the filter, the size range, the sort and the rows picked to compare.
// A suite's panel opens on its best rows, which stay in ranking order; the reader's tools follow them
// and act on the family tables below. Nothing is fetched: what the page needs later is added as
// same-origin scripts, which work from disk and under default-src 'self'. Without this script the
// index shows the first suite, its tabs are links to the other suites' pages, each family shows its
// top rows and links to its pages, which hold every row, and nothing is lost.
//
// Two layers share the state. The page's own (this script: tabs, the selection to compare, the
// address) needs no data: on the index, a suite's panel is loaded when it is first shown
// (suite/<anchor>/panel.js, the same markup as its page). The rows' (leaderboard-tables.js: filter,
// sort, Show more, download) reads leaderboard-data.js, every row of the archive; both are loaded
// when one of them is first used, never before the page is ready, and what was asked meanwhile is
// done once they are read.
(function () {
  "use strict";
  var common = window.leaderboardCommon;
  var script = document.currentScript;
  var nav = document.querySelector("[data-tabs]");
  var controls = document.querySelector("[data-controls]");
  var input = document.getElementById("filter");
  var status = document.getElementById("filter-status");
  if (!common || !script || !nav || !controls || !input || !status) return;

  var DATA = "leaderboard-data.js", TABLES = "leaderboard-tables.js";
  var dataUrl = script.getAttribute("data-data") || "";
  var tablesUrl = script.getAttribute("data-tables") || "";
  // Links to the site's files are relative to the page: the site's root is where the data file is
  // (the build writes a row's links from it, and so do the rows made like it).
  var base = dataUrl.slice(0, -DATA.length);
  // On the index the tabs show the suites in place; on a suite's own page they stay links.
  var inPlace = nav.hasAttribute("data-panels");
  var sizeMin = document.getElementById("size-min");
  var sizeMax = document.getElementById("size-max");
  var canonicalButton = controls.querySelector("[data-canonical]");
  var downloadButton = controls.querySelector("[data-download]");
  var compareLink = controls.querySelector("[data-compare-link]");
  var compareCount = controls.querySelector("[data-compare-count]");
  var compareClear = controls.querySelector("[data-compare-clear]");
  var compareStatus = document.getElementById("compare-status");
  var compareBase = compareLink ? compareLink.getAttribute("href") : "";

  function addScript(src, done) {
    var element = document.createElement("script");
    element.src = src;
    element.onload = function () { done(true); };
    element.onerror = function () { done(false); };
    document.head.appendChild(element);
  }

  // The suites, in the order of the tabs: a tab (the link to its page) and a panel, the page's own
  // or, on the index, one made empty and filled when first shown.
  var suites = Array.prototype.slice.call(nav.querySelectorAll("a[data-panel]")).map(function (link) {
    var anchor = link.getAttribute("data-panel");
    var panel = document.getElementById(anchor);
    return { anchor: anchor, tab: link, panel: panel, loaded: Boolean(panel), loading: false,
             name: link.getAttribute("data-name"), count: link.querySelector("[data-count]"),
             shown: -1, total: 0 };
  });
  // Each suite's rows, as its tab says when served (data-rows; the count it shows changes as rows match).
  suites.forEach(function (suite) { suite.total = suite.shown = Number(suite.tab.getAttribute("data-rows")) || 0; });
  if (!suites.length) return;
  // The archive's rows, counted by the tabs as served: a row named in the address must be one.
  var rowTotal = 0;
  suites.forEach(function (suite) { rowTotal += suite.total; });

  // The view, the one state both layers read and change: the chosen suite (its index in `suites`),
  // the filter's text, the size bounds (millions of parameters, null when unset), the sort (null:
  // canonical; else the key of a column and "asc" or "desc"), the rows picked to compare (indices
  // into the global ranking, in the order picked), and the rows' layer, once the data is read (null
  // until then), which applies the rest to the tables. The address says all but the last.
  var state = { suite: 0, query: "", bounds: { min: null, max: null }, sort: null, selection: [], rows: null };
  suites.forEach(function (suite, s) { if (suite.tab.getAttribute("aria-current") === "page") state.suite = s; });
  var own = suites[state.suite].panel;
  if (!own) return;

  // The WAI-ARIA tabs pattern, on the index: each link becomes the tab of its panel.
  if (inPlace) {
    var after = own;
    suites.forEach(function (suite) {
      if (!suite.panel) {
        suite.panel = document.createElement("section");
        suite.panel.className = "panel";
        suite.panel.id = suite.anchor;
        suite.panel.hidden = true;
        after.insertAdjacentElement("afterend", suite.panel);
      }
      after = suite.panel;
      suite.panel.setAttribute("role", "tabpanel");
      suite.panel.setAttribute("aria-labelledby", suite.tab.id);
      suite.panel.tabIndex = 0;
    });
    nav.setAttribute("role", "tablist");
    suites.forEach(function (suite, s) {
      suite.tab.setAttribute("role", "tab");
      suite.tab.setAttribute("aria-controls", suite.anchor);
      suite.tab.setAttribute("aria-selected", s === state.suite ? "true" : "false");
      suite.tab.tabIndex = s === state.suite ? 0 : -1;
      suite.tab.removeAttribute("aria-current");
    });
  }

  function bounded() { return state.bounds.min !== null || state.bounds.max !== null; }
  // The status line of a suite whose every row is shown, as the build writes it (controls.html).
  function everyRow(suite) { return "Showing all " + suite.total + (suite.total === 1 ? " row." : " rows."); }
  function plain() { return !state.query.trim() && !bounded() && !state.sort; }

  function select(index, focus) {
    if (!inPlace) return;
    if (index !== state.suite) {
      suites[state.suite].tab.setAttribute("aria-selected", "false");
      suites[state.suite].tab.tabIndex = -1;
      suites[state.suite].panel.hidden = true;
      state.suite = index;
    }
    var suite = suites[index];
    suite.tab.setAttribute("aria-selected", "true");
    suite.tab.tabIndex = 0;
    suite.panel.hidden = false;
    loadPanel(index);
    placeControls(index);
    if (state.rows) state.rows.show(index);
    else if (status.textContent !== everyRow(suite) && !reading) status.textContent = everyRow(suite);
    if (focus) suite.tab.focus();
  }

  // The reader's tools stand in the shown suite's panel, after its best rows (the build writes them
  // in the served suite's; a panel not loaded yet holds them at its end): showing another suite
  // takes them along, with the focus and what they hold (moveBefore keeps an element's state; where
  // a browser lacks it, the focus is given back).
  function placeControls(index) {
    var panel = suites[index].panel;
    var top = panel.querySelector("[data-top]");
    if (top ? top.nextElementSibling === controls : controls.parentNode === panel) return;
    var parent = top ? top.parentNode : panel;
    var before = top ? top.nextSibling : null;
    var focused = controls.contains(document.activeElement) ? document.activeElement : null;
    if (parent.moveBefore) parent.moveBefore(controls, before);
    else parent.insertBefore(controls, before);
    if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true });
  }

  // A suite's panel, the first time it is shown: its script holds the markup of its page's panel.
  function loadPanel(index) {
    var suite = suites[index];
    if (suite.loaded || suite.loading) return;
    suite.loading = true;
    var note = document.createElement("p");
    note.className = "loading";
    var name = document.createElement("bdi");  // the suite's name, isolated from the words around it
    name.textContent = suite.name;
    note.append("Loading ", name, "\u2026");
    suite.panel.appendChild(note);
    addScript(base + common.quote("suite/" + suite.anchor + "/panel.js"), function () {
      var all = window.leaderboardPanels;
      var html = all && Object.prototype.hasOwnProperty.call(all, suite.anchor) ? all[suite.anchor] : null;
      suite.loading = false;
      if (typeof html !== "string") {
        note.textContent = "This suite could not be loaded here: ";
        var link = document.createElement("a");
        link.href = suite.tab.getAttribute("href");
        link.textContent = "open its page";
        note.appendChild(link);
        note.append(".");
        return;
      }
      // The panel's markup replaces the note, beside the tools if they stand there already.
      var made = document.createElement("template");
      made.innerHTML = html;
      Array.prototype.slice.call(suite.panel.childNodes).forEach(function (node) {
        if (node !== controls) suite.panel.removeChild(node);
      });
      suite.panel.insertBefore(made.content, suite.panel.firstChild);
      if (index === state.suite) placeControls(index);
      suite.loaded = true;
      enableSorting(suite.panel);
      showChecked();
      if (state.rows) state.rows.attach(index);
    });
  }

  function enableSorting(root) {
    Array.prototype.forEach.call(root.querySelectorAll("thead button[data-sort]"), function (button) {
      button.disabled = false;
    });
  }

  // What the rows' layer (leaderboard-tables.js) is given of the page, besides the state.
  function pageForRows() {
    return { suites: suites, controls: controls, status: status, base: base, inPlace: inPlace, idle: idle,
             select: select, enableSorting: enableSorting, everyRow: everyRow, plain: plain, bounded: bounded };
  }

  // The rows' layer, read when first needed: its script and the data, loaded side by side; what is
  // asked meanwhile waits in `asked`.
  var asked = [];
  var reading = false;
  function withRows(then) {
    if (state.rows) { if (then) then(); return; }
    if (then) asked.push(then);
    if (reading) return;
    reading = true;
    status.textContent = "Reading every row\u2026";
    var waits = 2;
    function loaded() {
      if (--waits > 0) return;
      var data = window.leaderboardData, Tables = window.leaderboardTables;
      common.read(data);
      if (!data || !data.fields || typeof Tables !== "function") {
        status.textContent = "The rows could not be read: filter and sort need " +
          (typeof Tables !== "function" ? TABLES : DATA) + ".";
        return;
      }
      status.textContent = everyRow(suites[state.suite]);
      state.rows = Tables(data, state, pageForRows());
      controls.setAttribute("data-rows", "read");  // what the rows' tools need is here
      suites.forEach(function (suite, s) { if (suite.loaded) state.rows.attach(s); });
      if (!plain()) state.rows.update();
      var waiting = asked;
      asked = [];
      waiting.forEach(function (then) { then(); });
    }
    addScript(tablesUrl, loaded);
    addScript(dataUrl, loaded);
  }

  // Picking rows to compare: two to four, in the order picked; the compare page's link carries them.
  function showChecked() {
    Array.prototype.forEach.call(document.querySelectorAll("input[data-compare]"), function (checkbox) {
      var on = state.selection.indexOf(Number(checkbox.getAttribute("data-compare"))) !== -1;
      if (checkbox.checked !== on) checkbox.checked = on;
    });
  }

  function showSelection(message) {
    var n = state.selection.length;
    if (compareCount) compareCount.textContent = String(n);
    if (compareLink) {
      // Always a real link: to the compare page, which explains comparing, until two rows are picked.
      compareLink.setAttribute("href", n >= common.COMPARE_MIN ? compareBase + "#rows=" + state.selection.join(",") : compareBase);
      if (n >= common.COMPARE_MIN) compareLink.removeAttribute("aria-disabled");
      else compareLink.setAttribute("aria-disabled", "true");
    }
    if (compareClear) compareClear.disabled = n === 0;
    if (compareStatus) {
      compareStatus.textContent = message || (n === 0 ? "" : n < common.COMPARE_MIN
        ? "1 row picked: pick at least " + common.COMPARE_MIN + " to compare."
        : n + " rows picked to compare.");
    }
  }

  function pick(index, on, checkbox) {
    var at = state.selection.indexOf(index);
    if (on && at === -1) {
      if (state.selection.length >= common.COMPARE_MAX) {
        checkbox.checked = false;
        showSelection("At most " + common.COMPARE_MAX + " rows can be compared: untick one first.");
        return;
      }
      state.selection.push(index);
    } else if (!on && at !== -1) {
      state.selection.splice(at, 1);
    }
    // A row can show twice (in its suite's best rows and in its family's table): both boxes agree.
    showChecked();
    if (state.rows) state.rows.checked();
    showSelection();
    remember(false);
  }

  function setSelection(list) {
    state.selection = list;
    showChecked();
    if (state.rows) state.rows.checked();
    showSelection();
  }

  // The address: #<panel id>, then ?q=<filter>&sort=<key>:<asc|desc>&size=<min>-<max>&compare=<rows>
  // for what differs from the default view; it reopens the same view. A click adds a history
  // entry at once; typing replaces the current one once the answer is painted and the page is
  // idle, since writing history makes the browser record the page's state (form controls among it).
  function address() {
    var params = [];
    if (state.query) params.push("q=" + encodeURIComponent(state.query));
    if (state.sort) params.push("sort=" + encodeURIComponent(state.sort.key) + ":" + state.sort.dir);
    if (bounded()) params.push("size=" + (state.bounds.min === null ? "" : state.bounds.min) + "-" + (state.bounds.max === null ? "" : state.bounds.max));
    if (state.selection.length) params.push("compare=" + state.selection.join(","));
    return "#" + suites[state.suite].anchor + (params.length ? "?" + params.join("&") : "");
  }

  function write(push) {
    var target = address();
    if (target === location.hash) return;
    try {
      history[push ? "pushState" : "replaceState"](null, "", target);
    } catch (error) {  // some browsers refuse history changes on file: pages
      if (push) location.hash = target; else location.replace(target);
    }
  }

  var idle = window.requestIdleCallback || function (callback) { return setTimeout(callback, 0); };
  var pending = false;
  function remember(push) {
    if (push) {
      pending = false;
      write(true);
    } else if (!pending) {
      pending = true;
      requestAnimationFrame(function () {
        idle(function () {
          if (pending) write(false);
          pending = false;
        }, { timeout: 500 });
      });
    }
  }

  function bound(text) {
    var value = text === null || text === undefined || text.trim() === "" ? NaN : Number(text);
    return isFinite(value) && value >= 0 ? value : null;
  }

  // A sort named in the address; the rows' layer drops one that names no sortable column.
  function parseSort(text) {
    var parts = /^(.+):(asc|desc)$/.exec(text || "");
    return parts ? { key: parts[1], dir: parts[2] } : null;
  }

  function parseRows(text) {
    var list = [];
    (text || "").split(",").forEach(function (part) {
      var index = /^\d+$/.test(part) ? Number(part) : -1;
      if (index >= 0 && index < rowTotal && list.indexOf(index) === -1 && list.length < common.COMPARE_MAX) list.push(index);
    });
    return list;
  }

  function restore() {
    var fragment = location.hash.slice(1);
    var mark = fragment.indexOf("?");
    var id = mark === -1 ? fragment : fragment.slice(0, mark);
    var params = new URLSearchParams(mark === -1 ? "" : fragment.slice(mark + 1));
    var index = -1;
    for (var s = 0; s < suites.length; s++) if (suites[s].anchor === id) index = s;
    if (index === -1 && mark === -1 && id) return false;  // another fragment of the page, such as #main
    pending = false;
    state.query = params.get("q") || "";
    input.value = state.query;
    state.sort = parseSort(params.get("sort"));
    var size = /^([^-]*)-(.*)$/.exec(params.get("size") || "");
    state.bounds = size ? { min: bound(size[1]), max: bound(size[2]) } : { min: null, max: null };
    if (sizeMin) sizeMin.value = state.bounds.min === null ? "" : String(state.bounds.min);
    if (sizeMax) sizeMax.value = state.bounds.max === null ? "" : String(state.bounds.max);
    setSelection(parseRows(params.get("compare")));
    if (index !== -1) select(index);
    if (state.rows) state.rows.update();
    else if (!plain()) withRows(null);
    return true;
  }

  // A header's button: ascending, then descending, then the canonical order again. The canonical
  // order is the rank's ascending order, so the rank's button goes to descending and back.
  function cycle(key) {
    if (!state.sort || state.sort.key !== key) state.sort = { key: key, dir: key === state.rows.rankKey ? "desc" : "asc" };
    else if (state.sort.dir === "asc") state.sort = { key: key, dir: "desc" };
    else state.sort = null;
    state.rows.update();
    remember(true);
  }

  suites.forEach(function (suite, index) {
    suite.tab.addEventListener("click", function (event) {
      if (!inPlace) return;
      event.preventDefault();
      select(index);
      remember(true);
    });
  });
  nav.addEventListener("keydown", function (event) {
    if (!inPlace) return;
    var last = suites.length - 1;
    var next = { ArrowRight: state.suite === last ? 0 : state.suite + 1, ArrowLeft: state.suite === 0 ? last : state.suite - 1,
                 Home: 0, End: last }[event.key];
    if (next === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    select(next, true);
    remember(true);
  });
  // The rows are read as soon as the reader turns to the filter or the size bounds.
  controls.addEventListener("focusin", function (event) {
    if (event.target === input || event.target === sizeMin || event.target === sizeMax) withRows(null);
  });
  function changed() { if (state.rows) state.rows.update(); else withRows(null); }
  input.addEventListener("input", function () { state.query = input.value; changed(); remember(false); });
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !input.value) return;
    event.preventDefault();
    input.value = state.query = "";
    changed();
    remember(false);
  });
  [sizeMin, sizeMax].forEach(function (field) {
    if (!field) return;
    field.addEventListener("input", function () {
      state.bounds = { min: bound(sizeMin.value), max: bound(sizeMax.value) };
      changed();
      remember(false);
    });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("thead button[data-sort]") : null;
    if (button) {
      var key = button.getAttribute("data-sort");
      withRows(function () { cycle(key); });
    }
    var more = event.target.closest ? event.target.closest("button[data-more]") : null;
    if (more) withRows(function () { state.rows.more(more); });
  });
  document.addEventListener("change", function (event) {
    var checkbox = event.target;
    if (checkbox.matches && checkbox.matches("input[data-compare]")) pick(Number(checkbox.getAttribute("data-compare")), checkbox.checked, checkbox);
  });
  if (canonicalButton) canonicalButton.addEventListener("click", function () { state.sort = null; if (state.rows) state.rows.update(); remember(true); });
  if (compareClear) compareClear.addEventListener("click", function () { setSelection([]); remember(false); });
  if (compareLink) {
    compareLink.addEventListener("click", function (event) {
      if (compareLink.getAttribute("aria-disabled") === "true") event.preventDefault();
    });
  }
  if (downloadButton) downloadButton.addEventListener("click", function () { withRows(function () { state.rows.download(); }); });
  window.addEventListener("popstate", restore);
  window.addEventListener("hashchange", restore);
  // A page shown again from the back-forward cache, or whose boxes the browser filled in again,
  // shows the selection the address names.
  window.addEventListener("pageshow", function () { showChecked(); });

  document.documentElement.classList.add("js");
  enableSorting(document);
  if (!restore()) setSelection([]);

})();
