"""expert.cards.skat (matadors, game value) and the README's deal examples."""
import pathlib
import re

import pytest
import yaml

from referee.expert.cards.deal import parse_deal
from referee.expert.cards.deck import Contract
from referee.expert.cards.derive import derive
from referee.expert.cards.notation import parse_cards
from referee.expert.cards.skat import game_value, lost_value_at_bid, matadors

BASE = {"D": 9, "H": 10, "S": 11, "C": 12, "grand": 24}


def S(t):
    return parse_cards(t, "skat")


def test_matadors_with_and_without():
    hearts = Contract("skat", "suit", "H")
    assert matadors(S("♣J ♠J ♥J ♥A ♥10 ♠7"), hearts) == ("with", 3)
    assert matadors(S("♣J ♠J ♥J ♦J ♥A ♥10 ♠7"), hearts) == ("with", 6)
    assert matadors(S("♣J ♥J ♥A"), hearts) == ("with", 1)
    assert matadors(S("♥J ♦J ♥A"), hearts) == ("without", 2)
    assert matadors(S("♥7"), hearts) == ("without", 10)
    assert matadors(S("♣J ♠J ♥J ♦J ♥A"), Contract("skat", "grand")) == ("with", 4)


def test_game_value():
    v, why = game_value(S("♣J ♠J ♥7"), Contract("skat", "suit", "H"), BASE)
    assert v == 30 and "with 2 + game 1 = 3 x base 10" in why
    v, _ = game_value(S("♠J ♥7"), Contract("skat", "grand"), BASE, hand=True)
    assert v == 24 * 3
    v, _ = game_value([], Contract("skat", "null"), BASE, ouvert=True,
                      null_values={"null ouvert": 46})
    assert v == 46
    with pytest.raises(ValueError):
        game_value([], Contract("skat", "null"), BASE)


def test_lost_value_at_bid():
    assert lost_value_at_bid(30, 24, 10) == (30, "value 30 reaches the bid 24")
    assert lost_value_at_bid(20, 33, 10)[0] == 40


README = pathlib.Path(__file__).resolve().parents[1] / "expert" / "cards" / "README.md"


def readme_deals():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    return [yaml.safe_load(b)["deal"] for b in blocks if b.lstrip().startswith("deal:")]


def test_readme_examples_parse():
    deals = readme_deals()
    assert len(deals) == 6
    games = ["preferans", "preferans", "skat", "bridge", "ulti", "bridge"]
    expected = [None, "failed_to_trump", "revoke", "revoke", "failed_to_beat", "revoke"]
    for d, g, e in zip(deals, games, expected):
        if e is None:        # the format overview shows all four trick forms; its play is
            d = dict(d)      # not one deal: check its hands and header only
            d["play"] = d["play"][:2]
        facts = derive(parse_deal(d, g))
        if e:
            assert e in {f.name for f in facts}, (g, e)


def test_readme_suggested_mappings_load_and_apply():
    from referee.expert.cards.derive import answers_from_facts
    text = README.read_text(encoding="utf-8")
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    mappings = [b for b in blocks if "deal" not in b]
    assert len(mappings) == 4
    deals = readme_deals()
    for mapping, (d, g) in zip(mappings[1:], [(deals[2], "skat"), (deals[3], "bridge"),
                                              (deals[4], "ulti")]):
        got = answers_from_facts(derive(parse_deal(d, g)), mapping)
        assert got.answers.get("offender") or got.answers.get("claim"), (g, got.answers)
    bridge = answers_from_facts(derive(parse_deal(deals[3], "bridge")), mappings[2]).answers
    assert bridge["l64_winner"] == "non-offending" and bridge["play_claim"] == ["revoke"]
