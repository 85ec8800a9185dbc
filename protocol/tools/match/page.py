"""A match as one self-contained HTML page: ``stargtp match --report FILE``
and ``stargtp report RESULTS``.

The page holds the rating list, the pairings and the cross table, a plot of
the SPRT's log-likelihood ratio (or of the Elo estimate, or of the joint
ratings) over the games, the game lengths, how the games ended, and links to
the results file, the SGF records and each game. Everything is inline (CSS
and SVG; no script, no external file), so the page can be mailed or
archived on its own. It is made from the records alone, like the text
table (:mod:`stargtp.protocol.tools.match.report`).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from stargtp.protocol.pictures.svg import element, escape, points
from stargtp.protocol.ratings import NoRatingFit, fit_ratings
from stargtp.protocol.stats import Sprt, elo_estimate
from stargtp.protocol.tools.match.records import sgf_file_name
from stargtp.protocol.tools.match.report import (PairingSummary, _elo_text, _percent, cross_table, describe_match,
                                                 rating_list, summarise, tally_of)
from stargtp.protocol.tools.match.results import NotResultsError, ResultsError, read_results
from stargtp.protocol.tools.match.settings import MatchSettings, numbered

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
"""Line colours of the plots, one per series."""
MAX_PLOT_POINTS = 200
"""A trajectory is sampled at most this many times (the last game always)."""
PLOT_WIDTH, PLOT_HEIGHT = 640.0, 260.0
ELO_PLOT_LIMIT = 1000.0
"""Elo figures beyond this (infinite ones too) are drawn at the edge."""

_STYLE = """
body { font-family: DejaVu Sans, Verdana, sans-serif; margin: 2em; color: #222; max-width: 60em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th { background: #f0f0f0; } td.name, th.name { text-align: left; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
p.note { color: #555; font-size: 0.9em; }
"""


def html_page(records: list[dict[str, Any]], settings: MatchSettings, *, links: dict[str, str] | None = None,
              sgf_links: dict[str, str] | None = None) -> str:
    """The report page. ``links`` maps a label to a URL (the results and
    records files); ``sgf_links`` maps a game's key to its SGF file's URL."""
    summaries = summarise(records, settings)
    names = [engine.name for engine in settings.engines]
    title = (f"{names[0]} vs {names[1]}" if len(names) == 2
             else f"{settings.tournament.replace('-', ' ')} of {len(names)} engines")
    parts = [f"<h1>{escape(title)}</h1>", f"<p>{escape(describe_match(settings))}; {len(records)} games "
             f"played.</p>", _engines_table(settings)]
    if len(names) > 2:
        parts += ["<h2>Ratings</h2>", _ratings_table(summaries, settings)]
    parts += ["<h2>Pairings</h2>", _pairings_table(summaries)]
    if len(names) > 2:
        parts += ["<h2>Cross table</h2>", _cross_table(summaries, names)]
    parts += ["<h2>Over the games</h2>", trajectory_svg(records, settings),
              "<h2>Game lengths</h2>", lengths_svg(records),
              "<h2>How the games ended</h2>", _endings_table(records)]
    if links:
        parts += ["<h2>Records</h2>", "<ul>" + "".join(f'<li><a href="{escape(url)}">{escape(label)}</a></li>'
                                                    for label, url in links.items()) + "</ul>"]
    parts += ["<h2>Games</h2>", _games_table(records, sgf_links or {})]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")


# -- tables ----------------------------------------------------------------------------------


def _table(header: Sequence[str], rows: list[Sequence[str]], names: int = 1) -> str:
    """An HTML table; the first ``names`` columns are left-aligned names."""
    def cells(tag: str, row: Sequence[str]) -> str:
        return "".join(f'<{tag}{" class=name" if i < names else ""}>{escape(str(c))}</{tag}>'
                       for i, c in enumerate(row))

    return ("<table><tr>" + cells("th", header) + "</tr>"
            + "".join("<tr>" + cells("td", row) + "</tr>" for row in rows) + "</table>")


def _engines_table(settings: MatchSettings) -> str:
    return _table(["engine", "command"], [[e.name, e.spec.text] for e in settings.engines], names=2)


def _ratings_table(summaries: list[PairingSummary], settings: MatchSettings) -> str:
    try:
        ratings = rating_list(summaries, settings)
    except NoRatingFit as error:
        return f"<p>{escape(str(error))}</p>"
    rows = [[r.name, _elo_text(r.elo), f"[{_elo_text(r.low)}, {_elo_text(r.high)}]", str(r.games),
             f"{_percent(r.points / r.games if r.games else math.nan)}%",
             "" if r.los_next is None else f"{100 * r.los_next:.1f}%"] for r in ratings]
    prior = settings.rating_prior
    prior_text = f" with {prior:g} virtual draw{'' if prior == 1 else 's'} per pairing" if prior else ""
    return (_table(["engine", "Elo", "95%", "games", "score", "LOS"], rows)
            + f'<p class="note">Maximum likelihood over all games{escape(prior_text)}; Elo relative to the average; '
              "LOS: likelihood of superiority over the next engine.</p>")


def _pairings_table(summaries: list[PairingSummary]) -> str:
    rows = []
    for s in summaries:
        t = s.tally
        rows.append([f"{s.first} vs {s.second}", str(t.games), f"{t.wins}-{t.draws}-{t.losses}", f"{t.points:g}",
                     f"{_percent(s.win_rate.value)} [{_percent(s.win_rate.low)}, {_percent(s.win_rate.high)}]",
                     f"{_elo_text(s.elo.value)} [{_elo_text(s.elo.low)}, {_elo_text(s.elo.high)}]",
                     "-" if math.isnan(s.average_moves) else f"{s.average_moves:.1f}"])
    model = summaries[0].model if summaries else ""
    return (_table(["pairing", "games", "W-D-L", "score", "win rate % [95%]", "Elo [95%]", "moves"], rows)
            + f'<p class="note">From the first engine\'s side; Elo interval: {escape(model)} model.</p>')


def _cross_table(summaries: list[PairingSummary], names: list[str]) -> str:
    table = cross_table(summaries)
    rows = []
    for a in names:
        row = [a] + [("x" if a == b else f"{table[a][b][0]:g}/{table[a][b][1]}" if b in table.get(a, {}) else "")
                     for b in names]
        points_, games = sum(p for p, _ in table.get(a, {}).values()), sum(g for _, g in table.get(a, {}).values())
        rows.append(row + [f"{points_:g}/{games}"])
    return _table(["", *names, "total"], rows)


def _endings_table(records: list[dict[str, Any]]) -> str:
    reasons = Counter(r["reason"] for r in records)
    faults = Counter((r["fault"]["engine"], r["fault"]["kind"]) for r in records if r.get("fault"))
    rows = [[reason, str(count)] for reason, count in reasons.most_common()]
    text = _table(["reason", "games"], rows)
    if faults:
        text += _table(["engine", "fault", "games"], [[e, k, str(c)] for (e, k), c in faults.most_common()], names=2)
    return text


def _games_table(records: list[dict[str, Any]], sgf_links: dict[str, str]) -> str:
    """Every game by its number (the ``#N`` of its key); a game the rules
    ended shows its ending in words over its reason (``title``)."""
    rows = []
    for r in sorted(records, key=lambda record: record.get("number") or 0):
        key = escape(r["key"])
        link = f'<a href="{escape(sgf_links[r["key"]])}">{key}</a>' if r["key"] in sgf_links else key
        ending = f' title="{escape(r["ending"])}"' if r.get("ending") else ""  # in words, on hover
        rows.append(f"<tr><td>{r.get('number', '')}</td><td class=name>{link}</td>"
                    f"<td class=name>{escape(r['black'])}</td>"
                    f"<td class=name>{escape(r['white'])}</td><td>{escape(r['result'])}</td>"
                    f"<td class=name{ending}>{escape(r['reason'])}</td><td>{len(r['moves'])}</td></tr>")
    return ("<table><tr><th>#</th><th class=name>game</th><th class=name>black</th><th class=name>white</th>"
            "<th>result</th><th class=name>reason</th><th>moves</th></tr>" + "".join(rows) + "</table>")


# -- plots -----------------------------------------------------------------------------------


def _samples(count: int) -> list[int]:
    """Game counts to evaluate a trajectory at: every one, or evenly spread
    ones up to :data:`MAX_PLOT_POINTS`, the last always included."""
    if count <= MAX_PLOT_POINTS:
        return list(range(1, count + 1))
    return sorted({max(1, round(count * i / MAX_PLOT_POINTS)) for i in range(1, MAX_PLOT_POINTS + 1)})


def trajectory_series(records: list[dict[str, Any]],
                      settings: MatchSettings) -> tuple[str, list[tuple[str, list[tuple[float, float]]]],
                                                        list[tuple[str, float]]]:
    """What the trajectory plot shows: ``(y label, [(series label, [(games,
    value)])], [(line label, y)])``. Two engines with an SPRT: its LLR and
    bounds; two engines without: the first engine's Elo estimate and its
    interval; more: each engine's joint rating."""
    names = [engine.name for engine in settings.engines]
    samples = _samples(len(records))
    if len(names) == 2:
        first, second = names
        tallies = [(n, tally_of(records[:n], first, second, settings.alternate)) for n in samples]
        if settings.sprt is not None:
            llr = [(float(n), settings.sprt.evaluate(t, settings.model).llr) for n, t in tallies]
            bounds = settings.sprt.evaluate(tallies[-1][1], settings.model)
            lower, upper = bounds.lower, bounds.upper
            return "SPRT log-likelihood ratio", [("LLR", llr)], [("H0", lower), ("H1", upper)]
        estimates = [(float(n), elo_estimate(t, settings.model)) for n, t in tallies]
        series = [(f"Elo of {first}", [(n, e.value) for n, e in estimates]),
                  ("95% low", [(n, e.low) for n, e in estimates]), ("95% high", [(n, e.high) for n, e in estimates])]
        return f"Elo of {first} ({settings.model})", series, [("0", 0.0)]
    ratings: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for n in samples:
        results = [(s.first, s.second, s.tally.points, s.tally.games)
                   for s in summarise(records[:n], settings) if s.tally.games]
        try:
            fitted = fit_ratings(results, prior_draws=settings.rating_prior) if results else []
        except NoRatingFit:
            continue
        for r in fitted:
            ratings[r.name].append((float(n), r.elo))
    return "joint rating (Elo)", list(ratings.items()), [("0", 0.0)]


def trajectory_svg(records: list[dict[str, Any]], settings: MatchSettings) -> str:
    label, series, lines = trajectory_series(records, settings)
    return line_chart(series, lines, "games", label)


def _clip(value: float) -> float | None:
    if math.isnan(value):
        return None
    return max(-ELO_PLOT_LIMIT, min(ELO_PLOT_LIMIT, value))


def nice_ticks(low: float, high: float, most: int = 6, whole: bool = False) -> list[float]:
    """Round tick values from ``low`` to ``high``: multiples of 1, 2 or 5
    times a power of ten, at most ``most`` of them (whole numbers only when
    ``whole``).

    >>> nice_ticks(0, 1000)
    [0.0, 200.0, 400.0, 600.0, 800.0, 1000.0]
    >>> nice_ticks(-2.94, 2.94)
    [-2.0, -1.0, 0.0, 1.0, 2.0]
    >>> nice_ticks(0, 4, whole=True)
    [0.0, 1.0, 2.0, 3.0, 4.0]
    """
    span = high - low
    if not span > 0:
        return [low]
    magnitude = 10.0 ** math.floor(math.log10(span / most))
    for factor in (1, 2, 5, 10, 20, 50, 100):
        step = factor * magnitude
        first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
        if (whole and step < 1) or not 0 < last - first + 1 <= most:
            continue
        return [round(n * step, 9) + 0.0 for n in range(first, last + 1)]  # + 0.0: no -0.0
    return [low, high]


def tick_text(value: float, ticks: list[float]) -> str:
    """A tick's label: no exponent, as many decimals as the tick step needs."""
    step = min((b - a for a, b in zip(ticks, ticks[1:])), default=1.0)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    return f"{value:.{decimals}f}"


def _short(value: float) -> str:
    """``-2.94``, ``0``, ``1000``: two decimals at most, no exponent."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text_width(text: str, size: float) -> float:
    """A generous estimate of a text's width in the plots' font."""
    return 0.62 * size * len(text)


def line_chart(series: list[tuple[str, list[tuple[float, float]]]], lines: list[tuple[str, float]],
               x_label: str, y_label: str) -> str:
    """An SVG line chart: ticks on both axes, labelled horizontal lines at
    the right, the legend below. Values beyond :data:`ELO_PLOT_LIMIT`
    (infinite ones too) are drawn at the edge, and a note says so."""
    left, top, right, bottom = 60.0, 24.0, 90.0, 64.0
    width, height = PLOT_WIDTH - left - right, PLOT_HEIGHT - top - bottom
    clean = [(name, [(x, y) for x, value in data if (y := _clip(value)) is not None]) for name, data in series]
    clipped = any(abs(value) > ELO_PLOT_LIMIT for _, data in series for _, value in data if not math.isnan(value))
    xs = [x for _, data in clean for x, _ in data] or [0.0, 1.0]
    ys = [y for _, data in clean for _, y in data] + [y for _, y in lines] or [0.0, 1.0]
    x0, x1 = 0.0, max(max(xs), 1.0)
    y0, y1 = min(ys), max(ys)
    if y1 - y0 < 1e-9:
        y0, y1 = y0 - 1, y1 + 1
    pad = (y1 - y0) * 0.05
    y0, y1 = y0 - pad, y1 + pad

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * width

    def sy(y: float) -> float:
        return top + (y1 - y) / (y1 - y0) * height

    small = {"font-size": 11, "fill": "#555"}
    body = [element("rect", {"x": left, "y": top, "width": width, "height": height, "fill": "none",
                             "stroke": "#999"})]
    y_ticks = nice_ticks(y0 + pad, y1 - pad)
    for value in y_ticks:
        body.append(element("line", {"x1": left - 4, "x2": left, "y1": sy(value), "y2": sy(value), "stroke": "#999"}))
        body.append(element("text", {"x": left - 6, "y": sy(value) + 4, "text-anchor": "end", **small},
                            escape(tick_text(value, y_ticks))))
    x_ticks = nice_ticks(x0, x1, most=11, whole=True)
    for value in x_ticks:
        body.append(element("line", {"x1": sx(value), "x2": sx(value), "y1": top + height, "y2": top + height + 4,
                                     "stroke": "#999"}))
        body.append(element("text", {"x": sx(value), "y": top + height + 16, "text-anchor": "middle", **small},
                            escape(tick_text(value, x_ticks))))
    taken: list[float] = []  # the y of the labels at the right, kept 12 px apart
    for name, y in sorted(lines, key=lambda line: -line[1]):
        body.append(element("line", {"x1": left, "x2": left + width, "y1": sy(y), "y2": sy(y), "stroke": "#999",
                                     "stroke-dasharray": "4 3"}))
        label_y = sy(y) + 4
        while any(abs(label_y - other) < 12 for other in taken):
            label_y += 12
        taken.append(label_y)
        body.append(element("text", {"x": left + width + 4, "y": label_y, **small},
                            escape(name if name == _short(y) else f"{name} {_short(y)}")))
    legend_x = left
    for index, (name, data) in enumerate(clean):
        colour = PALETTE[index % len(PALETTE)]
        dashed = "3 3" if name.startswith("95%") else None
        stroke = "#888" if dashed else colour
        if data:
            body.append(element("polyline", {"points": points((sx(x), sy(y)) for x, y in data), "fill": "none",
                                             "stroke": stroke, "stroke-width": 1.5, "stroke-dasharray": dashed}))
        legend_y = PLOT_HEIGHT - 8
        body.append(element("line", {"x1": legend_x, "x2": legend_x + 16, "y1": legend_y - 4, "y2": legend_y - 4,
                                     "stroke": stroke, "stroke-width": 1.5, "stroke-dasharray": dashed}))
        body.append(element("text", {"x": legend_x + 20, "y": legend_y, "font-size": 11, "fill": stroke},
                            escape(name)))
        legend_x += 20 + _text_width(name, 11) + 16
    if clipped:
        note = f"beyond \u00b1{ELO_PLOT_LIMIT:g} (\u00b1inf too) drawn at \u00b1{ELO_PLOT_LIMIT:g}"
        body.append(element("text", {"x": left + width, "y": top - 8, "text-anchor": "end", **small}, escape(note)))
    body.append(element("text", {"x": left + width / 2, "y": top + height + 32, "font-size": 12,
                                 "text-anchor": "middle"}, escape(x_label)))
    body.append(element("text", {"x": 14, "y": top + height / 2, "font-size": 12, "text-anchor": "middle",
                                 "transform": f"rotate(-90 14 {top + height / 2:g})"}, escape(y_label)))
    return _svg(body)


MAX_BINS = 10
"""The histogram of game lengths has at most this many bars, each as wide as
one of ten: fewer bars are centred, not widened."""


def lengths_svg(records: list[dict[str, Any]]) -> str:
    """A histogram of the games' lengths in moves, :data:`MAX_BINS` bins at
    most."""
    lengths = [len(r["moves"]) for r in records]
    if not lengths:
        return "<p>No games yet.</p>"
    low, high = min(lengths), max(lengths)
    step = max(1, math.ceil((high - low + 1) / MAX_BINS))
    bins = Counter((length - low) // step for length in lengths)
    count = (high - low) // step + 1
    left, top, bottom = 40.0, 20.0, 40.0
    width, height = PLOT_WIDTH - left - 20, PLOT_HEIGHT - top - bottom
    tallest = max(bins.values())
    bar = width / MAX_BINS
    start = left + (width - count * bar) / 2
    body = []
    for index in range(count):
        games = bins.get(index, 0)
        h = height * games / tallest
        x = start + index * bar
        first = low + index * step
        label = str(first) if step == 1 else f"{first}-{first + step - 1}"
        body.append(element("rect", {"x": x + 2, "y": top + height - h, "width": bar - 4, "height": h,
                                     "fill": PALETTE[0]}, element("title", {}, escape(f"{label} moves: {games}"))))
        body.append(element("text", {"x": x + bar / 2, "y": top + height - h - 3, "font-size": 11,
                                     "text-anchor": "middle"}, str(games)))
        body.append(element("text", {"x": x + bar / 2, "y": top + height + 14, "font-size": 11,
                                     "text-anchor": "middle"}, escape(label)))
    body.append(element("text", {"x": left + width / 2, "y": PLOT_HEIGHT - 6, "font-size": 12,
                                 "text-anchor": "middle"}, "moves per game"))
    return _svg(body)


def _svg(body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{PLOT_WIDTH:g}" height="{PLOT_HEIGHT:g}" '
            f'viewBox="0 0 {PLOT_WIDTH:g} {PLOT_HEIGHT:g}" font-family="DejaVu Sans, Verdana, sans-serif">'
            + "".join(body) + "</svg>")


# -- writing it -----------------------------------------------------------------------------


def write_page(path: str, records: list[dict[str, Any]], settings: MatchSettings) -> None:
    """Write the report page to ``path``, linking the match's files by paths
    relative to the page: the results file, the records file and each game's
    SGF where they exist."""
    directory = os.path.dirname(os.path.abspath(path))

    def relative(target: str) -> str:
        return os.path.relpath(os.path.abspath(target), directory).replace(os.sep, "/")

    links = {}
    for label, target in (("results (JSON lines)", settings.results_path),
                          ("every game (SGF collection)", settings.records_path)):
        if target and os.path.exists(target):
            links[label] = relative(target)
    sgf_links = {}
    if settings.sgf_dir and os.path.isdir(settings.sgf_dir):
        for record in records:
            target = os.path.join(settings.sgf_dir, sgf_file_name(record))
            if os.path.exists(target):
                sgf_links[record["key"]] = relative(target)
    text = html_page(records, settings, links=links, sgf_links=sgf_links)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(temporary, path)


# -- stargtp report -------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", metavar="RESULTS", help="a match results file (stargtp match --results)")
    parser.add_argument("-o", "--output", metavar="FILE.html",
                        help="the page to write (default: RESULTS with the suffix .html)")
    parser.add_argument("--sprt", nargs=4, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                        help="plot this SPRT's log-likelihood ratio (two engines)")
    parser.add_argument("--rating-prior", type=float, default=1.0, metavar="DRAWS",
                        help="virtual draws per pairing in the rating list (default 1)")


def run(args: argparse.Namespace) -> int:
    """``stargtp report``: 0 when the page is written, 2 when the results
    file or an option cannot be used."""
    from stargtp.protocol.cli import file_to_write_problem
    from stargtp.protocol.tools.match.records import default_records_path, default_sgf_dir

    not_results = f"stargtp report: {args.results} is not a match results file (stargtp match --results writes one)"
    try:
        header, records = read_results(args.results)
        if header is None:
            print(not_results, file=sys.stderr)
            return 2
        sprt = Sprt(*(float(x) for x in args.sprt)) if args.sprt else None
        identity = header["settings"]
        games = max((record["round"] for record in records), default=0) + 1
        settings = MatchSettings.from_identity(
            identity, games=games, sprt=sprt, rating_prior=args.rating_prior, results_path=args.results,
            records_path=default_records_path(identity["game"], args.results),
            sgf_dir=default_sgf_dir(identity["game"], args.results))
        records = numbered(records, settings)
    except IsADirectoryError:
        print(f"stargtp report: cannot read {args.results}: it is a directory", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"stargtp report: cannot read {args.results}: {error.strerror or error}", file=sys.stderr)
        return 2
    except NotResultsError:
        print(not_results, file=sys.stderr)
        return 2
    except ResultsError as error:  # its message names the file
        print(f"stargtp report: {error}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"stargtp report: {args.results}: its header is not one stargtp match writes ({error!r})",
              file=sys.stderr)
        return 2
    output = args.output or os.path.splitext(args.results)[0] + ".html"
    problem = file_to_write_problem(output)
    if problem is not None:
        print(f"stargtp report: -o FILE.html: {problem}", file=sys.stderr)
        return 2
    write_page(output, records, settings)
    print(f"report: {output} ({len(records)} games)", file=sys.stderr)
    return 0


__all__ = ["add_arguments", "html_page", "line_chart", "lengths_svg", "run", "trajectory_series",
           "write_page"]
