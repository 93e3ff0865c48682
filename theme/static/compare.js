// The compare page: the rows its address names (#rows=N,M,... indices into the global ranking, two to
// four of them) side by side, every published field and every metric of their reports, the better
// value of each ranked metric marked and the fields whose values differ marked and, on request, the
// only ones shown; and how sure each rank is: the rows' 95% intervals, the ranks they allow, and
// whether each pair can be told apart. The rows come from the chunks of the leaderboard's data that hold them
// (rows/<n>.js, a thousand rows each), each suite's metrics from compare-data/<anchor>.js, added as
// script elements when first needed (nothing is fetched, so the page works from disk and under
// default-src 'self'), so that the page costs the same at 100 reports and at 100,000.
(function () {
  "use strict";
  var common = window.leaderboardCommon;
  var script = document.currentScript;
  var view = document.querySelector("[data-compare-view]");
  var help = document.querySelector("[data-compare-help]");
  if (!common || !view || !script) return;

  // Links are relative to the site: its root, as the build wrote it for this page.
  var base = script.getAttribute("data-site") || "";
  var rowCount = Number(script.getAttribute("data-rows")) || 0;
  var CHUNK = Number(script.getAttribute("data-chunk")) || 1000;
  var chunks = {};  // a chunk's number -> its columns, once loaded; "failed" if it could not be
  function chunkOf(index) { return Math.floor(index / CHUNK); }
  // A row's value of a field of the data (read from its chunk's column, not decoding the column).
  function field(name, index) {
    var chunk = chunks[chunkOf(index)];
    var column = chunk && chunk !== "failed" ? chunk[name] : null;
    return column ? column.value(index - chunkOf(index) * CHUNK) : undefined;
  }
  var data = null, anchorOf = {}, PUBLISHED = [], kindOf = {}, ADDED = [], BETTER = { f1: "higher" };
  // What every chunk says of the leaderboard, read from the first loaded: the suites' anchors, the
  // published fields in the schema's order, then what the page adds to a row, and which value of a
  // ranked metric is better (the ranking's directions, and F1's, higher, which is shown but never
  // ranks).
  function learn(first) {
    data = first;
    data.suites.forEach(function (suite) { anchorOf[suite.name] = suite.anchor; });
    PUBLISHED = data.published;
    data.columns.forEach(function (column) { kindOf[column.key] = column.kind; });
    ADDED = data.columns.filter(function (column) { return column.kind === "count" || column.kind === "size"; })
      .map(function (column) { return column.key; }).concat("frontier" in data.fields ? ["frontier"] : []);
    data.sort.forEach(function (rule) {
      var parts = rule.split(":");
      BETTER[parts[0]] = parts[1] === "asc" ? "lower" : "higher";
    });
  }
  function has(name) { return data !== null && name in data.fields; }

  // The chunks holding ``rows``, loaded once each; ``done`` once all have loaded or failed.
  var loading = {};
  function loadChunks(rows, done) {
    var wanted = [];
    rows.forEach(function (index) {
      var number = chunkOf(index);
      if (!(number in chunks) && wanted.indexOf(number) === -1) wanted.push(number);
    });
    var left = wanted.length;
    if (!left) { done(); return; }
    wanted.forEach(function (number) {
      if (loading[number]) { loading[number].push(finish); return; }
      loading[number] = [finish];
      var element = document.createElement("script");
      element.src = base + "rows/" + number + ".js";
      function loaded(ok) {
        var all = window.leaderboardRows;
        var chunk = ok && all && all[number];
        if (chunk && chunk.fields) {
          if (!data) learn(chunk);
          chunks[number] = common.columnsOf(chunk);
        } else {
          chunks[number] = "failed";
        }
        var callbacks = loading[number];
        delete loading[number];
        callbacks.forEach(function (callback) { callback(); });
      }
      element.onload = function () { loaded(true); };
      element.onerror = function () { loaded(false); };
      document.head.appendChild(element);
    });
    function finish() { if (--left === 0) done(); }
  }

  function parseRows(hash) {
    var params;
    try { params = new URLSearchParams(hash.replace(/^#/, "")); } catch (error) { return []; }
    var list = [];
    (params.get("rows") || "").split(",").forEach(function (part) {
      var index = /^\d+$/.test(part) ? Number(part) : -1;
      if (index >= 0 && index < rowCount && list.indexOf(index) === -1 && list.length < common.COMPARE_MAX) list.push(index);
    });
    return list;
  }

  // Each suite's metrics, loaded once: callbacks wait for its script.
  var waiting = {};
  function metricsOf(suite) {
    var all = window.leaderboardMetrics;
    return all && Object.prototype.hasOwnProperty.call(all, suite) ? all[suite] : null;
  }
  function load(suite, done) {
    if (metricsOf(suite) || waiting[suite] === "failed") { done(); return; }
    if (waiting[suite]) { waiting[suite].push(done); return; }
    waiting[suite] = [done];
    var script = document.createElement("script");
    script.src = base + "compare-data/" + common.quote(anchorOf[suite]) + ".js";
    function finish(ok) {
      var callbacks = waiting[suite];
      waiting[suite] = ok ? null : "failed";
      callbacks.forEach(function (callback) { callback(); });
    }
    script.onload = function () { finish(true); };
    script.onerror = function () { finish(false); };
    document.head.appendChild(script);
  }

  function element(name, text, className) {
    var made = document.createElement(name);
    if (text !== undefined && text !== null) made.textContent = text;
    if (className) made.className = className;
    return made;
  }

  function code(text) { return element("code", text); }

  // A value from the archive among other text, isolated from it (<bdi>: its own direction, and it
  // cannot reorder what is around it); and a row named by its model, suite and device, so.
  function bdi(text) { return element("bdi", text); }
  function named(index) {
    return [bdi(field("model_name", index)), " (", bdi(field("suite", index)), ", ", bdi(field("device", index)), ")"];
  }

  // A value as the compare page writes it: a ranked fraction as a percentage, the size short, a
  // metric number as its report writes it.
  function shownField(name, index) {
    var value = name === "report_url" ? common.reportUrl(field("report_path", index)) : field(name, index);
    if (kindOf[name] === "percent" || kindOf[name] === "interval") return common.percent(value) + "%";
    if (kindOf[name] === "size") return value === null ? "unknown" : (has("size") ? field("size", index) + " (" : "") + value + (has("size") ? ")" : "");
    if (name === "frontier") return value ? "yes" : "no";
    return value === null || value === undefined ? "" : String(value);
  }

  function shownMetric(value) {
    if (value === undefined) return null;
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : common.floatText(value);
    return value === null ? "null" : String(value);
  }

  var rows = [];
  var onlyDiffering = false;

  // One table: a column a compared row, a line a field; a line whose values are not all equal is
  // marked "differs"; the better value of a ranked metric is marked "best".
  function table(caption, names, cellsOf, better, label) {
    var box = element("div", null, "table-box");
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", caption);
    var tableElement = element("table", null, "compare-table");
    tableElement.appendChild(element("caption", caption));
    var head = tableElement.createTHead().insertRow();
    var corner = element("th", "Field");
    corner.scope = "col";
    head.appendChild(corner);
    rows.forEach(function (index) {
      var th = element("th");
      th.scope = "col";
      var link = element("a", field("model_name", index));
      link.href = base + common.reportPageUrl(field("report_path", index));
      link.dir = "auto";
      th.appendChild(link);
      var which = element("span", null, "muted which");
      which.append(bdi(field("suite", index)), " \u00b7 ", bdi(field("device", index)));
      th.appendChild(which);
      head.appendChild(th);
    });
    var body = tableElement.createTBody();
    names.forEach(function (name) {
      var texts = cellsOf(name);
      var tr = body.insertRow();
      var header = element("th");
      header.scope = "row";
      header.appendChild(label ? document.createTextNode(label(name)) : code(name));
      var known = texts.filter(function (text) { return text !== null; });
      var differs = texts.some(function (text) { return text !== texts[0]; });
      if (differs) {
        tr.className = "differs";
        header.append(" ", element("span", "differs", "badge differs"));
      }
      tr.appendChild(header);
      var best = null;
      if (better && BETTER[name] && differs && known.length === texts.length) {
        var numbers = rows.map(function (index) { return field(name, index); });
        best = BETTER[name] === "lower" ? Math.min.apply(null, numbers) : Math.max.apply(null, numbers);
        header.append(" ", element("span", "(" + BETTER[name] + " is better)", "muted"));
      }
      texts.forEach(function (text, n) {
        var td = element("td", null, text === null ? "muted" : "");
        td.appendChild(text === null ? document.createTextNode("not in this report") : bdi(text));
        if (best !== null && field(name, rows[n]) === best) {
          td.className = "best";
          td.append(" ", element("span", "best", "badge best"));
        }
        tr.appendChild(td);
      });
      tr.hidden = onlyDiffering && !differs;
    });
    box.appendChild(tableElement);
    return box;
  }

  function render() {
    rows = parseRows(location.hash);
    if (rows.length >= common.COMPARE_MIN && rows.some(function (index) { return !(chunkOf(index) in chunks); })) {
      loadChunks(rows, render);
      return;
    }
    if (rows.some(function (index) { return chunks[chunkOf(index)] === "failed"; })) {
      view.textContent = "";
      view.appendChild(element("p", "The rows this address names could not be loaded (rows/ of the site).", "problem"));
      return;
    }
    view.textContent = "";
    view.hidden = false;
    if (help) help.hidden = true;
    var heading = element("h2", rows.length >= common.COMPARE_MIN ? rows.length + " rows side by side" : "Nothing to compare yet");
    heading.id = "compare-heading";
    heading.tabIndex = -1;
    view.appendChild(heading);
    var back = element("a", "the leaderboard");
    back.href = base + (script.getAttribute("data-index") || "index.html");
    if (rows.length < common.COMPARE_MIN) {
      var ask = element("p", "Tick the box of " + common.COMPARE_MIN + " to " + common.COMPARE_MAX + " rows on ");
      ask.append(back, ", then choose \u201cCompare selected\u201d. " +
        (rows.length === 1 ? "This address names only one row." : "This address names no row."));
      view.appendChild(ask);
      return;
    }
    var intro = element("p", "This page's address names these rows, so it can be shared. Change the selection on ");
    intro.append(back, ", or remove a row here.");
    view.appendChild(intro);

    var tools = element("div", null, "compare-tools");
    rows.forEach(function (index) {
      var remove = element("button", "Remove ");
      remove.append.apply(remove, named(index));
      remove.type = "button";
      remove.setAttribute("data-remove", String(index));
      tools.appendChild(remove);
    });
    var toggle = element("label", null, "only-differing");
    var box = element("input");
    box.type = "checkbox";
    box.checked = onlyDiffering;
    box.setAttribute("data-only-differing", "");
    toggle.append(box, " Show only the fields that differ");
    tools.appendChild(toggle);
    view.appendChild(tools);
    view.appendChild(element("p", "\u201cbest\u201d marks the better value of a ranked metric (leakage lower, recall and " +
      "F1 higher); \u201cdiffers\u201d marks a field whose values are not all the same.", "hint"));

    view.appendChild(table("Published fields", PUBLISHED.concat(ADDED), function (name) {
      return rows.map(function (index) { return shownField(name, index); });
    }, true));
    if (has("leakage_low")) howSure();

    var suites = [];
    rows.forEach(function (index) { if (suites.indexOf(field("suite", index)) === -1) suites.push(field("suite", index)); });
    var metricsBox = element("div");
    view.appendChild(metricsBox);
    var pending = suites.length;
    suites.forEach(function (suite) {
      load(suite, function () {
        if (--pending === 0) renderMetrics(metricsBox, suites);
      });
    });
  }

  // How sure each row's rank is (uncertainty.json's figures): its intervals side by side, the ranks
  // they allow in its suite, and whether each pair of rows can be told apart: one certainly leaks
  // less when its whole leakage interval lies below the other's.
  var SURE = {
    leakage: ["Leakage, 95% interval", function (index) { return common.interval(field("leakage_low", index), field("leakage_high", index)) + "%"; }],
    recall: ["Recall, 95% interval", function (index) { return common.interval(field("recall_low", index), field("recall_high", index)) + "%"; }],
    range: ["Rank in its suite could be", function (index) { return field("suite_rank_best", index) + " to " + field("suite_rank_worst", index); }],
    first: ["Could be first in its suite", function (index) { return field("could_be_first", index) ? "yes" : "no"; }],
    method: ["Intervals", function (index) {
      var n = field("fixture_count", index);
      return "Wilson score, n = " + n + (n === 1 ? " fixture" : " fixtures");
    }],
  };
  function howSure() {
    view.appendChild(table("How sure each rank is", Object.keys(SURE), function (name) {
      return rows.map(SURE[name][1]);
    }, false, function (name) { return SURE[name][0]; }));
    var heading = element("h3", "Can they be told apart?");
    var list = element("ul", null, "told-apart");
    for (var a = 0; a < rows.length; a++) {
      for (var b = a + 1; b < rows.length; b++) {
        var item = element("li");
        item.append.apply(item, toldApart(rows[a], rows[b]));
        list.appendChild(item);
      }
    }
    view.append(heading, list);
  }
  function toldApart(a, b) {
    // The line's parts: text, and each row's names isolated.
    var pair = named(a).concat(" and ", named(b), ": ");
    if (field("suite", a) !== field("suite", b)) return pair.concat("in different suites, never ranked against each other.");
    var lowA = field("leakage_low", a), highA = field("leakage_high", a);
    var lowB = field("leakage_low", b), highB = field("leakage_high", b);
    var first = highA < lowB ? a : highB < lowA ? b : -1;
    if (first === -1) {
      return pair.concat("cannot be told apart: their leakage intervals (" + common.interval(lowA, highA) + "% and " +
        common.interval(lowB, highB) + "%) overlap.");
    }
    var second = first === a ? b : a;
    return pair.concat("told apart: ", named(first), " certainly leaks less (" +
      common.interval(field("leakage_low", first), field("leakage_high", first)) + "%, wholly below " +
      common.interval(field("leakage_low", second), field("leakage_high", second)) + "%).");
  }

  function renderMetrics(box, suites) {
    var missing = suites.filter(function (suite) { return !metricsOf(suite); });
    var keys = [];
    suites.forEach(function (suite) {
      var metrics = metricsOf(suite);
      if (metrics) metrics.keys.forEach(function (key) { if (keys.indexOf(key) === -1) keys.push(key); });
    });
    keys.sort();
    if (missing.length) {
      var problem = element("p", "The metrics of ", "problem");
      missing.forEach(function (suite, n) { problem.append(n ? ", " : "", bdi(suite)); });
      problem.append(" could not be loaded.");
      box.appendChild(problem);
    }
    box.appendChild(table("Metrics", keys, function (key) {
      return rows.map(function (index) {
        var metrics = metricsOf(field("suite", index));
        if (!metrics) return "not loaded";
        var values = metrics.rows[String(index)];
        var at = metrics.keys.indexOf(key);
        return shownMetric(values && at !== -1 ? values[at] : undefined);
      });
    }, false));
  }

  view.addEventListener("click", function (event) {
    var remove = event.target.closest("button[data-remove]");
    if (!remove) return;
    var index = Number(remove.getAttribute("data-remove"));
    var left = rows.filter(function (row) { return row !== index; });
    var target = "#rows=" + left.join(",");
    try { history.pushState(null, "", target); } catch (error) { location.hash = target; return; }
    render();
    document.getElementById("compare-heading").focus();
  });
  view.addEventListener("change", function (event) {
    if (!event.target.hasAttribute("data-only-differing")) return;
    onlyDiffering = event.target.checked;
    Array.prototype.forEach.call(view.querySelectorAll("tbody tr"), function (tr) {
      tr.hidden = onlyDiffering && !tr.classList.contains("differs");
    });
  });
  window.addEventListener("hashchange", render);
  window.addEventListener("popstate", render);
  render();
})();
