"""Analysis over the protocol: ``lz-analyze`` (Leela Zero's ``info`` lines),
and the forms other GUIs parse: ``kata-analyze`` (KataGo's
``info`` fields), ``genmove_analyze`` (a genmove that reports as it searches,
then answers ``play MOVE``) and ``gogui-analyze_commands`` (GoGui's menu).

Game-agnostic: everything goes through the position API and the descriptor
(``position.rules``). docs/protocol.md documents the commands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stargtp.engine.colour import BLACK, colour_name, parse_colour
from stargtp.engine.errors import GameError
from stargtp.engine.search import Limits
from stargtp.protocol.registry import syntax_error
from stargtp.protocol.server.arguments import Args, expect_count, parse_colour_arg, parse_int, parse_number
from stargtp.protocol.server.views import to_json
from stargtp.protocol.server.workers import SearchReply

if TYPE_CHECKING:
    from stargtp.protocol.server.session import Session, Stream


LCB_Z = 1.96
"""Normal-approximation width of the ``lcb`` field (95%)."""


def _num(value: float) -> str:
    """A float as KataGo prints it (C++ stream default: 6 significant digits)."""
    text = f"{value:.6g}"
    return "0" if text == "-0" else text


# -- the score estimate ---------------------------------------------------------------


def score_lead(position: Any, colour: int, komi: float) -> float | None:
    """The expected final margin for ``colour`` (positive: ``colour`` leads),
    from the game's descriptor (``rules.score_estimate``: *Star's current
    score, the Amazons' exact margin once settled, else their expected
    territory); None when the game cannot say."""
    estimate = position.rules.score_estimate
    return None if estimate is None else estimate(position, colour, komi)


# -- kata-analyze ------------------------------------------------------------------------


def kata_line(position: Any, colour: int, reply: SearchReply, komi: float = 0.0,
              options: AnalyzeOptions | None = None) -> str:
    """One kata-analyze report: an ``info`` block per root move, most visited
    first, fields in KataGo's order (``move visits utility winrate scoreMean
    scoreLead prior lcb order pv``), then the game's extra field as in
    lz-analyze."""
    ranked = ranked_moves(position, reply, options)
    lead = score_lead(position, colour, komi)
    legal = len(position.legal_moves()) if not position.is_over() else 0
    prior = 1.0 / legal if legal else 0.0
    parts = []
    for order, (move, (visits, wins)) in enumerate(ranked):
        winrate = min(max(wins / visits, 0.0), 1.0) if visits else 0.0
        lcb = max(0.0, winrate - LCB_Z * math.sqrt(winrate * (1 - winrate) / visits)) if visits else 0.0
        line = reply.variations.get(move) or (reply.pv if reply.pv and reply.pv[0] == move else (move,))
        fields = [f"info move {move} visits {visits} utility {_num(2 * winrate - 1)} winrate {_num(winrate)}"]
        if lead is not None:
            fields.append(f"scoreMean {_num(lead)} scoreLead {_num(lead)}")
        fields.append(f"prior {_num(prior)} lcb {_num(lcb)} order {order} pv {' '.join(line)}")
        parts.append(" ".join(fields))
    if not parts:
        score = "" if lead is None else f" scoreMean {_num(lead)} scoreLead {_num(lead)}"
        parts.append(f"info move pass visits 0 utility -1 winrate 0{score} prior 0 lcb 0 order 0 pv pass")
    text = " ".join(parts)
    extra = position.rules.analysis if options is None or options.ownership else None
    field = extra(position, colour, reply.ownership) if extra is not None else ""
    return text + " " + field if field else text


DEFAULT_ANALYSIS_INTERVAL = 100
"""Centiseconds between reports when the command names none."""


@dataclass(frozen=True)
class AnalyzeOptions:
    """What an analysis command was asked for (see :func:`parse_analyze_args`)."""

    colour: int
    interval: int
    """Centiseconds between reports."""
    min_moves: int = 0
    """Report at least this many root moves, unvisited ones at 0 visits."""
    max_moves: int | None = None
    """Report at most this many root moves, the most visited."""
    ownership: bool = True
    """Append the game's own field (``ownership``/``territory``)."""


MAX_REPORTED_MOVES = 100_000


def _parse_bool(key: str, word: str) -> bool:
    if word.lower() == "true":
        return True
    if word.lower() == "false":
        return False
    raise syntax_error(f"{key} is true or false, not {word}")


def parse_analyze_args(session: Session, args: Args, keys: tuple[str, ...] = ("minmoves", "maxmoves")) -> AnalyzeOptions:
    """``[COLOUR] [INTERVAL] [KEY VALUE]...`` in any order, INTERVAL optionally
    written ``interval N``; KEY one of ``keys`` (KataGo's and Leela Zero's
    ``minmoves N``, ``maxmoves N``; kata-analyze also ``ownership true|false``).
    The side to move and :data:`DEFAULT_ANALYSIS_INTERVAL` by default."""
    colour = session.state.position.to_move
    interval = DEFAULT_ANALYSIS_INTERVAL
    settings: dict[str, Any] = {}
    words = list(args)
    while words:
        word = words.pop(0)
        key = word.lower()
        if key == "interval":
            if not words:
                raise syntax_error("interval needs a number of centiseconds")
            interval = parse_int(words.pop(0), minimum=1, maximum=360000)
            continue
        if key in keys:
            if not words:
                raise syntax_error(f"{key} needs a value")
            value = words.pop(0)
            if key == "ownership":
                settings["ownership"] = _parse_bool(key, value)
            else:
                settings["min_moves" if key == "minmoves" else "max_moves"] = parse_int(
                    value, minimum=0 if key == "minmoves" else 1, maximum=MAX_REPORTED_MOVES)
            continue
        try:
            colour = parse_colour(word)
            continue
        except ValueError:
            if word[:1].isalpha():
                raise syntax_error(f"unknown key {word} (this command takes: {', '.join(keys)})") from None
        interval = parse_int(word, minimum=1, maximum=360000)
    return AnalyzeOptions(colour, interval, **settings)


def ranked_moves(position: Any, reply: Any, options: AnalyzeOptions | None) -> list[tuple[Any, tuple[int, float]]]:
    """The root moves to report, most visited first (more wins breaks a tie),
    cut to ``max_moves`` and padded with unvisited legal moves, in the
    position's order, up to ``min_moves``."""
    root = dict(reply.root)
    if not root and reply.move is not None:  # players without root statistics
        visits = max(reply.playouts, 1)
        root = {reply.move: (visits, (reply.winrate or 0.0) * visits)}
    ranked = sorted(root.items(), key=lambda item: (-item[1][0], -item[1][1]))
    if options is None:
        return ranked
    if options.max_moves is not None:
        ranked = ranked[:options.max_moves]
    if len(ranked) < options.min_moves and not position.is_over():
        shown = {move for move, _ in ranked}
        for move in map(position.format_move, position.legal_moves()):  # the reply's moves are text
            if len(ranked) >= options.min_moves:
                break
            if move not in shown:
                ranked.append((move, (0, 0.0)))
    return ranked


# -- lz-analyze ---------------------------------------------------------------------------


async def lz_analyze(session: Session, args: Args, stream: Stream) -> str:
    """Stream ``info`` lines about the position until the next input line."""
    options = parse_analyze_args(session, args)

    def report(position: Any, colour: int, reply: Any) -> str:
        return analysis_line(position, colour, reply, options)

    await session.search.analyze(options.colour, options.interval / 100, stream, report)
    return ""


def analysis_line(position: Any, colour: int, reply: Any, options: AnalyzeOptions | None = None) -> str:
    """One lz-analyze report: an ``info`` block per root move, most visited
    first, then the game's extra field (*Star ``ownership``, Amazons
    ``territory``), all on one line."""
    ranked = ranked_moves(position, reply, options)
    parts = []
    for order, (move, (visits, wins)) in enumerate(ranked):
        winrate = round(10000 * wins / visits) if visits else 0
        line = reply.variations.get(move) or (reply.pv if reply.pv and reply.pv[0] == move else (move,))
        parts.append(f"info move {move} visits {visits} winrate {winrate} order {order} pv {' '.join(line)}")
    text = " ".join(parts) if parts else "info move pass visits 0 winrate 0 order 0 pv pass"
    extra = position.rules.analysis if options is None or options.ownership else None
    field = extra(position, colour, reply.ownership) if extra is not None else ""
    return text + " " + field if field else text


# -- kata-analyze (its arguments are lz-analyze's) ----------------------------------------


async def kata_analyze(session: Session, args: Args, stream: Stream) -> str:
    """Stream KataGo-style ``info`` lines until the next input line."""
    options = parse_analyze_args(session, args, ("minmoves", "maxmoves", "ownership"))
    komi = session.state.komi

    def report(position: Any, colour: int, reply: SearchReply) -> str:
        return kata_line(position, colour, reply, komi, options)

    await session.search.analyze(options.colour, options.interval / 100, stream, report)
    return ""


# -- genmove_analyze ---------------------------------------------------------------------


async def genmove_analyze(session: Session, args: Args, stream: Stream) -> str:
    """``genmove_analyze COLOUR [INTERVAL]``: search the move with genmove's
    limits, writing a kata-analyze line every INTERVAL, then ``play MOVE``;
    the move is played. Input lines that arrive meanwhile do not stop it
    (KataGo: "behaves like a normal synchronous GTP command");
    ``# interrupt`` does, with the best move so far."""
    expect_count(args, 1, 2)
    colour = parse_colour_arg(args[0])
    interval = parse_int(args[1], minimum=1, maximum=360000) if len(args) == 2 else DEFAULT_ANALYSIS_INTERVAL
    state = session.state
    komi = state.komi

    def report(reply: SearchReply) -> None:
        stream.line(kata_line(state.position, colour, reply, komi))

    move = await session.search.generate_move(colour, play=True, interval=interval / 100, report=report)
    stream.line("play " + move)
    return ""


# -- stargtp-evaluate ----------------------------------------------------------------------

MAX_EVALUATE_PLAYOUTS = 10_000_000
MAX_EVALUATE_SECONDS = 3600.0


def parse_evaluate_limits(args: Args) -> tuple[Limits, bool]:
    """``playouts N`` or ``seconds S``: the search's limits, and whether it is
    deterministic (a playout count: the same position gets the same answer)."""
    expect_count(args, 2)
    kind = args[0].lower()
    if kind == "playouts":
        return Limits(playouts=parse_int(args[1], minimum=1, maximum=MAX_EVALUATE_PLAYOUTS)), True
    if kind == "seconds":
        seconds = parse_number(args[1], minimum=0)
        if not 0 < seconds <= MAX_EVALUATE_SECONDS:
            raise syntax_error(f"seconds must be more than 0 and at most {MAX_EVALUATE_SECONDS:g}")
        return Limits(seconds=seconds), False
    raise syntax_error(f"expected playouts N or seconds S, not {args[0]}")


def evaluation(position: Any, komi: float, reply: SearchReply | None) -> dict[str, Any]:
    """``stargtp-evaluate``'s answer for ``position`` from a search's ``reply``
    (None: the game is over, and its result is the answer): black's win rate,
    black's score lead (None when the game gives none), the best move for
    the side to move and its line, the playouts."""
    to_move = position.to_move
    lead = score_lead(position, BLACK, komi)
    data: dict[str, Any] = {"to_move": colour_name(to_move), "over": reply is None}
    if reply is None:
        try:
            winner = position.rules.score(position, komi).winner
        except GameError:
            winner = position.winner()
        black = 0.5 if winner is None else 1.0 if winner == BLACK else 0.0
        data.update(black_winrate=black, black_lead=lead, move=None, pv=[], visits=0, playouts=0)
        return data
    if reply.root:
        move, (visits, wins) = min(reply.root.items(), key=lambda item: (-item[1][0], -item[1][1]))
        mine: float | None = min(max(wins / visits, 0.0), 1.0)
        line = list(reply.pv) if reply.pv and reply.pv[0] == move else [move]
    else:  # a player without root statistics, or a move that needed no search
        move, visits, mine = reply.move, reply.playouts, reply.winrate
        line = list(reply.pv) or ([] if move is None else [move])
    black_rate = None if mine is None else mine if to_move == BLACK else 1.0 - mine
    data.update(black_winrate=None if black_rate is None else round(black_rate, 6),
                black_lead=None if lead is None else round(lead, 6),
                move=move, pv=line, visits=visits, playouts=reply.playouts)
    return data


async def stargtp_evaluate(session: Session, args: Args) -> str:
    """``stargtp-evaluate playouts N | seconds S``: one search of the position
    for the side to move, in the workers, answered as one line of JSON; the
    position does not change. ``# interrupt`` makes it answer at once."""
    limits, deterministic = parse_evaluate_limits(args)
    state = session.state
    position = state.position
    if position.is_over():
        return to_json(evaluation(position, state.komi, None))
    reply = await session.search.evaluate(limits, deterministic)
    return to_json(evaluation(position, state.komi, reply))


# -- gogui-analyze_commands -----------------------------------------------------------------

GOGUI_ANALYZE = (
    ("string", "Final score", "final_score"),
    ("string", "Legal moves", "all_legal %c"),
    ("string", "Stars", "list_stars"),
    ("string", "Perft 2", "perft 2"),
    ("string", "Search settings", "stargtp-param"),
    ("string", "Game", "game"),
    ("string", "SGF record", "printsgf"),
)
"""GoGui menu entries ``TYPE/LABEL/COMMAND`` (``%c``: GoGui puts the colour
to move); only those whose command works in the current game are listed."""


HEXGUI_ANALYZE = (
    ("string", "Final score", "final_score"),
    ("plist", "Legal moves", "all_legal %m"),
    ("string", "Is legal", "is_legal %m %p"),
    ("string", "Board", "showboard"),
    ("string", "Search settings", "stargtp-param"),
    ("string", "Rules", "stargtp-rules"),
    ("string", "Game", "game"),
    ("string", "SGF record", "printsgf"),
)
"""HexGui's analyze menu (``hexgui/htp/AnalyzeDefinition.java``): the same
``TYPE/LABEL/COMMAND`` lines, with HexGui's types (``plist``: the points of
the answer are highlighted) and wildcards (``%m``: the colour to move, ``b``
or ``w``; ``%p``: the selected cell); only those whose command works in the
current game are listed."""


def menu(session: Session, entries: tuple[tuple[str, str, str], ...]) -> str:
    """The menu lines of ``entries`` whose command works in the current game."""
    available = set(session.registry.names(session.state.position.game))
    return "\n".join(f"{kind}/{label}/{command}" for kind, label, command in entries
                     if command.split()[0] in available)


def gogui_analyze_commands(session: Session, args: Args) -> str:
    expect_count(args, 0)
    return menu(session, GOGUI_ANALYZE)


def hexgui_analyze_commands(session: Session, args: Args) -> str:
    expect_count(args, 0)
    return menu(session, HEXGUI_ANALYZE)
