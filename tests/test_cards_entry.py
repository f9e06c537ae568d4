"""Card entry at the table (expert/card_entry.py): prompts checked at once, mistakes re-asked
with a message naming the card and the position, nothing crashes on any string typed, the
entered deal is saved in the interview's case file and its answers are not asked."""
import random

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.expert.console import card_entry
from referee.expert.cards.deal import parse_deal
from referee.expert.interview.from_cards import answers_from_cards
from referee.expert.language.rulebook import load_rulebook
from test_cards_property import GAMES, random_legal_deal

CHARS = list("♠♥♦♣AKQJTDPBWFXVI0123456789:-,; /hxÁáÖ=?\tSCHDKPZMTRГКДВПЧБ")
ALPHABET = st.sampled_from(CHARS)
TOKENS = st.sampled_from(CHARS + ["back", "10", "VIII", "declarer", "defender_1", "N", "4♠", "betl",
                                  "herc", "grand", "P:Á", "♠A", "♣K"])


class Script:
    """A reader that types the given lines, then ends the input; it records the prompts."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.prompts = []

    def __call__(self, prompt, question=None):
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def run(game, lines):
    out = []
    script = Script(lines)
    try:
        cards = card_entry.enter_cards(game, script, out.append)
    except card_entry.Interrupted as stop:
        cards = stop.cards
    return cards, out, script.prompts


DOLAZ = ["", "karo", "declarer=karo defender_1=none defender_2=none",
         "", "♦7 ♠J98 ♥J98 ♣987", "", "♠7 ♥7", "", "", ""]


def test_entered_deal_is_the_case_file_mapping_and_answers_the_questions():
    cards, _, _ = run("preferans", DOLAZ)
    assert cards == {"contract": "karo", "bids": {"declarer": "karo", "defender_1": "none",
                                                  "defender_2": "none"},
                     "hands": {"defender_1": "♦7 ♠J98 ♥J98 ♣987"}, "talon": "♠7 ♥7"}
    got = answers_from_cards(load_rulebook("preferans"), cards)
    assert got.answers["dolaz_situation"] == "lider-only"
    assert got.answers["holding_lider"] == ["none"]


def test_a_card_given_twice_names_the_card_and_the_position_and_is_asked_again():
    lines = ["", "karo", "", "♦7 ♠J98 ♥J98 ♣987", "♦7 ♠Q10 ♥Q10 ♣AKQJ10", "♦8 ♠AK ♥AK ♣A ♦AKQJ", ""]
    cards, out, prompts = run("preferans", lines)
    errors = [o for o in out if o.startswith("  !")]
    assert len(errors) == 1
    assert "hand of defender_1" in errors[0] and "♦7" in errors[0] and "hand of declarer" in errors[0]
    assert prompts.count("Hand of defender_1: ") == 2
    assert cards["hands"]["defender_1"] == "♦8 ♠AK ♥AK ♣A ♦AKQJ"


def test_unknown_card_and_wrong_count_are_explained():
    _, out, _ = run("bridge", ["S", "4♠", "♠AKZ ♥QJ109 ♦AK2 ♣543", "♠AK7 ♥QJ109 ♦AK2 ♣54"])
    errors = [o for o in out if o.startswith("  !")]
    assert "hand of N" in errors[0] and "'Z'" in errors[0]
    assert "hand of N" in errors[1] and "12 cards given, 13 expected" in errors[1]


def test_question_mark_shows_the_notation():
    _, out, _ = run("ulti", ["", "piros ulti", "?"])
    assert any("alsó" in o for o in out)


def test_play_trick_by_trick_finds_the_revoke_and_an_empty_line_ends():
    hands = ["♠AK7 ♥QJ109 ♦AK2 ♣543", "♠QJ10 ♥AK2 ♦QJ10 ♣QJ107", "♠98654 ♥876 ♦987 ♣62",
             "♠32 ♥543 ♦6543 ♣AK98"]
    lines = ["S", "4♠", *hands, "", "♦3 ♦A ♣7 ♦7", "♦K ♦10 ♦8 ♦4", "♦K ♦10 ♦8 ♦4", ""]
    cards, out, prompts = run("bridge", lines)
    assert any("already played" in o or "trick 1" in o for o in out if o.startswith("  !"))
    assert cards["play"] == ["♦3 ♦A ♣7 ♦7", "♦K ♦10 ♦8 ♦4"]
    got = answers_from_cards(load_rulebook("bridge"), cards)
    assert got.answers["play_claim"] == ["revoke"] and got.answers["offender"] == "E"


def test_back_undoes_the_previous_entry_whether_given_or_skipped():
    hands = ["♠AK7 ♥QJ109 ♦AK2 ♣543", "♠QJ10 ♥AK2 ♦QJ10 ♣QJ107", "♠98654 ♥876 ♦987 ♣62",
             "♠32 ♥543 ♦6543 ♣AK98"]
    lines = ["back", "S", "3NT", "back", "4♠", hands[0], hands[1], "", "back", hands[2], hands[3], "",
             "♦3 ♦A ♦10 ♦7", "♦K ♦J ♦8 ♦4", "back", "back", "♦3 ♦A ♣7 ♦7", ""]
    cards, out, prompts = run("bridge", lines)
    assert cards["contract"] == "4♠"
    assert cards["hands"] == dict(zip(["N", "E", "S", "W"], hands))
    assert cards["play"] == ["♦3 ♦A ♣7 ♦7"]
    assert sum("previous entry is undone" in o for o in out) == 4
    assert any("nothing to go back to" in o for o in out)       # 'back' at the first prompt
    assert prompts.count("Trick 2: ") == 3 and prompts.count("Hand of S: ") == 2


def test_an_unfinished_trick_ends_the_play():
    lines = ["S", "4♠", "", "", "", "", "W", "♣A ♣3 ♣Q ♥2", "♣K ♣4", "♣9"]
    cards, out, _ = run("bridge", lines)
    assert cards["play"] == ["♣A ♣3 ♣Q ♥2", "♣K ♣4"]
    assert any("unfinished" in o for o in out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES),
       st.lists(st.one_of(st.text(max_size=30), st.text(ALPHABET, max_size=30),
                          st.lists(TOKENS, max_size=8).map(" ".join)), max_size=25))
def test_no_string_typed_at_a_card_prompt_crashes(game, lines):
    cards, out, _ = run(game, lines)
    parse_deal(cards, game)                   # whatever was accepted is a valid deal
    assert all(isinstance(o, str) for o in out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 10 ** 6), st.integers(0, 10 ** 6))
def test_random_legal_deals_typed_in_come_back_whole(game, seed, noise_seed):
    data, _ = random_legal_deal(game, seed)
    rnd = random.Random(noise_seed)
    seats = list(parse_deal(data, game).seats)

    def noisy(line):                           # a wrong line first, now and then
        return ([rnd.choice(["♠Z", "P:VIIIX", "x", "♣A ♣A", "7 7 7"])] if rnd.random() < .2 else []) + [line]
    lines = []
    if game == "bridge":
        lines += noisy(data["declarer"])
    else:
        lines += [""]                          # default seats
    contract = data["contract"]
    typed = contract.get("trump", contract["type"]) if game != "bridge" else None
    if game == "bridge":
        level = rnd.randint(1, 7)
        typed = f"{level}{'NT' if contract['type'] == 'notrump' else contract['trump']}"
    elif contract["type"] == "suit":
        typed = {"preferans": {"S": "pik", "D": "karo", "H": "herc", "C": "tref"},
                 "skat": {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"},
                 "ulti": {"P": "piros", "T": "tök", "Z": "zöld", "M": "makk"}}[game][contract["trump"]]
    elif game == "ulti" and contract["type"] == "durchmars" and contract.get("trump"):
        typed = {"P": "piros", "T": "tök", "Z": "zöld", "M": "makk"}[contract["trump"]] + " durchmars"
    lines += noisy(typed)
    if game == "preferans":
        lines += [""]                          # bids skipped
    for s in seats:
        lines += noisy(data["hands"][s])
    if "talon" in data:
        lines += noisy(data["talon"]) + noisy(data["discard"])
    lines += [""]                              # lead: the default
    for t in data["play"]:
        lines += noisy(t)
    lines += [""]
    cards, out, _ = run(game, lines)
    deal = parse_deal(cards, game)
    assert deal.hands == parse_deal(data, game).hands
    assert len(deal.tricks) == len(data["play"])
    assert [c for t in deal.tricks for _, c in t.cards] == \
        [c for t in parse_deal(data, game).tricks for _, c in t.cards]


# the players' names given as flags, so the interview does not ask them first
NAMED = ["--player", "declarer=Marko", "--player", "defender_1=Jovan", "--player", "defender_2=Petar"]


def _interview(tmp_path, typed, *extra):
    save = tmp_path / "iv.yaml"
    result = CliRunner().invoke(main, ["interview", "preferans", "--save", str(save), "--format", "json",
                                       *NAMED, *extra], input=typed)
    return result, save


def test_interview_asks_for_the_cards_and_saves_them_and_does_not_ask_what_they_show(tmp_path):
    typed = "\n".join(["y", *DOLAZ, "bad-dolaz"]) + "\n"
    result, save = _interview(tmp_path, typed)
    assert result.exit_code == 130, result.output     # input ended mid-interview: saved
    saved = yaml.safe_load(save.read_text())
    assert saved["cards"]["hands"]["defender_1"] == "♦7 ♠J98 ♥J98 ♣987"
    # named by their text, not their ids (issue 19)
    holdings = "Which of the listed holdings did the player whose dolaz is disputed have? (only the declarer bid)"
    assert "From the cards:" in result.output and holdings in result.output
    assert "holding_lider" not in result.output
    assert "\nWhich of the listed holdings" not in result.output     # not asked
    assert saved["answers"] == {"claim": ["bad-dolaz"]}
    # resume keeps the cards and does not offer them again
    resumed = CliRunner().invoke(main, ["interview", "preferans", "--resume", str(save), "--format",
                                        "json"], input="")
    assert "Do you have the cards" not in resumed.output
    assert holdings in resumed.output
    assert yaml.safe_load(save.read_text())["cards"] == saved["cards"]


def test_interview_no_cards_asks_the_questions(tmp_path):
    result, save = _interview(tmp_path, "n\nbad-dolaz\n")
    assert "From the cards" not in result.output
    assert "cards" not in yaml.safe_load(save.read_text())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(ALPHABET, max_size=20).filter(lambda s: "\n" not in s and "\r" not in s),
                max_size=12))
def test_interview_survives_any_string_at_the_card_prompts(tmp_path_factory, lines):
    tmp = tmp_path_factory.mktemp("iv")
    result = CliRunner().invoke(main, ["interview", "preferans", "--enter-cards", "--save",
                                       str(tmp / "iv.yaml")], input="\n".join(lines) + "\n")
    assert result.exit_code in (0, 130), (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    saved = yaml.safe_load((tmp / "iv.yaml").read_text())
    if saved.get("cards"):
        parse_deal(saved["cards"], "preferans")
