"""The JSON Schemas of the knowledge files (expert/language/schemas): every shipped file of each
kind passes its schema, and files with real mistakes (a misspelt key, a wrong type, a missing
required key) are refused. jsonschema is a test dependency only; the core never validates."""
import copy
import functools
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from referee.cli import main
from referee.expert.language.knowledge_schema import FOLDER, KINDS, kind_of, schema
from referee.expert.language.yamlio import load_file
from conftest import ROOT

SHIPPED = {
    "rulebook": ["knowledge/*/rulebook.yaml", "tests/fixtures/*/*/rulebook.yaml"],
    "questions": ["knowledge/*/questions.yaml", "tests/fixtures/*/*/questions.yaml"],
    "article": ["knowledge/*/articles/*.yaml", "tests/fixtures/*/*/articles/*.yaml"],
    "cards": ["knowledge/*/cards.yaml"],
    "case": ["knowledge/*/examples/*.yaml", "tests/fixtures/*/*/examples/*.yaml"],
}


def as_json(data):
    """What an editor validates: YAML read as JSON (keys as strings, dates as text)."""
    return json.loads(json.dumps(data, default=str))


@functools.cache
def validator(kind):
    return jsonschema.Draft7Validator(schema(kind))


def errors(kind, data):
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator(kind).iter_errors(as_json(data))]


def files(kind):
    return sorted(p for pattern in SHIPPED[kind] for p in ROOT.glob(pattern))


@pytest.mark.parametrize("kind", KINDS)
def test_each_schema_is_a_valid_draft7_schema(kind):
    jsonschema.Draft7Validator.check_schema(schema(kind))


@pytest.mark.parametrize("kind", KINDS)
def test_every_shipped_file_passes_its_schema(kind):
    paths = files(kind)
    assert paths, f"no {kind} files found"
    for path in paths:
        assert kind_of(path) == kind
        found = errors(kind, load_file(path, cached=True))      # the project's own (fast) loader
        assert not found, f"{path}: " + "\n".join(found[:5])


def test_every_kind_is_shipped_in_the_package():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["referee"]
    assert "expert/language/schemas/*.json" in data
    assert sorted(p.name for p in FOLDER.glob("*.json")) == sorted(f"{k}.schema.json" for k in KINDS)


def test_shared_definitions_are_the_same_in_every_schema():
    """Each schema is self-contained (an editor needs no other file), so the definitions they
    share are copies: they must not drift apart."""
    seen = {}
    for kind in KINDS:
        for name, body in schema(kind).get("definitions", {}).items():
            if name in seen:
                assert body == seen[name][1], f"definition {name!r} differs in {kind} and {seen[name][0]}"
            else:
                seen[name] = (kind, body)


@pytest.fixture(scope="module")
def article():
    return yaml.safe_load((ROOT / "tests/fixtures/knowledge/mini/articles/01-rules.yaml").read_text())


def broken(doc, change):
    doc = copy.deepcopy(doc)
    change(doc)
    return doc


@pytest.mark.parametrize("change, words", [
    # a misspelt key the loader would silently ignore: the override would never apply
    (lambda d: d["productions"][3].update(overides=d["productions"][3].pop("overrides")), "overides"),
    (lambda d: d["provisions"][0].update(penalty_bearing="yes"), "'yes' is not of type 'boolean'"),
    (lambda d: d["provisions"][0].pop("quote"), "'quote' is a required property"),
    (lambda d: d["productions"][0].pop("cites"), "'cites' is a required property"),
    (lambda d: d["productions"][1]["then"]["finding"].update(kind="violaton"), "violaton"),
    (lambda d: d["productions"][1]["then"]["finding"]["penalty"][0].update(efect="bula"), "efect"),
    (lambda d: d["productions"][0].update(when={"q": "claim", "has": "early", "is": "x"}), "when"),
    (lambda d: d["productions"][0].update(then={"derive": "x", "finding": {}}), "then"),
    (lambda d: d["cases"][0]["expect"].update(not_aplied=["mini:1.early"]), "not_aplied"),
    (lambda d: d["cases"][0].update(answer=d["cases"][0].pop("answers")), "answers"),
    (lambda d: d["questions"][0].update(type="seats"), "seats"),
    (lambda d: d["questions"][1].update(text="Was it his turn?"), "text"),
])
def test_an_article_with_a_real_mistake_is_refused(article, change, words):
    found = errors("article", broken(article, change))
    assert found, "the schema accepted a broken file"
    assert any(words in f for f in found), found


def test_other_kinds_refuse_their_typical_mistakes():
    book = yaml.safe_load((ROOT / "tests/fixtures/knowledge/mini/rulebook.yaml").read_text())
    assert errors("rulebook", broken(book, lambda d: d.update(seat=d.pop("seats"))))
    assert errors("rulebook", broken(book, lambda d: d["effects"]["bula"].update(side="yes")))
    assert errors("rulebook", broken(book, lambda d: d["parameters"]["game_value"].update(value="four")))
    questions = yaml.safe_load((ROOT / "tests/fixtures/knowledge/mini/questions.yaml").read_text())
    assert errors("questions", broken(questions, lambda d: d[0].pop("values")))     # a multi needs values
    assert errors("questions", broken(questions, lambda d: d[2].update(min=1)))     # min on a choice
    cards = yaml.safe_load((ROOT / "knowledge/preferans/cards.yaml").read_text())
    assert errors("cards", broken(cards, lambda d: d.update(revoke={"question": "x", "value": 1})))
    assert errors("cards", broken(cards, lambda d: d.update(revoke={"q": "x"})))    # no value/add/absent
    case = yaml.safe_load((ROOT / "tests/fixtures/knowledge/mini/examples/case.yaml").read_text())
    assert errors("case", broken(case, lambda d: d["header"].update(tabel=3)))
    assert errors("case", broken(case, lambda d: d.pop("game")))


def test_schema_command_prints_the_shipped_schema():
    runner = CliRunner()
    for kind in KINDS:
        result = runner.invoke(main, ["schema", kind])
        assert result.exit_code == 0
        assert json.loads(result.stdout) == schema(kind)
    path = runner.invoke(main, ["schema", "article", "--path"]).stdout.strip()
    assert Path(path) == FOLDER / "article.schema.json"
    listing = runner.invoke(main, ["schema", "--list"]).stdout
    assert all(kind in listing for kind in KINDS)
    bad = runner.invoke(main, ["schema", "articel"])
    assert bad.exit_code == 2 and "did you mean 'article'" in bad.stderr


def test_knowledge_readme_says_how_to_point_an_editor_at_the_schemas():
    readme = (ROOT / "knowledge/README.md").read_text(encoding="utf-8")
    assert "yaml-language-server: $schema=" in readme
    assert "referee schema" in readme
