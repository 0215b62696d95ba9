"""The deal record contract (docs/deal-record.md): reading rules and replay output."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import DealRecord, RecordError, replay
from engine.record import deal_from, rebuild

# The worked examples of docs/deal-record.md, each a record and its exact replay.
EXAMPLES = Path(__file__).resolve().parent / "examples"
NAMES = sorted(p.name.removesuffix(".record.json") for p in EXAMPLES.glob("*.record.json"))


def load(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.record.json").read_text())


def canonical(report: dict) -> dict:
    """Legal lists may come in any order: compare them as sorted JSON strings."""
    report = copy.deepcopy(report)
    for step in report["steps"]:
        step["legal"] = sorted(json.dumps(a, sort_keys=True) for a in step["legal"])
    return report


def test_it_finds_the_worked_examples() -> None:
    assert len(NAMES) >= 5


@pytest.mark.parametrize("name", NAMES)
def test_it_replays_each_worked_example_exactly(name: str) -> None:
    expected = json.loads((EXAMPLES / f"{name}.replay.json").read_text())
    got = replay(DealRecord.from_dict(load(name))).to_dict()
    assert canonical(got) == canonical(expected)


def test_it_lists_the_first_decision_for_a_record_with_no_actions() -> None:
    record = load("belote-void")
    del record["actions"]
    report = replay(DealRecord.from_dict(record)).to_dict()
    assert report["steps"] == [
        {"to_act": 0, "legal": [{"seat": 0, "type": "pass"}, {"seat": 0, "type": "take"}]}
    ]
    assert report["error"] is None and report["result"] is None


def test_it_treats_missing_rules_as_the_defaults() -> None:
    record = load("belote-made-with-belote")
    del record["rules"]
    assert replay(DealRecord.from_dict(record)).result["deal_points"] == [144, 38]


def test_it_applies_rule_overrides_from_the_record() -> None:
    record = load("belote-made-with-belote")
    record["rules"] = {"litige": "split", "capot_points": 300}
    assert deal_from(DealRecord.from_dict(record)).rules.capot_points == 300


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(variant="poker"), "unknown variant"),
        (lambda r: r.update(rules={"kapout_points": 210}), "unknown setting"),
        (lambda r: r.update(rules={"capot_points": 100}), "capot_points"),
        (lambda r: r.update(rules={"all_trump": True}), "all_trump needs coinche"),
        (lambda r: r.update(rules=[]), "rules"),
        (lambda r: r.update(dealer=4), "dealer"),
        (lambda r: r.update(dealer="0"), "dealer"),
        (lambda r: r.update(dealer=True), "dealer"),
        (lambda r: r.update(actions={}), "actions must be a list"),
        (lambda r: r.update(deck=r["deck"][:31]), "32"),
        (lambda r: r["deck"].__setitem__(0, r["deck"][1]), "distinct"),
        (lambda r: r["deck"].__setitem__(0, "1X"), "not a card code"),
        (lambda r: r.pop("deck"), "deck"),
    ],
)
def test_it_refuses_a_record_it_cannot_read(change, message: str) -> None:
    record = load("belote-made-with-belote")
    change(record)
    with pytest.raises(RecordError, match=message):
        DealRecord.from_dict(record)


def test_it_refuses_a_record_that_is_not_an_object() -> None:
    with pytest.raises(RecordError):
        DealRecord.from_dict([])


@pytest.mark.parametrize(
    "bad_action",
    [
        {"seat": 0, "type": "take", "extra": 1},
        {"seat": 0},
        {"seat": "0", "type": "take"},
        {"seat": 0.0, "type": "take"},
        {"seat": True, "type": "take"},
        {"seat": 0, "type": "bid"},
        {"seat": 0, "type": "play", "card": "ZZ"},
        {"seat": 0, "type": "choose", "trump": "X"},
        "take",
    ],
)
def test_it_reports_a_malformed_action_as_an_error_at_its_index(bad_action) -> None:
    record = load("belote-made-with-belote")
    record["actions"][0] = bad_action
    report = replay(DealRecord.from_dict(record)).to_dict()
    assert report["error"]["index"] == 0
    assert report["result"] is None
    assert len(report["steps"]) == 1


def test_it_reports_declared_cards_out_of_canonical_order() -> None:
    record = load("open-blot-declarations")
    record["actions"][4]["cards"] = ["AH", "KH", "QH"]
    report = replay(DealRecord.from_dict(record)).to_dict()
    assert report["error"]["index"] == 4
    assert "canonical order" in report["error"]["message"]


def test_it_reports_an_action_after_the_deal_is_over() -> None:
    record = load("belote-void")
    record["actions"].append({"seat": 0, "type": "pass"})
    report = replay(DealRecord.from_dict(record)).to_dict()
    assert report["error"]["index"] == 8
    assert report["steps"][8] == {"to_act": None, "legal": []}
    assert report["result"] is None


def test_it_reports_an_action_by_the_wrong_seat() -> None:
    record = load("belote-made-with-belote")
    record["actions"][0]["seat"] = 1
    report = replay(DealRecord.from_dict(record)).to_dict()
    assert report["error"] == {"index": 0, "message": 'illegal action {"seat":1,"type":"take"}'}


def test_it_rebuilds_a_deal_from_its_record_and_writes_the_same_record_back() -> None:
    record = DealRecord.from_dict(load("open-blot-declarations"))
    deal = rebuild(record)
    assert deal.is_over
    assert deal.to_record().to_dict() == record.to_dict()


def test_it_names_the_index_when_rebuilding_an_illegal_log() -> None:
    with pytest.raises(Exception, match="action 3"):
        rebuild(DealRecord.from_dict(load("belote-illegal-card")))
