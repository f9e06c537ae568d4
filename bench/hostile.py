"""The hostile-input audit of issue 17, rerunnable: about 2,000 generated inputs in nine classes.

Run: python bench/hostile.py [--quick] [--json FILE] [--seed N]

Every input goes through the real command line (click's runner, in this process, each with a
10-second alarm), against the miniature test rulebook and the shipped ones. Per class it prints:
inputs tried, tracebacks (an exception other than a clean exit), hangs (the alarm rang), wrong
exit codes (not what the input calls for), data lost (a ruling gone or altered, a special file
replaced, a register changed by a refused write) and escapes (a forged record accepted, an edit
that changed an answer unnoticed, markup or a control character reaching a ruling). Exit 1 when
any figure but "tried" is not 0, except class 8, which the interview Session fixes (reported).
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import hostile_inputs as H  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from referee.cli import main  # noqa: E402
from referee.expert.records.record import canonical_json, compute_code  # noqa: E402
try:                        # the audit also runs against an older referee (no seals) for comparison
    from referee.expert.records.seal import key_path  # noqa: E402
except ImportError:
    def key_path(register: Path) -> Path:
        return Path(str(register) + ".key")

FIXTURES = ROOT / "tests" / "fixtures" / "knowledge"
K = ["--knowledge", str(FIXTURES)]
CASE = FIXTURES / "mini" / "examples" / "case.yaml"
TIMEOUT = 10
FIELDS = ("tried", "tracebacks", "hangs", "wrong_exit", "data_lost", "escapes")


class Hang(Exception):
    pass


def _alarm(_sig, _frame):
    raise Hang()


class Audit:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.figures: dict[str, dict] = {}
        self.examples: dict[str, list] = {}

    def count(self, cls: str, field: str, example: str | None = None) -> None:
        row = self.figures.setdefault(cls, dict.fromkeys(FIELDS, 0))
        row[field] += 1
        if example and field != "tried" and len(self.examples.setdefault(cls, [])) < 5:
            self.examples[cls].append(f"{field}: {example[:200]}")

    def run(self, cls: str, args: list, expect: tuple, what: str, input: str | None = None, env=None):
        """One command; counts tried / traceback / hang / wrong exit. Returns the result or None."""
        self.count(cls, "tried")
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(TIMEOUT)
        try:
            result = CliRunner().invoke(main, [str(a) for a in args], input=input, env=env)
        except Hang:
            self.count(cls, "hangs", what)
            return None
        finally:
            signal.alarm(0)
        if isinstance(result.exception, Hang):
            self.count(cls, "hangs", what)
            return None
        if (result.exception is not None and not isinstance(result.exception, SystemExit)) \
                or "Traceback" in result.output:
            self.count(cls, "tracebacks", f"{what}: {result.exception!r}")
            return result
        if result.exit_code not in expect:
            self.count(cls, "wrong_exit", f"{what}: exit {result.exit_code}: {result.output[-160:]}")
        elif result.exit_code in (2, 3):   # 3: a case too incomplete to rule (one line too)
            err = result.stderr.strip()
            if "\n" in err or not err.startswith("error: "):
                self.count(cls, "wrong_exit", f"{what}: not one line: {err[:160]}")
        return result


def _copy_key(register: Path, copy: Path) -> None:
    if key_path(register).exists():
        shutil.copy(key_path(register), key_path(copy))


def registered(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        return sqlite3.connect(path).execute("SELECT count(*) FROM rulings").fetchone()[0]
    except sqlite3.Error:
        return -1


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""


# ---------------------------------------------------------------- the classes

def class1_bombs(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "1 YAML aliases"
    head = "game: mini\nanswers:\n  claim: [early]\n  early_turn: false\n  game: pik\n  early_who: d2\n"
    shapes = dict(H.bombs())
    for _ in range(12 * scale):
        depth, width = rng.randrange(6, 14), rng.randrange(3, 25)
        if width ** depth > 300_000:
            shapes[f"seq-{depth}x{width}"] = H.laughs_seq(depth, width)
            shapes[f"map-{depth}x{width}"] = H.laughs_map(depth, width)
        shapes[f"mixed-{depth * 2}"] = H.laughs_mixed(depth * 2 + 6)
    spots = {"cards": lambda b: head + "cards:\n" + b,
             "header": lambda b: head + "header:\n" + b,
             # as the value of a known key: what the first design expanded (in a message, in JSON)
             "header.tournament": lambda b: head + "header:\n  tournament:\n" + b.replace("  ", "    "),
             "answers.order": lambda b: head + "  order:\n" + b.replace("  ", "    "),
             "top": lambda b: head + b.replace("  ", "", 1).replace("\n  ", "\n"),
             "answers": lambda b: head + b}
    case = a.tmp / "bomb.yaml"
    for name, bomb in shapes.items():
        for spot, make in spots.items():
            case.write_text(make(bomb))
            reg = a.tmp / "bomb-reg.sqlite"
            started = time.monotonic()
            a.run(cls, ["rule", case, "--register", reg, *K], (2,), f"{name} in {spot}")
            if registered(reg) or time.monotonic() - started > 5:
                a.count(cls, "escapes", f"{name} in {spot}: ruled or slow")
    draft = a.tmp / "kbomb"
    for name, bomb in list(shapes.items())[: 6 * scale]:
        shutil.rmtree(draft, ignore_errors=True)
        shutil.copytree(FIXTURES, draft)
        (draft / "mini" / "articles" / "02-bomb.yaml").write_text("article: X\nnote:\n" + bomb)
        r = a.run(cls, ["check", "mini", "--knowledge", draft], (1,), f"knowledge {name} check")
        if r is not None and "02-bomb.yaml:" not in r.output:
            a.count(cls, "escapes", f"knowledge {name}: check did not name the file")
        a.run(cls, ["rule", CASE, "--no-register", "--knowledge", draft], (2,), f"knowledge {name} rule")


def _ruled_register(a: Audit, name: str, n: int = 3) -> tuple[Path, list[Path]]:
    reg = a.tmp / f"{name}.sqlite"
    for p in (reg, key_path(reg)):
        if p.exists():
            p.unlink()
    records = []
    for i in range(n):
        case = a.tmp / f"{name}-{i}.yaml"
        case.write_text(CASE.read_text().replace("deal: 7", f"deal: {7 + i}").replace("table: 3", f"table: {i + 1}"))
        rec = a.tmp / f"{name}-{i}.json"
        CliRunner().invoke(main, ["rule", str(case), "--register", str(reg), "--record", str(rec), *K])
        records.append(rec)
    return reg, records


GARBAGE = [{"claim": ["<script>"]}, {"nope": 1}, {"claim": "early"}, {"early_who": 7}, {"game": ["pik"]},
           {"early_turn": "maybe"}, [], "x", None, {"claim": [None]}, {"order": [1, 2, 3]}]
GAMES = ["/etc", "../mini", "/tmp/mini", "mini/..", "", None, 5, ["mini"], "MINI", "mini ", "skat/../mini"]


def class2_forged(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "2 forged records"
    reg, records = _ruled_register(a, "forge")
    base = json.loads(records[0].read_text())
    edits = [("findings.0.penalty.0.amount", v) for v in (0, 1, 99, -5, "x", None)] + \
            [("referee", v) for v in ("Nobody", "", None)] + [("answers", g) for g in GARBAGE] + \
            [("rulebook.game", g) for g in GAMES] + [("table", v) for v in ("99", 99, None)] + \
            [("findings", v) for v in ([], None, "x", [1])] + [("no_infraction", v) for v in (True, "yes")]
    edits = edits * scale
    for i, (path, value) in enumerate(edits):
        rec = json.loads(json.dumps(base))
        node = rec
        *parents, last = path.split(".")
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        node[int(last) if isinstance(node, list) else last] = value
        rec["created"] = f"2026-11-29T10:{i // 60 % 60:02d}:{i % 60:02d}+00:00"
        rec["code"] = compute_code(rec)
        fake = a.tmp / "forged.json"
        fake.write_text(json.dumps(rec))
        before = registered(reg)
        r = a.run(cls, ["appeal", fake, "--set", "game=karo", "--register", reg, *K], (2,), f"appeal {path}={value!r}")
        if r is not None and r.exit_code == 0:
            a.count(cls, "escapes", f"forged record appealed ({path}={value!r})")
        if registered(reg) != before:
            a.count(cls, "data_lost" if registered(reg) < before else "escapes", f"register changed ({path})")
        r = a.run(cls, ["verify", fake, "--register", reg, *K], (1, 2), f"verify {path}={value!r}")
        if r is not None and r.output.startswith("OK"):
            a.count(cls, "escapes", f"forged record verified OK ({path})")


def _tamper(path: Path, statements) -> None:
    conn = sqlite3.connect(path)
    for t in ("rulings_never_altered", "rulings_never_deleted", "appeals_never_altered", "appeals_never_deleted"):
        conn.execute(f"DROP TRIGGER IF EXISTS {t}")
    for stmt in statements:
        try:
            stmt(conn) if callable(stmt) else conn.execute(stmt)
        except sqlite3.OperationalError:        # a table an older register does not have
            pass
    conn.commit()
    conn.close()


def _reseal(rid):
    def edit(conn):
        rec = json.loads(conn.execute("SELECT record FROM rulings WHERE id = ?", (rid,)).fetchone()[0])
        rec["referee"] = "Forger"
        rec["code"] = compute_code(rec)
        conn.execute("UPDATE rulings SET record = ?, code = ? WHERE id = ?", (canonical_json(rec), rec["code"], rid))
    return edit


def class3_seal(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "3 seal vs searches"
    reg, _records = _ruled_register(a, "seal", 4)
    CliRunner().invoke(main, ["appeal", "1", "--set", "game=karo", "--register", str(reg), *K])
    queries = [["list"], ["search", "--provision", "mini:1.early"], ["search", "--table", "2"],
               ["search", "--player", "Marko"], ["search", "--referee", "Ana"], ["search", "--date", "2026"],
               ["stats"], ["show", "1"], ["show", "5"]]
    baseline = {tuple(q): CliRunner().invoke(main, ["register", *q, "--format", "json", "--register", str(reg)]).stdout
                for q in queries}
    tampers = []
    for rid in range(1, 6):
        tampers += [f"UPDATE penalties SET amount = {rng.randrange(50)} WHERE ruling_id = {rid}",
                    f"DELETE FROM citations WHERE ruling_id = {rid}",
                    f"INSERT INTO citations VALUES ({rid}, 0, 'mini:9.x', 'Rule 9', 'finding', 'violation')",
                    f"UPDATE players SET player = 'Zed' WHERE ruling_id = {rid}",
                    f"UPDATE rulings SET referee = 'Zed' WHERE id = {rid}",
                    f"UPDATE rulings SET table_no = '77', deal = '1' WHERE id = {rid}",
                    f"UPDATE rulings SET date = '2020-01-01' WHERE id = {rid}",
                    f"UPDATE rulings SET kind = 'appeal' WHERE id = {rid}", _reseal(rid)]
    tampers += ["UPDATE appeals SET note = 'x'", "UPDATE rulings SET appeal_of = 2 WHERE id = 5",
                "DELETE FROM rulings WHERE id = 3", "DELETE FROM rulings WHERE id = 1"]
    for i, edit in enumerate(tampers * scale):
        copy = a.tmp / "seal-copy.sqlite"
        shutil.copy(reg, copy)
        _copy_key(reg, copy)
        _tamper(copy, [edit])
        what = edit if isinstance(edit, str) else "re-sealed record"
        for q in queries:
            r = a.run(cls, ["register", *q, "--format", "json", "--register", copy], (0, 1, 2), f"{q} after {what}")
            if r is not None and r.exit_code == 0 and r.stdout != baseline[tuple(q)] and "warning" not in r.stderr:
                a.count(cls, "escapes", f"register {' '.join(q)} followed '{what}' silently")
        r = a.run(cls, ["register", "verify", "--register", copy], (1,), f"verify after {what}")
        if r is not None and r.exit_code == 0:
            a.count(cls, "escapes", f"register verify missed '{what}'")


def class4_cache(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "4 parse cache"
    cache = a.tmp / "cache"
    env = {"XDG_CACHE_HOME": str(cache)}
    from referee.expert.language import yamlcache
    clean = CliRunner().invoke(main, ["rule", str(CASE), "--format", "json", "--no-register", *K], env=env).stdout
    folder = cache / "referee" / "yaml"
    for i in range(15 * scale):
        for entry in folder.glob("*.json"):
            entry.unlink()
        CliRunner().invoke(main, ["rule", str(CASE), "--no-register", *K], env=env)
        entries = sorted(folder.glob("*.json"))
        entry = rng.choice(entries)
        body = entry.read_text()
        numbers = [m.start() for m in re.finditer(r'(?<=,)\d+(?=\])', body)]
        texts = [m.start() for m in re.finditer(r'"q\d"|"e\d"|"pik"|"early"|"d2"', body)]
        if numbers and (not texts or rng.random() < 0.5):
            at = rng.choice(numbers)
            poisoned = body[:at] + str(rng.randrange(100, 999)) + body[at:]
        elif texts:
            at = rng.choice(texts)
            poisoned = body[:at + 1] + "X" + body[at + 1:]
        else:
            continue
        entry.write_text(poisoned)
        reg = a.tmp / "cache-reg.sqlite"
        r = a.run(cls, ["rule", CASE, "--format", "json", "--register", reg, *K], (0, 2), f"poisoned {entry.name}",
                  env=env)
        if r is None or r.exit_code != 0:
            continue
        try:
            code = json.loads(r.stdout)["verification"]
        except (ValueError, KeyError):
            continue
        v = a.run(cls, ["verify", code, "--register", reg, *K], (0, 1), "verify after poisoning", env=env)
        changed = json.loads(r.stdout) | {"verification": None} != json.loads(clean) | {"verification": None}
        if v is not None and changed and "rulebook has changed" not in v.output:
            a.count(cls, "escapes", f"a poisoned entry changed the ruling and verify said nothing ({entry.name})")
    # an edit of the same size and time is read
    draft = a.tmp / "kcache"
    for i in range(5 * scale):
        shutil.rmtree(draft, ignore_errors=True)
        shutil.copytree(FIXTURES, draft)
        art = draft / "mini" / "articles" / "01-rules.yaml"
        CliRunner().invoke(main, ["rule", str(CASE), "--no-register", "--knowledge", str(draft)], env=env)
        st = art.stat()
        art.write_text(art.read_text().replace('quote: "q1"', f'quote: "q{i % 10}"'))
        os.utime(art, ns=(st.st_atime_ns, st.st_mtime_ns))
        r = a.run(cls, ["articles", "mini", "--knowledge", draft, "--format", "json"], (0,), "same-size edit", env=env)
        if r is not None and f'"quote": "q{i % 10}"' not in r.stdout:
            a.count(cls, "escapes", "a same-size, same-time edit was not read")
    size = sum(f.stat().st_size for f in folder.iterdir()) if folder.exists() else 0
    if size > getattr(yamlcache, "MAX_BYTES", 32 << 20):
        a.count(cls, "escapes", f"cache folder {size} bytes over its limit")


def class5_ordinary(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "5 ordinary input"
    case = a.tmp / "ordinary.yaml"
    for scalar, value in H.SCALARS.items():
        for place, template in H.scalar_places().items():
            case.write_text(template.replace("{v}", value))
            a.run(cls, ["rule", case, "--no-register", *K], (0, 2, 3), f"{scalar} in {place}")
    for data in H.junk(seed=rng.randrange(1000), n=20 * scale):
        case.write_bytes(data)
        a.run(cls, ["rule", case, "--no-register", *K], (0, 2, 3), f"junk {data[:20]!r}")
    resume = a.tmp / "resume.yaml"
    for value in ("2026-11-29", "'2026-11-29'", "2026-11-29 10:00:00", "2026-02-30"):
        resume.write_text(f"game: mini\nheader: {{date: {value}, table: 4}}\nanswers: {{claim: [early]}}\n")
        a.run(cls, ["interview", "mini", "--resume", resume, "--no-register", *K], (0, 2), f"resume date {value}",
              input="\n\n\nno\npik\nd2\n\n\n")     # no player names, the answers, rule
    reg, _ = _ruled_register(a, "damage", 3)
    damages = ["DROP TABLE citations", "DROP TABLE players", "DROP TABLE appeals", "DROP TABLE meta",
               "UPDATE rulings SET record = '{x' WHERE id = 2", "UPDATE rulings SET record = 'null' WHERE id = 1",
               "UPDATE rulings SET record = '[]' WHERE id = 3", "DROP TABLE rulings"]
    commands = [["register", "list"], ["register", "stats"], ["register", "show", "2"], ["register", "verify"],
                ["register", "search", "--player", "d2"], ["verify", "AAAAA-AAAAA"],
                ["appeal", "2", "--set", "game=karo", *K], ["rule", CASE, *K]]
    for edit in damages * scale:
        copy = a.tmp / "damaged.sqlite"
        shutil.copy(reg, copy)
        _copy_key(reg, copy)
        _tamper(copy, [edit])
        for c in commands:
            a.run(cls, [*c, "--register", copy], (0, 1, 2), f"{c[:2]} on '{edit}'")
    for i in range(10 * scale):
        copy = a.tmp / "garbled.sqlite"
        shutil.copy(reg, copy)
        _copy_key(reg, copy)
        data = bytearray(copy.read_bytes())
        at = rng.randrange(100, len(data) - 600)
        for j in range(at, at + rng.randrange(1, 500)):
            data[j] = rng.randrange(256)
        copy.write_bytes(bytes(data))
        for c in commands:
            a.run(cls, [*c, "--register", copy], (0, 1, 2), f"{c[:2]} on a garbled page at {at}")


def class6_special(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "6 special files"
    base = a.tmp / "special"
    for i in range(scale * 3):
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir()
        fifo = base / "fifo"
        os.mkfifo(fifo)
        link = base / "link"
        os.symlink(base / "target", link)
        folder = base / "dir"
        folder.mkdir()
        # never the real /dev/null: an older referee replaces it (the first design did, as root)
        null = H.private_null(base)
        targets = [t for t in (null, str(fifo), str(link), str(folder), str(base / "no" / "x")) if t]
        for target in targets:
            mode = os.lstat(target).st_mode if os.path.lexists(target) else None
            for option in ("--record", "--out"):
                reg = base / "reg.sqlite"
                a.run(cls, ["rule", CASE, option, target, "--register", reg, *K], (2,), f"{option} {target}")
                if registered(reg):
                    a.count(cls, "data_lost", f"ruling registered though {option} {target} failed")
                    reg.unlink()
            a.run(cls, ["interview", "mini", "--save", target, "--no-register", *K], (2,), f"--save {target}",
                  input="early\n")
            after = os.lstat(target).st_mode if os.path.lexists(target) else None
            if after != mode:
                a.count(cls, "data_lost", f"{target} replaced")
        if (base / "target").exists():
            a.count(cls, "escapes", "a symlink was followed")


def class7_markup(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "7 markup and controls"
    payloads = {**H.MARKUP, **H.CONTROLS}
    mixes = [rng.choice(list(payloads.values())) + rng.choice(list(payloads.values())) for _ in range(10 * scale)]
    reg = a.tmp / "markup.sqlite"
    case = a.tmp / "markup.yaml"
    for value in [*payloads.values(), *mixes]:
        q = H.yaml_quoted(value)
        for field in ("tournament", "referee", "table", "players"):
            header = f"players: {{d2: {q}}}" if field == "players" else f"{field}: {q}"
            case.write_text(f"game: mini\nheader: {{{header}}}\n"
                            "answers: {claim: [early], early_turn: false, game: pik, early_who: d2}\n")
            for fmt in ("text", "md", "html"):
                r = a.run(cls, ["rule", case, "--format", fmt, "--register", reg, *K], (0,), f"{field} {fmt}")
                if r is None:
                    continue
                out = r.stdout
                if any(c in out for c in H.RAW_CONTROLS):
                    a.count(cls, "escapes", f"raw control character in {fmt} ({field}: {value!r})")
                if re.search(r"(?m)^(PENALTY: none|# Forged|Referee: Bob|> quoted|- item|1\. item)", out):
                    a.count(cls, "escapes", f"a forged line in {fmt} ({field}: {value!r})")
                if fmt == "md" and re.search(r"(?<!\\)(<script|<img|\]\(http|!\[x\])", out):
                    a.count(cls, "escapes", f"markup in md ({field}: {value!r})")
                if fmt == "html" and re.search(r"<script>|<img src=x", out):
                    a.count(cls, "escapes", f"markup in html ({field}: {value!r})")
        r = a.run(cls, ["appeal", "1", "--set", "game=karo", "--note", value, "--register", reg, *K], (0, 2), "appeal note")
        for command in (["list"], ["show", "1"], ["stats"]):
            r = a.run(cls, ["register", *command, "--register", reg], (0,), f"register {command[0]}")
            if r is not None and any(c in r.stdout for c in H.RAW_CONTROLS):
                a.count(cls, "escapes", f"raw control character in register {command[0]}")


def class8_first_question(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "8 first question"
    from referee.expert.language.rulebook import list_games, load_rulebook
    games = [g for g in list_games() if load_rulebook(g).cards_map]
    for game in games * scale:
        save = a.tmp / f"first-{game}.yaml"
        if save.exists():
            save.unlink()
        r = a.run(cls, ["interview", game, "--save", save], (130,), f"EOF at the first question of {game}", input="")
        if not save.exists():
            a.count(cls, "data_lost", f"no save file after EOF at the first question ({game})")


def class9_readonly(a: Audit, rng: random.Random, scale: int) -> None:
    cls = "9 read-only and corrupt"
    reg, _ = _ruled_register(a, "ro", 3)
    damages = ["garble", "zero-page", "truncate", "not-json", "drop-players", "drop-trigger", "reseal"]
    for i in range(15 * scale):
        copy = a.tmp / "corrupt.sqlite"
        shutil.copy(reg, copy)
        _copy_key(reg, copy)
        damage = damages[i % len(damages)]
        data = bytearray(copy.read_bytes())
        if damage == "garble":
            at = rng.randrange(4096, len(data) - 600)
            for j in range(at, at + 400):
                data[j] = rng.randrange(256)
            copy.write_bytes(bytes(data))
        elif damage == "zero-page":
            page = rng.randrange(1, len(data) // 4096)
            data[page * 4096:(page + 1) * 4096] = bytes(4096)
            copy.write_bytes(bytes(data))
        elif damage == "truncate":
            copy.write_bytes(bytes(data[:rng.randrange(4096, len(data))]))
        elif damage == "not-json":
            _tamper(copy, [f"UPDATE rulings SET record = '{{x' WHERE id = {rng.randrange(1, 4)}"])
        elif damage == "drop-players":
            _tamper(copy, ["DROP TABLE players"])
        elif damage == "drop-trigger":
            _tamper(copy, [])
        else:
            _tamper(copy, [_reseal(rng.randrange(1, 4))])
        # random bytes can land where neither SQLite nor a seal looks (free space): not corrupt then
        sound = CliRunner().invoke(main, ["register", "verify", "--register", str(copy)]).exit_code == 0
        before = digest(copy)
        r = a.run(cls, ["rule", CASE, "--register", copy, *K], (0,) if sound else (2,),
                  f"write to a {'sound' if sound else 'corrupt'} register ({i})")
        if not sound and digest(copy) != before:
            a.count(cls, "data_lost", "a corrupt register was written to")
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return
    media = a.tmp / "media"
    media.mkdir(exist_ok=True)
    script = ("mount -t tmpfs -o size=8m tmpfs \"$1\" && cp \"$2\" \"$2.key\" \"$1/\" && mount -o remount,ro \"$1\" && "
              "export REFEREE_REGISTER=\"$1/$(basename \"$2\")\" && for c in \"register list\" \"register stats\" "
              "\"register show 2\" \"register verify\" \"register search --table 2\"; do \"$3\" -c 'from referee.cli "
              "import main; main()' $c >/dev/null 2>/dev/null; echo \"$c=$?\"; done; \"$3\" -c 'from referee.cli import "
              "main; main()' rule \"$4\" --knowledge \"$5\" >/dev/null 2>\"$1.err\"; echo \"rule=$?\"")
    for i in range(scale):
        a.figures.setdefault(cls, dict.fromkeys(FIELDS, 0))
        done = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(media), str(reg), sys.executable,
                               str(CASE), str(FIXTURES)], capture_output=True, text=True, cwd=ROOT, timeout=300)
        for line in done.stdout.splitlines():
            what, _, code = line.rpartition("=")
            a.count(cls, "tried")
            want = "2" if what == "rule" else "0"
            if code != want:
                a.count(cls, "wrong_exit", f"read-only media: {what} exit {code}")


CLASSES = [class1_bombs, class2_forged, class3_seal, class4_cache, class5_ordinary, class6_special,
           class7_markup, class8_first_question, class9_readonly]


def main_(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round of each class (the default is two)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only", default="", help="classes to run, e.g. 1,3,9 (default: all)")
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))      # a bomb must not take the machine
    scale = 1 if args.quick else 2
    rng = random.Random(args.seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="referee-hostile-") as tmp:
        os.environ["REFEREE_REGISTER"] = str(Path(tmp) / "default.sqlite")
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "xdg-cache")
        audit = Audit(Path(tmp))
        only = {int(c) for c in args.only.split(",") if c.strip()}
        for number, run_class in enumerate(CLASSES, 1):
            if only and number not in only:
                continue
            t = time.monotonic()
            with contextlib.redirect_stderr(sys.stderr):
                run_class(audit, rng, scale)
            print(f"  {run_class.__name__}: {time.monotonic() - t:.1f} s", file=sys.stderr)
    width = max(map(len, audit.figures))
    print(f"{'class':{width}}  " + "  ".join(f"{f:>10}" for f in FIELDS))
    total = dict.fromkeys(FIELDS, 0)
    for cls, row in sorted(audit.figures.items()):
        print(f"{cls:{width}}  " + "  ".join(f"{row[f]:>10}" for f in FIELDS))
        for f in FIELDS:
            total[f] += row[f]
    print(f"{'total':{width}}  " + "  ".join(f"{total[f]:>10}" for f in FIELDS))
    print(f"({time.monotonic() - started:.0f} s)")
    for cls, examples in sorted(audit.examples.items()):
        for e in examples:
            print(f"  {cls}: {e}")
    if args.json:
        args.json.write_text(json.dumps({"figures": audit.figures, "examples": audit.examples}, indent=2))
    bad = any(row[f] for cls, row in audit.figures.items() for f in FIELDS[1:] if not cls.startswith("8"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main_())
