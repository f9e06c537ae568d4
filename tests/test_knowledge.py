"""The shipped rulebooks: they load, check clean, cite real inventory ids and quote the seeds."""
import re
from pathlib import Path

import pytest
import yaml

from conftest import shipped_check
from referee.expert.language.rulebook import list_games, load_rulebook

SHARED = Path(__file__).resolve().parents[2] / "shared"
INVENTORY = SHARED / "inventory" / "provisions.yaml"
SEEDS = {"preferans": "000_7fffed3973382ff3.txt", "skat": "001_ae8da3382699388e.txt",
         "bridge": "003_ca82d95e415bd1de.txt", "ulti": "004_1f5679d94169a0f1.txt"}
JOINS = [("хва-\nтило", "хватило"), ("сто-\nроны", "стороны"), ("наруши-\nтеля", "нарушителя"),
         ("наруше-\nния", "нарушения"), ("следу-\nющую", "следующую")]
GAMES = list_games()
needs_shared = pytest.mark.skipif(not INVENTORY.is_file(), reason="../shared is not beside the project")


@pytest.fixture(scope="module")
def inventory():
    return {e["id"]: e for e in yaml.safe_load(INVENTORY.read_text(encoding="utf-8"))}


def normalise(text):
    for a, b in JOINS:
        text = text.replace(a, b)
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("game", GAMES)
def test_rulebook_checks_without_errors(game):
    problems = shipped_check(game)
    assert not problems.errors, "\n".join(map(str, problems.errors))


@needs_shared
@pytest.mark.parametrize("game", GAMES)
def test_every_provision_is_an_inventory_id_with_its_kind(game, inventory):
    book = load_rulebook(game)
    for prov in book.provisions.values():
        assert prov.id in inventory, f"{prov.file}:{prov.line}: {prov.id} is not in the inventory"
        assert prov.penalty_bearing == inventory[prov.id]["penalty_bearing"], prov.id


@needs_shared
@pytest.mark.parametrize("game", GAMES)
def test_quotes_are_verbatim_from_the_seed(game):
    seed = normalise((SHARED / "seeds" / SEEDS[game]).read_text(encoding="utf-8"))
    book = load_rulebook(game)
    for prov in book.provisions.values():
        assert normalise(prov.quote) in seed, f"{prov.file}:{prov.line}: quote of {prov.id} not in the seed"


@needs_shared
@pytest.mark.parametrize("game", GAMES)
def test_every_penalty_bearing_provision_of_the_inventory_is_cited(game, inventory):
    book = load_rulebook(game)
    cited = {c for p in book.productions for c in p.cites}
    missing = [i for i, e in inventory.items() if e["game"] == game and e["penalty_bearing"] and i not in cited]
    assert not missing, f"not cited by any production: {missing}"


@needs_shared
@pytest.mark.parametrize("game", GAMES)
def test_every_inventory_provision_is_encoded(game, inventory):
    book = load_rulebook(game)
    missing = [i for i, e in inventory.items() if e["game"] == game and i not in book.provisions]
    assert not missing, f"not encoded: {missing}"


@needs_shared
def test_english_renderings_are_our_own(inventory):
    """The inventory gloss is a guide, not text to paste."""
    for game in GAMES:
        for prov in load_rulebook(game).provisions.values():
            gloss = inventory.get(prov.id, {}).get("gloss", "")
            assert normalise(prov.english) != normalise(gloss), f"{prov.id}: English copied from the gloss"
