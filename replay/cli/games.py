"""`replay games`: every game with its variants, rulings, move types and piles."""

from __future__ import annotations

from typing import Any

import typer

from replay.cli.common import Format  # one --format text|json for every command


def _clauses(entry: Any) -> list[str]:
    """Clause IDs behind a kind of move: its rules, how it is performed, what follows it."""
    out: list[str] = []
    for fn in (*entry.rules, entry.perform, *entry.after):
        for c in getattr(fn, "clauses", ()):
            if c not in out:
                out.append(c)
    return out


def _doc(fn: Any) -> str:
    import inspect

    doc = inspect.getdoc(fn) if fn is not None and getattr(fn, "clauses", None) else None
    return doc.splitlines()[0] if doc else ""


def describe(game_id: str) -> dict[str, Any]:
    """Everything a log writer needs to know about one game, as plain data."""
    from replay.corpus.edition import default_edition
    from replay.games.catalog import create, module, rulings_for
    from replay.log.models import MOVE_MODELS

    mod = module(game_id)
    info = default_edition().games.get(game_id)
    titles = {v.id: v.title for v in info.variants} if info else {}
    defs = rulings_for(game_id)
    base = create(game_id)
    forms: list[tuple[str, ...]] = [()] + [(v,) for v in mod.VARIANTS]

    names = ["base" if not f else f[0] for f in forms]
    moves: dict[str, dict[str, Any]] = {}
    for form, form_name in zip(forms, names):
        g = create(game_id, form)
        for (mtype, sr, dr), entry in g.book.entries.items():
            m = moves.setdefault(mtype, {"type": mtype, "meaning": " ".join((MOVE_MODELS[mtype].__doc__ or "").split()),
                                         "kinds": []})
            kind = {"from": sr, "to": dr, "clauses": _clauses(entry), "does": _doc(entry.perform)}
            for k in m["kinds"]:
                if (k["from"], k["to"], k["clauses"]) == (kind["from"], kind["to"], kind["clauses"]):
                    k["forms"].append(form_name)
                    break
            else:
                kind["forms"] = [form_name]
                m["kinds"].append(kind)
    for m in moves.values():
        present: set[str] = set()
        for k in m["kinds"]:
            present.update(k["forms"])
            if set(k["forms"]) == set(names):
                k["forms"] = "all"
        m["forms"] = "all" if present == set(names) else [n for n in names if n in present]

    layout_changes = []
    rulings = []
    for name, r in sorted(defs.items()):
        rulings.append({
            "name": name, "title": r.title, "readings": list(r.readings), "default": r.default,
            "summaries": dict(r.summaries), "ambiguity": r.ambiguity, "variants": list(r.variants),
        })
        for reading in r.readings:
            if reading == r.default:
                continue
            g = create(game_id, list(r.variants[:1]), {name: reading})
            if g.layout.spec.id != base.layout.spec.id:
                layout_changes.append({
                    "ruling": name, "reading": reading, "layout": g.layout.spec.id,
                    "same_names": set(g.layout.names) == set(base.layout.names),
                    "piles": _piles(g),
                })
    return {
        "id": game_id,
        "title": info.title if info else game_id,
        "original_title": info.original_title if info else None,
        "text": info.text if info else None,
        "summary": info.summary if info else "",
        "variants": [{"id": v, "title": titles.get(v, "")} for v in mod.VARIANTS],
        "rulings": rulings,
        "moves": list(moves.values()),
        "layout": base.layout.spec.id,
        "piles": _piles(base),
        "layout_rulings": layout_changes,
        "deck_size": sum(base.expected_deck().values()),
    }


def _piles(g: Any) -> list[dict[str, Any]]:
    lay = g.layout
    return [{"name": n, "role": lay.roles[i], **({"label": lay.labels[i]} if lay.labels[i] else {})}
            for i, n in enumerate(lay.names)]


def _pile_text(piles: list[dict[str, Any]]) -> str:
    by_role: dict[str, list[str]] = {}
    for p in piles:
        by_role.setdefault(p["role"], []).append(p["name"])
    return "; ".join(f"{role}: {' '.join(names)}" for role, names in by_role.items())


def text_lines(d: dict[str, Any]) -> list[str]:
    title = d["title"] + (f" ({d['original_title']})" if d.get("original_title") else "")
    out = [f"{d['id']}: {title}" + (f", text {d['text']}" if d.get("text") else "")]
    if d["summary"]:
        out.append(f"  {d['summary']}")
    out.append(f"  deck: {d['deck_size']} cards")
    if d["variants"]:
        out.append("  variants:")
        for v in d["variants"]:
            out.append(f"    {v['id']}" + (f"  {v['title']}" if v["title"] else ""))
    else:
        out.append("  variants: none")
    out.append("  rulings (default first):")
    width = max((len(r["name"]) for r in d["rulings"]), default=0)
    for r in d["rulings"]:
        readings = [r["default"]] + [x for x in r["readings"] if x != r["default"]]
        only = f"; only with {' or '.join(r['variants'])}" if r["variants"] else ""
        out.append(f"    {r['name']:<{width}}  {' | '.join(readings)}  [{r['ambiguity']}{only}]")
    out.append("  moves:")
    for m in d["moves"]:
        where = "" if m["forms"] == "all" else f" (only in {', '.join(m['forms'])})"
        out.append(f"    {m['type']}{where}: {m['meaning']}")
        for k in m["kinds"]:
            route = f"{k['from']} -> {k['to']}" if k["from"] else "(no piles)"
            forms = "" if k["forms"] == "all" else f" [{', '.join(k['forms'])}]"
            does = f"  {k['does']}" if k["does"] else ""
            out.append(f"      {route}{forms}: clauses {' '.join(k['clauses'])}{does}")
    out.append(f"  piles (layout {d['layout']}): {_pile_text(d['piles'])}")
    for c in d["layout_rulings"]:
        what = "same pile names, other positions" if c["same_names"] else _pile_text(c["piles"])
        out.append(f"    with {c['ruling']}={c['reading']}: layout {c['layout']}: {what}")
    return out


def games(
    fmt: Format = typer.Option(Format.text, "--format", help="text for people, json for programs."),
    as_json: bool = typer.Option(False, "--json", hidden=True, help="The same as --format json (kept for old scripts)."),
) -> None:
    """List every game: variants, rulings (readings, default, ambiguity), move types and pile names."""
    import json

    from replay.games.catalog import MODULES

    described = [describe(g) for g in MODULES]
    if as_json or fmt is Format.json:
        typer.echo(json.dumps({"games": described}, ensure_ascii=False, indent=2))
        return
    for i, d in enumerate(described):
        if i:
            typer.echo("")
        for line in text_lines(d):
            typer.echo(line)


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("games")(games)
