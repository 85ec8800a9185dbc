"""What a match is: its settings, its engines, its openings and its schedule.

:class:`MatchSettings` holds everything that defines a match (only the
engines are required) and refuses settings that cannot work;
:func:`schedule` turns it into the list of :class:`GameJob` to play. The game
is named by its descriptor's name (:func:`stargtp.engine.games.find_game`); nothing
here knows which games there are.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import re
import shlex
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Sequence

from stargtp.engine.errors import GameError, IllegalMove
from stargtp.engine.game import Game, Position
from stargtp.engine.games import find_game, games
from stargtp.protocol.clock import TimeControl
from stargtp.protocol.controller import DEFAULT_COMMAND_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES, EngineSpec
from stargtp.protocol.stats import Sprt

DEFAULT_TIME_TOLERANCE = 0.25
"""Seconds an answer may arrive after the clock ran out and still count. It
absorbs pipe, network and scheduling delays the engine cannot see."""
DEFAULT_MOVE_TIMEOUT = 60.0
"""Seconds a move may take when no clock is set (the hang detector)."""
DEFAULT_START_TIMEOUT = 30.0
"""Seconds a freshly started engine may take to answer its first command
(loading a network or a book can take a while; a loaded machine too)."""

PLAYOUTS_PLACEHOLDER = "{playouts}"
"""Replaced by the ``--playouts`` number in engine commands."""
SLOT_PLACEHOLDER = "{slot}"
"""Replaced by the worker slot's number in engine commands."""

ROUND_ROBIN = "round-robin"
GAUNTLET = "gauntlet"
TOURNAMENTS = (ROUND_ROBIN, GAUNTLET)
"""The kinds of tournament: every pair plays, or the first engine plays each other one."""

_ENGINE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


def _default_game() -> str:
    return games()[0]


@dataclass(frozen=True)
class EngineEntry:
    """A named engine of the match."""

    name: str
    spec: EngineSpec
    directory: str | None = None
    """The working directory a command is started in (None: the runner's)."""
    options: tuple[tuple[str, str], ...] = ()
    """``(NAME, VALUE)`` settings sent as ``stargtp-param NAME VALUE`` after
    the engine starts (the engine must know ``stargtp-param``)."""

    def identity(self) -> str | dict[str, Any]:
        """What the results file records of this engine: its command (or
        address), with its directory and options when it has them."""
        if self.directory is None and not self.options:
            return self.spec.text
        return {"command": self.spec.text, "directory": self.directory, "options": dict(self.options)}

    @classmethod
    def parse(cls, text: str, default_name: str | None = None) -> "EngineEntry":
        """``NAME=COMMAND`` / ``NAME=tcp:HOST:PORT``, or just the command when
        ``default_name`` is given. Names: letters, digits, ``_ . -``."""
        name, sep, rest = text.partition("=")
        if sep and _ENGINE_NAME.match(name):
            return cls(name, EngineSpec.parse(rest))
        if default_name is None:
            if sep and " " not in name.strip():
                raise ValueError(f"engine name {name!r}: use 1 to 40 letters, digits, '_', '.' or '-'")
            raise ValueError(f"expected NAME=COMMAND (or NAME=tcp:HOST:PORT), not {text!r}")
        return cls(default_name, EngineSpec.parse(text))


def has_playouts_placeholder(engines: tuple[EngineEntry, ...] | list[EngineEntry]) -> bool:
    """Whether an engine command holds ``{playouts}`` (fixed playouts need one)."""
    return any(PLAYOUTS_PLACEHOLDER in word for engine in engines for word in engine.spec.argv or ())


@dataclass(frozen=True)
class MatchSettings:
    """Everything that defines a match. Only ``engines`` is required.

    With two engines the match is a head-to-head; with more, every pairing
    (:meth:`pairings`: all pairs, or the first engine with each other one in a
    gauntlet) plays ``games`` games. The first engine of each pairing plays
    black in even rounds; colours alternate unless ``alternate`` is False.
    """

    engines: tuple[EngineEntry, ...]
    tournament: str = ROUND_ROBIN
    """Who plays whom: ``round-robin`` (every pair) or ``gauntlet`` (the
    first engine against each of the others)."""
    game: str = field(default_factory=_default_game)
    """The game's name (:func:`stargtp.engine.games.games`); the first game by default."""
    size: int | None = None
    """Board size (rings for *Star); None for the game's default."""
    komi: float = 0.0
    game_rules: tuple[tuple[str, bool], ...] = ()
    """``(name, on)``: the game's options (Hex's and Y's ``swap``, see
    :attr:`stargtp.engine.game.Game.options`) this match is played with
    (``--rule``); the others keep their defaults."""
    games: int = 2
    """Games per pairing."""
    alternate: bool = True
    openings: tuple[tuple[str, ...], ...] = ()
    """Move lists, each played twice with colours swapped (when alternating)."""
    random_openings: int = 0
    """Plies of a seeded random opening for each colour-swapped pair of games
    (:func:`random_opening`); 0 for none. Excludes ``openings``."""
    openings_seed: int = 1
    """The seed of the random openings."""
    time_control: TimeControl = field(default_factory=TimeControl)
    time_tolerance: float = DEFAULT_TIME_TOLERANCE
    integer_times: bool = False
    """Send the clock in whole seconds (``time_settings`` rounded up,
    ``time_left`` rounded down), for engines that parse only integers like
    GNU Go; by default the times have up to three decimals."""
    move_timeout: float = DEFAULT_MOVE_TIMEOUT
    command_timeout: float = DEFAULT_COMMAND_TIMEOUT
    start_timeout: float = DEFAULT_START_TIMEOUT
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    playouts: int | None = None
    """Fixed-playouts mode: no clock, and ``{playouts}`` in engine commands is
    replaced by this number (see :meth:`engine_spec`)."""
    concurrency: int = 1
    max_moves: int | None = None
    """Adjudicate a game that reaches this many moves (the opening's
    included) as a draw; None for no limit."""
    adjudicate_settled: bool = False
    """End a game as soon as its score can no longer change (the game's
    ``settled``), with that score."""
    resign_adjudication: tuple[int, float] | None = None
    """``(moves, winrate)``: a side loses when, for ``moves`` moves of each
    engine, its engine reported a win rate of at most ``winrate`` and the
    opponent's at least ``1 - winrate`` (engines that know
    ``genmove_analyze``; the others are never adjudicated so)."""
    rating_prior: float = 1.0
    """Virtual draws added to every pairing that played in the joint rating
    fit (:func:`stargtp.protocol.ratings.fit_ratings`), so that perfect scores get
    finite ratings; 0 for the plain maximum-likelihood fit."""
    sprt: Sprt | None = None
    stats_model: str = "auto"
    """``trinomial``, ``pentanomial``, or ``auto`` (pentanomial when alternating)."""
    results_path: str | None = None
    check_scores: bool = True
    """Ask both engines for ``final_score`` after a scored game and log disagreements."""
    engine_stderr: str | None = None
    """File that collects the engines' stderr lines (default: discarded)."""
    sgf_dir: str | None = None
    """Directory for one SGF file per game, for games that have SGF records
    (see :func:`stargtp.protocol.tools.match.records.save_sgf`)."""
    records_path: str | None = None
    """One SGF collection holding every game of the match, for games that
    have SGF records (:class:`stargtp.protocol.tools.match.records.RecordsFile`)."""

    def __post_init__(self) -> None:
        names = [engine.name for engine in self.engines]
        if len(names) < 2:
            raise ValueError("a match needs at least two engines")
        if len(set(names)) != len(names):
            raise ValueError(f"engine names must differ: {', '.join(names)}")
        if self.tournament not in TOURNAMENTS:
            raise ValueError(f"unknown tournament {self.tournament!r} (known: {', '.join(TOURNAMENTS)})")
        if not (math.isfinite(self.rating_prior) and self.rating_prior >= 0):
            raise ValueError(f"the rating prior must be a finite number of draws >= 0, not {self.rating_prior!r}")
        if self.game not in games():
            raise ValueError(f"unknown game {self.game!r} (known: {', '.join(games())})")
        if self.games < 1 or self.concurrency < 1:
            raise ValueError("games and concurrency must be at least 1")
        if self.sprt is not None and len(self.engines) != 2:
            raise ValueError("an SPRT needs exactly two engines")
        if self.stats_model not in ("auto", "trinomial", "pentanomial"):
            raise ValueError(f"unknown statistics model {self.stats_model!r}")
        if self.stats_model == "pentanomial" and not self.alternate:
            raise ValueError("pentanomial statistics need alternating colours (game pairs)")
        if self.sprt is not None and self.sprt.elo_model == "bayeselo" and self.model == "pentanomial":
            raise ValueError("the bayeselo SPRT needs trinomial statistics (--stats trinomial)")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError("playouts must be at least 1")
        if self.playouts is not None and self.time_control.limited:
            raise ValueError("fixed playouts and a clock exclude each other")
        if self.playouts is not None and not has_playouts_placeholder(self.engines):
            raise ValueError(f"fixed playouts need {PLAYOUTS_PLACEHOLDER} in the engine commands, e.g. "
                             f"'stargtp serve --playouts {PLAYOUTS_PLACEHOLDER}'")
        if not (math.isfinite(self.time_tolerance) and self.time_tolerance >= 0):
            raise ValueError(f"the time tolerance must be a finite number of seconds >= 0, "
                             f"not {self.time_tolerance!r}")
        for value in (self.move_timeout, self.command_timeout, self.start_timeout):
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"timeouts must be a finite number of seconds > 0, not {value!r}")
        if not math.isfinite(self.komi):
            raise ValueError(f"komi must be a finite number, not {self.komi!r}")
        if self.max_response_bytes < 1:
            raise ValueError("max_response_bytes must be at least 1")
        if self.max_moves is not None and self.max_moves < 1:
            raise ValueError("the move limit must be at least 1")
        if self.resign_adjudication is not None:
            moves, winrate = self.resign_adjudication
            if moves < 1 or not 0 <= winrate < 0.5:
                raise ValueError("resign adjudication needs moves >= 1 and a win rate from 0 to below 0.5")
        if self.random_openings < 0:
            raise ValueError("random openings need a number of plies >= 0")
        if self.random_openings and self.openings:
            raise ValueError("random openings and an openings file exclude each other")
        try:
            self.new_position()
            for opening in self.openings:
                replay_opening(self.rules, self.board_size, opening, self.options)
            if self.random_openings:
                self.opening(0)
        except GameError as error:
            raise ValueError(str(error)) from None

    @property
    def rules(self) -> Game:
        """The game's descriptor."""
        return find_game(self.game)

    @property
    def options(self) -> dict[str, bool]:
        """The game's options asked for (:attr:`game_rules`), by name."""
        return dict(self.game_rules)

    def new_position(self) -> Position:
        """An empty board of the match: its game, size and rules (GameError
        for a rule the game does not have)."""
        return self.rules.new_position(self.board_size, self.options)

    @property
    def board_size(self) -> int:
        return self.rules.default_size if self.size is None else self.size

    @property
    def model(self) -> str:
        """The sampling model the statistics use."""
        if self.stats_model == "auto":
            return "pentanomial" if self.alternate else "trinomial"
        return self.stats_model

    def opening(self, step: int) -> tuple[int | None, tuple[str, ...]]:
        """``(index, moves)`` of the opening of the ``step``-th game pair (or
        game, without alternation): from the openings file, cycling, or the
        seeded random opening number ``step``; ``(None, ())`` for none."""
        if self.random_openings:
            return step, random_opening(self.game, self.board_size, self.komi, self.random_openings,
                                        self.openings_seed, step, self.game_rules)
        if self.openings:
            index = step % len(self.openings)
            return index, self.openings[index]
        return None, ()

    def clock_text(self) -> str:
        """The time control for people: ``60 s + 0.5 s/move``, ``no clock``,
        ``200 playouts per move``."""
        if self.playouts:
            return f"{self.playouts} playouts per move"
        return self.time_control.describe()

    def pairings(self) -> list[tuple[str, str]]:
        """The pairings in schedule order, first engine first: all pairs in a
        round robin, the first engine with each other one in a gauntlet."""
        names = [engine.name for engine in self.engines]
        if self.tournament == GAUNTLET:
            return [(names[0], other) for other in names[1:]]
        return list(itertools.combinations(names, 2))

    def engine(self, name: str) -> EngineEntry:
        return next(engine for engine in self.engines if engine.name == name)

    def engine_spec(self, name: str, slot: int = 0) -> EngineSpec:
        """How to start engine ``name`` in worker slot ``slot``: its command
        with ``{playouts}`` replaced in fixed-playouts mode (GTP has no
        standard command for a playout limit, so the limit travels on the
        engine's command line) and ``{slot}`` by the slot number, so that
        seeded engines of parallel slots do not all play the same games
        (``--seed 1{slot}``)."""
        spec = self.engine(name).spec
        if spec.argv is None:
            return spec
        argv = tuple(word.replace(SLOT_PLACEHOLDER, str(slot)) for word in spec.argv)
        if self.playouts is not None:
            argv = tuple(word.replace(PLAYOUTS_PLACEHOLDER, str(self.playouts)) for word in argv)
        return replace(spec, argv=argv)

    @classmethod
    def from_identity(cls, identity: dict[str, Any], **others: Any) -> "MatchSettings":
        """The settings a results file's header records (:meth:`identity`),
        with ``others`` (games, SPRT, ...) given; ValueError when they do not
        make a match."""
        engines = []
        for name, engine in identity["engines"].items():
            if isinstance(engine, dict):
                engines.append(EngineEntry(name, EngineSpec.parse(engine["command"]), engine.get("directory"),
                                           tuple((k, str(v)) for k, v in engine.get("options", {}).items())))
            else:
                engines.append(EngineEntry(name, EngineSpec.parse(engine)))
        adjudication = identity.get("adjudication") or {}
        random_openings = identity.get("random_openings") or {}
        resign = adjudication.get("resign")
        return cls(engines=tuple(engines), game=identity["game"], size=identity["size"], komi=identity["komi"],
                   alternate=identity["alternate"], openings=tuple(tuple(o) for o in identity["openings"]),
                   time_control=TimeControl.from_json(identity["time_control"]), playouts=identity["playouts"],
                   tournament=identity.get("tournament", ROUND_ROBIN), max_moves=adjudication.get("max_moves"),
                   adjudicate_settled=bool(adjudication.get("settled")),
                   resign_adjudication=(resign[0], resign[1]) if resign else None,
                   random_openings=random_openings.get("plies", 0), openings_seed=random_openings.get("seed", 1),
                   game_rules=tuple((name, bool(on)) for name, on in (identity.get("rules") or {}).items()),
                   **others)

    def identity(self) -> dict[str, Any]:
        """The settings that decide what a recorded game means; a results file
        can only be resumed by a match with the same identity. The number of
        games, concurrency, SPRT and timeouts may change between runs."""
        identity: dict[str, Any] = {
            "game": self.game,
            "size": self.board_size,
            "komi": self.komi,
            "engines": {engine.name: engine.identity() for engine in self.engines},
            "alternate": self.alternate,
            "openings": [list(opening) for opening in self.openings],
            "time_control": self.time_control.to_json(),
            "playouts": self.playouts,
        }
        # Only when set, so that files from before these settings stay resumable:
        if self.tournament != ROUND_ROBIN:
            identity["tournament"] = self.tournament
        adjudication = {"max_moves": self.max_moves, "settled": self.adjudicate_settled,
                        "resign": list(self.resign_adjudication) if self.resign_adjudication else None}
        if any(adjudication.values()):
            identity["adjudication"] = adjudication
        if self.random_openings:
            identity["random_openings"] = {"plies": self.random_openings, "seed": self.openings_seed}
        if self.game_rules:
            identity["rules"] = self.options
        return identity


@dataclass(frozen=True)
class GameJob:
    """One scheduled game."""

    key: str
    """Unique within a match: ``"A vs B #3"``, the pairing and the game's
    :attr:`number`; the resume key."""
    number: int
    """1-based place in the whole schedule (:func:`game_number`): the
    ``game N of TOTAL`` of the progress lines, the ``#N`` of the key."""
    first: str
    second: str
    round: int
    """0-based game number within the pairing."""
    black: str
    white: str
    opening_index: int | None
    opening: tuple[str, ...]


def schedule(settings: MatchSettings) -> list[GameJob]:
    """Every game of the match in playing order: round by round, each round
    visiting every pairing. Rounds ``2k`` and ``2k+1`` of a pairing share an
    opening and swap colours (when alternating)."""
    jobs = []
    for round_number in range(settings.games):
        for first, second in settings.pairings():
            swapped = settings.alternate and round_number % 2 == 1
            opening_index, opening = settings.opening(round_number // 2 if settings.alternate else round_number)
            number = game_number(settings, (first, second), round_number)
            jobs.append(GameJob(
                key=game_key(first, second, number), number=number, first=first, second=second,
                round=round_number, black=second if swapped else first, white=first if swapped else second,
                opening_index=opening_index, opening=opening))
    return jobs


def game_number(settings: MatchSettings, pairing: Sequence[str], round_number: int) -> int:
    """The 1-based number of a pairing's game ``round_number`` (0-based) in
    the schedule: round by round, each round visiting the pairings in order,
    so a number never depends on ``--games``. ValueError for a pairing the
    match does not have."""
    pairings = settings.pairings()
    return round_number * len(pairings) + pairings.index((pairing[0], pairing[1])) + 1


def game_key(first: str, second: str, number: int) -> str:
    """A game's key: ``"A vs B #3"``."""
    return f"{first} vs {second} #{number}"


def numbered(records: list[dict[str, Any]], settings: MatchSettings) -> list[dict[str, Any]]:
    """``records`` of the match ``settings`` describe with their ``key`` and
    ``number`` as this version numbers games, from each record's pairing and
    round. Results files written before version 0.2.0 numbered keys from 0
    within each pairing (``"A vs B #0"``); their records are read this way, so
    such a match resumes, and reports, in today's numbering. Records of a
    pairing the match does not have are left out."""
    known = set(settings.pairings())
    result = []
    for record in records:
        pairing = tuple(record.get("pairing") or ())
        if pairing not in known or not isinstance(record.get("round"), int):
            continue
        number = game_number(settings, pairing, record["round"])
        result.append({**record, "key": game_key(pairing[0], pairing[1], number), "number": number})
    return result


def replay_opening(game: Game | str, size: int, moves: tuple[str, ...] | list[str],
                   options: dict[str, bool] | None = None) -> Position:
    """The position after ``moves`` in ``game`` (a descriptor or its name)
    played with ``options`` (its rules, ``{"swap": True}``); IllegalMove for
    a bad move, GameError if the opening ends the game (nothing would be
    left to play)."""
    rules = find_game(game) if isinstance(game, str) else game
    position = rules.new_position(size, options)
    for text in moves:
        try:
            position.play(position.parse_move(text))
        except IllegalMove as error:
            raise IllegalMove(f"{text!r}: {error}") from None
    if position.is_over():
        raise GameError("the opening ends the game")
    return position


@lru_cache(maxsize=4096)
def random_opening(game: str, size: int, komi: float, plies: int, seed: int, index: int,
                   rules: tuple[tuple[str, bool], ...] = ()) -> tuple[str, ...]:
    """Opening number ``index`` of the seeded series, with the game's options
    ``rules`` (``(("swap", True),)``): ``plies`` random legal
    moves (never the no-move, *Star's pass) after which the game is not
    over; the same moves for the same arguments on every machine. GameError
    when no such opening turns up in 100 tries (a board too small).

    >>> random_opening("star", 3, 0.0, 2, 1, 0) == random_opening("star", 3, 0.0, 2, 1, 0)
    True
    >>> len(random_opening("amazons", 6, 0.0, 3, 1, 5))
    3
    """
    descriptor = find_game(game)
    rng = random.Random(f"stargtp-opening/{seed}/{index}")
    for _ in range(100):
        position = descriptor.new_position(size, dict(rules))
        for _ in range(plies):
            no_move = descriptor.no_move(position, komi)
            moves = [move for move in position.legal_moves() if move != no_move] if not position.is_over() else []
            if not moves:
                break
            position.play(rng.choice(moves))
        else:
            if not position.is_over():
                return tuple(position.format_move(move) for _, move in position.history)
    raise GameError(f"no random opening of {plies} plies leaves a game to play on this board")


def read_openings(path: str, game: Game | str, size: int,
                  options: dict[str, bool] | None = None) -> tuple[tuple[str, ...], ...]:
    """Openings from a text file: one per line, moves separated by spaces, in
    playing order from the game's first mover; ``#`` starts a comment. Each is
    checked with the rules (and the game's ``options``) and returned in
    canonical notation. ValueError names the line of a bad one."""
    openings = []
    with open(path, encoding="utf-8") as stream:
        for line_number, line in enumerate(stream, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                position = replay_opening(game, size, words, options)
            except GameError as error:
                raise ValueError(f"{path}:{line_number}: {error}") from None
            openings.append(tuple(position.format_move(move) for _, move in position.history))
    if not openings:
        raise ValueError(f"{path}: no openings")
    return tuple(openings)


ENGINE_FILE_KEYS = ("command", "directory", "options")


def read_engines_file(path: str) -> dict[str, EngineEntry]:
    """The engines of a TOML configuration file, by name::

        [engines.uct]
        command = "stargtp serve --player uct --playouts {playouts} --seed 1{slot}"
        directory = "engines/uct"          # optional; relative to this file
        options = { exploration = 0.8 }   # optional; sent as stargtp-param

        [engines.remote]
        command = "tcp:127.0.0.1:5000"

    ``command`` is a command line (split like a shell would) or a list of
    words, or a ``tcp:HOST:PORT`` address. OSError when the file cannot be
    read, ValueError (naming the file and the engine) for anything else."""
    with open(path, "rb") as stream:
        try:
            data = tomllib.load(stream)
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{path}: not TOML: {error}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not UTF-8 text") from None
    table = data.get("engines")
    if not isinstance(table, dict) or not table:
        raise ValueError(f"{path}: no [engines.NAME] tables")
    extra = sorted(set(data) - {"engines"})
    if extra:
        raise ValueError(f"{path}: unknown table or key {extra[0]!r} (only [engines.NAME] tables)")
    base = os.path.dirname(os.path.abspath(path))
    return {name: _engine_from_table(path, base, name, value) for name, value in table.items()}


def _engine_from_table(path: str, base: str, name: str, table: Any) -> EngineEntry:
    where = f"{path}: engine {name!r}"
    if not _ENGINE_NAME.match(name):
        raise ValueError(f"{where}: use 1 to 40 letters, digits, '_', '.' or '-' in engine names")
    if not isinstance(table, dict):
        raise ValueError(f"{where}: expected a table [engines.{name}]")
    unknown = sorted(set(table) - set(ENGINE_FILE_KEYS))
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(ENGINE_FILE_KEYS)})")
    command = table.get("command")
    if isinstance(command, list) and command and all(isinstance(word, str) for word in command):
        spec = EngineSpec(text=shlex.join(command), argv=tuple(command))
    elif isinstance(command, str):
        try:
            spec = EngineSpec.parse(command)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
    else:
        raise ValueError(f"{where}: expected command = a command line, a list of words or tcp:HOST:PORT")
    directory = table.get("directory")
    if directory is not None:
        if not isinstance(directory, str) or spec.argv is None:
            raise ValueError(f"{where}: directory must be a path, and only for a command")
        directory = os.path.normpath(os.path.join(base, directory))
        if not os.path.isdir(directory):
            raise ValueError(f"{where}: directory {directory} does not exist")
    options = table.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, (str, int, float, bool)) for v in options.values()):
        raise ValueError(f"{where}: expected options = {{ NAME = VALUE, ... }} with plain values")
    texts = tuple((key, _option_text(value)) for key, value in options.items())
    for key, value in texts:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", key) or not re.fullmatch(r"[^\s#]+", value):
            raise ValueError(f"{where}: option {key} = {value!r}: names and values are single words")
    return EngineEntry(name, spec, directory, texts)


def _option_text(value: str | int | float | bool) -> str:
    """A TOML value as the protocol writes it: ``on``/``off`` for booleans."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
