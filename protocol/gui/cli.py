"""``stargtp gui``: the command line of the browser page's server."""

from __future__ import annotations

import argparse
import asyncio
import math
import sys

from stargtp.protocol.cli import positive_int
from stargtp.protocol.gui.bridge import (DEFAULT_HOST, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS, KEEP_ALIVE_SECONDS,
                                        REQUEST_SECONDS, serve_gui)
from stargtp.protocol.server.serve import add_engine_arguments, check_idle_timeout, engine_config_from_args
from stargtp.protocol.server.tcp import CannotListen


def port_number(text: str) -> int:
    """An argparse ``type``: a TCP port, 0 for any free one."""
    if not (text.isascii() and text.isdigit() and int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, not {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--port", type=port_number, default=0,
                        help="port to listen on (default 0: a free port, reported on stderr)")
    parser.add_argument("--max-sessions", type=positive_int, default=DEFAULT_MAX_SESSIONS, metavar="N",
                        help=f"pages served at once; more are refused (default {DEFAULT_MAX_SESSIONS})")
    parser.add_argument("--idle-timeout", type=float, default=DEFAULT_IDLE_TIMEOUT, metavar="S",
                        help="end a session that had no request, nothing running and no event"
                             f" stream for S seconds (default {DEFAULT_IDLE_TIMEOUT:g}; 0: never)")
    parser.add_argument("--keep-alive-timeout", type=float, default=KEEP_ALIVE_SECONDS, metavar="S",
                        help="close an HTTP connection that waits S seconds for its next request"
                             f" (default {KEEP_ALIVE_SECONDS:g})")
    parser.add_argument("--request-timeout", type=float, default=REQUEST_SECONDS, metavar="S",
                        help="answer 408 and close when a begun request has not arrived whole within S"
                             f" seconds (default {REQUEST_SECONDS:g})")
    add_engine_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        check_idle_timeout(args.idle_timeout)
        for option, seconds in (("--keep-alive-timeout", args.keep_alive_timeout),
                                ("--request-timeout", args.request_timeout)):
            if not (seconds > 0 and math.isfinite(seconds)):
                raise ValueError(f"{option} must be a number of seconds above 0")
        config = engine_config_from_args(args, any_game_rules=True)  # the page switches games
    except ValueError as exc:
        print(f"stargtp gui: {exc}", file=sys.stderr)
        return 2
    # Nothing may reach stdout: anything printed goes to stderr, with the logs.
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    try:
        return asyncio.run(serve_gui(config, args.host, args.port, args.max_sessions,
                                     args.idle_timeout, args.keep_alive_timeout, args.request_timeout))
    except CannotListen as exc:
        print(f"stargtp gui: {exc}", file=sys.stderr)
        return 2
    finally:
        sys.stdout = real_stdout
