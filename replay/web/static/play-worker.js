/* The Play page's strong player (replay/site/play.py, play.js): a Web Worker with a Pyodide of its own.
 *
 * It loads the same runtime, the same archive's Python (replay.web.SHIPPED) and the same edition as the
 * page, from the same site (the browser has them already), and answers each request with
 * replay.web.hint.search: the nested search of replay.solver.nested, in Python, from the log on the
 * table.  It searches here so that the page stays responsive; the page stops a search by ending the
 * worker.  Messages in: {type: "start", runtime, bundle, edition}, {type: "search", id, log, nodes, seed}.
 * Out: {type: "ready"}, {type: "progress", id, positions, best, seconds}, {type: "found", id, answer}
 * (JSON text), {type: "failed", id, message}.
 */

let hint = null;
let ready = null;

async function start(m) {
  const { loadPyodide } = await import(m.runtime + "pyodide.mjs");
  const own = Promise.all([fetch(m.bundle).then((r) => r.arrayBuffer()), fetch(m.edition).then((r) => r.text())]);
  const pyodide = await loadPyodide({ indexURL: m.runtime, stdout: () => {}, stderr: (s) => console.warn(s) });
  const [zip, edition] = await own;
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/replay-web" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/replay-web')");
  pyodide.pyimport("replay.web.bridge").start(edition);
  hint = pyodide.pyimport("replay.web.hint");
}

self.onmessage = async (ev) => {
  const m = ev.data;
  try {
    if (m.type === "start") {
      ready = start(m);
      await ready;
      self.postMessage({ type: "ready" });
    } else if (m.type === "search") {
      await ready;
      const tell = (positions, best, seconds) => self.postMessage({ type: "progress", id: m.id, positions, best, seconds });
      const answer = hint.search(JSON.stringify({ log: m.log, nodes: m.nodes, seed: m.seed }), tell);
      self.postMessage({ type: "found", id: m.id, answer });
    }
  } catch (e) {
    self.postMessage({ type: "failed", id: m.id, message: String((e && e.message) || e).split("\n").slice(-3).join(" ") });
  }
};
