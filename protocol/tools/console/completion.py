"""Tab completion: of the legal moves (each game completes its own, see
:class:`stargtp.protocol.tools.console.drawing.TerminalBoard`), and the
prompt_toolkit completer that asks the console for the word at the cursor."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from stargtp.protocol.tools.console.board import board_for


def move_completions(position: Any, word: str, colour: int | None = None) -> list[str]:
    """The legal moves (for ``colour``, default the side to move) that start
    with ``word``, ignoring case. *Star: cell labels and ``pass``. Amazons are
    completed one part at a time: an amazon's square and ``-``, then the
    destination and ``/``, then the arrow's square."""
    if position.is_over():
        return []
    board = position
    if colour is not None and colour != position.to_move:
        board = position.copy()
        board.to_move = colour
    return board_for(board).complete(board, word.lower())


def split_for_completion(text: str) -> tuple[list[str], str]:
    """The words before the cursor's word, and the (possibly empty) word itself."""
    words = text.split()
    if not text or text[-1].isspace():
        return words, ""
    return words[:-1], words[-1]


def make_completer(source: Callable[[list[str], str], list[str]]):
    """A prompt_toolkit completer for the word at the cursor, from
    ``source(words_before, word)``."""
    from prompt_toolkit.completion import Completer, Completion

    class ConsoleCompleter(Completer):
        """Completes the word at the cursor from ``source(words_before, word)``."""

        def get_completions(self, document, complete_event):
            before, word = split_for_completion(document.text_before_cursor)
            for text in source(before, word):
                yield Completion(text, start_position=-len(word))

    return ConsoleCompleter()


def matching(options: Iterable[str], word: str) -> list[str]:
    """The ``options`` that start with ``word``, ignoring case."""
    prefix = word.lower()
    return [option for option in options if option.lower().startswith(prefix)]
