/* Behaviour of the generated pages (replay/site); no dependency, works offline.
 *
 * - Sortable tables: every table inside an element with the class "sortable" sorts by a
 *   column when its heading is clicked (again: the other way).  Numbers sort as numbers.
 * - The ambiguity register's filter (by game, status, category and words).
 * - A note on every page opened from disk (file://), where search and folder links cannot work.
 * - A table or a code block wider than its column, which scrolls sideways, can be scrolled by keys.
 * - The copy button's bar on a code block is no navigation landmark.
 * The example-game pages' viewer has its own script, replay/view/static/viewer.js (one
 * implementation for the site and `replay view`), which the site serves as an asset.
 */
(function () {
  "use strict";

  function cellText(row, i) {
    var cell = row.cells[i];
    return cell ? cell.textContent.trim() : "";
  }

  function compare(a, b) {
    var x = parseFloat(a), y = parseFloat(b);
    if (!isNaN(x) && !isNaN(y) && /^[\d.\-]+$/.test(a) && /^[\d.\-]+$/.test(b)) return x - y;
    return a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
  }

  function makeSortable(table) {
    if (table.dataset.sortable === "on" || !table.tHead) return;
    table.dataset.sortable = "on";
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, i) {
      th.setAttribute("role", "button");
      th.setAttribute("tabindex", "0");
      th.title = "Sort by this column";
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.forEach(function (r, k) { r.dataset.order = r.dataset.order || String(k); });
        rows.sort(function (r1, r2) {
          var c = compare(cellText(r1, i), cellText(r2, i));
          if (c === 0) c = Number(r1.dataset.order) - Number(r2.dataset.order);
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sort(); }
      });
    });
  }

  // The ambiguity register's filter: game, status, category and words (every word must occur in the
  // entry, at the start of a word of it, in any case); the table's rows and the entries below follow it.
  function fold(s) {
    return s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ł/g, "l");
  }

  function makeFilter(form) {
    if (form.dataset.filter === "on") return;
    form.dataset.filter = "on";
    form.hidden = false;
    var entries = Array.prototype.slice.call(document.querySelectorAll(".amb-entry"));
    var byId = {};
    entries.forEach(function (e) { byId[e.dataset.id] = e; e.dataset.words = " " + fold(e.textContent).replace(/[^\p{L}\p{N}]+/gu, " "); });
    var table = document.querySelector(".amb-table table");
    var rows = table ? Array.prototype.slice.call(table.tBodies[0].rows) : [];
    var count = form.querySelector(".amb-count");

    function apply() {
      var game = form.elements.game.value, status = form.elements.status.value;
      var category = form.elements.category.value;
      var words = fold(form.elements.q.value).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
      var shown = 0;
      entries.forEach(function (e) {
        var ok = (!game || (" " + e.dataset.games + " ").indexOf(" " + game + " ") >= 0) &&
          (!status || e.dataset.status === status) && (!category || e.dataset.category === category) &&
          words.every(function (w) { return e.dataset.words.indexOf(" " + w) >= 0; });
        e.hidden = !ok;
        if (ok) shown += 1;
      });
      rows.forEach(function (r) {
        var a = r.querySelector("a[href^='#']");
        var e = a && byId[a.getAttribute("href").slice(1)];
        r.hidden = e ? e.hidden : false;
      });
      document.querySelectorAll("h2[id^='register-']").forEach(function (h) {
        var el = h.nextElementSibling, any = false;
        while (el && el.tagName !== "H2") { if (el.classList.contains("amb-entry") && !el.hidden) any = true; el = el.nextElementSibling; }
        h.hidden = !any;
      });
      count.textContent = shown === entries.length ? entries.length + " entries" : shown + " of " + entries.length + " entries";
    }

    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });
    form.addEventListener("reset", function () { setTimeout(apply, 0); });
    apply();
  }

  // Opened from disk (file://) the search and the folder links do not work: say so on every page.
  function warnOffline() {
    if (location.protocol !== "file:" || document.querySelector(".replay-offline")) return;
    var note = document.createElement("div");
    note.className = "replay-offline";
    note.setAttribute("role", "note");
    note.innerHTML = "This site is opened from disk: its search and its links to folders need a server. " +
      "Serve it with <code>python3 -m http.server -d site</code> (or <code>mkdocs serve</code>) and open " +
      "<code>http://127.0.0.1:8000/</code>.";
    var main = document.querySelector(".md-main") || document.body;
    main.insertBefore(note, main.firstChild);
  }

  // A table wider than its column scrolls sideways in its wrapper (Material's .md-typeset__scrollwrap), and
  // a code block wider than its column in its <code>: the box then takes the keyboard's focus, so that the
  // arrow keys scroll it, and gives it up when what it holds fits again (a window made wider).
  function scrollableByKeys() {
    document.querySelectorAll(".md-typeset__scrollwrap, .md-typeset pre > code").forEach(function (w) {
      var wide = w.scrollWidth > w.clientWidth + 1;
      if (wide && !w.hasAttribute("tabindex")) {
        w.tabIndex = 0;
        w.dataset.scrollKeys = "1";
      } else if (!wide && w.dataset.scrollKeys) {
        w.removeAttribute("tabindex");
        delete w.dataset.scrollKeys;
      }
    });
  }

  // Material puts each code block's copy button in a <nav>: a landmark without a name, one a block, that
  // screen readers list among the page's navigation (axe: landmark-unique). It is a bar of one button.
  function codeBarsAreNoLandmarks() {
    document.querySelectorAll("nav.md-code__nav:not([role])").forEach(function (bar) {
      bar.setAttribute("role", "none");
    });
  }

  var resizing = 0;
  window.addEventListener("resize", function () {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(scrollableByKeys);
  });

  function init() {
    document.querySelectorAll(".sortable table").forEach(makeSortable);
    document.querySelectorAll("form.amb-filter").forEach(makeFilter);
    scrollableByKeys();
    codeBarsAreNoLandmarks();
    warnOffline();
    document.documentElement.dataset.replay = "ready";  // what tests/test_site_axe.py waits for
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
