"""Looking provisions up by the rulebook's own labels, and searching their text (referee articles
GAME ARTICLE, referee search), on the four shipped rulebooks."""
import json

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.expert.language.errors import RefereeError
from referee.expert.language.lookup import lookup, lookup_or_fail, search, tokens
from referee.expert.language.rulebook import load_rulebook


@pytest.fixture(scope="module")
def books():
    return {g: load_rulebook(g) for g in ("preferans", "skat", "bridge", "ulti")}


def ids(found):
    return [p.id for p in found]


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_tokens_split_words_numbers_and_drop_case_and_diacritics():
    assert tokens("Član 8, stav 2") == ["clan", "8", "stav", "2"]
    assert tokens("[Правило 45] C4(a)") == ["правило", "45", "c", "4", "a"]
    assert tokens("64A1") == ["64", "a", "1"]


@pytest.mark.parametrize("ref", ["8", "Član 8", "clan 8", "ČLAN 8"])
def test_an_article_number_finds_the_whole_article_and_nothing_else(books, ref):
    found = lookup(books["preferans"], ref)
    assert found and all(p.label.startswith("Član 8,") for p in found)
    assert "preferans:8.ruled-fall" in ids(found)
    everything = [p for p in books["preferans"].provisions.values() if p.label.startswith("Član 8,")]
    assert ids(found) == ids(everything)


def test_a_paragraph_label_narrows_to_that_paragraph(books):
    found = lookup(books["preferans"], "Član 8, stav 2")
    assert found and {p.label for p in found} == {"Član 8, stav 2"}
    assert "preferans:8.dolaz.1" not in ids(found)          # stav 3, tačka 1


def test_a_number_inside_a_range_article_finds_only_its_own_provisions(books):
    # Član 17-21 is one file: "17" must not bring Član 18-21 with it
    assert {p.label for p in lookup(books["preferans"], "17")} == {"Član 17, stav 1"}
    assert {p.label.split(",")[0] for p in lookup(books["preferans"], "Član 17-21")} == {
        "Član 17", "Član 18", "Član 19", "Član 20", "Član 21"}


def test_bridge_labels_with_and_without_spaces_and_brackets(books):
    assert ids(lookup(books["bridge"], "64A1")) == ["bridge:64A1"]
    assert ids(lookup(books["bridge"], "Правило 64 A1")) == ["bridge:64A1"]
    assert ids(lookup(books["bridge"], "45C4a")) == ids(lookup(books["bridge"], "45C4(a)")) == ["bridge:45C4a"]
    assert ids(lookup(books["bridge"], "42B")) == ["bridge:42B", "bridge:42B1", "bridge:42B2"]


def test_skat_section_numbers_do_not_match_longer_numbers(books):
    assert ids(lookup(books["skat"], "4.1.3")) == ["skat:4.1.3"]
    found = ids(lookup(books["skat"], "4.1.1"))
    assert found == ["skat:4.1.1", "skat:4.1.1.lead-before-announcement"]    # not 4.1.10, 4.1.11
    assert "skat:4.1.11" in ids(lookup(books["skat"], "4.1"))
    assert not any(i.startswith("skat:4.2") for i in ids(lookup(books["skat"], "4.1")))


def test_ulti_named_sections(books):
    assert ids(lookup(books["ulti"], "Renonszok 2")) == ["ulti:renonsz.2", "ulti:renonsz.2.card-played"]
    assert "ulti:renonsz.claim-deadline" in ids(lookup(books["ulti"], "renonszok"))
    assert "ulti:mondasok.table" in ids(lookup(books["ulti"], "Mondások"))     # its article, labelled elsewhere


def test_an_inventory_id_with_or_without_the_game(books):
    assert ids(lookup(books["preferans"], "preferans:8.ruled-fall")) == ["preferans:8.ruled-fall"]
    assert ids(lookup(books["preferans"], "8.ruled-fall")) == ["preferans:8.ruled-fall"]


def test_a_label_that_names_nothing_says_what_is_close(books):
    assert lookup(books["preferans"], "99") == []
    with pytest.raises(RefereeError) as err:
        lookup_or_fail(books["ulti"], "Renonszk 2")
    assert "did you mean 'Renonszok" in err.value.message
    assert "referee articles ulti" in err.value.message


def test_search_finds_words_in_the_quote_and_in_english(books):
    english = search(books["bridge"], "revoke")
    assert "bridge:64A1" in [h.provision.id for h in english]
    assert all("english" in h.fields or "note" in h.fields or "label" in h.fields for h in english)
    russian = search(books["bridge"], "фальшренонс")
    assert "bridge:64A1" in [h.provision.id for h in russian] and "quote" in russian[0].fields
    # every word must occur; a word matches the start of a word of the text, diacritics aside
    both = search(books["preferans"], "kontra bula")
    assert both and all("kontr" in (h.provision.quote + h.provision.english).lower() for h in both)
    assert [h.provision.id for h in search(books["preferans"], "dolaz")] == \
        [h.provision.id for h in search(books["preferans"], "DOLAZ")]
    assert search(books["preferans"], "xyzzy") == []
    scores = [h.score for h in search(books["preferans"], "dolaz")]
    assert scores == sorted(scores, reverse=True)


def test_articles_command_shows_one_article_by_its_label():
    result = run("articles", "bridge", "64A1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Правило 64A1  [bridge:64A1]  (penalty, penalty-bearing)")
    assert "Когда фальшренонс выявлен" in result.output
    assert "In English: When a revoke is established" in result.output
    assert "l64a1-transfer" in result.output


def test_articles_command_json_and_a_label_that_names_nothing():
    data = json.loads(run("articles", "skat", "4.1.3", "--format", "json").stdout)
    assert [d["id"] for d in data] == ["skat:4.1.3"]
    assert set(data[0]) >= {"id", "label", "quote", "english", "productions", "penalty_bearing"}
    bad = run("articles", "preferans", "Clan 99")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: no article or provision 'Clan 99' in preferans")
    assert "did you mean" in bad.stderr
    bad_json = run("articles", "preferans", "Clan 99", "--format", "json")
    assert bad_json.exit_code == 2 and "no article" in json.loads(bad_json.stdout)["error"]


def test_search_command_lists_ids_and_labels_and_exits_1_when_nothing_is_found():
    result = run("search", "revoke", "--game", "bridge")
    assert result.exit_code == 0
    assert "bridge:64A1  [Правило 64A1]" in result.stdout
    data = json.loads(run("search", "kontra", "--format", "json").stdout)
    assert {d["game"] for d in data} >= {"preferans", "ulti"}
    assert all({"id", "label", "found_in", "score"} <= set(d) for d in data)
    nothing = run("search", "xyzzy", "--format", "json")
    assert nothing.exit_code == 1 and json.loads(nothing.stdout) == []
    unknown = run("search", "kontra", "--game", "prefernas")
    assert unknown.exit_code == 2 and "did you mean 'preferans'" in unknown.stderr


def test_article_lines_for_the_interview_in_its_language(books):
    """What '? 8' at the interview's prompt shows: lookup_or_fail, then article_lines."""
    from referee.expert.language.lookup import article_lines
    lines = article_lines(books["preferans"], lookup_or_fail(books["preferans"], "Član 8, stav 2"), "Na engleskom")
    assert lines[0] == "Član 8, stav 2  [preferans:8.correct-dolaz-required]  (violation, penalty-bearing)"
    assert lines[2].startswith("  Na engleskom: A player's dolaz must nevertheless be correct")
    applied = next(line for line in lines if line.startswith("  Applied by: "))
    assert applied.startswith("  Applied by: dolaz-incorrect, dolaz-liable") and "dolaz-ruled-fall" in applied
    assert lines.count("") == len(lookup(books["preferans"], "Član 8, stav 2")) - 1
