"""docs/stats.md, written from a ``replay-stats/2`` data file (never by hand).

Self-contained Markdown: tables, and the text that reads them (which rulings change the
win rate and by how much; Napoleon's Square against the printed "9 in 10").
"""

from __future__ import annotations

import math
from typing import Any

from replay.solver.stats import home as _home  # the terminal table's column, in the same words
from replay.solver.stats import wilson

#: where the page lives on the site, and the anchors other pages link to
STATS_PAGE = "stats.md"
RULINGS_ANCHOR = "rulings"
RELATIVES_ANCHOR = "relatives"

#: the anchor of the section with the curves against the budget
BUDGETS_ANCHOR = "budgets"
#: the placeholder the site's build replaces with the figure (replay.solver.figure)
FIGURE = "<!-- replay:stats-curves -->"

GAME_TITLES = {
    "printex-frame": "Printex frame (text 000)",
    "zwarta-kolumna": "Zwarta kolumna (text 001)",
    "exiles": "Exiles (text 003)",
    "napoleons-square": "Napoleon's Square (text 003)",
}


def _pct(x: float | None, d: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{d}f}%"


def _ci(v: list[float], d: int = 1) -> str:
    return f"{100 * v[0]:.{d}f}–{100 * v[1]:.{d}f}%"


def _pts(x: float, d: int = 1) -> str:
    return f"{100 * x:+.{d}f}"


def true_rate(s: dict[str, Any], n: int) -> tuple[float, float]:
    """Where the true win rate lies, sampling error included: the lower 95% Wilson bound of the deals won
    and the upper 95% Wilson bound of the deals won or left undecided (``s``: a row's ``solver``)."""
    return wilson(s["won"], n)[0], wilson(s["won"] + s["unknown"], n)[1]


def _rate_range(s: dict[str, Any], n: int) -> str:
    lo, hi = true_rate(s, n)
    return f"{_pct(lo)}–{_pct(hi)}"


def in_100(s: dict[str, Any], n: int) -> str:
    """The rate in plain words, per 100 deals: "about 62" when every deal was settled, else "at least 37 and
    at most 59" (the Wilson bounds of :func:`true_rate`, rounded outward)."""
    lo, hi = true_rate(s, n)
    if n and s["unknown"] == 0:
        return f"about {round(100 * s['won'] / n)}"
    return f"at least {math.floor(100 * lo + 1e-9)} and at most {_at_most_in_100(hi)}"


def _at_most_in_100(hi: float) -> int:
    """An upper bound of a rate, per 100 deals, rounded outward."""
    return math.ceil(100 * hi - 1e-9)


def relative_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of the published relatives (``plays_as`` in the corpus); a data file made before they were
    played holds Napoleon's Square's modern readings as ``napoleon_modern``, read as PySolFC's rules."""
    if "relatives" in data:
        return list(data["relatives"])
    old = data.get("napoleon_modern")
    if not old:
        return []
    return [{**old, "relative": "PySolFC `NapoleonsSquare` (game 295)", "title": "PySolFC's modern rules",
             "beyond": [], "against": old["game"]}]


def _player(data: dict[str, Any]) -> str:
    """Who plays: the strong player when the table names its method, else the depth-first solver."""
    return "A strong player" if data["budget"].get("method") else "Our solver"


def _form_name(row: dict[str, Any]) -> str:
    return ", ".join(row["variants"]) if row["variants"] else "base"


def _seeds(data: dict[str, Any], n: int) -> str:
    return f"{data['seed']}–{data['seed'] + n - 1}"


def _cards(h: dict[str, Any] | None) -> str:
    if not h or not h.get("deals"):
        return "–"
    return f"{h['difference']:+.1f} ({h['ci'][0]:+.1f} to {h['ci'][1]:+.1f})"


def _excludes_zero(h: dict[str, Any] | None) -> bool:
    return bool(h and h.get("deals") and (h["ci"][0] > 0 or h["ci"][1] < 0))


def _moves(x: float | None) -> str:
    return "–" if x is None else f"{x:.0f}"


def _verdict(p: dict[str, Any]) -> str:
    lo, hi = p["ci"]
    if p["both"] + p["reading_only"] + p["default_only"] == 0:
        return "no win either way"
    if lo > 0:
        return f"**raises** it by {100 * p['difference']:.1f} points"
    if hi < 0:
        return f"**lowers** it by {-100 * p['difference']:.1f} points"
    return "no difference shown"


PAGE_COMMAND = "replay stats --page data/stats/results.json --out docs/stats.md"


def ladder_text(budget: dict[str, Any]) -> str:
    """The table's budgets in words: the ladder, the rulings' ceiling and the top rung."""
    ladder = budget["ladder"]
    steps = ", then ".join(f"{b:,}" for b in ladder)
    out = f"{steps} positions"
    if budget.get("ruling_ceiling") and budget["ruling_ceiling"] < ladder[-1]:
        out += f" (the ruling readings' rows up to {budget['ruling_ceiling']:,})"
    if budget.get("top") and budget.get("top_deals"):
        who = (", ".join(f"`{f}`" for f in budget["top_forms"]) + "'s" if budget.get("top_forms") else "each form's")
        out += f", and {budget['top']:,} on {who} first {budget['top_deals']:,} deals, those of them still open"
    return out


def top_forms_text(top: dict[str, Any]) -> str:
    """A re-run's top rung in words: the budget, the deals and the forms that climbed to it."""
    forms = top.get("top_forms")
    who = ", ".join(f"`{f}`" for f in forms) if forms else "each of its forms"
    return (f"{who} went on to {top['top']:,} positions on its first {top['top_deals']:,} deals, those of them "
            "still open (a deal settled there counts as settled in its row: a won line or a proof holds at any "
            "budget; a deal still open counts as it stood at the row's budget)")


def probe_text(budget: dict[str, Any]) -> str:
    """The probe in words, or nothing."""
    n = budget.get("probe")
    if not n:
        return ""
    start = budget.get("probe_from")
    which = f"Each budget from {start:,} up" if start else "Each budget above the first"
    return (f"{which} is tried first on a row's first {n:,} open deals; a row whose probe it "
            "settles none of stops there (*probed*; a form sent past the ladder plays the probe's deals on at "
            "the top budget), and the probe is shown in the curves as a point of its own, "
            "so the largest budgets go only where they settle deals. ")


def deals_text(data: dict[str, Any]) -> str:
    """How many deals each game and variant plays, in words."""
    more = data.get("deals_for") or {}
    out = f"{data['deals']:,} deals for each game and variant and for each relative's rules"
    if more:
        out += " (" + ", ".join(f"{GAME_TITLES.get(g, g)}: {n:,}" for g, n in sorted(more.items())) + ")"
    return out


def portfolio_text() -> str:
    """How the portfolio shares a deal's budget, from the solver and the games' own declarations."""
    from replay.games.catalog import catalog
    from replay.solver.nested import PORTFOLIO_DFS_SHARE

    own = [f"{gid} (`{share.__name__ if callable(share) else share}`)" for gid, mod in catalog().items()
           if (share := getattr(mod, "SEARCH", {}).get("portfolio_dfs_share")) is not None]
    return (f"The portfolio is a depth-first search, which proves losses, with {PORTFOLIO_DFS_SHARE:.0%} of a "
            "deal's budget, then a nested Monte-Carlo search made to find wins with the rest; a game may declare "
            "another share where it was measured to settle more deals"
            + (f": {', '.join(own)}, whose docstring gives the measurement." if own else "."))


def render(data: dict[str, Any], extras: list[dict[str, Any]] | None = None, command: str = PAGE_COMMAND) -> str:
    budget = data["budget"]
    forms = data["forms"]
    extras = extras or []
    L: list[str] = []
    w = L.append
    w("# How often do the games come out?")
    w("")
    w(_opening(data, extras))
    w("")
    w(_in_short(data, extras))
    w("")
    w("## How it is measured")
    w("")
    method = budget.get("method")
    w(f"* **Deals.** Seeds {data['seed']}, {data['seed'] + 1}, … through `game.deck_from_seed(seed)` (a "
      f"documented SplitMix64 shuffle of two packs): {deals_text(data)}, {data['ruling_deals']:,} for each ruling "
      f"reading. A ruling reading and a relative's "
      "rules are played on the same seeds as the default, so the difference is paired.")
    w(f"* **Solver.** " + (f"The search `{method}`" if method else "A depth-first search") + " on the engine's own "
      "legal-move list. It reports *won* (with the winning line, replayed through the engine), *unwinnable* "
      "(proved lost: the search was exhaustive, nothing was cut by the budget and only provably sound "
      "reductions were used, or a proof of loss settled it) or *unknown* (the budget ran out). The deals won are "
      "therefore a lower bound, and the deals won or unknown an upper bound, of the deals that can be won. "
      "Every game is searched by the solver's fast core (the search in C, held by the tests to the Python "
      "search's results)." + (" " + portfolio_text() if method == "portfolio" else ""))
    w(f"* **Budgets that follow the search.** Each deal is played at {ladder_text(budget)} per deal: a deal "
      "neither won nor proved lost is played again from the start at the next budget, until it settles or "
      "the last budget is reached, so easy deals cost little and the search goes where it is needed. "
      + (f"A row whose deals a budget settles none of, and brings on average fewer than "
         f"{budget['steady_cards']:g} more cards home, stops climbing (*steady*). " if budget.get("steady_cards")
         else "")
      + probe_text(budget)
      + "A position budget makes every figure reproducible on any machine.")
    w("* **Greedy player.** A deterministic baseline: it plays a card to a foundation when it can, makes the "
      "moves the rules impose (fill, tuck), then a move that empties a pile, takes a card off the talon or "
      "frees a card for a foundation, and otherwise deals (then gathers); it never repeats a position.")
    w("* **Intervals.** Rates carry 95% Wilson score intervals. *The true rate lies in* adds the sampling error "
      "to what the budget leaves open: from the lower 95% Wilson bound of the deals *won* to the upper 95% Wilson "
      "bound of the deals *won or unknown*. Differences between a reading and the default are paired (same "
      "deals, at the same budget) and carry Newcombe's hybrid score interval for paired proportions (Newcombe "
      "1998, method 10). A difference is *shown* when its interval excludes zero.")
    w("")
    w("## Every game and variant (default readings)")
    w("")
    w("| Game | Form | Deals | Won | Proved lost | True rate lies in | Budget reached | Cards home of 104 |")
    w("|---|---|--:|--:|--:|--:|--:|--:|")
    for r in forms:
        s = r["solver"]
        w(f"| {GAME_TITLES.get(r['game'], r['game'])} | {_form_name(r)} | {r['deals']:,} | {_pct(s['win_rate'])} | "
          f"{_pct(s['unwinnable_share'])} | {_rate_range(s, r['deals'])} | {_reached(r)} | "
          + (f"{s['mean_home']:.1f} |" if "mean_home" in s else "– |"))
    w("")
    w("*Won*: the share of the deals the solver won. *Budget reached*: the largest budget per deal every open "
      "deal of the row was played at, and how the row ended: *settled* (every deal won or proved lost), *steady* "
      "(the last budget changed nothing), *probed* (the next budget, tried on the row's first open deals, settled "
      "none of them, so the rest were not played at it) or *still climbing* (more search would settle more). *Cards home*: the "
      "mean number of cards on the foundations (the eight bases included where the game lays them out first) in "
      "the best position the solver's search reached.")
    w("")
    w(_curves(data))
    w("")
    w('??? note "Details: proven unwinnable, unknown, the greedy player, moves and time"')
    w("")
    w("    | Game | Form | Deals | Solver won (95% CI) | Proven unwinnable | Unknown | "
      "Greedy won (95% CI) | Mean moves, solver wins / greedy | Cards home of 104, solver best / greedy | "
      "Solver CPU s/deal |")
    w("    |---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in forms:
        s, g = r["solver"], r.get("greedy")
        w(f"    | {GAME_TITLES.get(r['game'], r['game'])} | {_form_name(r)} | {r['deals']:,} | "
          f"{_pct(s['win_rate'])} ({_ci(s['win_ci'])}) | {_pct(s['unwinnable_share'])} | "
          f"{_pct(s['unknown_share'])} | "
          + (f"{_pct(g['win_rate'])} ({_ci(g['win_ci'])}) | " if g else "– | ")
          + f"{_moves(s['mean_moves_won'])} / {_moves(g['mean_moves']) if g else '–'} | {_home(s, g)} | "
            f"{r.get('cpu_seconds', s['seconds']) / max(r['deals'], 1):.2f} |")
    w("")
    w("    *Cards home*: for the solver, the most in any position its search reached; for the greedy player, "
      "where its game ended.")
    w("")
    never = [r for r in forms if r["solver"]["won"] == 0 and "mean_home" in r["solver"]]
    if never:
        w("### How far play gets where no deal came out")
        w("")
        w("Where neither player won a deal, the cards brought home show how far from a win play stops:")
        w("")
        for r in never:
            s, g = r["solver"], r.get("greedy") or {}
            w(f"* {GAME_TITLES.get(r['game'], r['game']).split(' (')[0]}, {_form_name(r)}: the solver's best "
              f"position holds {s['mean_home']:.1f} cards on average (at most {s['max_home']}) and the greedy "
              + (f"player ends with {g['mean_home']:.1f} (at most {g['max_home']})" if "mean_home" in g
                 else "player was not measured") + " of 104.")
        w("")
        if any(r["game"] in ("printex-frame", "zwarta-kolumna") for r in never):
            w("A deal of the two Polish games is won only when nearly every one of the 104 cards can be "
              "reached within the three layings-out, and the rules restrict which foundation a card may go to "
              "(its row, or a corner) and allow little building on the table (none in the base game of text 000, "
              "none before the whole deck is dealt in text 001). The won logs "
              "under `examples/` show that won games exist, but they are rare among random deals. That neither "
              "player wins here is a measurement of these rules as our texts state them, bounded by the "
              "budget: the true rate lies in the interval shown.")
        w("")
    w(_relatives(data))
    w("")
    w(_rulings(data))
    w("")
    w(_napoleon(data, [x for x in extras if x["form"]["game"] == "napoleons-square"]))
    w("")
    if extras:
        w("## Other measurements")
        w("")
        w("Single rows measured apart from the table (each by the command shown), for example with another budget.")
        w("")
        w("| Form | Deals (seeds) | Budget | Solver won (95% CI) | Proven unwinnable | Unknown | Greedy won | "
          "Cards home, solver best / greedy | Made by |")
        w("|---|--:|--:|--:|--:|--:|--:|--:|---|")
        for x in extras:
            s, g = x["solver"], x.get("greedy")
            w(f"| {x['label']} | {x['deals']:,} ({x['seeds'][0]}–{x['seeds'][1]}) | {_budget_text(x['budget'])} | "
              f"{_pct(s['win_rate'])} ({_ci(s['win_ci'])}) | {_pct(s['unwinnable_share'])} | "
              f"{_pct(s['unknown_share'])} | {_pct(g['win_rate']) if g else '–'} | {_home(s, g)} | "
              f"`{x['command']}`, version `{x['version']}`, {x['date']} |")
        w("")
    w("## Reading the figures")
    w("")
    w("* *Unknown* is not *lost*. Where the unknown share is large, the solver's rate is only a floor; the "
      "games with three passes through the deck (printex-frame, zwarta-kolumna) have search trees far beyond "
      "a per-deal budget of this size, so their deals are rarely settled either way.")
    w("* The figures hold for this engine's reading of each text: every default is the register's choice "
      "(see the ambiguity register), and the rows above show what the other readings would change.")
    by_game: dict[str, list[str]] = {}
    for r in forms:
        if "reductions" in r:
            by_game.setdefault(r["game"], list(r["reductions"]))
    if by_game:
        listed = "; ".join(f"{GAME_TITLES.get(g, g).split(' (')[0]}: {', '.join(n) if n else 'none'}"
                           for g, n in by_game.items())
        w("* The solver's sound reductions, besides searching each repeated position once (each game module "
          f"declares what its rules make sound, in its `SEARCH` data): {listed}. Nothing else is pruned, so "
          "*unwinnable* is a proof for these rules.")
    w("")
    w(_made(data, extras, command))
    return "\n".join(L) + "\n"


def _reached(r: dict[str, Any]) -> str:
    """The row's budget (every open deal played at it) and how it ended."""
    b = r.get("budget", {}).get("nodes")
    text = f"{sup(b)}" if b else "–"
    st = row_state(r)
    probe = next((p for p in r.get("curve") or [] if p.get("probe")), None)
    if probe is not None:
        onward = "".join(f"; its first {p['deals']:,} at {sup(p['budget'])}: {_settled_of(p)}, {p['mean_home']:.1f} "
                         "cards home" for p in r["curve"] if p["budget"] > probe["budget"])
        return f"{text} (probed at {sup(probe['budget'])}: none of {probe['deals']:,} settled{onward})"
    return f"{text} ({'**still climbing**' if st == 'still climbing' else st})"


def _settled_of(p: dict[str, Any]) -> str:
    """A curve point's settled deals in words: "none settled", or how many were won and proved lost."""
    if not p["won"] and not p["unwinnable"]:
        return "none settled"
    return f"{p['won']} won, {p['unwinnable']} proved lost"


def _curves(data: dict[str, Any]) -> str:
    """The section with each form's curve: the figure (put in by the site's build) and its table."""
    rows = [r for r in figure_rows(data) if r.get("curve")]
    if not rows:
        return ""
    out = [f"## How the figures move with the budget {{#{BUDGETS_ANCHOR}}}", "",
           "Per form, at each budget of the ladder: the deals won, those proved lost and those still open, and the "
           "mean cards home. The band in the figure is what the budget leaves open (the true rate lies in it, "
           "before sampling error): a form is settled where it is thin. The table under the figure gives the same "
           "figures.", "", FIGURE, "",
           '??? note "The curves in figures: every form at every budget"', "",
           "    | Form | Budget | Deals | Won | Proved lost | Unknown | Cards home of 104 | CPU s |",
           "    |---|--:|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        for p in r["curve"]:
            n = max(p["deals"], 1)
            deals = f"{p['deals']:,}" + (" (the probe: the first open)" if p.get("probe") else
                                         " (the first)" if p.get("subset") else "")
            out.append(f"    | {form_title(r)} | {sup(p['budget'])} | {deals} | {p['won']} ({100 * p['won'] / n:.1f}%) | "
                       f"{p['unwinnable']} ({100 * p['unwinnable'] / n:.1f}%) | {p['unknown']} | "
                       f"{p['mean_home']:.1f} | {p['cpu']:,.0f} |")
    return "\n".join(out)


def _best(r: dict[str, Any], data: dict[str, Any], extras: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The row of this form, from the table or a row measured apart, that pins its true rate the closest
    (with its budget)."""
    cands = [(r, r["budget"])] + [(x, x["budget"]) for x in extras if x["label"] == r["label"]]

    def width(c: tuple[dict[str, Any], dict[str, Any]]) -> float:
        lo, hi = true_rate(c[0]["solver"], c[0]["deals"])
        return hi - lo

    return min(cands, key=lambda c: (width(c), -c[0]["deals"]))


def _opening(data: dict[str, Any], extras: list[dict[str, Any]]) -> str:
    """One plain sentence per game: how many deals in 100 come out, as our text reads it and under each
    relative's rules the table played (from the row that pins it closest, :func:`_best`)."""
    who = _player(data)

    def rate(r: dict[str, Any]) -> str:
        b = _best(r, data, extras)[0]
        return in_100(b["solver"], b["deals"])

    by_game: dict[str, list[dict[str, Any]]] = {}
    for x in relative_rows(data):
        by_game.setdefault(x["game"], []).append(x)
    out = ["How often does each patience come out? No book says for these texts, so this page measures it on "
           "seeded random deals, for every game, variant and reading of an ambiguous sentence. In short:", ""]
    for r in data["forms"]:
        if r["variants"]:
            continue
        name = GAME_TITLES.get(r["game"], r["game"]).split(" (")[0]
        best = _best(r, data, extras)[0]
        ours = in_100(best["solver"], best["deals"])
        if best["deals"] and best["solver"]["won"] == 0 and best["solver"]["unknown"] == 0:
            hi = true_rate(best["solver"], best["deals"])[1]
            text = (f"* **{name}.** No deal comes out as our text reads it: each of the {best['deals']:,} measured is "
                    f"proved lost (the true rate is at most {_at_most_in_100(hi)} in 100)")
        elif ours == "at least 0 and at most 100":
            text = (f"* **{name}.** Not known yet: within its budget {who[0].lower() + who[1:]} neither won nor "
                    "proved lost enough deals to say how many in 100 come out as our text reads it")
        else:
            text = f"* **{name}.** {who} wins {ours} deals in 100 as our text reads it"
        for x in by_game.get(r["game"], []):
            if not x["variants"] and not x["rulings"]:
                text += f" (which are {x['title']} as far as our readings reach)"
            else:
                theirs = rate(x)
                text += (f"; under {x['title']}, {theirs}" if theirs != "at least 0 and at most 100"
                         else f"; under {x['title']}, not known either")
        out.append(text + ".")
    out += ["", "Where the words are \"at least … at most\", the solver could not settle enough deals within its "
            "budget to say more; both bounds allow for the chance of the sample (95%)."]
    return "\n".join(out)


def _relatives(data: dict[str, Any]) -> str:
    rows = relative_rows(data)
    if not rows:
        return ""
    out = [f"## Under the rules of published relatives {{#{RELATIVES_ANCHOR}}}", "",
           "Each published relative whose rules our readings can play (its `plays_as` in `corpus/games/`, argued "
           "from its differences and the ambiguity register), on the same deals as the game as our text reads it "
           "(paired). Where its rules go beyond our readings, the form plays our text there (listed below the "
           "table).", "",
           "| Game | Rules | Form | Deals | Won | True rate lies in | Our text on the same deals | Difference (95% CI) |",
           "|---|---|---|--:|--:|--:|--:|--:|"]
    for x in rows:
        s, p = x["solver"], x.get("paired_solver")
        form = ", ".join([*x["variants"], *(f"`{k} = {v}`" for k, v in x["rulings"].items())]) or "our defaults"
        ours = (f"{_pct((p['both'] + p['default_only']) / p['deals'])}" if p and p["deals"] else "–")
        diff = f"{_pts(p['difference'])} ({_pts(p['ci'][0])} to {_pts(p['ci'][1])})" if p else "–"
        out.append(f"| {GAME_TITLES.get(x['game'], x['game']).split(' (')[0]} | {x['relative']} | "
                   f"{form} | {x['deals']:,} | {_pct(s['win_rate'])} | {_rate_range(s, x['deals'])} | {ours} | "
                   f"{diff} |")
    out.append("")
    for x in rows:
        for b in x.get("beyond", []):
            out.append(f"* {x['title']} ({GAME_TITLES.get(x['game'], x['game']).split(' (')[0]}), beyond our "
                       f"readings: {b}")
    return "\n".join(out).rstrip("\n")


def _made(data: dict[str, Any], extras: list[dict[str, Any]], command: str) -> str:
    """The generation notice and the commands, at the end of the page."""
    out = ["## How this page is made", ""]
    w = out.append
    w("> **Generated page.** Do not edit by hand: it is written from the committed data files under "
      "`data/stats/` by")
    w(">")
    w("> ```")
    w(f"> {command}")
    w("> ```")
    w(">")
    sessions = data.get("sessions") or []
    procs = f"{data['workers']} worker process" + ("es" if data["workers"] != 1 else "")
    w(f"> The data were made by `{data['command']}` with code version `{data['version']}`"
      + (f" (commit `{data['commit'][:12]}`)" if data.get("commit") else "")
      + f", begun on {data['date']}, Python {data['python']}, {procs} on "
        f"{(data.get('machine') or {}).get('cpus', '?')} CPUs: {data.get('cpu_seconds', 0) / 3600:.1f} CPU-hours of search in "
        f"{data['wall_seconds'] / 3600:.1f} hours of wall-clock time"
      + (f" over {len(sessions)} sessions (the run was resumed from its journal)" if len(sessions) > 1 else "")
      + ("." if data.get("complete", True) else "; the run was not finished: rows still climbing stop where "
         "the journal stood."))
    reruns = data.get("reruns", [])
    for i, rr in enumerate(reruns):
        later = {g for r in reruns[i + 1:] for g in r["games"]}
        w(">")
        w(f"> The rows of {', '.join(rr['games'])} were measured again by `{rr['command']}` with code version "
          f"`{rr['version']}`" + (f" (commit `{rr['commit'][:12]}`)" if rr.get("commit") else "")
          + f" on {rr['date']}, in {rr['wall_seconds'] / 3600:.1f} hours, and merged into the data file"
          + (f"; {top_forms_text(rr['top'])}" if rr.get("top") else "")
          + ("; a later re-run (below) has replaced those rows since" if set(rr["games"]) <= later else "") + ".")
    versions = [data["version"]] + [rr["version"] for rr in reruns] + [x["version"] for x in extras]
    if any(str(v).endswith("-dirty") for v in versions):
        w(">")
        w("> A version ending in `-dirty` was recorded while the working tree held uncommitted changes on top "
          "of that commit. Every figure here is reproducible: the position budget makes the search deterministic, "
          "so the command shown, run again, gives the same figures.")
    return "\n".join(out)


def _rulings(data: dict[str, Any]) -> str:
    rulings = data["rulings"]
    L: list[str] = []
    w = L.append
    w(f"## What each ruling changes {{#{RULINGS_ANCHOR}}}")
    w("")
    w(f"Each reading other than the default, on seeds {_seeds(data, data['ruling_deals'])}, against the "
      "default on the same seeds (with the variant named when the ruling applies only to it). Difference = "
      "reading minus default, in percentage points. Each entry of the ambiguity register whose readings play "
      "differently shows its figures beside its wording.")
    w("")
    shown = [r for r in rulings if r["paired_solver"]["ci"][0] > 0 or r["paired_solver"]["ci"][1] < 0]
    w("### Rulings that change the win rate")
    w("")
    if shown:
        for r in shown:
            p = r["paired_solver"]
            w(f"* **{GAME_TITLES.get(r['game'], r['game']).split(' (')[0]}, `{r['ruling']}` = `{r['reading']}`** "
              f"({_form_name(r)}): {_verdict(p)} against `{r['default']}` — the solver wins "
              f"{_pct(r['solver']['win_rate'])} of the deals instead of {_pct(r['default_row']['solver']['win_rate'])} "
              f"(difference {_pts(p['difference'])} points, 95% CI {_pts(p['ci'][0])} to {_pts(p['ci'][1])}; "
              f"{p['reading_only']} deals won only under the reading, {p['default_only']} only under the default).")
    else:
        w("* No ruling reading shows a difference in the solver's win rate at this budget.")
    settled = []
    for r in rulings:
        n = r["deals"]
        x_reading = r["solver"]["results"].count("X")
        x_default = r["default_row"]["solver"]["results"][:n].count("X")
        if n and abs(x_reading - x_default) >= max(5, 0.05 * n):
            settled.append((r, x_reading / n, x_default / n))
    if settled:
        w("")
        w("Some readings change how many deals the solver can *prove* lost within the budget, a sign of how "
          "much they constrain play even where the win rate does not move:")
        w("")
        for r, a, b in settled:
            w(f"* {GAME_TITLES.get(r['game'], r['game']).split(' (')[0]}, `{r['ruling']}` = `{r['reading']}` "
              f"({_form_name(r)}): {_pct(a)} of the deals proven unwinnable, against {_pct(b)} under "
              f"`{r['default']}`.")
    farther = [r for r in rulings if r not in shown and any(_excludes_zero(r.get(k))
                                                            for k in ("paired_home_solver", "paired_home_greedy"))]
    if farther:
        w("")
        w("Where the win rate does not move (mostly because neither reading is won within the budget), a reading "
          "may still change how far play gets: the mean number of cards brought home on the same deals "
          "(reading minus default, 95% interval; shown where the interval excludes zero):")
        w("")
        for r in farther:
            parts = []
            for key, who in (("paired_home_solver", "the solver's best position"),
                             ("paired_home_greedy", "the greedy player")):
                h = r.get(key)
                if _excludes_zero(h):
                    verb = "more" if h["difference"] > 0 else "fewer"
                    parts.append(f"{who} brings {abs(h['difference']):.1f} cards {verb} home "
                                 f"({h['ci'][0]:+.1f} to {h['ci'][1]:+.1f})")
            w(f"* {GAME_TITLES.get(r['game'], r['game']).split(' (')[0]}, `{r['ruling']}` = `{r['reading']}` "
              f"({_form_name(r)}) against `{r['default']}`: " + "; ".join(parts) + ".")
    quiet = [r for r in rulings if r not in shown and r not in farther]
    if quiet:
        w("")
        w("For the other readings no difference is shown at this budget: either both readings are (nearly) "
          "never won within the budget, or the interval includes zero. A reading that changes the *unknown* share changes how "
          "hard the deals are to search even where the win rate stays at zero.")
    w("")
    w('??? note "Every ruling reading against its default: the whole table"')
    w("")
    w("    | Game | Ruling | Reading (default) | Form | Solver won: reading / default | Difference (95% CI) | "
      "Unknown: reading / default | Greedy won: reading / default | Greedy difference (95% CI) | "
      "Cards home, reading − default: solver best / greedy (95% CI) |")
    w("    |---|---|---|---|--:|--:|--:|--:|--:|--:|")
    for r in rulings:
        s, d, p = r["solver"], r["default_row"]["solver"], r["paired_solver"]
        n = r["deals"]
        unk_d = d["unknown"] / n if n else 0
        g, gd, gp = r.get("greedy"), r["default_row"].get("greedy"), r.get("paired_greedy")
        w(f"    | {GAME_TITLES.get(r['game'], r['game']).split(' (')[0]} | `{r['ruling']}` | `{r['reading']}` "
          f"(`{r['default']}`) | {_form_name(r)} | {_pct(s['win_rate'])} / {_pct(d['win_rate'])} | "
          f"{_pts(p['difference'])} ({_pts(p['ci'][0])} to {_pts(p['ci'][1])}) | "
          f"{_pct(s['unknown_share'])} / {_pct(unk_d)} | "
          + (f"{_pct(g['win_rate'])} / {_pct(gd['win_rate'])} | {_pts(gp['difference'])} "
             f"({_pts(gp['ci'][0])} to {_pts(gp['ci'][1])}) |" if g and gd and gp else "– | – |")
          + f" {_cards(r.get('paired_home_solver'))} / {_cards(r.get('paired_home_greedy'))} |")
    return "\n".join(L)


#: a form is answered when the true rate is pinned to an interval this wide at most
ANSWERED = 0.10


def _budget_text(b: dict[str, Any]) -> str:
    return " and ".join(([f"{b['nodes']:,} nodes"] if b.get("nodes") else []) + ([f"{b['seconds']:g} s"] if b.get("seconds") else []))


def _in_short(data: dict[str, Any], extras: list[dict[str, Any]]) -> str:
    """Per form, the narrowest interval the page holds for its true win rate (:func:`true_rate`), from the
    table or from a row measured with a larger budget, and whether that answers the question."""
    labels = {r["label"] for r in data["forms"]}
    rows = list(data["forms"]) + [x for x in relative_rows(data) if x["label"] not in labels]
    out = ["## In short", ""]
    out.append("For each game and variant (and each published relative's rules the table plays), the narrowest "
               "interval this page holds for the true win rate: from the lower 95% Wilson bound of the deals the "
               "solver won to the upper 95% Wilson bound of those plus the deals it could not decide within its "
               "budget. A form is *answered* when that interval is at most "
               f"{100 * ANSWERED:.0f} points wide.")
    out.append("")
    out.append("| Form | True rate lies in | Width | Deals | Budget reached | Answered |")
    out.append("|---|--:|--:|--:|--:|---|")
    answered = 0
    for r in rows:
        best, budget = _best(r, data, extras)
        lo, hi = true_rate(best["solver"], best["deals"])
        ok = hi - lo <= ANSWERED + 1e-9
        answered += ok
        name = r["label"] + (f" ({r['title']})" if "title" in r else "")
        reach = _reached(best) if best is r and "curve" in r else _budget_text(budget)
        out.append(f"| {name} | {_pct(lo)}–{_pct(hi)} | {100 * (hi - lo):.1f} "
                   f"points | {best['deals']:,} | {reach} | {'yes' if ok else 'no'} |")
    out.append("")
    out.append(f"{answered} of {len(rows)} forms {'is' if answered == 1 else 'are'} answered. Where a form is not, "
               "either the solver neither finds a win nor proves the deal lost within the budget for most deals, or "
               "the deals are too few for the sampling error to be small (200 deals leave some 7 points either "
               "side of a rate near one half). The solver's benchmarks (`benchmarks/README.md`) measure how far "
               "each form is and why.")
    return "\n".join(out)


def _napoleon(data: dict[str, Any], extras: list[dict[str, Any]] | None = None) -> str:
    base = next((r for r in data["forms"] if r["game"] == "napoleons-square" and not r["variants"]), None)
    if base is None:
        return ""
    rows = {(r["ruling"], r["reading"]): r for r in data["rulings"] if r["game"] == "napoleons-square"}
    s, g = base["solver"], base.get("greedy")
    out = ["## Napoleon's Square and the printed “9 in 10”", ""]
    out.append("Napoleon's Square is reported in print to come out about 9 times in 10 (the odds in the "
               "infobox of [Wikipedia's article on the game](https://en.wikipedia.org/wiki/Napoleon%27s_Square), "
               "citing a printed source, for the modern rules that article and "
               "[PySolFC's rules page](http://pysolfc.sourceforge.net/doc/rules/napoleonssquare.html) describe). "
               "Under the rules of our text the "
               f"solver wins {_pct(s['win_rate'])} of {base['deals']:,} deals (95% CI {_ci(s['win_ci'])}), "
               f"proves {_pct(s['unwinnable_share'])} unwinnable and leaves {_pct(s['unknown_share'])} unknown"
               + (f"; the greedy player wins {_pct(g['win_rate'])}" if g else "") + ".")
    out.append("")
    out.append("The difference comes from the rules, not the deals:")
    out.append("")
    out.append("* **Spaces.** Our text's rule II fills a space only with a card of the talon or the pack "
               "(`space-fill = talon-or-pack`); the modern game fills a space with any available card or "
               "sequence, which is the main resource for untangling the square.")
    out.append("* **One card at a time.** Rule I makes only the top cards available (`sequence-moves = "
               "single-card`); the modern game moves whole descending sequences in suit.")
    out.append("* **The pack.** The Russian text breaks off before the play of the pack; we follow Cadogan's "
               "English: one card at a time onto a single talon, no re-deal.")
    out.append("")
    liberal = [(k, rows[k]) for k in (("space-fill", "any-card"), ("sequence-moves", "whole-sequence"),
                                      ("marriage-suit", "any-suit"), ("talon-to-square", "forbidden"))
               if k in rows]
    if liberal:
        out.append("Each reading alone, on the same deals (solver):")
        out.append("")
        out.append("| Reading | Solver won | Default on the same deals | Difference (95% CI) | Unknown |")
        out.append("|---|--:|--:|--:|--:|")
        for (ruling, reading), r in liberal:
            p = r["paired_solver"]
            out.append(f"| `{ruling} = {reading}` | {_pct(r['solver']['win_rate'])} | "
                       f"{_pct(r['default_row']['solver']['win_rate'])} | {_pts(p['difference'])} "
                       f"({_pts(p['ci'][0])} to {_pts(p['ci'][1])}) | {_pct(r['solver']['unknown_share'])} |")
        out.append("")
    combos = [x for x in relative_rows(data) if x["game"] == "napoleons-square" and x["rulings"]]
    for combo in combos:
        cs = combo["solver"]
        out.append(f"Under {combo['title']} ({', '.join(f'`{k} = {v}`' for k, v in combo['rulings'].items())}) "
                   f"the solver wins {_pct(cs['win_rate'])} of {combo['deals']:,} deals (95% CI {_ci(cs['win_ci'])}; "
                   f"unknown {_pct(cs['unknown_share'])}; the true rate lies in {_rate_range(cs, combo['deals'])}).")
        out.append("")
    for x in extras or []:
        xs = x["solver"]
        table_nodes = base["budget"].get("nodes")
        out.append(f"With a larger budget ({x['budget']['nodes']:,} nodes"
                   + (f" instead of {table_nodes:,}" if table_nodes else "") + f"), `{x['label']}` on "
                   f"{x['deals']:,} deals (seeds {x['seeds'][0]}–{x['seeds'][1]}): "
                   f"the solver wins {_pct(xs['win_rate'])} (95% CI {_ci(xs['win_ci'])}), unknown "
                   f"{_pct(xs['unknown_share'])}, proven unwinnable {_pct(xs['unwinnable_share'])}.")
        out.append("")
    measured = [base, *(r for _, r in liberal)] + combos + list(extras or [])
    best = max(true_rate(r["solver"], r["deals"])[1] for r in measured)
    top = max(r["solver"]["win_rate"] for r in measured)
    text = "So the printed figure describes a more generous game than the one our text states."
    if top < 0.9:
        bound = (f", so no row's true rate exceeds {_pct(best)}" if best < 0.995 else "")
        text += (f" Even the most generous row here wins {_pct(top)} of its deals, and its rate still climbs with "
                 "the budget: the solver's rate is a lower bound (its unknown deals may still come out"
                 f"{bound}), and the printed odds are an estimate for a skilled player under the modern rules, "
                 "not a measurement of this text.")
    else:
        text += f" Under the generous readings the solver reaches {_pct(top)}, in line with the printed figure."
    out.append(text)
    return "\n".join(out)


# ----------------------------------------------------------------------------- forms and their curves (the figure's too)


def figure_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The forms the figure draws: every game and variant, then each relative's rules not already a form."""
    labels = {r["label"] for r in data["forms"]}
    return [*data["forms"], *(x for x in relative_rows(data) if x["label"] not in labels)]


def sup(n: int) -> str:
    """10⁵ for 100000; other budgets in full (100,000 positions, 30)."""
    import math

    e = round(math.log10(n))
    if 10 ** e == n:
        return "10" + str(e).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
    return f"{n:,}"



def form_title(row: dict[str, Any]) -> str:
    """How the figure and its table name a form."""
    name = GAME_TITLES.get(row["game"], row["game"]).split(" (")[0]
    if "title" in row:
        return f"{name}: {row['title']}"
    return f"{name}, {', '.join(row['variants'])}" if row["variants"] else name



def row_state(row: dict[str, Any]) -> str:
    """settled (every deal won or proved lost), steady, still climbing, or at the ceiling.  Read from the
    curve's points over every deal of the row: the top rung's subset (its first deals only) says where those
    deals go, not whether the row is settled."""
    c = [p for p in row.get("curve") or [] if not p.get("subset")]
    if c and c[-1]["unknown"] == 0:
        return "settled"
    if any(p.get("probe") for p in row.get("curve") or []):  # the next budget, tried on a few open deals, settled none
        return "probed: none settled"
    if row.get("stopped") == "steady":
        return "steady"
    if len(c) >= 2:
        a, b = c[-2], c[-1]
        moved = (b["won"] / max(b["deals"], 1) - a["won"] / max(a["deals"], 1) > 0.01 or
                 b["unwinnable"] / max(b["deals"], 1) - a["unwinnable"] / max(a["deals"], 1) > 0.01 or
                 (b["mean_home"] or 0) - (a["mean_home"] or 0) >= 1.0)
        return "still climbing" if moved else "steady"
    return "one budget"




# ----------------------------------------------------------------------------- playability, for the register


def playability(data: dict[str, Any], game: str, ruling: str) -> dict[str, Any] | None:
    """How each reading of a ruling played in the table: None when the table has no row of it, or when its
    readings play alike (the same deals won and proved lost, and no paired difference shown).

    ``{"game", "ruling", "variants", "deals", "seeds", "budget", "readings": [{"reading", "default", "won",
    "unwinnable", "unknown"}, …] (the default first), "differences": [{"reading", "difference", "ci"}, …]}``
    """
    rows = [r for r in data.get("rulings", []) if r["game"] == game and r["ruling"] == ruling]
    if not rows:
        return None
    n = rows[0]["deals"]
    base = rows[0]["default_row"]["solver"]["results"][:n]

    def counts(results: str) -> dict[str, int]:
        return {"won": results.count("W"), "unwinnable": results.count("X"), "unknown": results.count("?")}

    readings = [{"reading": rows[0]["default"], "default": True, **counts(base)}]
    readings += [{"reading": r["reading"], "default": False, **counts(r["solver"]["results"])} for r in rows]
    shown = [r for r in rows if r["paired_solver"]["ci"][0] > 0 or r["paired_solver"]["ci"][1] < 0]
    alike = len({x["won"] for x in readings}) == 1 and len({x["unwinnable"] for x in readings}) == 1
    if alike and not shown:
        return None
    seeds = rows[0].get("seeds") or [data["seed"], data["seed"] + n - 1]
    return {"game": game, "ruling": ruling, "variants": list(rows[0]["variants"]), "deals": n, "seeds": seeds,
            "budget": rows[0]["budget"], "readings": readings,
            "differences": [{"reading": r["reading"], "difference": r["paired_solver"]["difference"],
                             "ci": r["paired_solver"]["ci"]} for r in shown]}


def playability_text(ev: dict[str, Any], stats_link: str | None = None) -> str:
    """The register's words for :func:`playability`: the deals won, proved lost and undecided under each reading."""
    n = ev["deals"]
    where = f"[the statistics]({stats_link})" if stats_link else "the statistics (`data/stats/results.json`)"
    scope = f" with the variant {', '.join(f'`{v}`' for v in ev['variants'])}" if ev["variants"] else ""
    lines = [f"**Measured in play** (from {where}): the same {n:,} deals of {ev['game']}{scope} (seeds "
             f"{ev['seeds'][0]}–{ev['seeds'][1]}), {_budget_text(ev['budget'])} per deal, under each reading:", ""]
    for x in ev["readings"]:
        mark = " (default)" if x["default"] else ""
        note = ""
        if n and x["unwinnable"] == n:
            note = f" — every deal of {n:,} is proved lost"
        elif n and x["won"] == n:
            note = f" — every deal of {n:,} comes out"
        lines.append(f"- `{ev['ruling']} = {x['reading']}`{mark}: won {x['won']}, proved lost {x['unwinnable']}, "
                     f"undecided {x['unknown']}{note}.")
    for dd in ev["differences"]:
        lines.append(f"- `{dd['reading']}` against the default, paired: {_pts(dd['difference'])} points of deals won "
                     f"(95% CI {_pts(dd['ci'][0])} to {_pts(dd['ci'][1])}).")
    return "\n".join(lines)
