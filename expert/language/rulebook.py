"""Loading a rulebook folder (knowledge/<game>/) into a ``Rulebook``."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.expert.language import conditions as cond
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import (QUESTION_SCOPES, QUESTION_TYPES, Article, Case, Production,
                                           Provision, Question, Rulebook)
from referee.expert.language.problems import Problems
from referee.expert.language.yamlio import load_knowledge, where

DEFAULT_ROOT = Path(__file__).resolve().parents[2] / "knowledge"


def knowledge_root(root: str | Path | None = None) -> Path:
    path = Path(root) if root else DEFAULT_ROOT
    if not path.is_dir():
        raise RefereeError("no such knowledge folder, expected a folder holding <game>/rulebook.yaml",
                           str(path))
    return path


def list_games(root: str | Path | None = None) -> list[str]:
    base = knowledge_root(root)
    return sorted(p.parent.name for p in base.glob("*/rulebook.yaml"))


def load_rulebook(game: str, root: str | Path | None = None,
                  problems: Problems | None = None, cached: bool = True) -> Rulebook:
    """Load and validate; raise the first error unless a ``problems`` collector is given.

    ``game`` must be the name of one of the root's rulebooks (never a path: a record or case file
    naming ``/somewhere/else`` loads nothing). ``cached=False`` parses every file afresh, for
    checks that must not take the parse cache's word (``referee verify``)."""
    strict = problems is None
    problems = problems if problems is not None else Problems()
    base = knowledge_root(root)
    games = list_games(base)
    if not isinstance(game, str) or game not in games:
        from referee.expert.language.answers import hint
        game = str(game)[:60]
        raise RefereeError(f"unknown game {game!r}{hint(game, games)}, expected one of: "
                           f"{', '.join(games) or 'none'}", str(base))
    folder = base / game
    book = _Loader(game, folder, problems, cached).load()
    from referee.expert.language.validate import validate
    validate(book, problems)
    if strict:
        problems.raise_first()
    return book


class _Loader:
    def __init__(self, game: str, folder: Path, problems: Problems, cached: bool = True):
        self.game, self.folder, self.problems, self.cached = game, folder, problems, cached
        self.files: list[Path] = []
        self.digests: dict[str, str] = {}      # file, relative to the folder -> digest of its data

    def read(self, path: Path) -> Any:
        self.files.append(path)
        try:
            data, digest = load_knowledge(path, self.cached)
            self.digests[path.relative_to(self.folder).as_posix()] = digest
            return data
        except RefereeError as exc:
            self.problems.error(exc.message, exc.file, exc.line)
            return None

    def fail(self, message: str, node: Any = None, file: str | None = None):
        f, line = where(node)
        self.problems.error(message, f or file, line)

    def load(self) -> Rulebook:
        meta = self.read(self.folder / "rulebook.yaml") or {}
        if not isinstance(meta, dict):
            self.fail("rulebook.yaml must be a mapping", file=str(self.folder / "rulebook.yaml"))
            meta = {}
        questions: dict[str, Question] = {}
        qfile = self.folder / "questions.yaml"
        if qfile.is_file():
            data = self.read(qfile)
            if data is not None and not isinstance(data, list):
                self.fail("questions.yaml must be a list of question blocks", file=str(qfile))
                data = []
            for node in data or []:
                self.add_question(questions, node, str(qfile))
        articles = []
        for path in sorted((self.folder / "articles").glob("*.yaml")):
            art = self.load_article(path, questions)
            if art:
                articles.append(art)
        provisions: dict[str, Provision] = {}
        productions: list[Production] = []
        for art in articles:
            for p in art.provisions:
                if p.id in provisions:
                    self.problems.error(f"provision {p.id} encoded twice (also {provisions[p.id].file})",
                                        p.file, p.line)
                provisions[p.id] = p
            productions.extend(art.productions)
        cards_map = {}
        cfile = self.folder / "cards.yaml"
        if cfile.is_file():
            data = self.read(cfile)
            if data is not None and not isinstance(data, dict):
                self.fail("cards.yaml must map derived fact names to question specs", file=str(cfile))
            cards_map = dict(data or {}) if isinstance(data, dict) else {}
        seats = []
        for node in meta.get("seats") or []:
            if not isinstance(node, dict) or "id" not in node:
                self.fail("a seat needs an id and a label", node, str(self.folder / "rulebook.yaml"))
                continue
            seats.append((str(node["id"]), node.get("label") or {}))
        return Rulebook(
            game=self.game, root=self.folder, title=meta.get("title") or {"en": self.game},
            language=str(meta.get("language", "en")), source=meta.get("source") or {},
            edition=str(meta.get("edition", "")), seats=seats,
            partnerships=meta.get("partnerships") or [],
            effects=dict(meta.get("effects") or {}), parameters=dict(meta.get("parameters") or {}),
            questions=questions, provisions=provisions, productions=productions,
            articles=articles, files=self.files, cards_map=cards_map,
            score=dict(meta.get("score") or {}) if isinstance(meta.get("score") or {}, dict) else {},
            digests=self.digests)

    def load_article(self, path: Path, questions: dict[str, Question]) -> Article | None:
        data = self.read(path)
        if data is None:
            return None
        if not isinstance(data, dict):
            self.fail("an article file must be a mapping with provisions, productions, cases",
                      file=str(path))
            return None
        label = str(data.get("article", path.stem))
        for node in data.get("questions") or []:
            self.add_question(questions, node, str(path))
        provisions = [p for p in (self.provision(n, label, path) for n in data.get("provisions") or []) if p]
        productions = [p for p in (self.production(n, label, path) for n in data.get("productions") or []) if p]
        cases = [c for c in (self.case(n, label, path) for n in data.get("cases") or []) if c]
        return Article(label=label, title=data.get("title") or {}, provisions=provisions,
                       productions=productions, cases=cases, file=str(path), line=1)

    def add_question(self, questions: dict[str, Question], node: Any, file: str) -> None:
        if not isinstance(node, dict) or "id" not in node:
            self.fail("a question block needs at least id, type and text", node, file)
            return
        f, line = where(node)
        qid = str(node["id"])
        if qid in questions:
            self.problems.error(f"question {qid!r} defined twice (first at {questions[qid].file}:"
                                f"{questions[qid].line})", f, line)
            return
        qtype = node.get("type")
        if qtype not in QUESTION_TYPES:
            self.problems.error(f"question {qid!r}: type {qtype!r}, expected one of "
                                f"{', '.join(QUESTION_TYPES)}", f, line)
            return
        values = []
        for v in node.get("values") or []:
            if isinstance(v, dict) and "value" in v:
                values.append((v["value"], v.get("label") or {"en": str(v["value"])}))
            else:
                self.fail(f"question {qid!r}: each value needs {{value: ..., label: ...}}", v, file)
        when = self.condition(node.get("when"), file)
        scope = node.get("scope", "event")
        if scope not in QUESTION_SCOPES:
            self.problems.error(f"question {qid!r}: scope {scope!r}, expected deal or event", f, line)
            scope = "event"
        unknown = node.get("unknown")
        if unknown is not None and not (isinstance(unknown, dict) and "value" in unknown
                                        and set(unknown) <= {"value", "cites", "why"}):
            self.problems.error(f"question {qid!r}: unknown must be {{value: V, cites: [ids], why: "
                                "{en: ...}}: the answer the text prescribes when the fact cannot be "
                                "established", f, line)
            unknown = None
        from_earlier = node.get("from_earlier")
        if from_earlier is not None:
            if from_earlier is True:
                from_earlier = {}
            if not (isinstance(from_earlier, dict) and set(from_earlier) <= {"seat"}) or qtype != "yesno":
                self.problems.error(f"question {qid!r}: from_earlier must be true or {{seat: REF}} on a "
                                    "yesno question: answered from what earlier events' findings carry",
                                    f, line)
                from_earlier = None
            else:
                from_earlier = dict(from_earlier)
        questions[qid] = Question(
            id=qid, type=qtype, text=node.get("text") or {}, help=node.get("help") or {},
            values=values, when=when, seats=node.get("seats"), values_from=node.get("values_from"),
            min=node.get("min"), max=node.get("max"), scope=scope,
            judgement=bool(node.get("judgement", False)), unknown=unknown, fact=_fact(node.get("fact")),
            impossible=self.impossible(qid, node.get("impossible"), file, f, line),
            from_earlier=from_earlier, file=f or file, line=line)

    def impossible(self, qid: str, nodes: Any, file: str, f, line) -> list[dict]:
        """A question's ``impossible:`` list: the combinations of answers the source text rules
        out, each {when: CONDITION, why: {lang: text}, cites: [ids]}."""
        if nodes is None:
            return []
        if not isinstance(nodes, list):
            self.problems.error(f"question {qid!r}: impossible must be a list of {{when: CONDITION, why: "
                                "{en: ...}, cites: [ids]}", f, line)
            return []
        rules = []
        for node in nodes:
            nf, nline = where(node)
            if not isinstance(node, dict) or not {"when", "why"} <= set(node) or set(node) - {"when", "why", "cites"}:
                self.problems.error(f"question {qid!r}: each impossible combination needs when (the answers "
                                    "that exclude each other) and why ({en: ...}), with optional cites",
                                    nf or f, nline or line)
                continue
            when = self.condition(node["when"], file)
            if when is None:
                continue
            rules.append({"when": when, "why": node.get("why") or {}, "cites": list(node.get("cites") or []),
                          "file": nf or f or file, "line": nline or line})
        return rules

    def condition(self, node: Any, file: str):
        if node is None:
            return None
        try:
            return cond.parse(node, file)
        except RefereeError as exc:
            self.problems.error(exc.message, exc.file, exc.line)
            return None

    def provision(self, node: Any, article: str, path: Path) -> Provision | None:
        if not isinstance(node, dict) or not {"id", "quote", "english"} <= set(node):
            self.fail("a provision needs id, quote and english", node, str(path))
            return None
        f, line = where(node)
        return Provision(
            id=str(node["id"]), article=article, label=str(node.get("label", article)),
            kind=str(node.get("kind", "")), penalty_bearing=bool(node.get("penalty_bearing", False)),
            quote=str(node["quote"]), english=str(node["english"]), note=node.get("note"),
            truncated=bool(node.get("seed_truncated", False)), file=f or str(path), line=line)

    def production(self, node: Any, article: str, path: Path) -> Production | None:
        if not isinstance(node, dict) or not {"id", "cites", "when", "then"} <= set(node):
            self.fail("a production needs id, cites, when and then", node, str(path))
            return None
        f, line = where(node)
        pid = str(node["id"])
        cites = node["cites"]
        if isinstance(cites, str):
            cites = [cites]
        if not isinstance(cites, list) or not cites:
            self.fail(f"production {pid!r}: cites needs one or more inventory ids", node, str(path))
            return None
        when = self.condition(node["when"], str(path))
        then = node["then"]
        actions = [k for k in ("derive", "finding", "keep_first") if isinstance(then, dict) and k in then]
        if len(actions) != 1 or len(then) != 1:
            self.fail(f"production {pid!r}: then needs exactly one of derive, finding, keep_first",
                      then if isinstance(then, dict) else node, str(path))
            return None
        action = actions[0]
        prod = Production(id=pid, article=article, cites=[str(c) for c in cites],
                          when=when if when is not None else cond.TRUE, action=action,
                          overrides=[str(o) for o in node.get("overrides") or []],
                          why=node.get("why"), reading=node.get("reading"),
                          file=f or str(path), line=line)
        if action == "derive":
            prod.derive = str(then["derive"])
        elif action == "keep_first":
            spec = then["keep_first"]
            if not isinstance(spec, dict) or "order" not in spec:
                self.fail(f"production {pid!r}: keep_first needs {{order: QUESTION}}", then, str(path))
                return None
            prod.keep_first = str(spec["order"])
            if not isinstance(spec.get("examine_later", True), bool):
                self.fail(f"production {pid!r}: keep_first examine_later must be true or false, "
                          f"got {spec.get('examine_later')!r}", then, str(path))
                return None
            prod.keep_first_examine_later = spec.get("examine_later", True)
            for key in ("among", "except", "later"):
                ids = spec.get(key)
                if ids is None:
                    continue
                if not isinstance(ids, list) or not ids:
                    self.fail(f"production {pid!r}: keep_first {key} must be a list of production ids",
                              then, str(path))
                    return None
                setattr(prod, f"keep_first_{key}", [str(a) for a in ids])
        else:
            if not isinstance(then["finding"], dict):
                self.fail(f"production {pid!r}: finding must be a mapping", then, str(path))
                return None
            prod.finding = then["finding"]
        return prod

    def case(self, node: Any, article: str, path: Path) -> Case | None:
        if not isinstance(node, dict) or not {"name", "answers", "expect"} <= set(node):
            self.fail("a case needs name, answers and expect", node, str(path))
            return None
        if not isinstance(node["answers"], dict) or not isinstance(node["expect"], dict):
            self.fail(f"case {node['name']!r}: answers and expect must be mappings", node, str(path))
            return None
        f, line = where(node)
        return Case(name=str(node["name"]), article=article, answers=dict(node["answers"]),
                    expect=node["expect"], header=dict(node.get("header") or {}),
                    note=node.get("note"), cards=node.get("cards"), events=node.get("events"),
                    requests=node.get("requests"), file=f or str(path), line=line)


def _fact(node: Any):
    """A question's ``fact:`` with YAML's yes/no keys (read as true/false) named yes and no again."""
    if not isinstance(node, dict):
        return node
    names = {True: "yes", False: "no"}
    return {lang: {names.get(k, k) if isinstance(k, bool) else k: x for k, x in v.items()}
            if isinstance(v, dict) else v for lang, v in node.items()}
