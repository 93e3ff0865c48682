// What the scripts of the leaderboard and compare pages share: how the site writes a value, the same
// text as the build writes (a percentage as the tables show it, a number as leaderboard.json writes
// it, a URL quoted as the build quotes it, a CSV line as leaderboard.csv writes it), so that a row
// the page makes reads exactly like a row the build made; how many rows a comparison holds; and how
// the page's data file (window.leaderboardData) is read, whenever it is loaded.
(function () {
  "use strict";

  // The shortest decimal digits that read back as x (x finite, not negative), and the power of ten
  // of the first: x = 0.DIGITS x 10^(exponent + 1). The same digits as Python's repr.
  function digitsOf(x) {
    var match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential());
    return { digits: match[1] + (match[2] || ""), exponent: Number(match[3]) };
  }

  // The digits with the decimal point after `point` of them, as [whole part, fraction].
  function place(digits, point) {
    var whole, fraction;
    if (point <= 0) {
      whole = "0";
      fraction = "0".repeat(-point) + digits;
    } else if (point >= digits.length) {
      whole = digits + "0".repeat(point - digits.length);
      fraction = "";
    } else {
      whole = digits.slice(0, point);
      fraction = digits.slice(point);
    }
    return [whole.replace(/^0+(?=\d)/, ""), fraction.replace(/0+$/, "")];
  }

  // A fraction as a percentage: two decimals, or every decimal it needs when two would round it
  // (0.0093 -> "0.93", 0.5 -> "50.00", 0.123456 -> "12.3456"). Exact, never rounded.
  function percent(fraction) {
    var d = digitsOf(Math.abs(fraction));
    var parts = place(d.digits, d.exponent + 3);
    var decimals = parts[1].length < 2 ? (parts[1] + "00").slice(0, 2) : parts[1];
    return (fraction < 0 || Object.is(fraction, -0) ? "-" : "") + parts[0] + "." + decimals;
  }

  // A fraction as the tables write a percentage (display.rounded): with `decimals` decimals, its
  // exact decimal digits rounded half to even (1/7 -> "14.29", and with 4 decimals "14.2857").
  function rounded(fraction, decimals) {
    var d = digitsOf(Math.abs(fraction));
    var parts = place(d.digits, d.exponent + 3);
    var kept = (parts[1] + "0".repeat(decimals)).slice(0, decimals), rest = parts[1].slice(decimals);
    var units = Number(parts[0] + kept);
    if (rest && (rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || units % 2 === 1)))) units += 1;
    var text = String(units);
    if (decimals > 0) {
      text = "0".repeat(Math.max(0, decimals + 1 - text.length)) + text;
      text = text.slice(0, -decimals) + "." + text.slice(-decimals);
    }
    return (fraction < 0 || Object.is(fraction, -0) ? "-" : "") + text;
  }

  // An interval's bound (a fraction) as a percentage with two decimals, rounded down for a lower
  // bound and up for an upper one, so that what is written holds the interval; and an interval as
  // the build writes it (view.interval_text): 0 to 0.7934506856227626 -> "0.00–79.35".
  function bound(fraction, up) {
    var d = digitsOf(fraction);
    var parts = place(d.digits, d.exponent + 3);
    var cents = Number(parts[0]) * 100 + Number((parts[1] + "00").slice(0, 2));
    if (up && parts[1].length > 2) cents += 1;  // a digit beyond the second decimal is not 0
    var whole = Math.floor(cents / 100), rest = cents % 100;
    return whole + "." + (rest < 10 ? "0" : "") + rest;
  }
  function interval(low, high) { return bound(low, false) + "\u2013" + bound(high, true); }

  // A float as leaderboard.json writes it (Python's repr): "0.5", "1.0", "1e-05".
  function floatText(x) {
    if (x === 0) return 1 / x < 0 ? "-0.0" : "0.0";
    var sign = x < 0 ? "-" : "";
    var d = digitsOf(Math.abs(x));
    if (d.exponent < -4 || d.exponent >= 16) {
      var power = Math.abs(d.exponent);
      return sign + d.digits[0] + (d.digits.length > 1 ? "." + d.digits.slice(1) : "") + "e" +
        (d.exponent < 0 ? "-" : "+") + (power < 10 ? "0" : "") + power;
    }
    var parts = place(d.digits, d.exponent + 1);
    return sign + parts[0] + "." + (parts[1] || "0");
  }

  // A path quoted as the build quotes it (Python's urllib.parse.quote: "/" and A-Z a-z 0-9 _ . - ~ kept).
  function quote(path) {
    return encodeURIComponent(path).replace(/[!'()*]/g, function (c) {
      return "%" + c.charCodeAt(0).toString(16).toUpperCase();
    }).replace(/%2F/g, "/");
  }

  // A report's page and its canonical copy, relative to the site.
  function reportPageUrl(reportPath) {
    return quote("report/" + reportPath.slice(0, -".json".length) + ".html");
  }

  function reportUrl(reportPath) {
    return "reports/" + quote(reportPath);
  }

  // One CSV cell (RFC 4180): a cell holding a quote, comma or line break is quoted, its quotes
  // doubled; text a spreadsheet would run as a formula (starting with = + - @, a tab or CR) gets a
  // leading apostrophe and is quoted (OWASP's advice).
  function csvCell(value) {
    var text = value === null || value === undefined ? "" : String(value);
    var formula = /^[=+\-@\t\r]/.test(text);
    if (formula) text = "'" + text;
    return formula || /[",\r\n]/.test(text) ? "\"" + text.replace(/"/g, "\"\"") + "\"" : text;
  }

  // A CSV document: the header, then one line a row, each line ended by CR LF.
  function csv(header, rows) {
    var lines = [header.map(csvCell).join(",")];
    for (var r = 0; r < rows.length; r++) lines.push(rows[r].map(csvCell).join(","));
    return lines.join("\r\n") + "\r\n";
  }

  // A packed column of the page's data (publish.py's pack_column): its distinct values once each
  // (a list, or text joined by a separator none holds, without the prefix and suffix they all
  // share) and each row's entry number, fixed-width digits of DIGITS (none: row i is entry i, or
  // entry 0 when there is one). Nothing is decoded, split or copied until asked for: a row's value
  // is cut from the text when needed.
  var DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
  var DIGIT = new Int32Array(128);
  for (var d = 0; d < DIGITS.length; d++) DIGIT[DIGITS.charCodeAt(d)] = d;

  // Where each entry of text joined by `sep` starts, and after the last one where a next would.
  function starts(text, sep) {
    var found = [0];
    for (var at = text.indexOf(sep); at !== -1; at = text.indexOf(sep, at + 1)) found.push(at + 1);
    found.push(text.length + 1);
    return Int32Array.from(found);
  }

  function Column(packed, rowCount, index) {
    this.rowCount = rowCount;
    this.list = packed.values || null;  // the entries, once known
    this.text = this.list ? null : packed.text;
    this.sep = packed.sep;
    this.prefix = packed.affix ? packed.affix[0] : "";
    this.suffix = packed.affix ? packed.affix[1] : "";
    this.bounds = null;
    this.lower = null;  // the entries as the filter reads them
    this.index = index || null;  // each row's entry number, once decoded
    this.digits = index ? "" : packed.index || "";
    this.width = index ? 0 : packed.width || 0;
    this.identity = false;
  }
  // Each row's entry number, or null when row i is entry i.
  Column.prototype.codes = function () {
    if (this.index || this.identity) return this.index;
    var single = this.list ? this.list.length === 1 : this.text.indexOf(this.sep) === -1;
    if (!this.width && !(single && this.rowCount > 1)) {
      this.identity = true;
      return null;
    }
    var codes = new Int32Array(this.rowCount), width = this.width, digits = this.digits;
    for (var r = 0, at = 0; width && r < this.rowCount; r++) {
      var code = 0;
      for (var w = 0; w < width; w++) code = code * DIGITS.length + DIGIT[digits.charCodeAt(at++)];
      codes[r] = code;
    }
    this.index = codes;
    return codes;
  };
  // Row r's entry number.
  Column.prototype.at = function (r) {
    var codes = this.index || this.codes();
    return codes ? codes[r] : r;
  };
  Column.prototype.count = function () {
    if (this.list) return this.list.length;
    if (!this.bounds) this.bounds = starts(this.text, this.sep);
    return this.bounds.length - 1;
  };
  Column.prototype.entry = function (e) {
    if (this.list) return this.list[e];
    if (!this.bounds) this.bounds = starts(this.text, this.sep);
    return this.prefix + this.text.slice(this.bounds[e], this.bounds[e + 1] - 1) + this.suffix;
  };
  Column.prototype.value = function (r) { return this.entry(this.at(r)); };
  // Every entry, in order.
  Column.prototype.entries = function () {
    if (!this.list) {
      var prefix = this.prefix, suffix = this.suffix;
      var parts = this.text.split(this.sep);
      this.list = prefix || suffix ? parts.map(function (part) { return prefix + part + suffix; }) : parts;
    }
    return this.list;
  };
  // Every row's value, in row order.
  Column.prototype.values = function () {
    var entries = this.entries(), index = this.codes();
    if (!index) return entries.slice(0, this.rowCount);
    var out = new Array(this.rowCount);
    for (var r = 0; r < this.rowCount; r++) out[r] = entries[index[r]];
    return out;
  };
  // The entries, lower-cased, as one text for the filter to search: made once, as the page starts.
  // Without their prefix and suffix, which lower-case on their own just as within each value,
  // unless a capital sigma is about (its lower case depends on its neighbours): then, and for a
  // word that could run into the prefix or suffix, the whole values are searched, their text made
  // when first needed.
  function lowered(text, sep) {
    text = text.toLowerCase();
    return { text: text, bounds: starts(text, sep) };
  }
  Column.prototype.searchable = function () {
    if (this.lower) return this.lower;
    if (this.text !== null) {
      var affixed = this.prefix !== "" || this.suffix !== "";
      var sigma = /\u03a3/.test(this.prefix + this.suffix) || this.text.indexOf("\u03a3") !== -1;
      this.lower = !affixed || !sigma ? lowered(this.text, this.sep) : { text: null, bounds: null };
      this.lower.prefix = this.prefix.toLowerCase();
      this.lower.suffix = this.suffix.toLowerCase();
      this.lower.whole = affixed ? null : this.lower;
    } else {
      this.lower = { list: this.list.map(function (v) { return v === null || v === undefined ? "" : String(v).toLowerCase(); }) };
    }
    return this.lower;
  };
  Column.prototype.whole = function () {
    var lower = this.searchable();
    if (!lower.whole) {
      var around = (this.suffix + this.sep + this.prefix).replace(/\$/g, "$$$$");
      lower.whole = lowered(this.prefix + this.text.replaceAll(this.sep, around) + this.suffix, this.sep);
    }
    return lower.whole;
  };
  // Which entries hold `word` (lower case, no white space): one flag an entry, or null for none.
  Column.prototype.holding = function (word) {
    var lower = this.searchable(), found = null, e;
    if (lower.list) {
      for (e = 0; e < lower.list.length; e++) {
        if (lower.list[e].indexOf(word) !== -1) (found || (found = new Uint8Array(lower.list.length)))[e] = 1;
      }
      return found;
    }
    var search = lower;
    if (lower.whole !== lower) {
      if (lower.prefix.indexOf(word) !== -1 || lower.suffix.indexOf(word) !== -1) return new Uint8Array(this.count()).fill(1);
      var spans = !lower.text;
      for (var p = 1; !spans && p <= lower.prefix.length; p++) {
        var end = lower.prefix.slice(-p);
        spans = end.length < word.length && word.slice(0, end.length) === end;
      }
      for (var q = 1; !spans && q <= lower.suffix.length; q++) {
        var start = lower.suffix.slice(0, q);
        spans = start.length < word.length && word.slice(-start.length) === start;
      }
      if (spans) search = this.whole();
    }
    var text = search.text, bounds = search.bounds, last = bounds.length - 2;
    var at = text.indexOf(word);
    while (at !== -1) {
      // The entry the match starts in (the last start at or before it).
      var low = 0, high = last;
      while (low < high) {
        var mid = (low + high + 1) >> 1;
        if (bounds[mid] <= at) low = mid; else high = mid - 1;
      }
      if (at + word.length < bounds[low + 1]) {
        (found || (found = new Uint8Array(last + 1)))[low] = 1;
        at = text.indexOf(word, bounds[low + 1]);
      } else {
        at = text.indexOf(word, at + 1);  // it runs into the next entry: not a match
      }
    }
    return found;
  };

  // The page's data file's columns (window.leaderboardData.fields) are read through Column; its
  // `fields` becomes, for other readers, each column's list of values, made when first read. Read
  // as this script runs when the page loaded the data first (the compare page), or once the page
  // has loaded it (read).
  var columns = {};
  var done = null;
  function read(data) {
    if (!data || !data.fields || data === done) return;
    done = data;
    var packed = data.fields;
    data.fields = {};
    Object.keys(packed).forEach(function (name) {
      var column = columns[name] = new Column(packed[name], data.row_count);
      var values = null;
      Object.defineProperty(data.fields, name, {
        enumerable: true,
        get: function () { return values || (values = column.values()); },
      });
    });
  }
  read(window.leaderboardData);

  window.leaderboardCommon = {
    COMPARE_MIN: 2, COMPARE_MAX: 4,
    percent: percent, rounded: rounded, interval: interval, floatText: floatText, quote: quote, reportPageUrl: reportPageUrl, reportUrl: reportUrl,
    csvCell: csvCell, csv: csv, read: read,
    // A data file's columns (a chunk's, on the compare page), by name, read like the page's own.
    columnsOf: function (data) {
      var found = {};
      Object.keys(data.fields).forEach(function (name) { found[name] = new Column(data.fields[name], data.row_count); });
      return found;
    },
    // The data's column of a field, or null.
    column: function (name) { return Object.prototype.hasOwnProperty.call(columns, name) ? columns[name] : null; },
    // A column of values worked out by the page: its entries and each row's entry number.
    derived: function (entries, index) { return new Column({ values: entries }, index.length, index); },
  };
})();
