import pytest

from referee.expert.language import conditions as c
from referee.expert.language.errors import RefereeError
from referee.expert.language.yamlio import load_text


def parse(text):
    return c.parse(load_text(text, "t.yaml"), "t.yaml")


def test_literal_forms():
    assert parse("{q: a, is: x}") == c.AnswerTest("a", "is", "x")
    assert parse("{q: a, in: [x, y]}") == c.AnswerTest("a", "in", ("x", "y"))
    assert parse("{q: a, answered: false}") == c.Not(c.AnswerTest("a", "answered", True))
    assert parse("{fact: f}") == c.FactTest("f")
    assert parse("{findings: none}") == c.NoFindings()


@pytest.mark.parametrize("text, words", [
    ("{q: a}", "needs exactly one of"),
    ("{q: a, ge: x}", "needs a number"),
    ("{all: []}", "non-empty list"),
    ("{bogus: 1}", "not understood"),
    ("{q: a, is: [1, 2]}", "single value"),
])
def test_malformed_conditions_name_file_and_line(text, words):
    with pytest.raises(RefereeError) as err:
        parse("\n" + text)
    assert words in err.value.message
    assert str(err.value).startswith("t.yaml:2:")


def test_dnf_distributes_and_pushes_negation():
    cond = parse("{all: [{q: a, is: 1}, {any: [{q: b, is: 2}, {not: {q: c, is: 3}}]}]}")
    alts = c.dnf(cond)
    assert [[(pos, lit.question) for pos, lit in alt] for alt in alts] == [
        [(True, "a"), (True, "b")], [(True, "a"), (False, "c")]]


def test_three_valued_evaluation():
    cond = parse("{any: [{q: a, is: 1}, {q: b, is: 2}]}")
    known = {"a": 0}

    def value(lit):
        return lit.holds(known[lit.question]) if lit.question in known else None
    assert c.evaluate(cond, value) is None
    known["b"] = 2
    assert c.evaluate(cond, value) is True


def test_answer_tests_on_types():
    assert c.AnswerTest("q", "has", "x").holds(["x", "y"])
    assert not c.AnswerTest("q", "has", "x").holds("x")
    assert c.AnswerTest("q", "count_ge", 2).holds(["x", "y"])
    assert c.AnswerTest("q", "ge", 3).holds(3)
    assert not c.AnswerTest("q", "ge", 3).holds(True)
