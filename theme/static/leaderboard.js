// The leaderboard page's behaviour: suite tabs, the row filter (text and size), sorting, picking rows
// to compare, downloading the rows shown, dimming the chart's hidden marks, and an address that keeps
// all of it. Everything is read from the leaderboard data the page loads; nothing is fetched. Without
// this script every suite and every row shows (long families continue on static pages), in the
// canonical order, and nothing is lost.
//
// The data is column-major (fields[name][i] is row i of the global ranking) and every column fact
// comes from data.columns, so the script knows no cell position. With the script, a family's table
// body is made from the data: the rows that match, in the chosen order, the first `chunk` of them
// at a time (the number of rows the page itself holds of a long family), so that filter and sort
// cover every row however many the page left out, and the page only ever lays out what it shows.
(function () {
  "use strict";
  var common = window.leaderboardCommon;
  var tablist = document.querySelector("[role=tablist]");
  var controls = document.querySelector("[data-controls]");
  var input = document.getElementById("filter");
  var status = document.getElementById("filter-status");
  var data = window.leaderboardData;
  if (!data) {
    var source = document.getElementById("leaderboard-data");
    if (source) data = JSON.parse(source.textContent);
  }
  if (!data || !common || !tablist || !controls || !input || !status) return;

  var fields = data.fields;
  var columns = data.columns;
  var rowCount = data.row_count;
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
  var SIZE = "param_count";
  var hasSizes = Array.isArray(fields[SIZE]);

  var cellOf = {};  // a column's key -> the position of its cell in a row
  var rankKey = null;
  columns.forEach(function (column, cell) {
    cellOf[column.key] = cell;
    if (column.kind === "rank") rankKey = column.key;
  });
  function sortable(column) {
    return column.sortable === undefined ? column.kind !== "copy" : Boolean(column.sortable);
  }

  // Suites, in the order of the tabs and panels, and their families, in the order of their tables.
  var tabs = Array.prototype.slice.call(tablist.querySelectorAll("[role=tab]"));
  var families = [];
  var familyByName = {};
  var suites = data.suites.map(function (suite, s) {
    var tab = tabs[s];
    var panel = document.getElementById(tab.getAttribute("aria-controls"));
    var boxes = panel.querySelectorAll("[data-family]");
    var own = suite.families.map(function (family, f) {
      var name = typeof family === "string" ? family : family.name;
      var box = boxes[f];
      var table = box.querySelector("table");
      var entry = { id: families.length, suite: s, box: box, table: table, tbody: table.tBodies[0],
                    rows: [], matched: [], shown: [], limit: 0, stale: false, more: null, hidden: false };
      families.push(entry);
      familyByName[suite.name + "\u0000" + name] = entry;
      return entry;
    });
    return { tab: tab, panel: panel, families: own, count: tab.querySelector("[data-count]"),
             empty: panel.querySelector("[data-empty]"), shown: -1 };
  });

  // Each row's family and its rank in its suite (the rank column's value), from the global ranking.
  var familyOf = new Int32Array(rowCount);
  var rankInSuite = new Int32Array(rowCount);
  var counted = new Int32Array(suites.length);
  for (var i = 0; i < rowCount; i++) {
    var family = familyByName[fields.suite[i] + "\u0000" + fields.model_family[i]];
    familyOf[i] = family.id;
    family.rows.push(i);
    rankInSuite[i] = ++counted[family.suite];
  }

  // The rows the page holds: a row's element once it exists, made by the build or by this script.
  var rowElement = new Array(rowCount);
  var chunk = Infinity;
  families.forEach(function (family) {
    var trs = family.tbody.rows;
    for (var k = 0; k < trs.length; k++) {
      var mark = trs[k].getAttribute("data-row");
      var index = mark === null ? family.rows[k] : Number(mark);
      rowElement[index] = trs[k];
      family.shown.push(index);
    }
    var total = Number(family.table.getAttribute("data-total"));
    if (total > trs.length && trs.length > 0) chunk = Math.min(chunk, trs.length);
  });
  if (typeof data.page_rows === "number" && data.page_rows > 0) chunk = data.page_rows;
  var prototype = null;
  for (var p = 0; p < families.length && !prototype; p++) {
    if (families[p].tbody.rows.length) prototype = families[p].tbody.rows[0].cloneNode(true);
  }
  // Links in a row are relative to the site: the prefix the build wrote before the site's paths.
  var prefix = "";
  if (prototype && rankKey !== null) {
    var first = families.filter(function (f) { return f.shown.length; })[0].shown[0];
    var model = columns.filter(function (column) { return column.kind === "model"; })[0];
    var link = model ? prototype.cells[cellOf[model.key]].querySelector("a") : null;
    var href = link ? link.getAttribute("href") : "";
    var page = common.reportPageUrl(fields.report_path[first]);
    if (href.slice(-page.length) === page) prefix = href.slice(0, href.length - page.length);
  }

  // A field's values in ranking order: from the data, or worked out (the rank, the copy's URL), or,
  // for a column the data leaves out (the hash, which the row shows in full), read from its cells.
  var derived = {};
  function values(key) {
    if (fields[key]) return fields[key];
    if (derived[key]) return derived[key];
    var list;
    if (key === rankKey) list = rankInSuite;
    else if (key === "report_url") list = fields.report_path.map(common.reportUrl);
    else {
      list = new Array(rowCount).fill(null);
      var cell = cellOf[key];
      if (cell !== undefined) {
        for (var r = 0; r < rowCount; r++) if (rowElement[r]) list[r] = rowElement[r].cells[cell].textContent;
      }
    }
    derived[key] = list;
    return list;
  }
  // Read from the cells before this script makes any row.
  columns.forEach(function (column) {
    if (!fields[column.key] && column.kind !== "rank" && column.kind !== "copy" && column.kind !== "select") values(column.key);
  });

  // The marks a cell may carry after its value (a frontier row, thin evidence), copied from the
  // page's own rows; the checkbox's name, worded as the page words it for the first row.
  function badge(name, words) {
    var found = document.querySelector("tbody .badge." + name);
    if (found) return found.cloneNode(true);
    var made = document.createElement("span");
    made.className = "badge " + name;
    made.textContent = words;
    return made;
  }
  var frontierBadge = badge("frontier", "frontier");
  var thinBadge = badge("thin", "thin evidence");
  var thin = typeof data.thin_evidence === "number" ? data.thin_evidence : -Infinity;
  function labeller() {
    var box = prototype ? prototype.querySelector("input[data-compare]") : null;
    var label = box ? box.getAttribute("aria-label") || "" : "";
    var first = box ? Number(box.getAttribute("data-compare")) : -1;
    var model = first >= 0 ? fields.model_name[first] : "", device = first >= 0 ? fields.device[first] : "";
    var at = model ? label.indexOf(model) : -1;
    var then = at === -1 ? -1 : label.indexOf(device, at + model.length);
    if (then === -1) return function () { return label; };
    var before = label.slice(0, at), between = label.slice(at + model.length, then), after = label.slice(then + device.length);
    return function (index) { return before + fields.model_name[index] + between + fields.device[index] + after; };
  }
  var checkboxLabel = labeller();

  // A row the page does not hold, made like the build makes it: a copy of the first row, each cell
  // filled as its column's kind says.
  function makeRow(index) {
    var tr = prototype.cloneNode(true);
    if (tr.hasAttribute("data-row")) tr.setAttribute("data-row", String(index));
    var cells = tr.cells;
    columns.forEach(function (column, c) {
      var cell = cells[c];
      var kind = column.kind;
      var value = values(column.key)[index];
      var anchor = cell.querySelector("a");
      if (kind === "model") {
        anchor.setAttribute("href", prefix + common.reportPageUrl(fields.report_path[index]));
        anchor.textContent = value;
        cell.textContent = "";
        cell.appendChild(anchor);
        if (fields.frontier && fields.frontier[index]) cell.append(" ", frontierBadge.cloneNode(true));
      } else if (kind === "copy") {
        anchor.setAttribute("href", prefix + common.reportUrl(fields.report_path[index]));
      } else if (kind === "select") {
        var box = cell.querySelector("input[data-compare]");
        box.setAttribute("data-compare", String(index));
        box.setAttribute("aria-label", checkboxLabel(index));
      } else if (kind === "percent") {
        cell.textContent = common.percent(value);
      } else if (kind === "count") {
        cell.textContent = String(value);
        if (value < thin) cell.append(" ", thinBadge.cloneNode(true));
      } else if (kind === "size") {
        cell.textContent = fields.size ? fields.size[index] : value === null ? "" : String(value);
      } else {
        cell.textContent = value === null || value === undefined ? "" : String(value);
      }
    });
    return tr;
  }

  function row(index) {
    var tr = rowElement[index];
    if (!tr) tr = rowElement[index] = makeRow(index);
    var box = tr.querySelector("input[data-compare]");
    if (box) {
      box.hidden = false;
      box.checked = selection.indexOf(index) !== -1;
    }
    return tr;
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
  // as text ignoring case, ties in canonical order, unknown values last either way.
  var orders = {};
  function ordering(key, dir) {
    var name = key + ":" + dir;
    if (orders[name]) return orders[name];
    var list = values(key);
    var numeric = true;
    for (var r = 0; r < rowCount; r++) {
      if (list[r] !== null && typeof list[r] !== "number") { numeric = false; break; }
    }
    var keys = numeric ? list : Array.prototype.map.call(list, function (v) { return v === null ? null : String(v).toLowerCase(); });
    var sign = dir === "desc" ? -1 : 1;
    var order = new Array(rowCount);
    for (var k = 0; k < rowCount; k++) order[k] = k;
    order.sort(function (a, b) {
      var x = keys[a], y = keys[b];
      if (x === y) return a - b;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sign;
    });
    orders[name] = order;
    return order;
  }

  // Every family's matching rows in the chosen order.
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
      var fragment = document.createDocumentFragment();
      for (var n = same ? shown.length : 0; n < want.length; n++) fragment.appendChild(row(want[n]));
      if (!same) family.tbody.textContent = "";
      family.tbody.appendChild(fragment);
      family.shown = want.slice();
    }
    showMore(family);
  }

  // A long family shows `chunk` rows at a time and a button for the next ones.
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
  var dimmed = new Uint8Array(marks.length);
  function dim() {
    for (var m = 0; m < marks.length; m++) {
      var hide = match[Number(marks[m].getAttribute("data-row"))] ? 0 : 1;
      if (dimmed[m] !== hide) {
        dimmed[m] = hide;
        marks[m].classList.toggle("dimmed", hide === 1);
      }
    }
  }

  function plural(n) { return n === 1 ? " row" : " rows"; }

  function sizeText(value) { return String(value); }

  function sizePhrase() {
    if (bounds.min !== null && bounds.max !== null) return sizeText(bounds.min) + " to " + sizeText(bounds.max) + " million parameters";
    if (bounds.min !== null) return "at least " + sizeText(bounds.min) + " million parameters";
    return "at most " + sizeText(bounds.max) + " million parameters";
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
    status.textContent = text;
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

  function pick(index, on, box) {
    var at = selection.indexOf(index);
    if (on && at === -1) {
      if (selection.length >= common.COMPARE_MAX) {
        box.checked = false;
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
    selection = list;
    rowElement.forEach(function (tr, index) {
      var box = tr.querySelector("input[data-compare]");
      if (box) box.checked = selection.indexOf(index) !== -1;
    });
    showSelection();
  }

  // Download these rows: the chosen suite's matching rows, family by family in the order shown, as
  // the build writes leaderboard.csv.
  var CSV_FIELDS = data.csv_fields || ["suite", "model_family", "model_name", "device", "leakage", "recall", "f1",
    "release_tag", "run_date", "reproducibility_hash", "report_path", "report_url"];
  var FLOATS = {};
  columns.forEach(function (column) { if (column.kind === "percent") FLOATS[column.key] = true; });

  function download() {
    var lists = CSV_FIELDS.map(values);
    var lines = [];
    suites[selected].families.forEach(function (family) {
      family.matched.forEach(function (index) {
        lines.push(CSV_FIELDS.map(function (name, n) {
          var value = lists[n][index];
          return FLOATS[name] ? common.floatText(value) : typeof value === "number" ? String(value) : value;
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
  // for what differs from the default view; it reopens the same view.
  function address() {
    var params = [];
    if (query) params.push("q=" + encodeURIComponent(query));
    if (sort) params.push("sort=" + encodeURIComponent(sort.key) + ":" + sort.dir);
    if (bounded()) params.push("size=" + (bounds.min === null ? "" : sizeText(bounds.min)) + "-" +
                               (bounds.max === null ? "" : sizeText(bounds.max)));
    if (selection.length) params.push("compare=" + selection.join(","));
    return "#" + suites[selected].panel.id + (params.length ? "?" + params.join("&") : "");
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

  function bound(text) {
    var value = text === null || text === undefined || text.trim() === "" ? NaN : Number(text);
    return isFinite(value) && value >= 0 ? value : null;
  }

  function parseSort(text) {
    var match = /^(.+):(asc|desc)$/.exec(text || "");
    if (!match || cellOf[match[1]] === undefined || !sortable(columns[cellOf[match[1]]])) return null;
    if (match[1] === rankKey && match[2] === "asc") return null;
    return { key: match[1], dir: match[2] };
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
    var params;
    try { params = new URLSearchParams(mark === -1 ? "" : fragment.slice(mark + 1)); } catch (error) { params = new URLSearchParams(""); }
    var index = -1;
    for (var s = 0; s < suites.length; s++) if (suites[s].panel.id === id) index = s;
    if (index === -1 && mark === -1 && id) return false;  // another fragment of the page, such as #main
    query = params.get("q") || "";
    input.value = query;
    sort = parseSort(params.get("sort"));
    var size = /^([^-]*)-(.*)$/.exec(params.get("size") || "");
    bounds = hasSizes && size ? { min: bound(size[1]), max: bound(size[2]) } : { min: null, max: null };
    if (sizeMin) sizeMin.value = bounds.min === null ? "" : sizeText(bounds.min);
    if (sizeMax) sizeMax.value = bounds.max === null ? "" : sizeText(bounds.max);
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
    var box = event.target;
    if (box.matches && box.matches("input[data-compare]")) pick(Number(box.getAttribute("data-compare")), box.checked, box);
  });
  if (canonicalButton) canonicalButton.addEventListener("click", function () { sort = null; update(); remember(true); });
  if (compareClear) compareClear.addEventListener("click", function () { setSelection([]); remember(false); });
  if (downloadButton) downloadButton.addEventListener("click", download);
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
  Array.prototype.forEach.call(document.querySelectorAll("thead button[data-sort]"), function (button) {
    button.disabled = false;
  });
  Array.prototype.forEach.call(document.querySelectorAll("input[data-compare]"), function (box) { box.hidden = false; });
  if (sizeBox) sizeBox.hidden = !hasSizes;
  // The links to a long family's static pages are for readers without the script, which shows
  // every matching row here.
  Array.prototype.forEach.call(document.querySelectorAll(".panel [data-pages]"), function (nav) { nav.hidden = true; });
  if (!restore()) update();
  tablist.hidden = false;
  controls.hidden = false;
  // The filter's index is made while the page is idle, so that the first keystroke finds it ready.
  (window.requestIdleCallback || setTimeout)(haystack);
})();
