// What the scripts of the leaderboard and compare pages share: how the site writes a value, the same
// text as the build writes (a percentage as the tables show it, a number as leaderboard.json writes
// it, a URL quoted as the build quotes it, a CSV line as leaderboard.csv writes it), so that a row
// the page makes reads exactly like a row the build made; and how many rows a comparison holds.
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
    return (fraction < 0 ? "-" : "") + parts[0] + "." + decimals;
  }

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

  window.leaderboardCommon = {
    COMPARE_MIN: 2, COMPARE_MAX: 4,
    percent: percent, floatText: floatText, quote: quote, reportPageUrl: reportPageUrl, reportUrl: reportUrl,
    csvCell: csvCell, csv: csv,
  };
})();
