"""stargtp-param: listing, reading and setting the search settings."""

import asyncio

from stargtp.engine.search import Limits
from stargtp.protocol.server.session import SessionConfig
from tests.gtp_helpers import converse, split_responses


def talk(*lines: str, config: SessionConfig = SessionConfig(player="flat", seed=1)):
    data = ("\n".join(lines) + "\n").encode()
    output, session = asyncio.run(converse(data, config))
    return [r.decode() for r in split_responses(output)], session


def test_list_read_and_set():
    answers, session = talk("stargtp-param", "stargtp-param playouts", "stargtp-param playouts 40",
                            "stargtp-param playouts", "stargtp-param seconds 1.5",
                            "stargtp-param seconds", "stargtp-param seconds none")
    # No limit set: the game's default playouts for the board (docs/search.md),
    # not the player's own count, which applies only when given explicitly.
    assert answers[0] == "= player flat\nplayouts none\nseconds none\n\n"
    assert answers[1:] == ["= none\n\n", "=\n\n", "= 40\n\n", "=\n\n", "= 1.5\n\n", "=\n\n"]
    assert session.config.playouts == 40 and session.config.seconds is None


def test_a_playouts_parameter_given_explicitly_replaces_the_default():
    config = SessionConfig(player="flat", seed=1, params=(("playouts", "30"),))
    answers, session = talk("stargtp-param playouts", "boardsize 3", "genmove b", config=config)
    assert answers[0] == "= 30\n\n"
    assert session.search.move_limits(1) == Limits(playouts=30)


def test_switching_player_resets_its_parameters():
    answers, session = talk("stargtp-param player random", "stargtp-param",
                            "boardsize 3", "genmove b")
    assert answers[:2] == ["=\n\n", "= player random\nplayouts none\nseconds none\n\n"]
    assert answers[3].startswith("= ") and session.config.player == "random"


def test_refusals_change_nothing():
    answers, session = talk("stargtp-param nonsense 1", "stargtp-param playouts -5",
                            "stargtp-param playouts 1.5", "stargtp-param seconds 0",
                            "stargtp-param seconds nan", "stargtp-param player chess",
                            "stargtp-param komi 3", "stargtp-param nonsense",
                            "stargtp-param a b c")
    # Setting and reading an unknown name get the same answer.
    assert answers[0] == "? unknown parameter nonsense\n\n"
    assert answers[1] == "? invalid parameter: playouts takes a positive number or none, not '-5'\n\n"
    assert answers[2] == "? invalid parameter: playouts takes a positive number or none, not '1.5'\n\n"
    assert answers[3] == "? invalid parameter: seconds takes a positive number or none, not '0'\n\n"
    assert answers[4] == "? invalid parameter: seconds takes a positive number or none, not 'nan'\n\n"
    assert answers[5].startswith("? invalid parameter: unknown player 'chess'")
    assert answers[6] == "? invalid parameter: komi is set with the komi command\n\n"
    assert answers[7] == "? unknown parameter nonsense\n\n"
    assert answers[8].startswith("? syntax error")
    assert session.config == SessionConfig(player="flat", seed=1)


def test_a_player_that_cannot_play_the_game_is_refused():
    # amazons-mcts plays Amazons only: refused for a *Star session, and a
    # session playing it cannot switch to *Star. Nothing changes.
    answers, session = talk("stargtp-param player amazons-mcts", "stargtp-param player")
    assert answers == ["? invalid parameter: player amazons-mcts cannot play star"
                       " (players for star: auto, uct, flat, random)\n\n", "= flat\n\n"]
    answers, session = talk("game amazons", "stargtp-param player amazons-mcts", "game star",
                            "boardsize 6", "game")
    assert answers == ["=\n\n", "=\n\n",
                       "? player amazons-mcts cannot play star (players for star: auto, uct,"
                       " flat, random)\n\n", "=\n\n", "= amazons\n\n"]
    assert session.position.size == 6 and session.config.player == "amazons-mcts"


def test_player_parameters_reach_the_search():
    answers, session = talk("stargtp-param player uct", "stargtp-param rave off",
                            "stargtp-param rave", "stargtp-param playouts 30", "boardsize 4",
                            "genmove b", "genmove w")
    assert answers[:4] == ["=\n\n", "=\n\n", "= off\n\n", "=\n\n"]
    assert all(a.startswith("= ") for a in answers[5:])
    assert dict(session.config.params) == {"rave": "off"}
