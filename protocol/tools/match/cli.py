"""``stargtp match`` on the command line: its options, their checks, and the run.

Every option is read as text and checked here, so that a bad value gives one
line naming the option and the form it takes (``--games N: expected a whole
number of at least 1, not '0'``) and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import math
import os
import re
import sys
from dataclasses import replace
from typing import TextIO

from stargtp.engine.errors import GameError
from stargtp.engine.games import find_game, games
from stargtp.protocol.cli import file_to_write_problem, game_sizes, game_titles
from stargtp.protocol.clock import TimeControl
from stargtp.protocol.controller import DEFAULT_COMMAND_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES
from stargtp.protocol.server.serve import parse_rules
from stargtp.protocol.stats import Sprt
from stargtp.protocol.signals import add_signal_handlers, remove_signal_handlers
from stargtp.protocol.tools.match.records import default_records_path, default_sgf_dir
from stargtp.protocol.tools import plural
from stargtp.protocol.tools.match.page import write_page
from stargtp.protocol.tools.match.report import format_summary, terminal_width
from stargtp.protocol.tools.match.results import ResultsError, read_results
from stargtp.protocol.tools.match.runner import MatchResult, run_match
from stargtp.protocol.tools.match.settings import (DEFAULT_MOVE_TIMEOUT, DEFAULT_START_TIMEOUT, DEFAULT_TIME_TOLERANCE,
                                                   PLAYOUTS_PLACEHOLDER, ROUND_ROBIN, TOURNAMENTS, EngineEntry, MatchSettings,
                                                   has_playouts_placeholder, random_opening, read_engines_file,
                                                   read_openings)

OPT_BLACK = "--black [NAME=]ENGINE"
OPT_WHITE = "--white [NAME=]ENGINE"
OPT_ENGINE = "--engine NAME=ENGINE"
OPT_SIZE = "--size N"
OPT_KOMI = "--komi K"
OPT_RULE = "--rule NAME=VALUE"
OPT_GAMES = "--games N"
OPT_OPENINGS = "--openings FILE"
OPT_TIME = "--time MAIN[+INC]"
OPT_BYOYOMI = "--byoyomi SECONDS[xPERIODS]"
OPT_CANADIAN = "--canadian SECONDS/STONES"
OPT_TOLERANCE = "--time-tolerance SECONDS"
OPT_PLAYOUTS = "--playouts N"
OPT_MOVE_TIMEOUT = "--move-timeout SECONDS"
OPT_COMMAND_TIMEOUT = "--command-timeout SECONDS"
OPT_START_TIMEOUT = "--start-timeout SECONDS"
OPT_CONCURRENCY = "--concurrency K"
OPT_RESULTS = "--results FILE"
OPT_SPRT = "--sprt ELO0 ELO1 ALPHA BETA"
OPT_ENGINE_STDERR = "--engine-stderr FILE"
OPT_MAX_RESPONSE = "--max-response-bytes N"
OPT_SGF_DIR = "--sgf-dir DIR"
OPT_RECORDS = "--records FILE"
OPT_RATING_PRIOR = "--rating-prior DRAWS"
OPT_ENGINES_FILE = "--engines-file FILE"
OPT_RANDOM_OPENINGS = "--random-openings PLIES"
OPT_MAX_MOVES = "--max-moves N"
OPT_REPORT = "--report FILE.html"
OPT_RESIGN_ADJUDICATION = "--resign-adjudication MOVES WINRATE"
OPT_OPENINGS_SEED = "--openings-seed N"
OPT_REPORT_EVERY = "--report-every N"
OPT_DEBUG = "--debug FILE"
OPT_CLUSTER = "--cluster ADDRESS"
CLUSTER_EXTRA = "pip install 'stargtp[cluster]'"


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make argparse's own errors (an unknown ``--game``, ``--sprt`` with three
    numbers) one line too, like the checks of :func:`settings_from_args`,
    instead of the usage text followed by the message."""
    def error(message: str) -> None:
        parser.exit(2, f"{parser.prog}: {message}\n")

    parser.error = error  # type: ignore[method-assign, assignment]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``stargtp match``. Values are read as text and checked
    by :func:`settings_from_args`."""
    _one_line_errors(parser)
    engines = parser.add_argument_group("engines (commands to start, or tcp:HOST:PORT)")
    engines.add_argument("--black", metavar="[NAME=]ENGINE", help="first engine (named A unless NAME= is given); "
                         "plays black in even rounds")
    engines.add_argument("--white", metavar="[NAME=]ENGINE", help="second engine (named B unless NAME= is given)")
    engines.add_argument("--engine", metavar="NAME=ENGINE", action="append", default=[],
                         help="an engine by name; give two or more for a tournament (instead of --black/--white)")
    engines.add_argument("--engines-file", metavar="FILE",
                         help="TOML file of engines ([engines.NAME] with command, directory, options); "
                              "--engine NAME, --black NAME and --white NAME then pick them by name")
    engines.add_argument("--tournament", choices=TOURNAMENTS, default=ROUND_ROBIN,
                         help="round-robin: every pair of engines plays (default); gauntlet: the first engine "
                              "plays each of the others")
    game = parser.add_argument_group("games")
    game.add_argument("--game", choices=games(), default=games()[0])
    game.add_argument("--size", metavar="N", help=f"board size: {game_sizes()} (default: the game's)")
    game.add_argument("--komi", metavar="K", help="komi, added to white's *Star score (default 0)")
    game.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                      help="a rule of the game on or off, e.g. swap=on (Hex's and Y's swap rule; repeatable); "
                           "sent to engines that know stargtp-rules, the others must be started with it")
    game.add_argument("--games", metavar="N", help="games per pairing (default 2)")
    game.add_argument("--no-alternate", dest="alternate", action="store_false",
                      help="the first engine always plays black")
    game.add_argument("--openings", metavar="FILE", help="opening move lists, one per line; each is played twice, "
                      "colours swapped")
    game.add_argument("--random-openings", metavar="PLIES",
                      help="a seeded random opening of PLIES legal moves for each pair of games, played "
                           "with colours swapped (instead of --openings)")
    game.add_argument("--openings-seed", metavar="N", help="seed of --random-openings (default 1)")
    adjudication = parser.add_argument_group("adjudication (the record's reason and adjudication say why)")
    adjudication.add_argument("--max-moves", metavar="N", help="a game that reaches N moves is a draw")
    adjudication.add_argument("--adjudicate-settled", action="store_true",
                              help="end a game with its score as soon as the score can no longer change")
    adjudication.add_argument("--resign-adjudication", nargs=2, metavar=("MOVES", "WINRATE"),
                              help="a side loses when, for MOVES moves each, its engine reports a win rate of at "
                                   "most WINRATE and the opponent's at least 1 - WINRATE (genmove_analyze)")
    clock = parser.add_argument_group("time control")
    clock.add_argument("--time", metavar="MAIN[+INC]", help="main time and Fischer increment, seconds")
    clock.add_argument("--byoyomi", metavar="SECONDS[xPERIODS]", help="Japanese byo-yomi after main time")
    clock.add_argument("--canadian", metavar="SECONDS/STONES", help="Canadian byo-yomi after main time")
    clock.add_argument("--time-tolerance", metavar="SECONDS",
                       help=f"grace after the clock runs out (default {DEFAULT_TIME_TOLERANCE})")
    clock.add_argument("--integer-times", action="store_true",
                       help="send time_settings and time_left in whole seconds, for engines that read only "
                            "integers (GNU Go); default: to the millisecond")
    clock.add_argument("--playouts", metavar="N",
                       help="fixed-playouts mode: no clock; {playouts} in engine commands becomes N")
    clock.add_argument("--move-timeout", metavar="SECONDS",
                       help=f"longest move without a clock (default {DEFAULT_MOVE_TIMEOUT:g})")
    clock.add_argument("--command-timeout", metavar="SECONDS",
                       help=f"longest answer to any other command (default {DEFAULT_COMMAND_TIMEOUT:g})")
    clock.add_argument("--start-timeout", metavar="SECONDS",
                       help=f"longest wait for a started engine's first answer (default {DEFAULT_START_TIMEOUT:g})")
    run = parser.add_argument_group("running")
    run.add_argument("--concurrency", metavar="K", help="games played in parallel (default 1; with --cluster, "
                     "the workers' threads)")
    run.add_argument("--cluster", metavar="ADDRESS",
                     help="play the games as tasks on the Dask scheduler at ADDRESS (tcp://HOST:PORT), or on a "
                          f"local cluster of N worker processes (local:N); needs {CLUSTER_EXTRA}")
    run.add_argument("--results", metavar="FILE", help="JSON-lines results file; re-run with it to resume "
                     "(default: a new file named after the engines and the time, e.g. "
                     "match-A-vs-B-20261201-180000.jsonl)")
    run.add_argument("--sprt", nargs=4, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                     help="stop early when the sequential test decides")
    run.add_argument("--sprt-model", choices=("logistic", "bayeselo"), default="logistic",
                     help="Elo model of the SPRT: fishtest's logistic (default) or cutechess-cli's bayeselo")
    run.add_argument("--rating-prior", metavar="DRAWS",
                     help="virtual draws per pairing in the joint rating list (default 1; 0: plain maximum "
                          "likelihood, no finite rating for a perfect score)")
    run.add_argument("--stats", choices=("auto", "trinomial", "pentanomial"), default="auto",
                     help="sampling model: pentanomial counts colour-swapped game pairs (auto: when alternating)")
    run.add_argument("--no-score-check", dest="check_scores", action="store_false",
                     help="do not ask the engines for final_score")
    run.add_argument("--engine-stderr", metavar="FILE", help="collect the engines' stderr in FILE")
    run.add_argument("--max-response-bytes", metavar="N",
                     help=f"longest answer accepted (default {DEFAULT_MAX_RESPONSE_BYTES})")
    run.add_argument("--sgf-dir", metavar="DIR",
                     help="save each game as its own SGF file in DIR, for games with SGF records "
                          f"({game_titles(lambda game: game.write_record is not None)}; default with "
                          "--results FILE: FILE's name without its suffix, plus -sgf)")
    run.add_argument("--records", metavar="FILE",
                     help="every game in one SGF collection (default with --results FILE: FILE's name with"
                          " .sgf for its suffix)")
    run.add_argument("--report", metavar="FILE.html",
                     help="write a report page (ratings, tables, plots, links to the records) at the end")
    run.add_argument("--quiet", action="store_true", help="no progress on stderr")
    run.add_argument("--report-every", metavar="N", help="print the results table on stderr every N games")
    run.add_argument("--debug", metavar="FILE",
                     help="log every line sent to and received from every engine, with time, game and engine")


def _whole_number(option: str, text: str | None, default: int | None, minimum: int | None) -> int | None:
    """``text`` as an integer of at least ``minimum`` (``default`` when None)."""
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or (minimum is not None and value < minimum):
        bound = "" if minimum is None else f" of at least {minimum}"
        raise ValueError(f"{option}: expected a whole number{bound}, not {text!r}")
    return value


def _number(option: str, text: str | None, default: float, *, minimum: float | None = None,
            positive: bool = False, unit: str = "") -> float:
    """``text`` as a finite float (``default`` when None), optionally > 0 or >= ``minimum``."""
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    bound = " > 0" if positive else f" >= {minimum:g}" if minimum is not None else ""
    if not math.isfinite(value) or (positive and value <= 0) or (minimum is not None and value < minimum):
        raise ValueError(f"{option}: expected a finite number{unit}{bound}, not {text!r}")
    return value


def _seconds(option: str, text: str | None, default: float, *, allow_zero: bool = False) -> float:
    return _number(option, text, default, minimum=0.0 if allow_zero else None, positive=not allow_zero,
                   unit=" of seconds")


def _file_to_write(option: str, path: str) -> None:
    """A file the match will create or append to: not a directory, in a
    directory that exists, readable and writable."""
    problem = file_to_write_problem(path)
    if problem is not None:
        raise ValueError(f"{option}: {problem}")


def _directory_to_fill(option: str, path: str) -> None:
    """A directory the match will create if needed and write files into."""
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise ValueError(f"{option}: {path} exists and is not a directory")
        if not os.access(path, os.W_OK | os.X_OK):
            raise ValueError(f"{option}: cannot write into {path}: permission denied")
        return
    ancestor = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        raise ValueError(f"{option}: cannot create {path}: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ValueError(f"{option}: cannot create {path}: permission denied in {ancestor}")


def _empty_or_sgf(path: str) -> bool:
    """Whether ``path`` is missing, empty or starts like SGF: a records file
    is written anew, and must not replace anything else."""
    try:
        with open(path, "rb") as stream:
            start = stream.read(64).lstrip()
    except OSError:
        return True
    return not start or start.startswith(b"(")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist yet
        return os.path.abspath(a) == os.path.abspath(b)


def _configured_engines(path: str | None) -> dict[str, EngineEntry]:
    """The engines of ``--engines-file``, by name (none without one)."""
    if path is None:
        return {}
    try:
        return read_engines_file(path)
    except OSError as error:
        raise ValueError(f"{OPT_ENGINES_FILE}: cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise ValueError(f"{OPT_ENGINES_FILE}: {error}") from None


def _engine_entries(args: argparse.Namespace) -> list[EngineEntry]:
    configured = _configured_engines(args.engines_file)

    def entry(option: str, text: str, default_name: str | None) -> EngineEntry:
        if text in configured:
            return configured[text]
        if configured and re.fullmatch(r"[A-Za-z0-9_.-]+", text):
            raise ValueError(f"{option}: no engine {text!r} in {args.engines_file} "
                             f"(it has {', '.join(configured)})")
        try:
            return EngineEntry.parse(text, default_name)
        except ValueError as error:
            raise ValueError(f"{option}: {error}") from None

    if args.engine:
        if args.black or args.white:
            raise ValueError(f"{OPT_ENGINE}: use either --black/--white or --engine, not both")
        entries = [entry(OPT_ENGINE, text, None) for text in args.engine]
        if len(entries) < 2:
            raise ValueError(f"{OPT_ENGINE}: a tournament needs two or more engines, not {len(entries)}")
        option = OPT_ENGINE
    else:
        if not (args.black and args.white):
            raise ValueError(f"{OPT_BLACK}, {OPT_WHITE}: give both (or two or more {OPT_ENGINE})")
        entries = [entry(OPT_BLACK, args.black, "A"), entry(OPT_WHITE, args.white, "B")]
        option = f"{OPT_BLACK}, {OPT_WHITE}"
    names = [e.name for e in entries]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"{option}: engine names must differ; given more than once: {', '.join(repeated)}")
    return entries


def _time_control(args: argparse.Namespace) -> TimeControl:
    texts = {"main": args.time, "byoyomi": args.byoyomi, "canadian": args.canadian}
    for key, option in (("main", "--time"), ("byoyomi", "--byoyomi"), ("canadian", "--canadian")):
        if texts[key] is not None:
            try:
                TimeControl.parse(**{key: texts[key]})  # its message starts with the form
            except ValueError as error:
                raise ValueError(f"{option} {error}") from None
    if args.byoyomi is not None and args.canadian is not None:
        raise ValueError(f"{OPT_BYOYOMI}, {OPT_CANADIAN}: choose one kind of byo-yomi, not both")
    main = TimeControl.parse(main=args.time) if args.time is not None else TimeControl()
    byoyomi = args.byoyomi is not None or args.canadian is not None
    if args.time is not None and main.increment and byoyomi:
        raise ValueError(f"{OPT_TIME}: an increment does not combine with --byoyomi or --canadian")
    if args.time is not None and not main.main > 0 and not byoyomi:
        raise ValueError(f"{OPT_TIME}: a main time of 0 and no byo-yomi is no clock; give MAIN > 0 "
                         f"(or leave --time out for no clock)")
    try:
        return TimeControl.parse(args.time, args.byoyomi, args.canadian)
    except ValueError as error:
        raise ValueError(f"{OPT_TIME}: {error}") from None


def default_results_path(entries: list[EngineEntry], now: datetime.datetime | None = None,
                         directory: str = ".") -> str:
    """A new results file's name when ``--results`` is not given: the engines
    and the local time, ``match-A-vs-B-20261201-180000.jsonl`` (a round robin
    names its first engines and how many more), never an existing file.

    >>> entries = [EngineEntry.parse(text) for text in ("flat=x", "uct=y")]
    >>> default_results_path(entries, datetime.datetime(2026, 12, 1, 18, 0), "/nonexistent")
    '/nonexistent/match-flat-vs-uct-20261201-180000.jsonl'
    """
    names = [entry.name for entry in entries]
    who = "-vs-".join(names) if len(names) <= 3 else f"{names[0]}-vs-{names[1]}-and-{len(names) - 2}-more"
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = os.path.join(directory, f"match-{who}-{stamp}") if directory != "." else f"match-{who}-{stamp}"
    path, number = base + ".jsonl", 1
    while os.path.exists(path):
        number += 1
        path = f"{base}-{number}.jsonl"
    return path


def settings_from_args(args: argparse.Namespace) -> MatchSettings:
    """Build :class:`MatchSettings` from parsed options. ValueError, with a
    message that names the option and the form it takes, when they do not fit."""
    entries = _engine_entries(args)
    size = _whole_number(OPT_SIZE, args.size, None, None)
    rules = find_game(args.game)
    size_value = rules.default_size if size is None else size
    try:
        rules.new_position(size_value)
    except GameError as error:
        raise ValueError(f"{OPT_SIZE}: {error}" + (" (the default size)" if size is None else "")) from None
    try:
        game_rules = parse_rules(args.game, args.rule)
    except ValueError as error:
        message = str(error)
        raise ValueError(message if message.startswith("--rule") else f"{OPT_RULE}: {message}") from None
    options = dict(game_rules)
    komi = _number(OPT_KOMI, args.komi, 0.0)
    games_per_pairing = _whole_number(OPT_GAMES, args.games, 2, 1)
    concurrency = _whole_number(OPT_CONCURRENCY, args.concurrency, 1, 1)
    rating_prior = _number(OPT_RATING_PRIOR, args.rating_prior, 1.0, minimum=0.0, unit=" of draws")
    playouts = _whole_number(OPT_PLAYOUTS, args.playouts, None, 1)
    time_control = _time_control(args)
    if playouts is not None and time_control.limited:
        raise ValueError(f"{OPT_PLAYOUTS}: fixed playouts and a clock (--time, --byoyomi, --canadian) "
                         f"exclude each other")
    if playouts is not None and not has_playouts_placeholder(entries):
        raise ValueError(f"{OPT_PLAYOUTS}: fixed playouts need {PLAYOUTS_PLACEHOLDER} in the engine commands, "
                         f"e.g. 'stargtp serve --playouts {PLAYOUTS_PLACEHOLDER}'")
    tolerance = _seconds(OPT_TOLERANCE, args.time_tolerance, DEFAULT_TIME_TOLERANCE, allow_zero=True)
    move_timeout = _seconds(OPT_MOVE_TIMEOUT, args.move_timeout, DEFAULT_MOVE_TIMEOUT)
    command_timeout = _seconds(OPT_COMMAND_TIMEOUT, args.command_timeout, DEFAULT_COMMAND_TIMEOUT)
    start_timeout = _seconds(OPT_START_TIMEOUT, args.start_timeout, DEFAULT_START_TIMEOUT)
    max_response_bytes = _whole_number(OPT_MAX_RESPONSE, args.max_response_bytes, DEFAULT_MAX_RESPONSE_BYTES, 1)
    if args.stats == "pentanomial" and not args.alternate:
        raise ValueError("--stats pentanomial: needs alternating colours (game pairs); drop --no-alternate")
    sprt = None
    if args.sprt:
        numbers = [_number(OPT_SPRT, text, 0.0) for text in args.sprt]
        try:
            sprt = Sprt(*numbers, elo_model=args.sprt_model)
        except ValueError as error:
            raise ValueError(f"{OPT_SPRT}: {error}") from None
        if len(entries) != 2:
            raise ValueError(f"{OPT_SPRT}: an SPRT needs exactly two engines, not a tournament of {len(entries)}")
        if args.sprt_model == "bayeselo" and (args.stats == "pentanomial" or
                                              (args.stats == "auto" and args.alternate)):
            raise ValueError("--sprt-model bayeselo: needs trinomial statistics (--stats trinomial)")
    openings: tuple[tuple[str, ...], ...] = ()
    if args.openings:
        try:
            openings = read_openings(args.openings, rules, size_value, options)
        except OSError as error:
            raise ValueError(f"{OPT_OPENINGS}: cannot read {args.openings}: "
                             f"{error.strerror or error}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{OPT_OPENINGS}: {args.openings} is not UTF-8 text") from None
        except (ValueError, GameError) as error:
            raise ValueError(f"{OPT_OPENINGS}: {error}") from None
    random_openings = _whole_number(OPT_RANDOM_OPENINGS, args.random_openings, 0, 1)
    openings_seed = _whole_number(OPT_OPENINGS_SEED, args.openings_seed, 1, None)
    if random_openings and args.openings:
        raise ValueError(f"{OPT_RANDOM_OPENINGS}: choose random openings or {OPT_OPENINGS}, not both")
    if random_openings:
        try:
            random_opening(args.game, size_value, komi, random_openings, openings_seed, 0, game_rules)
        except GameError as error:
            raise ValueError(f"{OPT_RANDOM_OPENINGS}: {error}") from None
    max_moves = _whole_number(OPT_MAX_MOVES, args.max_moves, None, 1)
    resign_adjudication = None
    if args.resign_adjudication:
        resign_moves = _whole_number(OPT_RESIGN_ADJUDICATION, args.resign_adjudication[0], 1, 1)
        winrate = _number(OPT_RESIGN_ADJUDICATION, args.resign_adjudication[1], 0.0, minimum=0.0)
        if winrate >= 0.5:
            raise ValueError(f"{OPT_RESIGN_ADJUDICATION}: expected a win rate below 0.5, not "
                             f"{args.resign_adjudication[1]!r}")
        resign_adjudication = (resign_moves or 1, winrate)
    results = args.results or default_results_path(entries)
    _file_to_write(OPT_RESULTS, results)
    logs = ((OPT_ENGINE_STDERR, args.engine_stderr, "the engines' stderr"), (OPT_DEBUG, args.debug, "the debug log"))
    for option, path, what in logs:
        if path:
            _file_to_write(option, path)
            if _same_file(results, path):
                raise ValueError(f"{option}: {path} is also the {OPT_RESULTS}; {what} would corrupt the results")
    records_path = args.records or default_records_path(rules, results)
    if records_path:
        option = OPT_RECORDS + ("" if args.records else f" (default for {OPT_RESULTS})")
        _file_to_write(option, records_path)
        if _same_file(results, records_path):
            raise ValueError(f"{option}: {records_path} is also the {OPT_RESULTS}")
        if not _empty_or_sgf(records_path):
            raise ValueError(f"{option}: {records_path} is not an SGF collection; give a new file or one "
                             f"written by stargtp match")
    sgf_dir = args.sgf_dir or default_sgf_dir(rules, results)
    if sgf_dir:
        _directory_to_fill(OPT_SGF_DIR + ("" if args.sgf_dir else f" (default for {OPT_RESULTS})"), sgf_dir)
    return MatchSettings(
        engines=tuple(entries), tournament=args.tournament, rating_prior=rating_prior, game=args.game, size=size,
        komi=komi, game_rules=game_rules, games=games_per_pairing,
        alternate=args.alternate, openings=openings, random_openings=random_openings,
        openings_seed=openings_seed, max_moves=max_moves, adjudicate_settled=args.adjudicate_settled,
        resign_adjudication=resign_adjudication, time_control=time_control,
        time_tolerance=tolerance, integer_times=args.integer_times, move_timeout=move_timeout, command_timeout=command_timeout,
        start_timeout=start_timeout, max_response_bytes=max_response_bytes, playouts=playouts,
        concurrency=concurrency, sprt=sprt, stats_model=args.stats, results_path=results,
        check_scores=args.check_scores, engine_stderr=args.engine_stderr, sgf_dir=sgf_dir,
        records_path=records_path)


def _cluster(text: str | None) -> tuple[str, int | str] | None:
    """``--cluster``: ``(kind, where)`` (see :func:`cluster.parse_cluster`),
    or None without it; ValueError when it is malformed or the extra is
    missing."""
    if text is None:
        return None
    try:
        import distributed  # noqa: F401 -- only to know whether the extra is installed
    except ImportError as error:
        raise ValueError(f"{OPT_CLUSTER}: needs the cluster extra, {CLUSTER_EXTRA} ({error})") from None
    from stargtp.protocol.tools.match.cluster import parse_cluster

    try:
        return parse_cluster(text)
    except ValueError as error:
        raise ValueError(f"{OPT_CLUSTER}: {error}") from None


def run(args: argparse.Namespace) -> int:
    """``stargtp match``: 0 when the match ran (faults are outcomes), 2 for bad
    settings or an unusable engine, results file or cluster, 130 when
    interrupted."""
    try:
        settings = settings_from_args(args)
    except ValueError as error:
        print(f"stargtp match: {error}", file=sys.stderr)
        return 2
    try:
        report_every = _whole_number(OPT_REPORT_EVERY, args.report_every, 0, 1)
        if args.report:
            _file_to_write(OPT_REPORT, args.report)
        cluster = _cluster(getattr(args, "cluster", None))
    except ValueError as error:
        print(f"stargtp match: {error}", file=sys.stderr)
        return 2
    progress = None if args.quiet else sys.stderr
    try:
        result = asyncio.run(_run_interruptible(settings, progress, report_every, args.debug, cluster,
                                                args.concurrency is None))
    except ResultsError as error:
        print(f"stargtp match: {OPT_RESULTS}: {error}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as error:
        print(f"stargtp match: {error}", file=sys.stderr)
        return 2
    if result is None:
        print(f"stargtp match: interrupted{_resume_hint(settings.results_path)}", file=sys.stderr)
        return 130
    if result.sprt_stopped:
        print("SPRT decided: stopped early", file=sys.stderr)
    print(format_summary(result.summaries, settings, terminal_width(sys.stdout)))
    sys.stdout.flush()
    if args.report:
        try:
            write_page(args.report, result.records, settings)
        except OSError as error:
            print(f"stargtp match: {OPT_REPORT}: cannot write {args.report}: {error.strerror or error}",
                  file=sys.stderr)
            return 2
        if progress is not None:
            print(f"report: {args.report}", file=sys.stderr)
    return 0


def _resume_hint(path: str | None) -> str:
    """How to go on after an interruption, when the results file holds games."""
    try:
        _, games = read_results(path) if path else (None, [])
    except (OSError, ResultsError):
        return ""
    recorded = f"{plural(len(games), 'game')} recorded"
    return f"; re-run with --results {path} to resume ({recorded})" if games else ""


async def _run_interruptible(settings: MatchSettings, progress: TextIO | None, report_every: int = 0,
                             debug: str | None = None, cluster: tuple[str, int | str] | None = None,
                             concurrency_from_cluster: bool = False) -> MatchResult | None:
    """:func:`run_match`, cancelled cleanly (engines closed) by SIGINT/SIGTERM;
    on the Dask cluster ``cluster`` names, where the concurrency is the
    workers' threads unless given."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    assert task is not None
    interrupted = False

    def interrupt() -> None:
        nonlocal interrupted
        interrupted = True
        task.cancel()

    handled = add_signal_handlers(loop, interrupt)
    try:
        if cluster is None:
            return await run_match(settings, progress=progress, report_every=report_every, debug=debug)
        from stargtp.protocol.tools.match.cluster import connect

        try:
            dask = await connect(*cluster)
        except ValueError as error:
            raise ValueError(f"{OPT_CLUSTER}: {error}") from None
        try:
            if concurrency_from_cluster:
                settings = replace(settings, concurrency=dask.threads())
            if progress is not None:
                print(f"cluster: {len(dask.known)} workers, {dask.threads()} threads; "
                      f"{settings.concurrency} games at a time", file=progress)
            return await run_match(settings, progress=progress, report_every=report_every, debug=debug,
                                   slots=dask.slots, preflight=dask.preflight)
        finally:
            await asyncio.shield(dask.close())
    except asyncio.CancelledError:
        if interrupted:
            return None
        raise
    finally:
        remove_signal_handlers(loop, handled)
