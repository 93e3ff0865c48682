// The leaderboard page's behaviour: suite tabs, the row filter (text and size), sorting, picking rows
// to compare, downloading the rows shown, dimming the chart's hidden marks, and an address that keeps
// all of it. Everything is read from leaderboard-data.js, which the page loads before this script;
// nothing is fetched. Without this script every suite shows, each family's first rows on the index
// and the rest on its static pages, in the canonical order, and nothing is lost.
//
// The data is column-major (fields[name][i] is row i of the global ranking) and every column fact
// comes from data.columns, so the script knows no cell position. With the script, a family's table
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

  var fields = data.fields;
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
  var hasSizes = SIZE !== null && Array.isArray(fields[SIZE]);
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

  // Each row's family, its place in it and its rank in its suite (the rank column's value).
  var familyOf = new Int32Array(rowCount);
  var placeOf = new Int32Array(rowCount);
  var rankInSuite = new Int32Array(rowCount);
  var counted = new Int32Array(suites.length);
  for (var i = 0; i < rowCount; i++) {
    var family = familyByName[fields.suite[i] + "\u0000" + fields.model_family[i]];
    familyOf[i] = family.id;
    placeOf[i] = family.rows.length;
    family.rows.push(i);
    rankInSuite[i] = ++counted[family.suite];
  }
  families.forEach(function (f) { f.shown = f.rows.slice(0, f.held); });

  // A field's values in ranking order, from the data or worked out (the rank, the copy's URL).
  var derived = {};
  function values(key) {
    if (fields[key]) return fields[key];
    if (!derived[key]) {
      derived[key] = key === rankKey ? rankInSuite
        : key === "report_url" ? fields.report_path.map(common.reportUrl) : new Array(rowCount).fill(null);
    }
    return derived[key];
  }

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
    var page = common.reportPageUrl(fields.report_path[first]);
    if (href.slice(-page.length) === page) prefix = href.slice(0, href.length - page.length);
    var box = selectCell === -1 ? null : prototype.cells[selectCell].firstElementChild;
    var label = box ? box.getAttribute("aria-label") || "" : "";
    var model = fields.model_name[first], device = fields.device[first];
    var at = label.indexOf(model), then = at === -1 ? -1 : label.indexOf(device, at + model.length);
    if (then !== -1) {
      var before = label.slice(0, at), between = label.slice(at + model.length, then), after = label.slice(then + device.length);
      checkboxLabel = function (index) { return before + fields.model_name[index] + between + fields.device[index] + after; };
    }
  }
  var fillers = columns.map(function (column) {
    var list = column.kind === "copy" ? null : values(column.key);
    switch (column.kind) {
      case "rank":
        return function (cell, index) { cell.textContent = String(rankInSuite[index]); };
      case "model":
        return function (cell, index) {
          var anchor = cell.firstElementChild;
          anchor.setAttribute("href", prefix + common.reportPageUrl(fields.report_path[index]));
          anchor.textContent = fields.model_name[index];
          if (cell.childNodes.length > 1) {
            cell.textContent = "";
            cell.appendChild(anchor);
          }
          if (frontierBadge && fields.frontier && fields.frontier[index]) cell.append(" ", frontierBadge.cloneNode(true));
        };
      case "copy":
        return function (cell, index) {
          cell.firstElementChild.setAttribute("href", prefix + common.reportUrl(fields.report_path[index]));
        };
      case "select":
        return function (cell, index) {
          var checkbox = cell.firstElementChild;
          checkbox.setAttribute("data-compare", String(index));
          checkbox.setAttribute("aria-label", checkboxLabel(index));
          checkbox.checked = false;
        };
      case "percent":
        return function (cell, index) { cell.textContent = common.percent(list[index]); };
      case "count":
        return function (cell, index) {
          cell.textContent = String(list[index]);
          if (thinBadge && list[index] < thin) cell.append(" ", thinBadge.cloneNode(true));
        };
      case "size":
        return function (cell, index) { cell.textContent = fields.size ? fields.size[index] : list[index] === null ? "" : String(list[index]); };
      default:
        return function (cell, index) { cell.textContent = list[index] === null ? "" : String(list[index]); };
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

  // What the filter searches, one lower-case string per row, fields kept apart by a line break:
  // the searched columns' values and the family. Made when first needed, or when the page is idle.
  var SEARCHED = ["model_family"];
  columns.forEach(function (column) { if (column.searched) SEARCHED.push(column.key); });
  var haystacks = null;
  function haystack() {
    if (haystacks) return haystacks;
    var lists = SEARCHED.map(values);
    haystacks = new Array(rowCount);
    for (var r = 0; r < rowCount; r++) {
      var parts = [];
      for (var c = 0; c < lists.length; c++) parts.push(lists[c][r] === null ? "" : lists[c][r]);
      haystacks[r] = parts.join("\n").toLowerCase();
    }
    return haystacks;
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
    var sizes = hasSizes && bounded() ? fields[SIZE] : null;
    var low = bounds.min === null ? -Infinity : bounds.min * 1e6;
    var high = bounds.max === null ? Infinity : bounds.max * 1e6;
    var hays = words.length ? haystack() : null;
    for (var r = 0; r < rowCount; r++) {
      var yes = 1;
      if (hays) {
        var hay = hays[r];
        for (var w = 0; w < words.length; w++) {
          if (hay.indexOf(words[w]) === -1) { yes = 0; break; }
        }
      }
      if (yes && sizes) {
        var size = sizes[r];
        yes = size !== null && size >= low && size <= high ? 1 : 0;
      }
      match[r] = yes;
    }
  }

  // A sort's order of every row, made once per column and direction: values compared as numbers or
  // as text ignoring case, ties in canonical order, unknown values last either way. Descending is
  // ascending reversed, each run of equal values put back in canonical order.
  var orders = {};
  function sortKeys(key) {
    var list = values(key);
    for (var r = 0; r < rowCount; r++) {
      if (list[r] !== null && typeof list[r] !== "number") {
        return Array.prototype.map.call(list, function (v) { return v === null ? null : String(v).toLowerCase(); });
      }
    }
    return list;
  }
  function ordering(key, dir) {
    var name = key + ":" + dir;
    if (orders[name]) return orders[name];
    var keys = sortKeys(key);
    var order;
    if (dir === "asc") {
      // Few distinct values (a device, a release, a rate): sort those and place each row by its
      // value (a counting sort, ties kept canonical); many: sort the rows themselves.
      var place = new Map(), distinct = [];
      for (var d = 0; d < rowCount && distinct.length * 4 <= rowCount; d++) {
        if (keys[d] !== null && !place.has(keys[d])) {
          place.set(keys[d], 0);
          distinct.push(keys[d]);
        }
      }
      if (distinct.length * 4 <= rowCount) {
        distinct.sort(function (a, b) { return a < b ? -1 : 1; });
        distinct.forEach(function (value, n) { place.set(value, n); });
        var of = new Int32Array(rowCount), start = new Int32Array(distinct.length + 2);
        for (var c = 0; c < rowCount; c++) {
          of[c] = keys[c] === null ? distinct.length : place.get(keys[c]);
          start[of[c] + 1]++;
        }
        for (var t = 1; t < start.length; t++) start[t] += start[t - 1];
        order = new Array(rowCount);
        for (var k = 0; k < rowCount; k++) order[start[of[k]]++] = k;
      } else {
        order = new Array(rowCount);
        for (var q = 0; q < rowCount; q++) order[q] = q;
        order.sort(function (a, b) {
          var x = keys[a], y = keys[b];
          if (x === y) return a - b;
          if (x === null) return 1;
          if (y === null) return -1;
          return x < y ? -1 : 1;
        });
      }
    } else {
      var up = ordering(key, "asc");
      var known = rowCount;
      while (known > 0 && keys[up[known - 1]] === null) known--;
      order = new Array(rowCount);
      var at = 0;
      for (var end = known; end > 0;) {
        var begin = end - 1;
        while (begin > 0 && keys[up[begin - 1]] === keys[up[end - 1]]) begin--;
        for (var i = begin; i < end; i++) order[at++] = up[i];
        end = begin;
      }
      for (var j = known; j < rowCount; j++) order[at++] = up[j];
    }
    orders[name] = order;
    return order;
  }
  // The model's sort costs the most (its names are text, nearly all distinct), so its order is made
  // while the page is idle.
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
    var lists = CSV_FIELDS.map(values);
    var lines = [];
    suites[selected].families.forEach(function (family) {
      family.matched.forEach(function (index) {
        lines.push(CSV_FIELDS.map(function (name, n) {
          var value = lists[n][index];
          return FLOATS[name] ? common.floatText(value) : value;
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
  // entry at once; typing replaces the current one after the answer is painted, since writing
  // history makes the browser record the page's state.
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

  var pending = false;
  function remember(push) {
    if (push) {
      pending = false;
      write(true);
    } else if (!pending) {
      pending = true;
      requestAnimationFrame(function () {
        setTimeout(function () {
          if (pending) write(false);
          pending = false;
        }, 0);
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
  // The filter's index and the model's order are made while the page is idle, one a time, so that
  // the first keystroke or sort finds them ready.
  var idle = window.requestIdleCallback || setTimeout;
  var chores = [haystack];
  if (MODEL) chores.push(function () { ordering(MODEL, "asc"); });
  (function next() {
    if (chores.length) idle(function () { chores.shift()(); next(); });
  })();
})();
