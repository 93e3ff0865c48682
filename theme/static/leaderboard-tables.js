// The rows of the leaderboard's tables, made from its data as the page's state (leaderboard.js) asks:
// which rows match the filter and the size range, in the chosen order, in the family tables and the
// suites' best rows, with the counts, the status and the chart's dimmed marks that follow them, and
// the CSV of the rows shown. Loaded by leaderboard.js with the data (leaderboard-data.js) when a
// reader first filters, sorts, shows more or downloads; it reads and changes the page's state and
// keeps only what it works out from the data. The data is column-major (a field's column gives row
// i of the global ranking, read through leaderboardCommon.column) and every column fact comes from
// data.columns, so the script knows no cell position. Once asked, a family's table body shows the
// rows that match in the chosen order, a hundred or so at a time (with a Show more button): rows
// the page does not hold are made from the data, as the build writes them.
(function () {
  "use strict";
  var common = window.leaderboardCommon;

  // The rows' layer of the page (state.rows): every row of the archive, from the data file; what
  // the page layer (leaderboard.js) gives it in `page`.
  window.leaderboardTables = function (data, state, page) {
    var suites = page.suites, status = page.status, controls = page.controls;
    var plain = page.plain, bounded = page.bounded;
    var idle = page.idle;  // called as a plain function: requestIdleCallback refuses any object but the window
    var columns = data.columns;
    var rowCount = data.row_count;
    // A family shows this many rows at a time once the reader filters or sorts, and Show more adds
    // as many: the rows of one of its pages, or fewer where a page is long, so that answering a
    // keystroke or a sort lays out a few hundred rows per suite, not thousands. In the default view
    // it shows what the page holds (its top rows, and the Show more button the build wrote), so
    // that reading the data moves nothing.
    var chunk = data.more_rows > 0 ? data.more_rows : 100;
    var thin = typeof data.thin_evidence === "number" ? data.thin_evidence : -Infinity;
    var hashShown = typeof data.hash_shown === "number" ? data.hash_shown : Infinity;
    var sizeBox = controls.querySelector("[data-size]");
    var canonicalButton = controls.querySelector("[data-canonical]");

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
    if (sizeBox) sizeBox.hidden = !hasSizes;
    if (!hasSizes) state.bounds = { min: null, max: null };
    if (state.sort && (cellOf[state.sort.key] === undefined || !columns[cellOf[state.sort.key]].sortable ||
                 (state.sort.key === rankKey && state.sort.dir === "asc"))) state.sort = null;

    // Each suite's families, in the order of their tables; a family's elements once its panel is on
    // the page (attach).
    var families = [];
    var familyByName = {};
    var groups = data.suites.map(function (suite, s) {
      return suite.families.map(function (name) {
        var entry = { id: families.length, suite: s, name: name, box: null, table: null, tbody: null, made: null,
                      rows: [], held: 0, written: null, matched: [], shown: [], limit: 0, stale: true,
                      more: null, hidden: false };
        families.push(entry);
        familyByName[suite.name + "\u0000" + name] = entry;
        return entry;
      });
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
    var counted = new Int32Array(groups.length);
    var familyCount = familyEntries.length;
    for (var i = 0; i < rowCount; i++) {
      var family = families[familyAt[suiteColumn.at(i) * familyCount + familyColumn.at(i)]];
      familyOf[i] = family.id;
      placeOf[i] = family.rows.length;
      family.rows.push(i);
      rankInSuite[i] = ++counted[family.suite];
    }

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
    // What a cell writes in brackets after its value: a rank's range, a fraction's interval.
    var rankRange = data.rank_range ? data.rank_range.map(column) : null;
    if (rankRange && !(rankRange[0] && rankRange[1])) rankRange = null;
    function range(text) {
      var span = document.createElement("span");
      span.className = "range";
      span.textContent = text;
      return span;
    }
    var modelColumn = common.column("model_name");
    var frontierColumn = common.column("frontier"), sizeColumn = common.column("size");

    // Rows the page does not hold are made like the build makes them: a copy of a row of the page,
    // each cell filled as its column's kind says, with the marks a cell may carry after its value (a
    // frontier row, thin evidence) copied from the page's template of them, and the checkbox named
    // as the page names it. A family whose table is not on the page gets a copy of the page's
    // template of an empty one.
    var marksTemplate = document.querySelector("template[data-row-marks]");
    var tableTemplate = document.querySelector("template[data-family-table]");
    function mark(selector) {
      var found = marksTemplate ? marksTemplate.content.querySelector(selector) : document.querySelector("tbody " + selector);
      return found ? found.cloneNode(true) : null;
    }
    var frontierBadge = mark(".badge.frontier");
    var thinBadge = mark(".badge.thin");
    var prototype = null;
    // Links in a row are relative to the page, as the build writes them: the site's root, then the
    // site's path.
    var prefix = page.base;
    // Each cell's filler, for the table whose header row is `head`.
    function fillersOf(columns, head) { return columns.map(function (spec, c) {
      var list = spec.kind === "copy" || spec.kind === "select" ? null : column(spec.key);
      // A percentage is written as the build writes it in a table (display.rounded), with the
      // decimals the data gives the row.
      var places = column(spec.key + "_decimals");
      function percent(index) { return common.rounded(list.value(index), places ? places.value(index) : 2); }
      function text(index) {
        var found = list ? list.value(index) : null;
        return found === null || found === undefined ? "" : String(found);
      }
      switch (spec.kind) {
        case "rank":
          // The rank, then the best and worst its leakage interval allows, as the build writes them.
          return function (cell, index) {
            cell.textContent = String(rankInSuite[index]);
            if (rankRange) cell.append(" ", range("(" + rankRange[0].value(index) + "\u2013" + rankRange[1].value(index) + ")"));
          };
        case "interval":
          // The fraction as a percentage, then its 95% interval (its field's _low and _high).
          var low = column(spec.key + "_low"), high = column(spec.key + "_high");
          return function (cell, index) {
            cell.textContent = percent(index);
            if (low && high) cell.append(" ", range("(" + common.interval(low.value(index), high.value(index)) + ")"));
          };
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
          // The checkbox is named as the column's header says the build names it (its data-label:
          // words, and a field's name in braces for the row's value of it).
          var parts = ((head && head.cells[c].getAttribute("data-label")) || "").split(/\{(\w+)\}/);
          return function (cell, index) {
            var checkbox = cell.firstElementChild;
            checkbox.setAttribute("data-compare", String(index));
            checkbox.setAttribute("aria-label", parts.map(function (part, p) { return p % 2 ? value(part, index) : part; }).join(""));
            checkbox.checked = false;
          };
        case "percent":
          return function (cell, index) { cell.textContent = percent(index); };
        case "count":
          return function (cell, index) {
            var count = list.value(index);
            cell.textContent = String(count);
            if (thinBadge && count < thin) cell.append(" ", thinBadge.cloneNode(true));
          };
        case "size":
          return function (cell, index) { cell.textContent = sizeColumn ? sizeColumn.value(index) : text(index); };
        case "hash":
          // Its first digits, as the build writes them (view.short_hash); the filter reads it whole.
          return function (cell, index) {
            var whole = text(index), colon = whole.indexOf(":");
            cell.textContent = whole.slice(colon + 1, colon + 1 + hashShown);
          };
        case "text":
          // A name, in the <bdi> the build writes it in (isolated from the card's label beside it).
          return function (cell, index) { (cell.firstElementChild || cell).textContent = text(index); };
        default:
          return function (cell, index) { cell.textContent = text(index); };
      }
    }); }
    var fillers = null;  // a family table's, once a row of one is on the page

    function makeRow(index, from, fill) {
      var tr = (from || prototype).cloneNode(true);
      fill = fill || fillers;
      tr.setAttribute("data-row", String(index));
      var cells = tr.cells;
      for (var c = 0; c < fill.length; c++) fill[c](cells[c], index);
      return tr;
    }

    // A suite's best rows follow the filter and the size range: the best of its matching rows, in
    // ranking order with their ranks in the suite (a sort orders the family tables only), as many
    // as the build shows; rows the page does not hold are made like it from the top's own columns.
    // With no filter and no size range, the rows the build wrote. Its note says how many match.
    var topColumns = data.top_columns || [];
    var topAt = {};
    topColumns.forEach(function (column, cell) { if (!(column.kind in topAt)) topAt[column.kind] = cell; });
    var topFillers = null;  // once a suite's top is on the page
    var topCount = data.top_rows > 0 ? data.top_rows : 0;
    var tops = groups.map(function () { return null; });

    function topOf(panel) {
      var table = panel.querySelector("table.board.top");
      if (!table || !topColumns.length || !topCount || !table.tBodies[0].rows.length) return null;
      var held = Array.prototype.slice.call(table.tBodies[0].rows);
      var note = panel.querySelector("[data-top-count]");
      if (!topFillers) topFillers = fillersOf(topColumns, table.tHead.rows[0]);
      var found = { box: table.closest(".table-box"), tbody: table.tBodies[0], held: held, prototype: held[0].cloneNode(true),
               rows: held.map(function (tr) { return Number(tr.getAttribute("data-row")); }), shown: null,
               made: {}, note: note, said: note ? note.textContent : "", stale: true };
      found.shown = found.rows;
      return found;
    }

    function topRow(top, index) {
      var at = top.rows.indexOf(index);
      var tr = at !== -1 ? top.held[at] : top.made[index] || (top.made[index] = makeRow(index, top.prototype, topFillers));
      var box = "select" in topAt ? tr.cells[topAt.select].firstElementChild : null;
      var on = state.selection.indexOf(index) !== -1;
      if (box && box.checked !== on) box.checked = on;
      return tr;
    }

    function renderTop(s) {
      var top = tops[s];
      if (!top || !top.stale) return;
      top.stale = false;
      var filtered = words.length > 0 || bounded();
      var want = filtered ? [] : top.rows, matched = suites[s].shown;
      for (var r = 0; filtered && r < rowCount && want.length < topCount; r++) {
        if (match[r] && families[familyOf[r]].suite === s) want.push(r);
      }
      if (!top.shown || top.shown.join() !== want.join()) {
        var fragment = document.createDocumentFragment();
        want.forEach(function (index) { fragment.appendChild(topRow(top, index)); });
        top.tbody.textContent = "";
        top.tbody.appendChild(fragment);
        top.shown = want;
      }
      if (top.box) top.box.hidden = want.length === 0;
      if (!top.note) return;
      var said = !filtered ? top.said : matched === 0 ? "No row of the suite matches"
        : want.length === matched ? (matched === 1 ? "Its only row that matches" : "Its " + matched + " rows that match")
        : "The best " + want.length + " of its " + matched + " rows that match";
      if (top.note.textContent !== said) top.note.textContent = said;
    }

    // A row's element: the one the page holds, or one made once and kept.
    var made = {};
    function row(index) {
      var family = families[familyOf[index]];
      var tr = placeOf[index] < family.held ? family.written[placeOf[index]] : made[index] || (made[index] = makeRow(index));
      if (selectCell !== -1) {
        var checkbox = tr.cells[selectCell].firstElementChild;
        var on = state.selection.indexOf(index) !== -1;
        if (checkbox.checked !== on) checkbox.checked = on;
      }
      return tr;
    }

    // The made rows' boxes, after the selection changed (those on the page are already set).
    function checked() {
      if (selectCell === -1) return;
      Object.keys(made).forEach(function (key) {
        var box = made[key].cells[selectCell].firstElementChild;
        var on = state.selection.indexOf(Number(key)) !== -1;
        if (box.checked !== on) box.checked = on;
      });
      tops.forEach(function (top) {
        if (top) Object.keys(top.made).forEach(function (key) { topRow(top, Number(key)); });
      });
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

    var words = [];
    var match = new Uint8Array(rowCount).fill(1);

    function computeMatch() {
      words = state.query.toLowerCase().split(/\s+/).filter(Boolean);
      var sizes = hasSizes && bounded() ? column(SIZE) : null;
      var low = state.bounds.min === null ? -Infinity : state.bounds.min * 1e6;
      var high = state.bounds.max === null ? Infinity : state.bounds.max * 1e6;
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

    // Every family's matching rows in the chosen order. A family shows its first chunk of them, or
    // in the default view the rows the page holds.
    function regroup() {
      var still = plain();
      families.forEach(function (family) { family.matched = []; family.limit = still ? family.held : chunk; family.stale = true; });
      var order = state.sort ? ordering(state.sort.key, state.sort.dir) : null;
      for (var k = 0; k < rowCount; k++) {
        var index = order ? order[k] : k;
        if (match[index]) families[familyOf[index]].matched.push(index);
      }
    }

    // A family that has no table on the page gets one when it first has rows to show.
    function makeTable(family) {
      if (!tableTemplate) return;
      var box = tableTemplate.content.firstElementChild.cloneNode(true);
      box.setAttribute("aria-label", data.suites[family.suite].name + ", " + family.name);
      family.table = box.querySelector("table");
      family.table.setAttribute("data-total", String(family.rows.length));
      family.tbody = family.table.tBodies[0];
      family.written = [];
      family.made = box;
      page.enableSorting(box);
      var heading = family.box.querySelector("h3");
      if (heading) heading.insertAdjacentElement("afterend", box); else family.box.prepend(box);
    }

    function renderFamily(family) {
      if (!family.box) return;  // its panel is not on the page yet
      family.stale = false;
      var want = family.matched.length > family.limit ? family.matched.slice(0, family.limit) : family.matched;
      if (!family.table && want.length) makeTable(family);
      if (!family.table) return;
      if (family.made) family.made.hidden = want.length === 0;
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

    // A family shows a page of rows at a time and a button for the next ones: the build's, or one
    // made like it.
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
        button.setAttribute("data-more", "");
        family.more.appendChild(button);
        family.table.parentNode.insertAdjacentElement("afterend", family.more);
      }
      family.more.hidden = false;
      family.more.firstChild.textContent = "Show " + Math.min(rest, chunk) + " more (" + family.shown.length + " of " +
        family.matched.length + " shown)";
    }

    function renderSuite(index) {
      groups[index].forEach(function (family) { if (family.stale) renderFamily(family); });
      renderTop(index);
    }

    // The chart's marks of rows the filter hides are dimmed; nothing moves.
    var marks = [], markRows = new Int32Array(0), dimmed = new Uint8Array(0);
    function findMarks() {
      marks = Array.prototype.slice.call(document.querySelectorAll("svg [data-row]"));
      markRows = Int32Array.from(marks, function (mark) { return Number(mark.getAttribute("data-row")); });
      dimmed = new Uint8Array(marks.length);
    }
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
      if (state.bounds.min !== null && state.bounds.max !== null) return state.bounds.min + " to " + state.bounds.max + " million parameters";
      if (state.bounds.min !== null) return "at least " + state.bounds.min + " million parameters";
      return "at most " + state.bounds.max + " million parameters";
    }

    // A column's name as its header says it: the columns' table (columns.py) gives it in the data.
    function sortLabel(key) {
      return cellOf[key] === undefined ? key : columns[cellOf[key]].label;
    }

    // The status line: how many of the shown suite's rows match.
    function describe() {
      var said = "\u201c" + state.query.trim() + "\u201d";
      var size = bounded() ? sizePhrase() : "";
      var all = suites[state.suite].total, shown = suites[state.suite].shown, text;
      if (!words.length && !size) text = page.everyRow(suites[state.suite]);
      else if (shown === 0) {
        text = words.length ? "No rows match " + said + (size ? " with " + size : "") + "." : "No rows have " + size + ".";
      } else {
        text = "Showing " + shown + " of " + all + plural(all) + (words.length ? " matching " + said : "") +
          (size ? " with " + size : "") + ".";
      }
      if (state.sort) text += " Sorted by " + sortLabel(state.sort.key) + ", " + (state.sort.dir === "asc" ? "ascending" : "descending") + ".";
      if (status.textContent !== text) status.textContent = text;
    }

    // Apply the view: which rows match, their order, the counts, the chosen suite's tables, the
    // header's sort state, the status and the chart.
    function update() {
      computeMatch();
      regroup();
      tops.forEach(function (top) { if (top) top.stale = true; });
      suites.forEach(function (suite, s) {
        var inSuite = 0;
        groups[s].forEach(function (family) {
          var none = family.matched.length === 0;
          if (family.box && family.hidden !== none) family.box.hidden = family.hidden = none;
          inSuite += family.matched.length;
        });
        if (suite.shown !== inSuite) {
          suite.count.textContent = String(inSuite);
          if (suite.empty) suite.empty.hidden = inSuite > 0;
          suite.tab.classList.toggle("no-match", inSuite === 0);
          suite.shown = inSuite;
        }
      });
      // A chosen suite without a match gives way to the first suite that has one.
      if (page.inPlace && suites[state.suite].shown === 0) {
        for (var s = 0; s < suites.length; s++) {
          if (suites[s].shown > 0) { page.select(s); break; }
        }
      }
      renderSuite(state.suite);
      showSort();
      describe();
      dim();
    }

    function showSort() {
      families.forEach(function (family) {
        if (!family.table) return;
        var cells = family.table.tHead.rows[0].cells;
        columns.forEach(function (column, c) {
          var dir = state.sort ? (state.sort.key === column.key ? state.sort.dir : null) : (column.key === rankKey ? "asc" : null);
          var value = dir === "asc" ? "ascending" : dir === "desc" ? "descending" : null;
          if (cells[c].getAttribute("aria-sort") === value) return;
          if (value) cells[c].setAttribute("aria-sort", value); else cells[c].removeAttribute("aria-sort");
        });
      });
      if (canonicalButton) canonicalButton.disabled = state.sort === null;
    }

    // Download these rows: the chosen suite's matching rows, family by family in the order shown, as
    // the build writes leaderboard.csv (the published fields in the schema's order, then the figures).
    // Then how sure each row's rank is, as uncertainty.json holds it (data.figures).
    var CSV_FIELDS = data.published.concat(data.figures || []);
    var FLOATS = {};
    (data.floats || []).forEach(function (name) { FLOATS[name] = true; });

    function download() {
      if (!groups[state.suite][0] || groups[state.suite][0].stale) { computeMatch(); regroup(); }
      var lines = [];
      groups[state.suite].forEach(function (family) {
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
      anchor.download = suites[state.suite].anchor + "-rows.csv";
      anchor.hidden = true;
      document.body.appendChild(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(function () { URL.revokeObjectURL(anchor.href); }, 0);
    }

    // A suite's panel is on the page: its families' boxes, tables and the rows they hold.
    function attach(s) {
      var panel = suites[s].panel;
      suites[s].empty = panel.querySelector("[data-empty]");
      var boxes = panel.querySelectorAll("[data-family]");
      groups[s].forEach(function (family, f) {
        var box = boxes[f] || null;
        family.box = box;
        family.table = box ? box.querySelector("table.board") : null;
        family.tbody = family.table ? family.table.tBodies[0] : null;
        family.held = family.tbody ? family.tbody.rows.length : 0;
        family.shown = family.rows.slice(0, family.held);
        family.written = null;
        family.stale = true;
        family.more = box ? box.querySelector(".more") : null;
        if (!prototype && family.held) {
          prototype = family.tbody.rows[0].cloneNode(true);
          fillers = fillersOf(columns, family.table.tHead.rows[0]);
        }
      });
      tops[s] = topOf(panel);
      findMarks();
      if (!plain()) {
        update();
      } else {
        groups[s].forEach(function (family) { family.matched = family.rows; family.limit = family.held; });
      }
    }

    function show(index) { renderSuite(index); describe(); }

    // A family's Show more button was pressed.
    function more(button) {
      var family = null;
      families.forEach(function (f) { if (f.more && f.more.contains(button)) family = f; });
      if (!family) return;
      if (family.stale) { computeMatch(); regroup(); }
      family.limit = family.shown.length + chunk;
      renderFamily(family);
    }

    // Each column's row entries and the searched columns' lower-case text are made as the data is
    // read, so that the keystroke or sort that asked for it, and the next ones, find them. The
    // model's entries, the slowest to rank, are ranked while the page is idle, a slice at a time.
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

    return { update: update, attach: attach, show: show, more: more, download: download, checked: checked,
             rankKey: rankKey };
  };
})();
