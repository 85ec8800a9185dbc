"""Hex's descriptor: everything the search, the server and the tools know
about Hex, in one object (:data:`HEX`)."""

from __future__ import annotations

from stargtp.engine.connection.descriptor import connection_game, swap_option
from stargtp.engine.game import moves_left_from_cells
from stargtp.engine.hex.geometry import DEFAULT_SIZE, SIZES
from stargtp.engine.hex.position import Position
from stargtp.engine.hex.sgf import CODEC, GM_NUMBER, is_mine, read_sgf, write_sgf


def _moves_left(size: int, plies: int) -> int:
    return moves_left_from_cells(size * size, plies)


HEX = connection_game(
    name="hex",
    title="Hex",
    sizes=SIZES,
    default_size=DEFAULT_SIZE,
    position=Position,
    moves_left=_moves_left,
    write_record=write_sgf,
    read_record=read_sgf,
    record_codec=CODEC,
    sgf_number=GM_NUMBER,
    claims_record=is_mine,
    commands=("printsgf",),
    options=(swap_option("the stone stays, black's, and white moves again (the players exchange colours)"),),
)

Position.rules = HEX
