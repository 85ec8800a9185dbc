"""Rules cores and game-agnostic search for *Star and the Game of the Amazons.

Nothing in this package imports :mod:`stargtp.protocol`; the protocol layer sits on top.
"""
