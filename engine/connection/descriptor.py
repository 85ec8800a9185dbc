"""What the Hex and Y descriptors share: the module-level functions of a
connection game's :class:`stargtp.engine.game.Game` (module-level, so that
the descriptors pickle by reference), and :func:`connection_game` that fills
in every field the two games have in common."""

from __future__ import annotations

from typing import Any

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.connection.playout import playout_winner, tree_hooks
from stargtp.engine.connection.scoring import Score, score
from stargtp.engine.game import Game, GameOption, SetupKind, SetupRules, ownership_analysis


def no_move(position: Any, komi: float) -> None:
    """No pass in a connection game: a player with nothing to play resigns
    (a game only runs out of moves once it is won)."""
    return None


def score_estimate(position: Any, colour: int, komi: float) -> float | None:
    """+1 / -1 for ``colour`` once the game is won; None before (no margin)."""
    winner = position.winner()
    if winner is None:
        return None
    return 1.0 if winner == colour else -1.0


RESIGN_BELOW = 0.05
"""A side resigns when a real search gives it less than a 5% chance: Hex
has no pass and no score, so a lost game only ends by resigning or by
playing it out (docs/protocol.md, ``genmove``)."""


def options_of(position: Any) -> dict[str, bool]:
    """The options a position is played with: ``{"swap": ...}``."""
    return {"swap": position.swap}


def move_playouts(size: int) -> int:
    """8000 per move on every board (docs/search.md): what 3000 were before
    the leaf batches (``LEAF_PLAYOUTS``), which run about 2.7x the playouts
    a second, so that a default move takes about the time it took and is
    stronger for it, not weaker."""
    return 8000


LEAF_PLAYOUTS = 8
"""The UCT search evaluates a leaf with a batch of 8 playouts (the batched
kernel, ``batch_playouts``): about 3x the tree playouts per second of one a
leaf on Y side 13 and Hex 11x11; against one a leaf, within the interval at
equal playouts (Y side 13: 40%, Hex 11x11: 53%) and 77% at equal time on
both (docs/search.md, "Choosing ``leaf_playouts``")."""


SWAP_OFF_BY_DEFAULT = False


def swap_option(effect: str) -> GameOption:
    """The swap rule, off by default; ``effect`` says what the swap does."""
    return GameOption("swap", SWAP_OFF_BY_DEFAULT,
                      f"the second player may answer the first move with swap-pieces: {effect}")


def cell_names(position: Any) -> tuple[str, ...]:
    """The label of every cell, in board order."""
    return tuple(cell.label for cell in position.geometry.cells)


SETUP = SetupRules((SetupKind("black", "Black stone", BLACK), SetupKind("white", "White stone", WHITE)),
                   cell_names)
"""A set-up places stones of either colour on any cells (docs/rules-hex.md, "Set-up")."""


def connection_game(*, position: type, **fields: Any) -> Game:
    """A connection game's descriptor: the shared fields, then ``fields``."""
    shared: dict[str, Any] = dict(
        gtp_name=fields["title"],
        size_word="cells a side",
        position=position,
        from_setup=position.from_setup,
        score=score,
        playout_winner=playout_winner,
        tree_hooks=tree_hooks,
        no_move=no_move,
        move_playouts=move_playouts,
        strongest_player="uct",
        score_estimate=score_estimate,
        move_hint="a cell label such as c4",
        human_colour=BLACK,
        options_of=options_of,
        analysis=ownership_analysis,
        ended_by="connection",
        resign_below=RESIGN_BELOW,
        leaf_playouts=LEAF_PLAYOUTS,
        setup_rules=SETUP,
    )
    shared.update(fields)
    return Game(**shared)


__all__ = ["Score", "connection_game", "no_move", "score", "score_estimate"]
