import random

from engine.actions import PLAY_ACTIONS
from engine.ai import WorkBudget, decide
from engine.cards import CODES, card, mask_of
from engine.observe import Observation
from engine.result import TrickRecord
from engine.rules import RuleSet


def _open_blot_endgame() -> Observation:
    """Open Blot, hearts trump, seat 0 took and leads the last two tricks with
    KC AS against AC 7S; no face-down card is left, so nothing is hidden.

    Seat 0 has 62 card points to the opponent's 64. Cashing the ace of spades
    first (the natural move) loses the last trick and the contract, 73 to 89;
    leading the king of clubs first wins the last trick with the ace: 83 to 79.
    """
    mine, theirs = ["KC", "AS"], ["AC", "7S"]
    rest = [c for c in range(32) if CODES[c] not in mine + theirs]
    # K and Q of hearts went to different players: no blot to count.
    others = [c for c in rest if CODES[c] not in ("KH", "QH")]
    seat0, seat1 = [card("KH"), *others[:13]], [card("QH"), *others[13:]]
    assert len(seat0) == len(seat1) == 14 and card("QH") in seat1
    tricks = tuple(
        TrickRecord(0, (CODES[a], CODES[b]), 0, 0) for a, b in zip(seat0, seat1, strict=True)
    )
    empty = [(None, False)] * 6
    return Observation(
        variant="open_blot", rules=RuleSet.build("open_blot"), seat=0, seats=2, dealer=1,
        phase="play", bid_round=0,
        to_act=0, trump=2, taker=0, proposed=None, hand=(), hand_sizes=(2, 2),
        stacks=(
            tuple([(card("KC"), False), (card("AS"), False), *empty]),
            tuple([(card("AC"), False), (card("7S"), False), *empty]),
        ),
        leader=0, trick=(), tricks=tricks, declarations=(), announcements=(),
        card_points=(62, 64), tricks_won=(7, 7), history=(),
        legal=(PLAY_ACTIONS[0][card("KC")], PLAY_ACTIONS[0][card("AS")]),
        result=None,
    )


def test_hard_finds_the_forced_win_in_a_known_endgame() -> None:
    obs = _open_blot_endgame()
    assert mask_of(c for c, _ in obs.stacks[0] if c is not None).bit_count() == 2
    action = decide("hard", obs, random.Random(1), budget=WorkBudget(0.05))
    assert action.card == card("KC")


def test_the_normal_bot_misses_it_so_the_endgame_tests_search() -> None:
    action = decide("normal", _open_blot_endgame(), random.Random(1))
    assert action.card == card("AS")


def test_hard_is_deterministic_for_a_seed_and_a_work_budget() -> None:
    from engine.deal import new_deal
    from engine.observe import observe
    from engine.rules import RuleSet
    from engine.shuffle import shuffled_deck

    deal = new_deal(RuleSet.build("belote"), 0, shuffled_deck(random.Random(5)))
    obs = observe(deal, 1)
    picks = {decide("hard", obs, random.Random(9), budget=WorkBudget(0.02)) for _ in range(3)}
    assert len(picks) == 1


def test_bots_are_shown_the_tables_rule_settings() -> None:
    """Hard simulates deals with ``obs.rules``: a table's capot or litige setting."""
    from engine.deal import new_deal
    from engine.observe import observe
    from engine.shuffle import shuffled_deck

    rules = RuleSet.build("belote", {"capot_points": 400, "litige": "split"})
    obs = observe(new_deal(rules, 0, shuffled_deck(random.Random(3))), 1)
    assert obs.rules == rules
    assert obs.to_dict()["rules"] == {"capot_points": 400, "litige": "split"}
