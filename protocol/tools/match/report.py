"""What a match has shown so far: the statistics of its records, the live
progress line and the results table.

Everything here works on the records alone (a list of dicts, as the results
file holds them), so a finished or half-played match can be summarised
again from its file. The statistics themselves are :mod:`stargtp.protocol.stats`.
"""

from __future__ import annotations

import datetime
import math
import os
import shutil
import textwrap
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, TextIO

from stargtp.protocol.ratings import NoRatingFit, Rating, fit_ratings
from stargtp.protocol.stats import Estimate, SprtResult, Tally, elo_estimate, wilson_interval
from stargtp.protocol.tools import plural
from stargtp.protocol.tools.match.settings import MatchSettings


@dataclass(frozen=True)
class PairingSummary:
    """Statistics of one pairing, from ``first``'s side."""

    first: str
    second: str
    tally: Tally
    model: str
    win_rate: Estimate
    elo: Estimate
    average_moves: float
    seconds_per_move: dict[str, float]
    faults: dict[str, dict[str, int]]
    """engine name -> fault kind -> count."""
    disagreements: dict[str, int]
    sprt: SprtResult | None = None


def game_score(record: dict[str, Any], engine_name: str) -> float:
    """1, 1/2 or 0 for ``engine_name`` in a finished game."""
    winner = record.get("winner_engine")
    if winner is None:
        return 0.5
    return 1.0 if winner == engine_name else 0.0


def tally_of(records: list[dict[str, Any]], first: str, second: str, alternate: bool = True) -> Tally:
    """Trinomial counts of all games and pentanomial counts of the complete
    colour-swapped pairs (rounds 2k and 2k+1) of one pairing."""
    mine = [r for r in records if r.get("pairing") == [first, second]]
    scores = [game_score(r, first) for r in mine]
    pair_scores = []
    if alternate:
        by_round = {r["round"]: game_score(r, first) for r in mine}
        for round_number, points in by_round.items():
            if round_number % 2 == 0 and round_number + 1 in by_round:
                pair_scores.append(points + by_round[round_number + 1])
    return Tally.from_scores(scores, pair_scores)


def sprt_decided(records: list[dict[str, Any]], settings: MatchSettings) -> bool:
    """Whether the match's SPRT (if any) has accepted a hypothesis."""
    if settings.sprt is None:
        return False
    (first, second), = settings.pairings()
    return settings.sprt.evaluate(tally_of(records, first, second, settings.alternate),
                                  settings.model).decision is not None


def summarise(records: list[dict[str, Any]], settings: MatchSettings) -> list[PairingSummary]:
    """One :class:`PairingSummary` per pairing."""
    summaries = []
    for first, second in settings.pairings():
        mine = [r for r in records if r.get("pairing") == [first, second]]
        tally = tally_of(mine, first, second, settings.alternate)
        times: dict[str, list[float]] = {first: [], second: []}
        faults: dict[str, Counter[str]] = {first: Counter(), second: Counter()}
        disagreements: Counter[str] = Counter()
        for record in mine:
            for move in record["moves"]:
                if move.get("seconds") is not None:
                    times[record[move["colour"]]].append(move["seconds"])
            if record.get("fault"):
                faults[record["fault"]["engine"]][record["fault"]["kind"]] += 1
            for name in record.get("score_disagreements") or []:
                disagreements[name] += 1
        lengths = [len(r["moves"]) for r in mine]
        sprt = settings.sprt.evaluate(tally, settings.model) if settings.sprt is not None else None
        summaries.append(PairingSummary(
            first=first, second=second, tally=tally, model=settings.model,
            win_rate=wilson_interval(tally.points, tally.games),
            elo=elo_estimate(tally, settings.model),
            average_moves=sum(lengths) / len(lengths) if lengths else math.nan,
            seconds_per_move={n: (sum(t) / len(t) if t else math.nan) for n, t in times.items()},
            faults={n: dict(c) for n, c in faults.items() if c},
            disagreements=dict(disagreements), sprt=sprt))
    return summaries


def _elo_text(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return "0" if round(value) == 0 else f"{value:+.0f}"


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}"


def describe_match(settings: MatchSettings) -> str:
    """The first line of the results table: the game, the size, the game's
    rules when ``--rule`` sets any (``swap on``), the komi when it is set (0
    is the default, and it means nothing in some games), the games per
    pairing and the clock."""
    rules = "".join(f"{name} {'on' if on else 'off'}, " for name, on in settings.game_rules)
    komi = f"komi {settings.komi:g}, " if settings.komi else ""
    clock = settings.clock_text()
    tolerance = f" (tolerance {settings.time_tolerance:g} s)" if settings.time_control.limited else ""
    return (f"{settings.game}, size {settings.board_size}, {rules}{komi}{settings.games} games per pairing, "
            f"clock: {clock}{tolerance}")


def format_summary(summaries: list[PairingSummary], settings: MatchSettings, width: int | None = None) -> str:
    """The results table printed at the end of a match. With a ``width``
    (the terminal's columns) the pairings are a table as wide as
    :func:`wide_pairings` only when that fits, else :func:`narrow_pairings`,
    and the sentences are wrapped to fit; without one, always the wide table."""
    lines = [describe_match(settings)]
    for engine in settings.engines:
        lines.append(f"  {engine.name} = {engine.spec.text}")
    wide = wide_pairings(summaries)
    table = wide if width is None or max(map(len, wide)) <= width else narrow_pairings(summaries)
    lines += ["", *table, ""]
    notes = [f"Scores and intervals are from the first engine's side; Elo interval: "
             f"{summaries[0].model if summaries else settings.model} model."]
    for s in summaries:
        notes += _pairing_notes(s, settings)
    lines += notes if width is None else [wrapped for note in notes for wrapped in _wrap(note, width)]
    if len(settings.engines) > 2:
        ratings = format_rating_list(summaries, settings)
        if width is not None:
            ratings = _wrap(ratings[0], width) + ratings[1:]
        lines += ["", *ratings, "", *format_cross_table(summaries, settings)]
    return "\n".join(lines)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (continuation lines
    indented by two), unless a word is longer."""
    return textwrap.wrap(text, max(20, width), subsequent_indent="  ", break_long_words=False,
                         break_on_hyphens=False) or [""]


def _pairing_cells(s: PairingSummary) -> dict[str, str]:
    t = s.tally
    return {"pairing": f"{s.first} vs {s.second}", "games": str(t.games), "wins": str(t.wins),
            "draws": str(t.draws), "losses": str(t.losses), "W-D-L": f"{t.wins}-{t.draws}-{t.losses}",
            "score": f"{t.points:g}",
            "win rate": f"{_percent(s.win_rate.value)} [{_percent(s.win_rate.low)}, {_percent(s.win_rate.high)}]",
            "Elo": f"{_elo_text(s.elo.value)} [{_elo_text(s.elo.low)}, {_elo_text(s.elo.high)}]",
            "moves": "-" if math.isnan(s.average_moves) else f"{s.average_moves:.1f}",
            "s/move": " / ".join("-" if math.isnan(v) else f"{v:.3f}" for v in s.seconds_per_move.values())}


def wide_pairings(summaries: list[PairingSummary]) -> list[str]:
    """The pairings as one row each, every figure in its own column (122
    columns with short engine names)."""
    header = (f"{'pairing':<20} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} {'score':>6}  "
              f"{'win rate % [95%]':<20} {'Elo [95%]':<20} {'moves':>6}  s/move (1st / 2nd)")
    lines = [header, "-" * len(header)]
    for s in summaries:
        c = _pairing_cells(s)
        lines.append(f"{c['pairing']:<20} {c['games']:>5} {c['wins']:>5} {c['draws']:>5} {c['losses']:>6} "
                     f"{c['score']:>6}  {c['win rate']:<20} {c['Elo']:<20} {c['moves']:>6}  {c['s/move']}")
    return lines


def narrow_pairings(summaries: list[PairingSummary]) -> list[str]:
    """The pairings for an 80-column terminal: wins, draws and losses in one
    ``W-D-L`` column, columns as wide as their contents, and the game length
    and time per move on a second, indented line of each pairing."""
    cells = [_pairing_cells(s) for s in summaries]
    columns = [("pairing", "pairing", "<"), ("games", "games", ">"), ("W-D-L", "W-D-L", "<"),
               ("score", "score", ">"), ("win rate", "win rate % [95%]", "<"), ("Elo", "Elo [95%]", "<")]
    widths = [max(len(title), *(len(c[key]) for c in cells)) for key, title, _ in columns]

    def row(texts: list[str]) -> str:
        cells = (f"{text:{align}{width}}" for text, width, (_, _, align) in zip(texts, widths, columns))
        return "  ".join(cells).rstrip()

    header = row([title for _, title, _ in columns])
    lines = [header, "-" * len(header)]
    for c in cells:
        lines.append(row([c[key] for key, _, _ in columns]))
        lines.append(f"  {c['moves']} moves per game, s/move (1st / 2nd) {c['s/move']}")
    return lines


def _pairing_notes(s: PairingSummary, settings: MatchSettings) -> list[str]:
    """The faults, score disagreements and SPRT verdict of one pairing."""
    lines = []
    for name, kinds in s.faults.items():
        listed = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        lines.append(f"faults ({s.first} vs {s.second}): {name}: {listed}")
    for name, count in s.disagreements.items():
        lines.append(f"score disagreements ({s.first} vs {s.second}): {name}: {count}")
    if s.sprt is not None and settings.sprt is not None:
        sprt = settings.sprt
        verdict = {"H1": f"H1 accepted ({s.first} is stronger by about {sprt.elo1:g} Elo or more)",
                   "H0": f"H0 accepted ({s.first} is not stronger by {sprt.elo1:g} Elo)",
                   None: "no decision yet"}[s.sprt.decision]
        lines.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g} "
                     f"({sprt.elo_model}, {s.model}): LLR {s.sprt.llr:.3f} "
                     f"[{s.sprt.lower:.3f}, {s.sprt.upper:.3f}]: {verdict}")
    return lines


def rating_list(summaries: list[PairingSummary], settings: MatchSettings) -> list[Rating]:
    """The joint maximum-likelihood rating list over every game of the
    match (:func:`stargtp.protocol.ratings.fit_ratings`); NoRatingFit when the games
    do not determine one."""
    results = [(s.first, s.second, s.tally.points, s.tally.games) for s in summaries if s.tally.games]
    if not results:
        raise NoRatingFit("no games yet")
    return fit_ratings(results, prior_draws=settings.rating_prior)


def format_rating_list(summaries: list[PairingSummary], settings: MatchSettings) -> list[str]:
    """The rating list as a table, strongest first."""
    prior = settings.rating_prior
    with_prior = f", {prior:g} virtual draw{'' if prior == 1 else 's'} per pairing" if prior else ""
    lines = [f"ratings (maximum likelihood over all games{with_prior}; Elo relative to the average, 95% "
             f"interval; LOS: likelihood of superiority over the next engine)"]
    try:
        ratings = rating_list(summaries, settings)
    except NoRatingFit as error:
        return lines + [f"  {error}"]
    width = max(len("engine"), *(len(r.name) for r in ratings))
    lines.append(f"{'rank':>4}  {'engine':<{width}}  {'Elo':>5}  {'[95%]':<13} {'games':>5}  {'score':>6}  {'LOS':>6}")
    for rank, r in enumerate(ratings, 1):
        interval = f"[{_elo_text(r.low)}, {_elo_text(r.high)}]"
        score = _percent(r.points / r.games if r.games else math.nan)
        los = "" if r.los_next is None else f"{100 * r.los_next:.1f}%"
        lines.append(f"{rank:>4}  {r.name:<{width}}  {_elo_text(r.elo):>5}  {interval:<13} {r.games:>5}  "
                     f"{score:>5}%  {los:>6}".rstrip())
    return lines


def cross_table(summaries: list[PairingSummary]) -> dict[str, dict[str, tuple[float, int]]]:
    """``table[a][b]``: the points ``a`` scored against ``b`` and the games
    they played, for every pairing that played."""
    table: dict[str, dict[str, tuple[float, int]]] = {}
    for s in summaries:
        games, points = s.tally.games, s.tally.points
        table.setdefault(s.first, {})[s.second] = (points, games)
        table.setdefault(s.second, {})[s.first] = (games - points, games)
    return table


def format_cross_table(summaries: list[PairingSummary], settings: MatchSettings) -> list[str]:
    """Points scored by each row's engine against each column's, and each
    engine's total."""
    names = [engine.name for engine in settings.engines]
    table = cross_table(summaries)
    cells = {a: {b: (f"{table[a][b][0]:g}/{table[a][b][1]}" if b in table.get(a, {}) else
                     "x" if a == b else "")
                 for b in names} for a in names}
    width = max(6, *(len(name) for name in names), *(len(c) for row in cells.values() for c in row.values()))
    lines = ["cross table (points of the row's engine against the column's, of games played)",
             " " * width + "".join(f"  {name:>{width}}" for name in names) + f"  {'total':>{width}}"]
    for a in names:
        points = sum(p for p, _ in table.get(a, {}).values())
        games = sum(g for _, g in table.get(a, {}).values())
        lines.append(f"{a:<{width}}" + "".join(f"  {cells[a][b]:>{width}}" for b in names)
                     + f"  {f'{points:g}/{games}':>{width}}")
    return lines


def outcome_text(record: dict[str, Any]) -> str:
    """How a game ended, for the ``Finished game`` line: the result, then the
    reason in braces, naming the engine at fault (``W+F {illegal_move by A}``)."""
    fault = record.get("fault")
    reason = f"{record['reason']} by {fault['engine']}" if fault else record["reason"]
    return f"{record['result']} {{{reason}}}"


class Progress:
    """What a running match says on stderr: a line when each game starts and
    when it ends, fault messages, and the progress line (redrawn in place on a
    terminal, where it also counts the moves of the games in progress).
    ``report_every`` > 0 prints the results table every that many games."""

    def __init__(self, settings: MatchSettings, total: int, done: int, stream: TextIO | None,
                 report_every: int = 0) -> None:
        self.settings = settings
        self.total = total
        self.done = done
        self.resumed = done
        self.stream = stream
        self.report_every = report_every
        self.started = time.monotonic()
        self.tty = bool(stream is not None and stream.isatty())
        self.playing: dict[int, int] = {}
        """Game number -> moves played, for the games in progress."""
        self.records: list[dict[str, Any]] = []

    def line(self, records: list[dict[str, Any]]) -> str:
        """The progress line, whole. Each figure says what it counts: the
        score counts games, the Elo interval follows the statistics model
        (with the pentanomial one only complete colour-swapped pairs count)."""
        return _joined(self._parts(records))

    def _parts(self, records: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
        """The progress line's parts in order, as ``(priority, separator,
        text)``; :func:`fit_line` drops the lowest priorities first."""
        elapsed = time.monotonic() - self.started
        done = len(records)
        played = done - self.resumed
        rate = played / elapsed if elapsed > 0 and played > 0 else 0.0
        remaining = self.total - done
        eta = "-" if not rate else str(datetime.timedelta(seconds=round(remaining / rate)))
        parts = [(9, "", f"[{done}/{self.total}]")]
        pairings = self.settings.pairings()
        if len(pairings) == 1:
            # Only the tally here: the line is redrawn after every game.
            (first, second), = pairings
            tally = tally_of(records, first, second, self.settings.alternate)
            model = self.settings.model
            elo = elo_estimate(tally, model)
            parts.append((8, "  ", f"{first} {tally.wins}-{tally.draws}-{tally.losses} {second}"))
            parts.append((4, "  ", f"score {_percent(tally.points / tally.games if tally.games else math.nan)}% "
                                   f"of {plural(tally.games, 'game')}"))
            pairs = sum(tally.pairs)
            sample = plural(pairs, "pair") if model == "pentanomial" else plural(tally.games, "game")
            parts.append((7, "  ", f"Elo {_elo_text(elo.value)} [{_elo_text(elo.low)}, {_elo_text(elo.high)}]"))
            parts.append((3, " ", f"({model}, {sample})"))
            if self.settings.sprt is not None:
                sprt = self.settings.sprt.evaluate(tally, model)
                parts.append((7, "  ", f"LLR {sprt.llr:.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}]"))
        parts.append((2, "  ", f"{rate * 60:.1f} games/min"))
        parts.append((6, "  ", f"ETA {eta}"))
        return parts

    def _live(self) -> list[tuple[int, str, str]]:
        """The games in progress and their move counts (terminal only)."""
        if not self.playing:
            return []
        return [(5, "  ", "playing: " + ", ".join(f"#{n} {plural(moves, 'move')}"
                                                  for n, moves in sorted(self.playing.items())))]

    def _status(self) -> str:
        """The progress line and the games in progress, fitted to the terminal."""
        return fit_line(self._parts(self.records) + self._live(), terminal_width(self.stream) - 1)

    def _redraw(self) -> None:
        assert self.stream is not None
        self.stream.write("\r\x1b[K" + self._status())
        self.stream.flush()

    def game_started(self, number: int, black: str, white: str) -> None:
        """``Started game N of TOTAL (BLACK vs WHITE)``; N counts the whole
        schedule from 1, the engine named first plays black."""
        self.playing[number] = 0
        self.log(f"Started game {number} of {self.total} ({black} vs {white})")

    def move_played(self, number: int, moves: int) -> None:
        self.playing[number] = moves
        if self.stream is not None and self.tty:
            self._redraw()

    def game_finished(self, number: int, record: dict[str, Any]) -> None:
        """``Finished game N (BLACK vs WHITE): RESULT {REASON}``."""
        self.playing.pop(number, None)
        self.log(f"Finished game {number} ({record['black']} vs {record['white']}): {outcome_text(record)}")

    def game_abandoned(self, number: int) -> None:
        self.playing.pop(number, None)

    def update(self, records: list[dict[str, Any]]) -> None:
        self.done = len(records)
        self.records = records
        if self.stream is None:
            return
        if self.tty:
            self._redraw()
        else:
            self.stream.write(self.line(records) + "\n")
            self.stream.flush()
        if self.report_every and self.done % self.report_every == 0:
            self.log(format_summary(summarise(records, self.settings), self.settings,
                                    terminal_width(self.stream) if self.tty else None))

    def log(self, message: str) -> None:
        if self.stream is None:
            return
        self.stream.write(("\r\x1b[K" if self.tty else "") + message + "\n")
        if self.tty and self.records:
            self.stream.write(self._status())
        self.stream.flush()

    def finish(self) -> None:
        if self.stream is not None and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def terminal_width(stream: TextIO | None = None) -> int:
    """The columns of the terminal ``stream`` writes to: ``COLUMNS`` when it
    is set, else the terminal's width, else stdout's
    (:func:`shutil.get_terminal_size`), else 80."""
    if os.environ.get("COLUMNS", "").isdigit() and int(os.environ["COLUMNS"]) > 0:
        return int(os.environ["COLUMNS"])
    try:
        assert stream is not None
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AssertionError, AttributeError, OSError, ValueError):
        columns = 0
    return columns or shutil.get_terminal_size((80, 24)).columns


def _joined(parts: list[tuple[int, str, str]]) -> str:
    return "".join((separator if index else "") + text for index, (_, separator, text) in enumerate(parts))


def fit_line(parts: list[tuple[int, str, str]], width: int) -> str:
    """The ``(priority, separator, text)`` parts joined in order, dropping
    the lowest priority ones (the last of equals first) until the line has at
    most ``width`` characters; cut at ``width`` if even the most important
    one is longer.

    >>> parts = [(9, "", "[1/4]"), (2, "  ", "55.0 games/min"), (6, "  ", "ETA 0:00:03")]
    >>> fit_line(parts, 79)
    '[1/4]  55.0 games/min  ETA 0:00:03'
    >>> fit_line(parts, 20)
    '[1/4]  ETA 0:00:03'
    >>> fit_line(parts, 3)
    '[1/'
    """
    kept = list(parts)
    while len(kept) > 1 and len(_joined(kept)) > width:
        lowest = min(priority for priority, _, _ in kept)
        drop = max(i for i, (priority, _, _) in enumerate(kept) if priority == lowest)
        del kept[drop]
    return _joined(kept)[:max(0, width)]
