/* The game viewer (replay/view/render.py): the site's example pages and `replay view` files.
 *
 * Each <div class="replay-viewer"> holds the steps as collapsible sections (readable without
 * JavaScript), a move list, a timeline and a data block with the drawing of every step (the SVG
 * of replay/draw/svg.py, each line and group stored once, the JSON deflated).  This script shows one step at a time:
 * buttons (and play, which steps on by itself), a slider, the timeline, the move list and the best
 * line's "Show position" link (an analysed game), a swipe across the viewer, the keys ← → Home End,
 * and #move-N in the address; it offers the log for download (embedded in a `replay view` file,
 * beside the page on the site).
 *
 * The keys are the viewer's only: they are taken when the focus is inside the viewer, or, in a
 * `replay view` file (the page is the viewer), when it is on nothing else.  No dependency, no network.
 */
(function () {
  "use strict";

  var PLAY_MS = 900;

  function escapeText(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  // the drawing data: JSON, deflated and in base64 (render.py's _data_block; viewer_data reads it alike); a
  // browser without DecompressionStream keeps the page as written (the start's table, every step's section)
  function readData(block) {
    if (block.dataset.encoding !== "deflate-raw;base64") return Promise.resolve(JSON.parse(block.textContent));
    if (typeof DecompressionStream === "undefined") return Promise.reject(new Error("no DecompressionStream"));
    var bin = atob(block.textContent.trim());
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text().then(JSON.parse);
  }

  function makeViewer(box) {
    if (box.dataset.viewer) return;
    var block = box.querySelector("script.rv-data");
    var holder = box.querySelector(".game-steps");
    if (!block || !holder) return;
    box.dataset.viewer = "reading";
    readData(block).then(function (data) {
      box.dataset.viewer = "on";
      startViewer(box, holder, data);
    }, function () { box.dataset.viewer = "static"; });
  }

  function startViewer(box, holder, data) {
    // a clause's tooltip is written at its first link only (render.py's _rules): the others get it here
    var tips = {};
    box.querySelectorAll(".rv-clause[title]").forEach(function (a) { tips[a.textContent] = a.title; });
    box.querySelectorAll(".rv-clause:not([title])").forEach(function (a) {
      if (tips[a.textContent]) a.title = tips[a.textContent];
    });
    var steps = holder.querySelectorAll(".step");
    var items = box.querySelectorAll(".rv-moves li");
    var cells = box.querySelectorAll(".rv-timeline .rv-cell");
    var figure = box.querySelector(".rv-table");
    var moves = Number(box.dataset.moves);
    var last = steps.length - 1;
    var standalone = document.body.classList.contains("rv-standalone");
    var bar = document.createElement("div");
    bar.className = "stepper";
    bar.setAttribute("role", "toolbar");
    bar.setAttribute("aria-label", "Step through the game");
    bar.innerHTML =
      '<button type="button" data-go="first" title="Start (Home)" aria-label="Start">«</button>' +
      '<button type="button" data-go="prev" title="Previous move (←)" aria-label="Previous move">‹</button>' +
      '<button type="button" data-go="play" title="Play the moves one after another" aria-pressed="false">▶ play</button>' +
      '<button type="button" data-go="next" title="Next move (→)" aria-label="Next move">›</button>' +
      '<button type="button" data-go="last" title="End (End)" aria-label="End">»</button>' +
      '<input type="range" min="0" max="' + last + '" value="0" aria-label="Move">' +
      '<output aria-live="polite"></output>' +
      '<button type="button" data-go="all" title="Show every move as a list">list</button>' +
      '<a class="rv-download" role="button">download log</a>';
    box.insertBefore(bar, box.firstChild);
    var slider = bar.querySelector("input");
    var out = bar.querySelector("output");
    var playButton = bar.querySelector("[data-go=play]");
    var current = 0;
    var timer = null;

    // the log: embedded (a replay view file) or beside the page (the site)
    var download = bar.querySelector(".rv-download");
    var embedded = box.querySelector("script.rv-log");
    var fileName = box.dataset.file || "game.json";
    download.setAttribute("download", fileName);
    download.title = "Save the log this viewer shows (" + fileName + ")";
    if (embedded) {
      download.href = "#";
      download.addEventListener("click", function (ev) {
        ev.preventDefault();
        var text = JSON.parse(embedded.textContent);
        var url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
        var a = document.createElement("a");
        a.href = url;
        a.download = fileName;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
      });
    } else if (box.dataset.log) {
      download.href = box.dataset.log;
    } else {
      download.remove();
    }

    // a table too wide for the screen (where it would be shown below 80% of its size and scroll sideways) is
    // drawn as the Play page draws it for a phone: its own drawing, rows too long wrapped, text legible
    var narrow = data.narrow || null;
    var small = window.matchMedia ? window.matchMedia("(max-width: 44rem)") : null;  // viewer.css's narrow screens
    function phone() { return !!(narrow && small && small.matches && box.clientWidth < data.width * 0.8); }

    function draw(k) {
      var frame = data.steps[k];
      if (!frame || !figure) return;
      var label = escapeText(frame.label);
      var set = phone() ? narrow : data;
      var ids = set === narrow ? narrow.steps[k] : frame.g;
      var parts = ids.map(function (i) {  // a group: the numbers of its lines (render.py's frame_svg reads it alike)
        return set.groups[i].map(function (j) { return data.lines[j]; }).join("\n");
      });
      var left = figure.scrollLeft;
      figure.innerHTML = set.head.split("@label@").join(label) + "\n" + parts.join("\n") + "\n" + set.tail;
      figure.classList.toggle("rv-fitted", set === narrow);
      figure.scrollLeft = left;
    }
    if (narrow) {
      var drawnPhone = null;
      window.addEventListener("resize", function () {
        if (phone() !== drawnPhone) { drawnPhone = phone(); draw(current); }
      });
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
      if (item && box.classList.contains("stepping")) {
        var list = item.parentNode;
        if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      }
      slider.value = String(current);
      var refused = steps[current].classList.contains("refused");
      out.textContent = current === 0 ? "start" : refused ? "move " + current + " refused"
        : "move " + current + " of " + moves;
      if (current >= last) stop();
      if (!fromHash && history.replaceState) {
        try {
          history.replaceState(null, "", current === 0 ? location.pathname + location.search : "#move-" + current);
        } catch (e) { /* some browsers refuse it for file: pages; the viewer works without */ }
      }
    }

    function stop() {
      if (timer === null) return;
      clearInterval(timer);
      timer = null;
      playButton.textContent = "▶ play";
      playButton.setAttribute("aria-pressed", "false");
    }

    function play() {
      if (timer !== null) { stop(); return; }
      box.classList.add("stepping");
      if (current >= last) show(0);
      timer = setInterval(function () { show(current + 1); }, PLAY_MS);
      playButton.textContent = "❚❚ pause";
      playButton.setAttribute("aria-pressed", "true");
    }

    function pick(ev) {
      var el = ev.target.closest && ev.target.closest("[data-step]");
      if (!el || !box.contains(el) || el.closest(".game-steps")) return;
      ev.preventDefault();
      stop();
      box.classList.add("stepping");
      show(Number(el.getAttribute("data-step")));
    }

    box.classList.add("stepping");
    bar.addEventListener("click", function (ev) {
      var button = ev.target.closest && ev.target.closest("[data-go]");
      var go = button && button.getAttribute("data-go");
      if (!go) return;
      if (go === "play") { play(); return; }
      stop();
      if (go === "all") {
        var on = box.classList.toggle("stepping");
        button.textContent = on ? "list" : "stepper";
        return;
      }
      box.classList.add("stepping");
      show({ first: 0, prev: current - 1, next: current + 1, last: last }[go]);
    });
    box.querySelector(".rv-moves").addEventListener("click", pick);
    var timeline = box.querySelector(".rv-timeline");
    if (timeline) timeline.addEventListener("click", pick);
    var best = box.querySelector(".rv-best");  // the best line found: its link shows the position
    if (best) best.addEventListener("click", pick);
    slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });

    function onKey(ev) {
      if (!box.classList.contains("stepping") || ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
      var t = ev.target;
      var inside = t && t.nodeType === 1 && box.contains(t);
      var nowhere = !t || t === document.body || t === document.documentElement;
      if (!inside && !(standalone && nowhere)) return;  // the page's keys are the page's
      if (t.closest && t.closest("input:not([type=range]), textarea, select, summary")) return;
      var to = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last }[ev.key];
      if (to === undefined) return;
      stop();
      show(to);
      ev.preventDefault();
    }
    (standalone ? document : box).addEventListener("keydown", onKey);

    // a swipe across the viewer steps (left: the next move); not on a table that scrolls sideways
    var touch = null;
    box.addEventListener("touchstart", function (ev) {
      if (ev.touches.length !== 1) { touch = null; return; }
      var wide = figure && figure.contains(ev.target) && figure.scrollWidth > figure.clientWidth + 2;
      touch = wide || (ev.target.closest && ev.target.closest("input, .rv-moves")) ? null
        : { x: ev.touches[0].clientX, y: ev.touches[0].clientY };
    }, { passive: true });
    box.addEventListener("touchend", function (ev) {
      if (!touch || !ev.changedTouches.length) return;
      var dx = ev.changedTouches[0].clientX - touch.x;
      var dy = ev.changedTouches[0].clientY - touch.y;
      touch = null;
      if (Math.abs(dx) < 40 || Math.abs(dx) < 2 * Math.abs(dy)) return;
      stop();
      box.classList.add("stepping");
      show(current + (dx < 0 ? 1 : -1));
    }, { passive: true });

    var m = /^#move-(\d+)$/.exec(location.hash);
    show(m ? Number(m[1]) : 0, true);
    if (m) {
      // opened at a move: the browser scrolled to that step's section, below the table and the stepper;
      // show the viewer from its top instead (a `replay view` file: the page's own header too)
      var reveal = function () {
        if (standalone) window.scrollTo(0, 0);
        else box.scrollIntoView({ block: "start" });
      };
      reveal();
      if (document.readyState !== "complete") {
        window.addEventListener("load", function () { reveal(); setTimeout(reveal, 0); }, { once: true });
      }
    }
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
