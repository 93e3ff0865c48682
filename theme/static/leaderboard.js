// The leaderboard page's behaviour: suite tabs, the row filter (text and size), sorting, picking rows
// to compare, downloading the rows shown, dimming the chart's hidden marks, and an address that keeps
// all of it. Everything is read from leaderboard-data.js, which the page loads before this script;
// nothing is fetched. Without this script every suite shows, each family's first rows on the index
// and the rest on its static pages, in the canonical order, and nothing is lost.
//
// The data is column-major (a field's column gives row i of the global ranking, read through
// leaderboardCommon.column) and every column fact comes from data.columns, so the script knows no
// cell position. With the script, a family's table
// body shows the rows that match in the chosen order, a hundred or so at a time (with a Show more
// button): rows the index does not hold are made from the data, as the build writes them, so that
// filter and sort cover every row and the page only ever lays out a few hundred rows per suite.
(function () {
  "use strict";
  var common = window.leaderboardCommon;
  var data = window.leaderboardData;
  var tablist = document.querySelector("[role=tablist]");
  var controls = document.querySelector("[data-controls]");
  var input = document.getElementById("filter");
  var status = document.getElementById("filter-status");
  if (!data || !common || !tablist || !controls || !input || !status) return;

  var columns = data.columns;
  var rowCount = data.row_count;
  // A family shows this many rows at a time, and Show more adds as many: the rows of one of its
  // static pages, or fewer where a page is long, so that answering a keystroke or a sort lays out
  // a few hundred rows per suite, not thousands.
  var AT_ONCE = 100;
  var chunk = Math.min(AT_ONCE, data.page_rows > 0 ? data.page_rows : Infinity);
  var thin = typeof data.thin_evidence === "number" ? data.thin_evidence : -Infinity;
  var sizeBox = controls.querySelector("[data-size]");
  var sizeMin = document.getElementById("size-min");
  var sizeMax = document.getElementById("size-max");
  var canonicalButton = controls.querySelector("[data-canonical]");
  var downloadButton = controls.querySelector("[data-download]");
  var compareLink = controls.querySelector("[data-compare-link]");
  var compareCount = controls.querySelector("[data-compare-count]");
  var compareClear = controls.querySelector("[data-compare-clear]");
  var compareStatus = document.getElementById("compare-status");
  var compareBase = compareLink ? compareLink.getAttribute("href") : "";

  var cellOf = {};  // a column's key -> the position of its cell in a row
  var kindAt = {};  // a kind -> the position of its (first) column
  columns.forEach(function (column, cell) {
    cellOf[column.key] = cell;
    if (!(column.kind in kindAt)) kindAt[column.kind] = cell;
  });
  // The size filter reads the size column's field (a parameter count, null when unknown).
  var SIZE = "size" in kindAt ? columns[kindAt.size].key : null;
  var hasSizes = SIZE !== null && common.column(SIZE) !== null;
  var rankKey = "rank" in kindAt ? columns[kindAt.rank].key : null;
  var selectCell = "select" in kindAt ? kindAt.select : -1;

  // Suites, in the order of the tabs and panels, and their families, in the order of their tables.
  var tabs = Array.prototype.slice.call(tablist.querySelectorAll("[role=tab]"));
  var families = [];
  var familyByName = {};
  var suites = data.suites.map(function (suite, s) {
    var tab = tabs[s];
    var panel = document.getElementById(tab.getAttribute("aria-controls"));
    var boxes = panel.querySelectorAll("[data-family]");
    var own = suite.families.map(function (name, f) {
      var table = boxes[f].querySelector("table");
      var tbody = table.tBodies[0];
      // The index holds a family's first rows, in canonical order; `written` keeps them once the
      // script takes the table body over.
      var entry = { id: families.length, suite: s, box: boxes[f], table: table, tbody: tbody, rows: [],
                    held: tbody.rows.length, written: null, matched: [], shown: null, limit: 0, stale: false,
                    more: null, hidden: false };
      families.push(entry);
      familyByName[suite.name + "\u0000" + name] = entry;
      return entry;
    });
    return { tab: tab, panel: panel, families: own, count: tab.querySelector("[data-count]"),
             empty: panel.querySelector("[data-empty]"), shown: -1 };
  });

  // Each row's family, its place in it and its rank in its suite (the rank column's value). A
  // family is found by the entry numbers of its suite and family name in their columns.
  var suiteColumn = common.column("suite"), familyColumn = common.column("model_family");
  var suiteEntries = suiteColumn.entries(), familyEntries = familyColumn.entries();
  var familyAt = new Int32Array(suiteEntries.length * familyEntries.length);
  for (var se = 0; se < suiteEntries.length; se++) {
    for (var fe = 0; fe < familyEntries.length; fe++) {
      var named = familyByName[suiteEntries[se] + "\u0000" + familyEntries[fe]];
      familyAt[se * familyEntries.length + fe] = named ? named.id : -1;
    }
  }
  var familyOf = new Int32Array(rowCount);
  var placeOf = new Int32Array(rowCount);
  var rankInSuite = new Int32Array(rowCount);
  var counted = new Int32Array(suites.length);
  var familyCount = familyEntries.length;
  for (var i = 0; i < rowCount; i++) {
    var family = families[familyAt[suiteColumn.at(i) * familyCount + familyColumn.at(i)]];
    familyOf[i] = family.id;
    placeOf[i] = family.rows.length;
    family.rows.push(i);
    rankInSuite[i] = ++counted[family.suite];
  }
  families.forEach(function (f) { f.shown = f.rows.slice(0, f.held); });

  // A field's column: from the data, or worked out (the rank); null for a field the data does not
  // hold (the copy's URL, made from the report's path where it is needed).
  var derived = {};
  function column(key) {
    var found = common.column(key);
    if (found || key !== rankKey) return found;
    if (!derived[key]) {
      var most = 0;
      for (var c = 0; c < counted.length; c++) most = Math.max(most, counted[c]);
      var ranks = new Array(most), at = new Int32Array(rowCount);
      for (var n = 0; n < most; n++) ranks[n] = n + 1;
      for (var r = 0; r < rowCount; r++) at[r] = rankInSuite[r] - 1;
      derived[key] = common.derived(ranks, at);
    }
    return derived[key];
  }
  // A row's value of a published field, as leaderboard.json has it.
  var reportPath = common.column("report_path");
  function value(key, index) {
    if (key === "report_url") return common.reportUrl(reportPath.value(index));
    var found = column(key);
    return found ? found.value(index) : null;
  }
  var modelColumn = common.column("model_name"), deviceColumn = common.column("device");
  var frontierColumn = common.column("frontier"), sizeColumn = common.column("size");

  // Rows the index does not hold are made like the build makes them: a copy of its first row, each
  // cell filled as its column's kind says, with the marks a cell may carry after its value (a
  // frontier row, thin evidence) copied from the page, and the checkbox named as the page names it.
  var prototype = null;
  for (var p = 0; p < families.length && !prototype; p++) {
    if (families[p].held) prototype = families[p].tbody.rows[0].cloneNode(true);
  }
  function found(selector) {
    var mark = document.querySelector(selector);
    return mark ? mark.cloneNode(true) : null;
  }
  var frontierBadge = found("tbody .badge.frontier");
  var thinBadge = found("tbody .badge.thin");
  // Links in a row are relative to the site: the prefix the build wrote before the site's paths.
  var prefix = "";
  var checkboxLabel = function () { return ""; };
  if (prototype) {
    var first = Number(prototype.getAttribute("data-row"));
    var link = "model" in kindAt ? prototype.cells[kindAt.model].firstElementChild : null;
    var href = link ? link.getAttribute("href") : "";
    var page = common.reportPageUrl(reportPath.value(first));
    if (href.slice(-page.length) === page) prefix = href.slice(0, href.length - page.length);
    var box = selectCell === -1 ? null : prototype.cells[selectCell].firstElementChild;
    var label = box ? box.getAttribute("aria-label") || "" : "";
    var model = modelColumn.value(first), device = deviceColumn.value(first);
    var at = label.indexOf(model), then = at === -1 ? -1 : label.indexOf(device, at + model.length);
    if (then !== -1) {
      var before = label.slice(0, at), between = label.slice(at + model.length, then), after = label.slice(then + device.length);
      checkboxLabel = function (index) { return before + modelColumn.value(index) + between + deviceColumn.value(index) + after; };
    }
  }
  var fillers = columns.map(function (spec) {
    var list = spec.kind === "copy" || spec.kind === "select" ? null : column(spec.key);
    function text(index) {
      var found = list ? list.value(index) : null;
      return found === null || found === undefined ? "" : String(found);
    }
    switch (spec.kind) {
      case "rank":
        return function (cell, index) { cell.textContent = String(rankInSuite[index]); };
      case "model":
        return function (cell, index) {
          var anchor = cell.firstElementChild;
          anchor.setAttribute("href", prefix + common.reportPageUrl(reportPath.value(index)));
          anchor.textContent = modelColumn.value(index);
          if (cell.childNodes.length > 1) {
            cell.textContent = "";
            cell.appendChild(anchor);
          }
          if (frontierBadge && frontierColumn && frontierColumn.value(index)) cell.append(" ", frontierBadge.cloneNode(true));
        };
      case "copy":
        return function (cell, index) {
          cell.firstElementChild.setAttribute("href", prefix + common.reportUrl(reportPath.value(index)));
        };
      case "select":
        return function (cell, index) {
          var checkbox = cell.firstElementChild;
          checkbox.setAttribute("data-compare", String(index));
          checkbox.setAttribute("aria-label", checkboxLabel(index));
          checkbox.checked = false;
        };
      case "percent":
        return function (cell, index) { cell.textContent = common.percent(list.value(index)); };
      case "count":
        return function (cell, index) {
          var count = list.value(index);
          cell.textContent = String(count);
          if (thinBadge && count < thin) cell.append(" ", thinBadge.cloneNode(true));
        };
      case "size":
        return function (cell, index) { cell.textContent = sizeColumn ? sizeColumn.value(index) : text(index); };
      default:
        return function (cell, index) { cell.textContent = text(index); };
    }
  });

  function makeRow(index) {
    var tr = prototype.cloneNode(true);
    tr.setAttribute("data-row", String(index));
    var cells = tr.cells;
    for (var c = 0; c < fillers.length; c++) fillers[c](cells[c], index);
    return tr;
  }

  // A row's element: the one the page holds, or one made once and kept.
  var made = {};
  function row(index) {
    var family = families[familyOf[index]];
    var tr = placeOf[index] < family.held ? family.written[placeOf[index]] : made[index] || (made[index] = makeRow(index));
    if (selectCell !== -1) {
      var checkbox = tr.cells[selectCell].firstElementChild;
      var on = selection.indexOf(index) !== -1;
      if (checkbox.checked !== on) checkbox.checked = on;
    }
    return tr;
  }

  function existing(index) {
    var family = families[familyOf[index]];
    if (placeOf[index] < family.held) return family.written ? family.written[placeOf[index]] : family.tbody.rows[placeOf[index]];
    return made[index] || null;
  }

  // What the filter searches: the searched columns' values and the family, ignoring case. A row
  // matches a word when one of its values holds it; each column is searched once a word, its
  // distinct values (entries) rather than its rows, and what a word matches is kept for the next
  // keystrokes. The columns' lower-case text is made once, as the page starts.
  var SEARCHED = ["model_family"];
  columns.forEach(function (spec) { if (spec.searched) SEARCHED.push(spec.key); });
  var searchedColumns = SEARCHED.map(column).filter(Boolean);
  var matching = new Map();
  function rowsHolding(word) {
    var rows = matching.get(word);
    if (rows) return rows;
    rows = new Uint8Array(rowCount);
    searchedColumns.forEach(function (found) {
      var entries = found.holding(word);
      if (!entries) return;
      var index = found.codes();
      if (!index) {
        for (var r = 0; r < rowCount; r++) rows[r] |= entries[r];
      } else {
        for (var q = 0; q < rowCount; q++) rows[q] |= entries[index[q]];
      }
    });
    if (matching.size >= 32) matching.clear();
    matching.set(word, rows);
    return rows;
  }

  // The view: the filter's words, the size bounds (millions of parameters, null when unset), the
  // sort (null: canonical), the rows picked to compare, and the chosen suite.
  var query = "";
  var words = [];
  var bounds = { min: null, max: null };
  var sort = null;
  var selection = [];
  var selected = 0;
  var match = new Uint8Array(rowCount).fill(1);

  function bounded() { return bounds.min !== null || bounds.max !== null; }

  function computeMatch() {
    words = query.toLowerCase().split(/\s+/).filter(Boolean);
    var sizes = hasSizes && bounded() ? column(SIZE) : null;
    var low = bounds.min === null ? -Infinity : bounds.min * 1e6;
    var high = bounds.max === null ? Infinity : bounds.max * 1e6;
    var held = words.map(rowsHolding);
    // The size bound, decided once an entry.
    var fits = null;
    if (sizes) {
      fits = new Uint8Array(sizes.count());
      for (var e = 0; e < fits.length; e++) {
        var size = sizes.entry(e);
        fits[e] = size !== null && size >= low && size <= high ? 1 : 0;
      }
    }
    for (var r = 0; r < rowCount; r++) {
      var yes = 1;
      for (var w = 0; yes && w < held.length; w++) yes = held[w][r];
      if (yes && fits) yes = fits[sizes.at(r)];
      match[r] = yes;
    }
  }

  // A sort's order of every row, made once per column and direction: values compared as numbers or
  // as text ignoring case, ties in canonical order, unknown values last either way. A column's
  // distinct values (its entries) are ranked once, by one comparison sort; the rows are then
  // placed by their entry's rank (a counting sort, which keeps ties in canonical order).
  var orders = {};
  var ranked = {};
  var ranking = {};  // a column whose entries are being sorted while the page is idle
  function always() { return true; }

  // A merge sort of `ids` that can stop and go on: sorted blocks, then merged pass by pass, a slice
  // of work at a time while more() says there is time. step(more) tells whether it is done; the
  // sorted ids are then `result`.
  function Sorter(ids, compare) {
    var n = ids.length, from = ids, to = new Int32Array(n), BLOCK = 2048, SLICE = 4096;
    var sorted = 0, width = BLOCK, lo = 0, mid = 0, hi = 0, i = 0, j = 0, k = 0, merging = false;
    var self = this;
    self.result = ids;
    self.done = n <= 1;
    self.step = function (more) {
      while (!self.done && more()) {
        if (sorted < n) {
          from.subarray(sorted, Math.min(n, sorted + BLOCK)).sort(compare);
          sorted += BLOCK;
          if (sorted >= n && width >= n) self.done = true;
          continue;
        }
        if (!merging) {
          mid = Math.min(n, lo + width);
          hi = Math.min(n, lo + 2 * width);
          i = lo; j = mid; k = lo;
          merging = true;
        }
        for (var c = 0; c < SLICE && k < hi; c++) {
          to[k++] = j >= hi || (i < mid && compare(from[i], from[j]) <= 0) ? from[i++] : from[j++];
        }
        if (k < hi) continue;
        merging = false;
        lo = hi;
        if (lo >= n) {
          var swap = from; from = to; to = swap;
          width *= 2;
          lo = 0;
          if (width >= n) { self.result = from; self.done = true; }
        }
      }
      return self.done;
    };
  }

  // A column's entries ranked by their sort key (equal keys share a rank; unknown ones get -1):
  // at once, or given more(), as far as the time allows (null until done).
  function ranks(key, more) {
    if (ranked[key]) return ranked[key];
    var job = ranking[key];
    if (!job) {
      var entries = column(key).entries();
      var text = false;
      for (var e = 0; e < entries.length && !text; e++) text = entries[e] !== null && typeof entries[e] !== "number";
      var keys = text ? entries.map(function (v) { return v === null ? null : String(v).toLowerCase(); }) : entries;
      var some = 0;
      for (var k = 0; k < keys.length; k++) if (keys[k] !== null) some++;
      var known = new Int32Array(some);
      for (var j = 0, at = 0; j < keys.length; j++) if (keys[j] !== null) known[at++] = j;
      job = ranking[key] = { keys: keys, sorter: new Sorter(known, function (a, b) {
        var x = keys[a], y = keys[b];
        return x < y ? -1 : x > y ? 1 : 0;
      }) };
      if (more && !more()) return null;
    }
    if (!job.sorter.step(more || always)) return null;
    delete ranking[key];
    keys = job.keys;
    known = job.sorter.result;
    var rank = new Int32Array(keys.length).fill(-1), count = 0;
    for (var n = 0; n < known.length; n++) {
      if (n === 0 || keys[known[n]] !== keys[known[n - 1]]) count++;
      rank[known[n]] = count - 1;
    }
    ranked[key] = { rank: rank, count: count };
    return ranked[key];
  }
  function ordering(key, dir) {
    var name = key + ":" + dir;
    if (orders[name]) return orders[name];
    var found = column(key), index = found.codes(), by = ranks(key), rank = by.rank, count = by.count;
    var bucket = new Int32Array(rowCount), start = new Int32Array(count + 2);
    for (var r = 0; r < rowCount; r++) {
      var place = rank[index ? index[r] : r];
      bucket[r] = place === -1 ? count : dir === "asc" ? place : count - 1 - place;
      start[bucket[r] + 1]++;
    }
    for (var t = 1; t < start.length; t++) start[t] += start[t - 1];
    var order = new Int32Array(rowCount);
    for (var q = 0; q < rowCount; q++) order[start[bucket[q]]++] = q;
    orders[name] = order;
    return order;
  }
  // The model's sort costs the most (its names are text, nearly all distinct), so its entries are
  // ranked while the page is idle.
  var MODEL = "model" in kindAt && columns[kindAt.model].sortable ? columns[kindAt.model].key : null;

  // Every family's matching rows in the chosen order; each family shows its first page of them.
  function regroup() {
    families.forEach(function (family) { family.matched = []; family.limit = chunk; family.stale = true; });
    var order = sort ? ordering(sort.key, sort.dir) : null;
    for (var k = 0; k < rowCount; k++) {
      var index = order ? order[k] : k;
      if (match[index]) families[familyOf[index]].matched.push(index);
    }
  }

  function renderFamily(family) {
    family.stale = false;
    var want = family.matched.length > family.limit ? family.matched.slice(0, family.limit) : family.matched;
    var shown = family.shown;
    var same = shown.length <= want.length;
    for (var k = 0; same && k < shown.length; k++) same = shown[k] === want[k];
    if (!same || want.length !== shown.length) {
      if (!family.written) family.written = Array.prototype.slice.call(family.tbody.rows);
      var fragment = document.createDocumentFragment();
      for (var n = same ? shown.length : 0; n < want.length; n++) fragment.appendChild(row(want[n]));
      if (!same) family.tbody.textContent = "";
      family.tbody.appendChild(fragment);
      family.shown = want.slice();
    }
    showMore(family);
  }

  // A long family shows a page of rows at a time and a button for the next ones.
  function showMore(family) {
    var rest = family.matched.length - family.shown.length;
    if (rest <= 0) {
      if (family.more) family.more.hidden = true;
      return;
    }
    if (!family.more) {
      family.more = document.createElement("p");
      family.more.className = "more";
      var button = document.createElement("button");
      button.type = "button";
      button.addEventListener("click", function () {
        family.limit += chunk;
        renderFamily(family);
      });
      family.more.appendChild(button);
      family.table.parentNode.insertAdjacentElement("afterend", family.more);
    }
    family.more.hidden = false;
    family.more.firstChild.textContent = "Show " + Math.min(rest, chunk) + " more (" + family.shown.length + " of " +
      family.matched.length + " shown)";
  }

  function renderSuite(index) {
    suites[index].families.forEach(function (family) { if (family.stale) renderFamily(family); });
  }

  // The chart's marks of rows the filter hides are dimmed; nothing moves.
  var marks = Array.prototype.slice.call(document.querySelectorAll("svg [data-row]"));
  var markRows = Int32Array.from(marks, function (mark) { return Number(mark.getAttribute("data-row")); });
  var dimmed = new Uint8Array(marks.length);
  function dim() {
    for (var m = 0; m < marks.length; m++) {
      var hide = match[markRows[m]] ? 0 : 1;
      if (dimmed[m] !== hide) {
        dimmed[m] = hide;
        marks[m].classList.toggle("dimmed", hide === 1);
      }
    }
  }

  function plural(n) { return n === 1 ? " row" : " rows"; }

  function sizePhrase() {
    if (bounds.min !== null && bounds.max !== null) return bounds.min + " to " + bounds.max + " million parameters";
    if (bounds.min !== null) return "at least " + bounds.min + " million parameters";
    return "at most " + bounds.max + " million parameters";
  }

  function sortLabel(key) {
    var header = document.querySelector("thead button[data-sort=\"" + key + "\"]");
    return header ? header.textContent.trim() : key;
  }

  function describe(total) {
    var said = "\u201c" + query.trim() + "\u201d";
    var size = bounded() ? sizePhrase() : "";
    var text;
    if (!words.length && !size) text = "Showing all " + rowCount + plural(rowCount) + ".";
    else if (total === 0) {
      text = words.length ? "No rows match " + said + (size ? " with " + size : "") + "." : "No rows have " + size + ".";
    } else {
      text = "Showing " + total + " of " + rowCount + plural(rowCount) + (words.length ? " matching " + said : "") +
        (size ? " with " + size : "") + ".";
    }
    if (sort) text += " Sorted by " + sortLabel(sort.key) + ", " + (sort.dir === "asc" ? "ascending" : "descending") + ".";
    if (status.textContent !== text) status.textContent = text;
  }

  // Apply the view: which rows match, their order, the counts, the chosen suite's tables, the
  // header's sort state, the status and the chart.
  function update() {
    computeMatch();
    regroup();
    var total = 0;
    suites.forEach(function (suite) {
      var inSuite = 0;
      suite.families.forEach(function (family) {
        var none = family.matched.length === 0;
        if (family.hidden !== none) family.box.hidden = family.hidden = none;
        inSuite += family.matched.length;
      });
      if (suite.shown !== inSuite) {
        suite.count.textContent = String(inSuite);
        suite.empty.hidden = inSuite > 0;
        suite.tab.classList.toggle("no-match", inSuite === 0);
        suite.shown = inSuite;
      }
      total += inSuite;
    });
    // A chosen suite without a match gives way to the first suite that has one.
    if (suites[selected].shown === 0) {
      for (var s = 0; s < suites.length; s++) {
        if (suites[s].shown > 0) { select(s); break; }
      }
    }
    renderSuite(selected);
    showSort();
    describe(total);
    dim();
  }

  function showSort() {
    families.forEach(function (family) {
      var cells = family.table.tHead.rows[0].cells;
      columns.forEach(function (column, c) {
        var dir = sort ? (sort.key === column.key ? sort.dir : null) : (column.key === rankKey ? "asc" : null);
        var value = dir === "asc" ? "ascending" : dir === "desc" ? "descending" : null;
        if (cells[c].getAttribute("aria-sort") === value) return;
        if (value) cells[c].setAttribute("aria-sort", value); else cells[c].removeAttribute("aria-sort");
      });
    });
    if (canonicalButton) canonicalButton.disabled = sort === null;
  }

  // A header's button: ascending, then descending, then the canonical order again. The canonical
  // order is the rank's ascending order, so the rank's button goes to descending and back.
  function cycle(key) {
    if (!sort || sort.key !== key) sort = { key: key, dir: key === rankKey ? "desc" : "asc" };
    else if (sort.dir === "asc") sort = { key: key, dir: "desc" };
    else sort = null;
    update();
    remember(true);
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
    renderSuite(index);
    if (focus) suite.tab.focus();
  }

  // Picking rows to compare: two to four, in the order picked; the compare page's link carries them.
  function showSelection(message) {
    var n = selection.length;
    if (compareCount) compareCount.textContent = String(n);
    if (compareLink) {
      if (n >= common.COMPARE_MIN) {
        compareLink.setAttribute("href", compareBase + "#rows=" + selection.join(","));
        compareLink.removeAttribute("aria-disabled");
      } else {
        compareLink.removeAttribute("href");
        compareLink.setAttribute("aria-disabled", "true");
      }
    }
    if (compareClear) compareClear.disabled = n === 0;
    if (compareStatus) {
      compareStatus.textContent = message || (n === 0 ? "" : n < common.COMPARE_MIN
        ? "1 row picked: pick at least " + common.COMPARE_MIN + " to compare."
        : n + " rows picked to compare.");
    }
  }

  function pick(index, on, checkbox) {
    var at = selection.indexOf(index);
    if (on && at === -1) {
      if (selection.length >= common.COMPARE_MAX) {
        checkbox.checked = false;
        showSelection("At most " + common.COMPARE_MAX + " rows can be compared: untick one first.");
        return;
      }
      selection.push(index);
    } else if (!on && at !== -1) {
      selection.splice(at, 1);
    }
    showSelection();
    remember(false);
  }

  function setSelection(list) {
    var changed = selection.concat(list);
    selection = list;
    if (selectCell !== -1) {
      changed.forEach(function (index) {
        var tr = existing(index);
        if (tr) tr.cells[selectCell].firstElementChild.checked = selection.indexOf(index) !== -1;
      });
    }
    showSelection();
  }

  // Download these rows: the chosen suite's matching rows, family by family in the order shown, as
  // the build writes leaderboard.csv (the published fields in the schema's order).
  var CSV_FIELDS = data.published;
  var FLOATS = {};
  columns.forEach(function (column) { if (column.kind === "percent") FLOATS[column.key] = true; });

  function download() {
    var lines = [];
    suites[selected].families.forEach(function (family) {
      family.matched.forEach(function (index) {
        lines.push(CSV_FIELDS.map(function (name) {
          var found = value(name, index);
          return FLOATS[name] ? common.floatText(found) : found;
        }));
      });
    });
    var blob = new Blob([common.csv(CSV_FIELDS, lines)], { type: "text/csv;charset=utf-8" });
    var anchor = document.createElement("a");
    anchor.href = URL.createObjectURL(blob);
    anchor.download = suites[selected].panel.id + "-rows.csv";
    anchor.hidden = true;
    document.body.appendChild(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(function () { URL.revokeObjectURL(anchor.href); }, 0);
  }

  // The address: #<panel id>, then ?q=<filter>&sort=<key>:<asc|desc>&size=<min>-<max>&compare=<rows>
  // for what differs from the default view; it reopens the same view. A click adds a history
  // entry at once; typing replaces the current one once the answer is painted and the page is
  // idle, since writing history makes the browser record the page's state (form controls among it).
  function address() {
    var params = [];
    if (query) params.push("q=" + encodeURIComponent(query));
    if (sort) params.push("sort=" + encodeURIComponent(sort.key) + ":" + sort.dir);
    if (bounded()) params.push("size=" + (bounds.min === null ? "" : bounds.min) + "-" + (bounds.max === null ? "" : bounds.max));
    if (selection.length) params.push("compare=" + selection.join(","));
    return "#" + suites[selected].panel.id + (params.length ? "?" + params.join("&") : "");
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

  function parseSort(text) {
    var parts = /^(.+):(asc|desc)$/.exec(text || "");
    if (!parts || cellOf[parts[1]] === undefined || !columns[cellOf[parts[1]]].sortable) return null;
    if (parts[1] === rankKey && parts[2] === "asc") return null;
    return { key: parts[1], dir: parts[2] };
  }

  function parseRows(text) {
    var list = [];
    (text || "").split(",").forEach(function (part) {
      var index = /^\d+$/.test(part) ? Number(part) : -1;
      if (index < rowCount && index >= 0 && list.indexOf(index) === -1 && list.length < common.COMPARE_MAX) list.push(index);
    });
    return list;
  }

  function restore() {
    var fragment = location.hash.slice(1);
    var mark = fragment.indexOf("?");
    var id = mark === -1 ? fragment : fragment.slice(0, mark);
    var params = new URLSearchParams(mark === -1 ? "" : fragment.slice(mark + 1));
    var index = -1;
    for (var s = 0; s < suites.length; s++) if (suites[s].panel.id === id) index = s;
    if (index === -1 && mark === -1 && id) return false;  // another fragment of the page, such as #main
    pending = false;
    query = params.get("q") || "";
    input.value = query;
    sort = parseSort(params.get("sort"));
    var size = /^([^-]*)-(.*)$/.exec(params.get("size") || "");
    bounds = hasSizes && size ? { min: bound(size[1]), max: bound(size[2]) } : { min: null, max: null };
    if (sizeMin) sizeMin.value = bounds.min === null ? "" : String(bounds.min);
    if (sizeMax) sizeMax.value = bounds.max === null ? "" : String(bounds.max);
    setSelection(parseRows(params.get("compare")));
    select(index === -1 ? 0 : index);
    update();
    return true;
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
  input.addEventListener("input", function () { query = input.value; update(); remember(false); });
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !input.value) return;
    event.preventDefault();
    input.value = query = "";
    update();
    remember(false);
  });
  [sizeMin, sizeMax].forEach(function (field) {
    if (!field) return;
    field.addEventListener("input", function () {
      bounds = { min: bound(sizeMin.value), max: bound(sizeMax.value) };
      update();
      remember(false);
    });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("thead button[data-sort]") : null;
    if (button) cycle(button.getAttribute("data-sort"));
  });
  document.addEventListener("change", function (event) {
    var checkbox = event.target;
    if (checkbox.matches && checkbox.matches("input[data-compare]")) pick(Number(checkbox.getAttribute("data-compare")), checkbox.checked, checkbox);
  });
  if (canonicalButton) canonicalButton.addEventListener("click", function () { sort = null; update(); remember(true); });
  if (compareClear) compareClear.addEventListener("click", function () { setSelection([]); remember(false); });
  if (downloadButton) downloadButton.addEventListener("click", download);
  window.addEventListener("popstate", restore);
  window.addEventListener("hashchange", restore);

  // The js class shows what only the script makes work (the compare checkboxes among them).
  document.documentElement.classList.add("js");
  suites.forEach(function (suite, s) {
    suite.panel.setAttribute("role", "tabpanel");
    suite.panel.setAttribute("aria-labelledby", suite.tab.id);
    suite.panel.tabIndex = 0;
    suite.panel.hidden = s !== 0;
    suite.tab.setAttribute("aria-selected", s === 0 ? "true" : "false");
    suite.tab.tabIndex = s === 0 ? 0 : -1;
  });
  Array.prototype.forEach.call(document.querySelectorAll("thead button[data-sort]"), function (button) {
    button.disabled = false;
  });
  if (sizeBox) sizeBox.hidden = !hasSizes;
  // The links to a long family's static pages are for readers without the script, which shows
  // every matching row here.
  Array.prototype.forEach.call(document.querySelectorAll(".panel [data-pages]"), function (nav) { nav.hidden = true; });
  if (!restore()) update();
  tablist.hidden = false;
  controls.hidden = false;
  // Each column's row entries and the searched columns' lower-case text are made now, before the
  // page counts as ready, so that the first keystroke or sort, however soon it comes, finds them.
  // The model's entries, the slowest to rank, are ranked while the page is idle, a slice at a time.
  columns.forEach(function (spec) {
    var found = spec.kind === "copy" || spec.kind === "select" ? null : column(spec.key);
    if (found) found.codes();
  });
  searchedColumns.forEach(function (found) { found.searchable(); });
  var chores = [];
  if (MODEL) chores.push(function (more) { return ranks(MODEL, more) !== null; });
  (function next() {
    if (!chores.length) return;
    idle(function (deadline) {
      // A slice of a few milliseconds, so that a keystroke arriving meanwhile hardly waits.
      var start = Date.now();
      var more = function () {
        return Date.now() - start < 6 && (!deadline || !deadline.timeRemaining || deadline.timeRemaining() > 1);
      };
      if (chores[0](more) !== false) chores.shift();  // a chore that is not done goes on next time
      next();
    });
  })();
})();
