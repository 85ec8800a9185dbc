"""The ``stargtp`` command line: one subcommand per tool.

Each subcommand lives in its own module, which provides ``add_arguments(parser)``
and ``run(args) -> int``. This file only wires them together, so adding a tool
never touches another tool's code.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# subcommand name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("protocol.server", "run the protocol server on stdin/stdout or TCP"),
    "match": ("protocol.match", "referee engine-vs-engine games"),
    "bench": ("protocol.bench", "measure playouts and search speed"),
    "demo": ("protocol.demo", "play a random *Star game and print its score breakdown"),
    "render": ("protocol.render", "draw a game record (results line, SGF, move list) as SVG"),
    "play": ("protocol.console", "play against the engine, or a raw protocol console"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stargtp",
        description="Engine and GTP-style protocol server for *Star and the Game of the Amazons.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue  # a tool that is not built yet is simply not offered
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
