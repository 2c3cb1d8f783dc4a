"""`replay trace` and `replay coverage`."""

from __future__ import annotations

import json
from typing import Any

import typer

from replay.cli import complete
from replay.cli.common import Format  # one --format text|json for every command


def _wrap(label: str, text: str | None, width: int = 100) -> list[str]:
    import textwrap

    if not text:
        return []
    body = textwrap.wrap(" ".join(text.split()), width=width - 16, break_on_hyphens=False,
                         break_long_words=False) or [""]
    return [f"  {label:<13} {body[0]}"] + [f"  {'':<13} {line}" for line in body[1:]]


def _clause_text(rec: dict[str, Any], score: str = "") -> list[str]:
    from replay.trace.core import witness_lines

    head = f"{rec['id']}  {rec['game']}" + (f" / {rec['variant']}" if rec["variant"] else "") + f", {rec['kind']}"
    lines = [head + (f"  ({score})" if score else "")]
    lines += _wrap("verbatim:", rec["verbatim"])
    if rec["diplomatic"] != rec["verbatim"]:
        lines += _wrap("diplomatic:", rec["diplomatic"])
    lines += _wrap("modern:", rec["modern"])
    lines += _wrap("translation:", rec["translation"])
    lines += witness_lines(rec, rec.get("match"))  # Cadogan's words: the passage the query matched first
    for a in rec["ambiguities"]:
        readings = ", ".join(r["id"] + (" (default)" if r["id"] == a["default"] else "") for r in a["readings"])
        switch = f"ruling {a['ruling']}" if a["ruling"] else a["status"]
        lines += _wrap("ambiguity:", f"{a['id']} — {a['title']} [{switch}; readings: {readings}]")
    if rec["implemented_by"]:
        lines.append("  implemented by:")
        lines += [f"    {f['function']}  {f['path']}:{f['line']}" for f in rec["implemented_by"]]
    elif rec["excused"]:
        lines += _wrap("excused:", rec["excused"])
    else:
        lines.append("  implemented by: nothing (not normative)" if rec["kind"] in ("commentary", "provenance")
                     else "  implemented by: NOTHING")
    if rec["tested_by"]:
        lines.append("  tested by:")
        lines += [f"    {t['path']}:{t['line']}  {t['test']}" if t["line"] else f"    {t['path']}::{t['test']}"
                  for t in rec["tested_by"]]
    else:
        lines.append("  tested by: no test is tagged with this clause")
    logs = rec.get("example_logs")
    if logs:
        shown = ", ".join(logs[:4]) + (f" and {len(logs) - 4} more" if len(logs) > 4 else "")
        lines += _wrap("example logs:", shown)
    return lines


def trace_command(
    query: list[str] = typer.Argument(..., metavar="QUERY...", autocompletion=complete.clauses,
                                      help="A clause ID, an ambiguity ID, a test's node ID, a function's or a "
                                           "module's dotted name, or a phrase in any language."),
    format: Format = typer.Option(Format.text, "--format", help="text for people, json for tools."),
    examples: bool = typer.Option(True, "--examples/--no-examples", help="List the example logs that touch each clause."),
) -> None:
    """Trace a rule sentence to the code that implements it, or a function to the clauses it implements.

    A clause is shown in its four layers: verbatim (as printed), diplomatic (repaired), modern
    (modern spelling) and translation.  Exit 0 when something matched (or one clause is clearly the
    best match of a paraphrase); 1 when nothing did (the nearest clauses are suggested).
    """
    from replay.trace.core import clause_record, function_record, match_record, trace

    q = " ".join(query)
    if not q.strip():
        typer.echo("replay: trace needs a query (a clause ID, a function name or a phrase)", err=True)
        raise typer.Exit(2)
    result = trace(q)
    _tests_note()
    if result.kind == "function":
        records = [function_record(f) for f in result.functions]
        if not examples:
            for r in records:
                for c in r["clauses"]:
                    c.pop("example_logs", None)
        if format is Format.json:
            typer.echo(json.dumps({"query": q, "kind": "function", "functions": records}, ensure_ascii=False, indent=2))
            return
        for r in records:
            typer.echo(f"{r['function']}  {r['path']}:{r['line']}  ({r['kind']})")
            if r["summary"]:
                typer.echo(f"  {r['summary']}")
            typer.echo(f"  implements {', '.join(c['id'] for c in r['clauses'])}:")
            for c in r["clauses"]:
                typer.echo("")
                typer.echo("\n".join("  " + line for line in _clause_text(c)))
        return
    if result.kind in ("clause", "phrase", "ambiguity", "test", "best"):
        records = []
        for h in result.hits:
            rec = clause_record(h.clause, with_examples=examples)
            rec["match"] = match_record(h)  # a match in the English witness names its passage
            records.append(rec)
        if format is Format.json:
            doc: dict[str, Any] = {"query": q, "kind": result.kind}
            if result.about:
                doc["about"] = result.about
            doc["clauses"] = records
            typer.echo(json.dumps(doc, ensure_ascii=False, indent=2))
            return
        if result.about:
            ids = ", ".join(r["id"] for r in records)
            typer.echo(f"{result.about}: {'clauses ' + ids if ids else 'no clause'}\n")
        elif result.kind == "best":
            typer.echo(f"no clause holds {q!r} as written; the best match:\n")
        elif len(records) > 1:
            typer.echo(f"{len(records)} clauses match {q!r}, best first:\n")
        for rec in records:
            m = rec["match"]
            score = "" if result.kind in ("clause", "ambiguity", "test") else (
                f"phrase found in the {m['layer']}" if m["exact"] else f"{m['score']:.0f}% like the {m['layer']}")
            typer.echo("\n".join(_clause_text(rec, score)))
            typer.echo("")
        return
    near = [{"clause": h.clause, "score": round(h.score, 1), "layer": h.layer} for h in result.nearest]
    if format is Format.json:
        typer.echo(json.dumps({"query": q, "kind": "none", "nearest": near}, ensure_ascii=False, indent=2))
    else:
        typer.echo(f"nothing matches {q!r}")
        if near:
            from replay.corpus.loader import default_corpus

            corpus = default_corpus()
            typer.echo("nearest:")
            for n in near:
                cl = corpus.clauses[str(n["clause"])]
                typer.echo(f"  {n['clause']}  {' '.join(cl.translation.split())[:90]}")
    raise typer.Exit(1)


def _tests_note() -> None:
    """Say on standard error when the tests are not installed (the tags then come from the shipped index)."""
    from replay.trace.testindex import clause_tests, source_note
    from replay.trace.core import ROOT

    note = source_note(clause_tests(ROOT)[1])
    if note:
        typer.echo(f"replay: note: {note}", err=True)


def coverage_command(
    format: Format = typer.Option(Format.text, "--format", help="text for people, json for tools."),
    update: bool = typer.Option(False, "--update", help="Also write the committed snapshots data/coverage.json and data/testindex.json (maintainers)."),
) -> None:
    """Compliance report: every clause implemented and tested, excused, not applicable, or missing.

    Exit 1 when a normative clause has no implementation and no excuse, or a reference is dangling.
    """
    from replay.trace.coverage import SNAPSHOT, problems, report_json, report_text
    from replay.trace.coverage import coverage_report

    report = coverage_report()
    _tests_note()
    if update:
        from replay.fsio import WriteRefused, write_texts
        from replay.trace import testindex
        from replay.trace.testindex import FROM_TESTS, clause_tests, index_json
        from replay.trace.core import ROOT

        if clause_tests(ROOT)[1] != FROM_TESTS:
            typer.echo("replay: --update needs a checkout with its tests/ (the snapshots are made from them)",
                       err=True)
            raise typer.Exit(2)
        try:  # updating the snapshots is the purpose of --update: written together, no --force needed
            write_texts([(SNAPSHOT, report_json(report)), (testindex.INDEX, index_json(ROOT))], update=True,
                        make_parents=True)
        except WriteRefused as e:
            typer.echo(f"replay: {e.message}", err=True)
            raise typer.Exit(2) from None
    typer.echo(report_json(report) if format is Format.json else report_text(report), nl=False)
    bad = problems(report)
    if bad:
        for p in bad:
            typer.echo(f"replay: {p}", err=True)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("trace")(trace_command)
    app.command("coverage")(coverage_command)
