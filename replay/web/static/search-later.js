/* The site search's index on a Play page: fetched when the search is first opened, not at load.
 *
 * The theme (Material for MkDocs) fetches search/search_index.json (about 1 MB) with an XMLHttpRequest
 * as soon as a page loads and indexes it in a worker; on a Play page that competes, on the reader's
 * cores and line, with the Python runtime starting.  This classic script runs before the theme's
 * (it is inline in the page's content, the theme's bundle is at the end of the body): it holds back
 * the request for the index and sends it, unchanged, the first time focus enters the search box
 * (a click, or the keys that open the search, "/", "f" or "s") or the search is toggled open.
 * Nothing else is held.  tests/test_play_browser.py holds that no index is fetched before and that
 * the search finds a clause after.
 */
(function () {
  "use strict";
  var proto = XMLHttpRequest.prototype, open = proto.open, send = proto.send;
  var held = [], released = false, INDEX = /\/search\/search_index\.json(?:[?#]|$)/;
  proto.open = function (method, url) {
    this.replaySearchIndex = INDEX.test(String(url));
    return open.apply(this, arguments);
  };
  proto.send = function () {
    if (this.replaySearchIndex && !released) {
      held.push([this, arguments]);
      return undefined;
    }
    return send.apply(this, arguments);
  };
  function release() {
    if (released) return;
    released = true;
    held.splice(0).forEach(function (h) { send.apply(h[0], h[1]); });
  }
  document.addEventListener("focusin", function (e) {
    if (e.target && e.target.closest && e.target.closest(".md-search")) release();
  });
  document.addEventListener("change", function (e) {
    if (e.target && e.target.id === "__search") release();
  });
})();
