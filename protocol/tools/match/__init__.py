"""The match runner: referee engine-vs-engine games, record them, rate them.

``stargtp match`` (and :func:`run_match` under it) plays games between engines
that speak the protocol, subprocesses or TCP servers alike. The referee keeps
its own position with the rules core and validates every move; the engines
only propose moves. Every way an engine can fail is an *outcome*: that engine
loses the game, the reason is recorded, and a broken engine is restarted for
the next game. Finished games are appended to a JSON-lines results file, so a
re-run with the same file resumes the match. Statistics come from
:mod:`stargtp.protocol.stats`, clocks from :mod:`stargtp.protocol.clock`, and everything
about the game itself from its descriptor (:mod:`stargtp.engine.games`).

One module per concept, each usable on its own from Python:

* :mod:`~stargtp.protocol.tools.match.settings` -- what to play: :class:`MatchSettings`,
  :class:`EngineEntry`, openings, and :func:`schedule`, the list of
  :class:`GameJob` a match consists of;
* :mod:`~stargtp.protocol.tools.match.referee` -- :func:`play_game`, refereeing one
  game between two connected controllers: seats, clocks, faults, and
  :func:`adjudicate`, ending a game early;
* :mod:`~stargtp.protocol.tools.match.records` -- a game's record: how it can end
  (the fault kinds, the adjudications), the score of a finished game, its
  SGF (:func:`record_sgf`, :func:`save_sgf`, the collection
  :class:`RecordsFile`);
* :mod:`~stargtp.protocol.tools.match.results` -- the results file;
* :mod:`~stargtp.protocol.tools.match.report` -- :func:`summarise`,
  :func:`format_summary` and the progress line;
* :mod:`~stargtp.protocol.tools.match.runner` -- :func:`run_match`: engines per
  worker slot, concurrency, resume, SPRT stop;
* :mod:`~stargtp.protocol.tools.match.cluster` -- the games as Dask tasks
  (``--cluster``); imported only on that path, with the ``cluster`` extra;
* :mod:`~stargtp.protocol.tools.match.cli` -- ``stargtp match``: :func:`add_arguments`
  and :func:`run`.

See docs/match.md for a tutorial and the record format.
"""

from __future__ import annotations

from stargtp.protocol.clock import TimeControl
from stargtp.protocol.tools.match.cli import add_arguments, run, settings_from_args
from stargtp.protocol.tools.match.records import (ADJUDICATIONS, CRASH, FAULT_KINDS, GENMOVE_ERROR, ILLEGAL_MOVE,
                                                  MALFORMED_MOVE, PROTOCOL_ERROR, REASON_AGREED, REASON_CONNECTION,
                                                  REASON_MOVE_LIMIT, REASON_NO_MOVES, REASON_RESIGN, REASON_SCORE,
                                                  REASON_SETTLED, REJECTED_MOVE, SETUP_ERROR, START_FAILURE, TIMEOUT,
                                                  RecordsFile, board_outcome, default_sgf_dir, record_sgf, save_sgf)
from stargtp.protocol.tools.match.referee import RefereeClock, Seat, adjudicate, play_game
from stargtp.protocol.tools.match.report import PairingSummary, Progress, format_summary, summarise, tally_of
from stargtp.protocol.tools.match.results import ResultsError, ResultsFile, read_results
from stargtp.protocol.tools.match.runner import EnginePool, MatchResult, deal, run_match
from stargtp.protocol.tools.match.settings import (EngineEntry, GameJob, MatchSettings, read_openings, replay_opening,
                                                   schedule)

__all__ = [
    "ADJUDICATIONS", "REASON_AGREED", "REASON_MOVE_LIMIT", "REASON_SETTLED", "RecordsFile", "adjudicate",
    "record_sgf", "CRASH", "FAULT_KINDS", "GENMOVE_ERROR", "ILLEGAL_MOVE", "MALFORMED_MOVE", "PROTOCOL_ERROR",
    "REASON_CONNECTION", "REASON_NO_MOVES", "REASON_RESIGN", "REASON_SCORE", "REJECTED_MOVE", "SETUP_ERROR",
    "START_FAILURE", "TIMEOUT", "EngineEntry", "EnginePool", "GameJob", "MatchResult", "MatchSettings", "PairingSummary",
    "Progress", "RefereeClock", "ResultsError", "ResultsFile", "Seat", "TimeControl", "add_arguments",
    "board_outcome", "deal", "default_sgf_dir", "format_summary", "play_game", "read_openings",
    "read_results", "replay_opening", "run", "run_match", "save_sgf", "schedule", "settings_from_args",
    "summarise", "tally_of",
]
