/* The game viewer (replay/view/render.py): the site's example pages and `replay view` files.
 *
 * Each <div class="replay-viewer"> holds the steps as collapsible sections (readable without
 * JavaScript), a move list, a timeline and a JSON block with the drawing of every step (SVG
 * groups made by replay/site/svg.py, each stored once).  This script shows one step at a time:
 * buttons, a slider, the timeline and the move list, the keys ← → Home End, and #move-N in the
 * address.  No dependency, no network.
 */
(function () {
  "use strict";

  function escapeText(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function makeViewer(box) {
    if (box.dataset.viewer === "on") return;
    var block = box.querySelector("script.rv-data");
    var holder = box.querySelector(".game-steps");
    if (!block || !holder) return;
    box.dataset.viewer = "on";
    var data = JSON.parse(block.textContent);
    var steps = holder.querySelectorAll(".step");
    var items = box.querySelectorAll(".rv-moves li");
    var cells = box.querySelectorAll(".rv-timeline .rv-cell");
    var figure = box.querySelector(".rv-table");
    var moves = Number(box.dataset.moves);
    var last = steps.length - 1;
    var bar = document.createElement("div");
    bar.className = "stepper";
    bar.innerHTML =
      '<button type="button" data-go="first" title="Start (Home)">« start</button>' +
      '<button type="button" data-go="prev" title="Previous move (←)">‹ previous</button>' +
      '<input type="range" min="0" max="' + last + '" value="0" aria-label="Move">' +
      '<button type="button" data-go="next" title="Next move (→)">next ›</button>' +
      '<button type="button" data-go="last" title="End (End)">end »</button>' +
      '<output aria-live="polite"></output>' +
      '<button type="button" data-go="all" title="Show every move as a list">list</button>';
    box.insertBefore(bar, box.firstChild);
    var slider = bar.querySelector("input");
    var out = bar.querySelector("output");
    var current = 0;

    function draw(k) {
      var frame = data.steps[k];
      if (!frame || !figure) return;
      var label = escapeText(frame.label);
      var parts = frame.g.map(function (i) { return data.groups[i]; });
      figure.innerHTML = data.head.split("@label@").join(label) + "\n" + parts.join("\n") + "\n" + data.tail;
    }

    function mark(list, k) {
      Array.prototype.forEach.call(list, function (el) {
        el.classList.toggle("current", Number(el.getAttribute("data-step")) === k);
      });
    }

    function show(k, fromHash) {
      current = Math.max(0, Math.min(last, k));
      Array.prototype.forEach.call(steps, function (s, j) {
        s.classList.toggle("current", j === current);
        if (j === current) s.querySelector("details").open = true;
      });
      mark(items, current);
      mark(cells, current);
      draw(current);
      var item = box.querySelector(".rv-moves li.current");
      if (item && item.scrollIntoView && box.classList.contains("stepping")) {
        var list = item.parentNode;
        if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      }
      slider.value = String(current);
      var refused = steps[current].classList.contains("refused");
      out.textContent = current === 0 ? "start" : refused ? "move " + current + " refused"
        : "move " + current + " of " + moves;
      if (!fromHash && history.replaceState) {
        try {
          history.replaceState(null, "", current === 0 ? location.pathname + location.search : "#move-" + current);
        } catch (e) { /* some browsers refuse it for file: pages; the viewer works without */ }
      }
    }

    function pick(ev) {
      var el = ev.target.closest && ev.target.closest("[data-step]");
      if (!el || !box.contains(el) || el.closest(".game-steps")) return;
      ev.preventDefault();
      box.classList.add("stepping");
      show(Number(el.getAttribute("data-step")));
    }

    box.classList.add("stepping");
    bar.addEventListener("click", function (ev) {
      var go = ev.target.getAttribute && ev.target.getAttribute("data-go");
      if (!go) return;
      if (go === "all") {
        var on = box.classList.toggle("stepping");
        ev.target.textContent = on ? "list" : "stepper";
        return;
      }
      box.classList.add("stepping");
      show({ first: 0, prev: current - 1, next: current + 1, last: last }[go]);
    });
    box.querySelector(".rv-moves").addEventListener("click", pick);
    var timeline = box.querySelector(".rv-timeline");
    if (timeline) timeline.addEventListener("click", pick);
    var best = box.querySelector(".rv-best");
    if (best) best.addEventListener("click", pick);
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    document.addEventListener("keydown", function (ev) {
      if (!box.classList.contains("stepping") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.target.closest && ev.target.closest("input:not([type=range]), textarea, select")) return;
      if (ev.key === "ArrowRight") { show(current + 1); ev.preventDefault(); }
      else if (ev.key === "ArrowLeft") { show(current - 1); ev.preventDefault(); }
      else if (ev.key === "Home") { show(0); ev.preventDefault(); }
      else if (ev.key === "End") { show(last); ev.preventDefault(); }
    });
    var m = /^#move-(\d+)$/.exec(location.hash);
    show(m ? Number(m[1]) : 0, true);
  }

  function init() {
    document.querySelectorAll(".replay-viewer").forEach(makeViewer);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
