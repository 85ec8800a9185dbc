"""``stargtp serve``: the protocol server's command line.

Without ``--tcp`` one session runs on stdin/stdout (:mod:`stargtp.protocol.server.stdio`);
with it, every TCP connection gets its own (:mod:`stargtp.protocol.server.tcp`).

The engine options (:func:`add_engine_arguments`, read back by
:func:`engine_config_from_args`) are also ``stargtp gui``'s
(:mod:`stargtp.protocol.gui.cli`): one definition for both commands.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
from dataclasses import replace

from stargtp.engine.errors import GameError
from stargtp.engine.game import GameOption
from stargtp.engine.games import GAME_LIST, find_game, games, new_position
from stargtp.engine.players import check_plays, make_player, players
from stargtp.protocol.cli import game_sizes
from stargtp.protocol.server.session import SessionConfig, default_player
from stargtp.protocol.server.stdio import serve_stdio
from stargtp.protocol.server.tcp import (DEFAULT_COMMAND_SECONDS, DEFAULT_HOST, DEFAULT_IDLE_SECONDS,
                                         DEFAULT_MAX_CONNECTIONS, CannotListen, serve_tcp)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT``, ``PORT`` or ``[IPV6]:PORT``; the host defaults
    to 127.0.0.1. ValueError for anything else.

    >>> parse_address("0.0.0.0:5000"), parse_address(":0"), parse_address("[::1]:7")
    (('0.0.0.0', 5000), ('127.0.0.1', 0), ('::1', 7))
    """
    text = text.strip()
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ValueError(f"bad address {text!r}")
        port_text = rest[1:]
    elif ":" in text:
        host, _, port_text = text.rpartition(":")
    else:
        host, port_text = "", text
    if not port_text.isascii() or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"bad port in {text!r}")
    return host or DEFAULT_HOST, int(port_text)


def default_playouts() -> str:
    """The default playouts per move of every game and size, from the games'
    descriptors: ``*Star 5000 on every size; ...``, or size by size."""
    parts = []
    for game in GAME_LIST:
        counts = [(size, game.move_playouts(size)) for size in game.sizes]
        counts = [(size, count) for size, count in counts if count is not None]
        if not counts:
            continue
        if len({count for _, count in counts}) == 1:
            parts.append(f"{game.title} {counts[0][1]} on every size")
        else:
            parts.append(f"{game.title} " + ", ".join(f"{count} on {size}" for size, count in counts)
                         + f" {game.size_word}")
    return "; ".join(parts)


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say how a session plays: its game, board and search.
    ``stargtp serve`` and ``stargtp gui`` share them (read them back with
    :func:`engine_config_from_args`)."""
    parser.add_argument("--game", choices=games(), default=games()[0],
                        help=f"game to start with (default: {games()[0]})")
    parser.add_argument("--size", type=int, help=f"board size: {game_sizes()} (default: the game's default)")
    parser.add_argument("--seed", type=int, help="seed the players, for reproducible games")
    parser.add_argument("--player", choices=players(), default=None,
                        help=f"move generator (default: {default_player()})")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="worker processes per session for the search, merged by root"
                             " parallelism (default: the number of CPUs; with --seed and"
                             " --playouts, games repeat move for move for a given N)")
    parser.add_argument("--playouts", type=int, metavar="N",
                        help="playouts per move, all of them, so that with --seed games repeat (with a"
                             " clock or --seconds: at most this many). Default, by board size:"
                             f" {default_playouts()}; shared among the workers, and stopping early"
                             " once the move cannot change")
    parser.add_argument("--seconds", type=float, metavar="S",
                        help="seconds per move when the controller sets no clock; a timed search"
                             " stops early once its move cannot change")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="player parameter (repeatable)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule of the game on or off, e.g. swap=on (Hex's and Y's swap"
                             " rule; repeatable; stargtp-rules lists them); serve: one of --game's,"
                             " gui: any game's, played in the games that have it")


def parse_rules(game: str | None, items: list[str]) -> tuple[tuple[str, bool], ...]:
    """``--rule NAME=VALUE`` options as ``(name, on)`` pairs; ValueError
    for a malformed item, a rule ``game`` does not have, or a value that
    is not on or off. With ``game`` None (``stargtp gui``, whose sessions
    switch games) a rule is checked against every registered game: one
    that no game has is refused, the others apply to the games that have
    them (:meth:`GtpState.options_for`)."""
    rules = {}
    for item in items:
        rule_name, equals, value = item.partition("=")
        if not equals or not rule_name:
            raise ValueError(f"--rule wants NAME=VALUE, not {item!r}")
        try:
            rules[rule_name] = _rule_option(game, rule_name).parse(value)
        except GameError as exc:
            raise ValueError(str(exc)) from None
    return tuple(rules.items())


def _rule_option(game: str | None, name: str) -> GameOption:
    """The option ``name`` of ``game``, or of the first registered game that
    has it when ``game`` is None; GameError when there is none."""
    if game is not None:
        return find_game(game).option(name)
    descriptors = [find_game(each) for each in games()]
    for descriptor in descriptors:
        if any(option.name == name for option in descriptor.options):
            return descriptor.option(name)
    known = sorted({option.name for descriptor in descriptors for option in descriptor.options})
    raise GameError(f"no game has the rule {name!r} (rules: {', '.join(known) or 'none'})")


def engine_config_from_args(args: argparse.Namespace, any_game_rules: bool = False) -> SessionConfig:
    """The session settings that :func:`add_engine_arguments`' options give
    (the file policy left at its default); ValueError with a readable message
    for bad options. A ``--rule`` must be one of the ``--game``'s, or with
    ``any_game_rules`` (``stargtp gui``, whose page switches games) one of
    any registered game's."""
    params = []
    for item in args.param:
        param_name, equals, value = item.partition("=")
        if not equals or not param_name:
            raise ValueError(f"--param wants NAME=VALUE, not {item!r}")
        params.append((param_name, value))
    rules = parse_rules(None if any_game_rules else args.game, args.rule)
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.playouts is not None and args.playouts < 1:
        raise ValueError("--playouts must be at least 1")
    if args.seconds is not None and not (args.seconds > 0 and math.isfinite(args.seconds)):
        raise ValueError("--seconds must be a positive number of seconds")
    config = SessionConfig(game=args.game, size=args.size, seed=args.seed,
                           player=args.player or default_player(), workers=args.workers,
                           playouts=args.playouts, seconds=args.seconds, params=tuple(params),
                           rules=rules)
    try:
        new_position(config.game, config.size)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    check_plays(config.player, config.game)  # ValueError: amazons-mcts cannot play star
    make_player(config.player, seed=config.seed, **dict(config.params))  # ValueError if refused
    return config


def check_idle_timeout(seconds: float | None, option: str = "--idle-timeout") -> None:
    """ValueError unless ``option`` (``--idle-timeout``, ``--command-timeout``...)
    is a number of seconds, 0 or more."""
    if seconds is not None and not (seconds >= 0 and math.isfinite(seconds)):
        raise ValueError(f"{option} must be a number of seconds, 0 or more (0: never)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_engine_arguments(parser)
    parser.add_argument("--tcp", metavar="HOST:PORT",
                        help="listen on TCP instead of stdin/stdout (host defaults to 127.0.0.1;"
                             " port 0 picks a free port, reported on stderr)")
    parser.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS, metavar="N",
                        help=f"TCP clients served at once; more are refused (default {DEFAULT_MAX_CONNECTIONS})")
    parser.add_argument("--file-dir", metavar="DIR",
                        help="the one directory whose files loadsgf may read (over TCP, without"
                             " it no file can be read; over stdin, without it any path can)")
    parser.add_argument("--idle-timeout", type=float, default=DEFAULT_IDLE_SECONDS, metavar="S",
                        help="close a TCP connection that sent no command and ran nothing for S"
                             f" seconds (default {DEFAULT_IDLE_SECONDS:g}; 0: never)")
    parser.add_argument("--status-space", action="store_true",
                        help="answer an empty result '= ' with a space, not '=' (older HexGui"
                             " builds take '=' alone for an invalid response)")
    parser.add_argument("--command-timeout", type=float, default=DEFAULT_COMMAND_SECONDS, metavar="S",
                        help="close a TCP connection that sends bytes but completes no command (or sends"
                             " nothing after connecting) for S seconds (default"
                             f" {DEFAULT_COMMAND_SECONDS:g}; 0: never)")


def config_from_args(args: argparse.Namespace) -> SessionConfig:
    """The session settings; ValueError with a readable message for bad options."""
    if args.max_connections < 1:
        raise ValueError("--max-connections must be at least 1")
    check_idle_timeout(args.idle_timeout)
    check_idle_timeout(args.command_timeout, "--command-timeout")
    file_dir = None
    if args.file_dir is not None:
        if not os.path.isdir(args.file_dir):
            raise ValueError(f"--file-dir {args.file_dir!r} is not a directory")
        file_dir = os.path.realpath(args.file_dir)
    return replace(engine_config_from_args(args), file_dir=file_dir, status_space=args.status_space)


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
        address = parse_address(args.tcp) if args.tcp is not None else None
    except ValueError as exc:
        print(f"stargtp serve: {exc}", file=sys.stderr)
        return 2
    if address is not None:
        try:
            return asyncio.run(serve_tcp(config, address[0], address[1], args.max_connections,
                                         idle_timeout=args.idle_timeout, command_timeout=args.command_timeout))
        except CannotListen as exc:
            print(f"stargtp serve: {exc}", file=sys.stderr)
            return 2
    # Only protocol responses may reach stdout: anything else printed goes to stderr.
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    try:
        return asyncio.run(serve_stdio(config, stdout=real_stdout.buffer))
    finally:
        sys.stdout = real_stdout
