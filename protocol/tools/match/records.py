"""A game's record: what it says, how a game that ended on the board is
scored, and its SGF copy.

A record is a JSON-ready dict, one line of the results file
(:mod:`stargtp.protocol.tools.match.results`; docs/match.md lists the fields). The
referee starts it with :func:`new_record` and completes it with
:func:`complete_record`. Everything game-specific comes from the game's
descriptor (:class:`stargtp.engine.game.Game`): the score and its JSON breakdown, the
no-move rule that tells how a game ends, and the SGF writer.
"""

from __future__ import annotations

import datetime
import os
import re
from typing import Any

from stargtp.engine.colour import BLACK, WHITE, colour_name, opponent
from stargtp.engine.errors import GameError
from stargtp.engine.game import Game, Position
from stargtp.engine.games import find_game
from stargtp.protocol.tools.match.settings import GameJob, MatchSettings

# -- how a game can end: the record's "reason" ---------------------------------
# A game the rules ended: its descriptor's ``ended_by`` (stargtp.engine.game.Game).
REASON_SCORE = "score"
"""A game with a no-move rule (*Star's pass) ended on the board and was scored."""
REASON_NO_MOVES = "no_moves"
"""The Amazons: the side to move had no move and lost."""
REASON_CONNECTION = "connection"
"""Hex, Y: a player joined its edges and won."""
REASON_RESIGN = "resign"
"""``genmove`` answered ``resign``."""

# Adjudications: the referee ends the game early; the record's
# ``adjudication`` says why.
REASON_MOVE_LIMIT = "move_limit"
"""The game reached the match's move limit: a draw."""
REASON_SETTLED = "settled"
"""The score could no longer change (the game's ``settled``): scored now."""
REASON_AGREED = "agreed_lost"
"""Both engines' evaluations agreed, for several moves, that one side is lost."""
ADJUDICATIONS = (REASON_MOVE_LIMIT, REASON_SETTLED, REASON_AGREED)

# Faults: the engine at fault loses the game for one of these.
ILLEGAL_MOVE = "illegal_move"
"""``genmove`` answered a move the rules forbid here (e.g. an occupied cell)."""
MALFORMED_MOVE = "malformed_move"
"""``genmove`` answered text that is no move on this board."""
TIMEOUT = "timeout"
"""No complete answer in time: the clock (plus tolerance) or the command timeout."""
GENMOVE_ERROR = "genmove_error"
"""``genmove`` answered ``? ...``, which it never may."""
CRASH = "crash"
"""The engine died or closed its output (or the TCP connection)."""
PROTOCOL_ERROR = "protocol_error"
"""The output was not a well-formed answer: garbage framing, wrong id, too long."""
REJECTED_MOVE = "rejected_move"
"""The engine answered ``?`` to ``play`` with a move the referee found legal."""
SETUP_ERROR = "setup_error"
"""The engine failed a setup command (boardsize, clear_board, komi, opening ...)."""
START_FAILURE = "start_failure"
"""The engine could not be (re)started or reached for this game."""
FAULT_KINDS = (ILLEGAL_MOVE, MALFORMED_MOVE, TIMEOUT, GENMOVE_ERROR, CRASH, PROTOCOL_ERROR,
               REJECTED_MOVE, SETUP_ERROR, START_FAILURE)


def clip(text: str, limit: int = 100) -> str:
    """``text``, cut to ``limit`` characters with a note of its length."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


# -- the record ------------------------------------------------------------------
def new_record(job: GameJob, names: dict[int, str], identities: dict[int, str | None],
               settings: MatchSettings, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of game ``job`` of the match ``settings``, before it is played: engine ``names`` and the
    ``identities`` they reported, by colour; ``moves`` is the list the referee
    fills in as the game goes."""
    return {
        "type": "game", "key": job.key, "number": job.number, "pairing": [job.first, job.second], "round": job.round,
        "game": settings.game, "size": settings.board_size, "komi": settings.komi,
        **({"rules": settings.options} if settings.game_rules else {}),
        "black": job.black, "white": job.white,
        "engines": {colour_name(c): {"name": names[c], "target": settings.engine(names[c]).spec.text,
                                     "id": identities[c]} for c in (BLACK, WHITE)},
        "opening": None if job.opening_index is None else {"index": job.opening_index, "moves": list(job.opening)},
        "clock": settings.clock_text(),
        "moves": moves,
    }


def result_text(winner: int, reason: str) -> str:
    """The result of a game that did not end on the board, in SGF's notation:
    R resign (or a loss both engines agreed on), T time, F forfeit (every
    other fault)."""
    suffix = {REASON_RESIGN: "R", REASON_AGREED: "R", TIMEOUT: "T"}.get(reason, "F")
    return f"{'B' if winner == BLACK else 'W'}+{suffix}"


def complete_record(record: dict[str, Any], outcome: dict[str, Any], names: dict[int, str],
                    started: float, finished: float) -> None:
    """Add the outcome (``winner``, ``reason`` and, as they apply, ``ending``,
    ``result``, ``fault``, ``score``, ``engine_scores``, ``score_disagreements``) and the
    timing (``started`` and ``finished`` as ``time.time()`` values)."""
    winner = outcome["winner"]
    result = outcome.get("result")
    if result is None:
        result = result_text(winner, outcome["reason"])
    record.update({
        "result": result,
        "winner": None if winner is None else colour_name(winner),
        "winner_engine": None if winner is None else names[winner],
        "reason": outcome["reason"],
        **({"ending": outcome["ending"]} if outcome.get("ending") else {}),
        "fault": outcome.get("fault"),
        "score": outcome.get("score"),
        "engine_scores": outcome.get("engine_scores"),
        "score_disagreements": outcome.get("score_disagreements", []),
        "started": datetime.datetime.fromtimestamp(started, datetime.timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(finished - started, 3),
    })
    if outcome.get("adjudication"):
        record["adjudication"] = outcome["adjudication"]


def board_outcome(position: Position, komi: float) -> dict[str, Any]:
    """``winner``, ``reason``, ``ending``, ``result`` and ``score`` (the
    breakdown's JSON) of a game that ended on the board, from the game's
    descriptor: ``reason`` is its ``ended_by`` (``score``, ``no_moves``,
    ``connection``), ``ending`` the position's ``over_reason()`` in words.

    A game whose players can always move (*Star, which passes) ends when the
    rules say so and its score decides. In a game without a no-move (the
    Amazons, Hex: a player with nothing to play resigns) the position names
    the winner (the Amazons: the side to move has no move and loses; Hex: a
    player joined its edges); the score then adds the margin and its
    breakdown, when it names the same winner (else the result is ``B+`` /
    ``W+``)."""
    rules = position.rules
    ended = {"reason": rules.ended_by, "ending": position.over_reason()}
    if rules.no_move(position, komi) is None:
        winner = position.winner()
        try:
            breakdown = rules.score(position, komi)
        except GameError:
            breakdown = None
    else:
        breakdown = rules.score(position, komi)
        winner = breakdown.winner
    if breakdown is None or breakdown.winner != winner:
        return {"winner": winner, **ended, "result": "B+" if winner == BLACK else "W+"}
    return {"winner": winner, **ended, "result": breakdown.gtp_result(), "score": breakdown.to_json(position)}


def replay(record: dict[str, Any]) -> Position:
    """The final position of a recorded game (a resignation is no move),
    played with the rules the record names (its ``rules``, when the match
    had any)."""
    position = find_game(record["game"]).new_position(record["size"], record.get("rules"))
    for move in record["moves"]:
        if move["move"] != "resign":
            position.play(position.parse_move(move["move"]), BLACK if move["colour"] == "black" else WHITE)
    return position


# -- SGF -----------------------------------------------------------------------
def record_sgf(record: dict[str, Any]) -> str | None:
    """A game record as SGF, for the games that have SGF records (the game's
    ``write_record``), else None. The root names the engines (SGF calls the
    first mover ``B``: ``PB`` names the engine that moved first, in the
    Amazons our White, whose moves the game's writer writes as ``B``), the
    game (``GN``, its key), the date (``DT``) and how the game ended and under
    which time control (``GC``)."""
    rules = find_game(record["game"])
    if rules.write_record is None:
        return None
    position = replay(record)
    first_mover = rules.new_position(record["size"]).to_move
    names = {colour: record["engines"][colour_name(colour)]["name"] for colour in (BLACK, WHITE)}
    text = rules.write_record(position, result=record["result"], komi=record.get("komi", 0.0))
    properties = {"PB": names[first_mover], "PW": names[opponent(first_mover)], "GN": record["key"]}
    if record.get("started"):
        properties["DT"] = record["started"][:10]
    fault = record.get("fault")
    ending = f"ended by {record['reason']}" + (f" of {fault['engine']}: {fault['detail']}" if fault else "")
    if record.get("adjudication"):
        ending += f" (adjudicated: {record['adjudication']})"
    properties["GC"] = ending + (f"; clock: {record['clock']}" if record.get("clock") else "")
    return add_root_properties(text, properties)


def save_sgf(record: dict[str, Any], directory: str) -> str | None:
    """Write a game record as SGF (:func:`record_sgf`) into ``directory``
    (created if needed). Returns the path written, or None for a game
    without records."""
    text = record_sgf(record)
    if text is None:
        return None
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, sgf_file_name(record))
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    return path


def sgf_file_name(record: dict[str, Any]) -> str:
    """The name of a game's own SGF file: its key, made safe
    (``A vs B #3`` -> ``A_vs_B_3.sgf``)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", record["key"]) + ".sgf"


class RecordsFile:
    """Every game of a match in one SGF collection (like cutechess-cli's
    ``-pgnout``), one game tree after another in the order the games ended.

    It is made again from the results file's games when a match (re)starts,
    so it always agrees with the results file, then each game is appended as
    it finishes. Games without SGF records are left out."""

    def __init__(self, path: str, records: list[dict[str, Any]]) -> None:
        self.path = path
        texts = [text for text in map(record_sgf, records) if text is not None]
        temporary = path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write("".join(texts))
        os.replace(temporary, path)

    def append(self, record: dict[str, Any]) -> None:
        text = record_sgf(record)
        if text is not None:
            with open(self.path, "a", encoding="utf-8") as stream:
                stream.write(text)


def default_records_path(game: Game | str, results_path: str | None) -> str | None:
    """Where the SGF collection of a match goes when no file is given: beside
    the results file for a game that has SGF records (``games.jsonl`` ->
    ``games.sgf``), else nowhere."""
    rules = find_game(game) if isinstance(game, str) else game
    if rules.write_record is None or not results_path:
        return None
    return os.path.splitext(results_path)[0] + ".sgf"


def default_sgf_dir(game: Game | str, results_path: str | None) -> str | None:
    """Where games are saved as SGF when no directory is given: beside the
    results file for a game that has SGF records (``games.jsonl`` ->
    ``games-sgf/``), else nowhere."""
    rules = find_game(game) if isinstance(game, str) else game
    if rules.write_record is None or not results_path:
        return None
    root, _ = os.path.splitext(results_path)
    return root + "-sgf"


def add_root_properties(text: str, properties: dict[str, str]) -> str:
    r"""SGF ``text`` with ``properties`` added at the end of its root node,
    values escaped.

    >>> add_root_properties("(;GM[18]C[x\\]y]\n;B[aa])\n", {"GC": "a]b"})
    '(;GM[18]C[x\\]y]GC[a\\]b]\n;B[aa])\n'
    """
    end = _root_node_end(text)
    added = "".join(f"{name}[{_escape(value)}]" for name, value in properties.items())
    return text[:end] + added + text[end:]


def _root_node_end(text: str) -> int:
    """The index just after the last property value of the first node."""
    i = text.index(";", text.index("(")) + 1
    end = i
    while i < len(text) and text[i] not in ";()":
        if text[i] == "[":
            i += 1
            while text[i] != "]":
                i += 2 if text[i] == "\\" else 1
            end = i + 1
        elif not text[i].isspace():
            end = i + 1
        i += 1
    return end


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")
