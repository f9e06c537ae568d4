"""`referee serve` under load, over real HTTP on loopback: the server runs as its own process
(`referee serve --port 0`), the referees are threads of this one, each with its own cookie.

1. Page response per question: every casebook case of plain answers (no events, requests or
   cards) is walked as a dispute, one tap after another; each tap is timed from the POST to the
   next question's page (the 303 followed), and the question page alone (GET) is timed too.
   Target: p95 <= 50 ms.
2. 20 concurrent interviews: 20 referees walk a dispute each at once (the preferans demo, and
   every fourth a bridge dispute with the cards tapped in), to the ruling. Bounded: at most 200
   requests per referee, 120 s per request and 300 s in all. Counted: requests that failed
   (no answer within 120 s, a status other than 200 or a followed 303, refusals included), and
   answers lost: each dispute's case file must hold exactly the answers given, and each ruling
   must be in the register with the findings every other walk of the same dispute got. The
   taps' times under that load are reported too.

Run: python bench/web.py [--quick]. Prints the figures as ratios against their targets;
asserts nothing.
"""
from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from referee.expert.interview.casefile import read_case  # noqa: E402
from referee.expert.language.answers import check_all  # noqa: E402
from referee.expert.language.rulebook import list_games, load_rulebook  # noqa: E402
from referee.expert.records.register import Register  # noqa: E402

TARGET_P95 = 0.050
TIMEOUT = 120          # a request unanswered after this long counts as an error
DEMO = {"claim": ["bad-dolaz"], "game": "karo", "game_mode": "talon", "contra_level": "none",
        "gentlemen": False, "dolaz_offender": "defender_2",
        "dolaz_situation": "lider-only", "holding_lider": ["none"], "no_trump": False, "partner_fell": True,
        "claimant_dolaz": "regular", "volunteered": False}
HANDS = {"N": "SA SK S7 HQ HJ HT H9 DA DK D2 C5 C4 C3", "E": "SQ SJ ST HA HK H2 DQ DJ DT CQ CJ CT C7",
         "S": "S9 S8 S6 S5 S4 H8 H7 H6 D9 D8 D7 C6 C2", "W": "S3 S2 H5 H4 H3 D6 D5 D4 D3 CA CK C9 C8"}
TRICKS = ["CA C3 CQ C2", "CK C4 CJ H6", "C9 C5 CT S4", "S8 S2 SA ST", "DA DT D7 D3"]


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Failed(Exception):
    pass


class Referee:
    """One browser: its own cookies, the page it shows, the hidden fields of its forms."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.page = ""
        self.url = ""
        self.requests = 0

    def open(self, path: str, data: list | None = None) -> float:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        start = time.perf_counter()
        try:
            with self.opener.open(self.base + path, data=body, timeout=TIMEOUT) as r:
                self.page = r.read().decode("utf-8")
                self.url = r.geturl()[len(self.base):]
                status = r.status
        except urllib.error.HTTPError as exc:
            raise Failed(f"{exc.code} on {path}: {exc.read()[:300]!r}") from None
        except OSError as exc:                    # a time-out, a refused or dropped connection
            raise Failed(f"{type(exc).__name__} on {path} after {time.perf_counter() - start:.1f} s: {exc}") from None
        finally:
            self.requests += 1
        elapsed = time.perf_counter() - start
        if status != 200:
            raise Failed(f"{status} on {path}")
        return elapsed

    def field(self, name: str) -> str:
        found = re.search(rf'name="{name}" value="([^"]*)"', self.page)
        if not found:
            raise Failed(f"no {name} on {self.url}")
        return found.group(1)

    def prompt(self) -> tuple[str, str, str]:
        found = re.search(r'data-prompt="([^:"]*):([^"]*)" data-type="([^"]*)"', self.page)
        return found.groups() if found else ("", "", "")

    def new(self, game: str, players: dict) -> None:
        self.open(f"/new/{game}")
        self.open(f"/new/{game}", [("csrf", self.field("csrf")), ("lang", "en"), ("table", "1"), ("deal", "1")]
                  + [(f"player:{s}", n) for s, n in players.items()])

    def tap(self, fields: list) -> float:
        return self.open(self.url, [("csrf", self.field("csrf")), ("step", self.field("step"))] + fields)


def fields_for(kind: str, qtype: str, value) -> list:
    if kind == "offer":
        return [("value", "no")]
    if value == "unknown":
        return [("do", "unknown")]
    if qtype == "text":
        return [("do", "skip")]
    if isinstance(value, bool):
        return [("value", "yes" if value else "no")]
    if isinstance(value, list):
        return [("value", str(v)) for v in value]
    return [("value", str(value))]


def walk(ref: Referee, answers: dict, times: list | None = None, gets: list | None = None,
         cards: bool = False) -> list:
    """Answer until the review, then rule. Returns the answers given, as typed."""
    given = []
    for _ in range(200):
        kind, qid, qtype = ref.prompt()
        if kind == "review":
            ref.tap([("do", "rule")])
            if not ref.url.endswith("/ruling"):
                raise Failed(f"no ruling after the review: {ref.url}")
            return given
        if kind == "card":
            fields = card_fields(qid)
        elif kind == "offer":
            fields = [("value", "yes" if cards else "no")]
        elif kind == "question":
            value = answers.get(qid, "unknown")
            fields = fields_for(kind, qtype, value)
            given.append((qid, value))
        else:
            raise Failed(f"unexpected screen {kind}:{qid}")
        elapsed = ref.tap(fields)
        if 'class="refusal"' in ref.page:
            raise Failed(f"refused at {qid}: {re.search(r'class=.refusal[^>]*>([^<]*)', ref.page).group(1)}")
        if times is not None:
            times.append(elapsed)
        if gets is not None:
            gets.append(ref.open(ref.url))
    raise Failed("more than 200 screens")


def card_fields(step: str) -> list:
    if step == "declarer":
        return [("value", "S")]
    if step == "contract":
        return [("value", "4♠")]
    hand = re.fullmatch(r"\('hands', '(\w)'\)", step)
    if hand:
        return [("card", c) for c in HANDS[hand.group(1)].split()]
    if step == "lead":
        return [("do", "skip")]
    trick = re.fullmatch(r"\('play', (\d+)\)", step)
    if trick and int(trick.group(1)) < len(TRICKS):
        return [("order", ",".join(TRICKS[int(trick.group(1))].split()))]
    return [("do", "skip")]


def cpu_seconds(pid: int) -> float | None:
    """The server process's CPU time so far (Linux /proc), the figure a busy machine does not
    inflate the way it inflates wall-clock times."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def start_server(folder: Path) -> tuple[subprocess.Popen, str]:
    exe = Path(sys.executable).parent / "referee"
    proc = subprocess.Popen([str(exe), "serve", "--port", "0", "--interviews", str(folder / "interviews"),
                             "--register", str(folder / "register.sqlite")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=folder)
    line = proc.stdout.readline()
    port = re.search(r"127\.0\.0\.1:(\d+)", line)
    if not port:
        proc.kill()
        raise SystemExit(f"referee serve did not start: {line}{proc.stdout.read()}")
    return proc, f"http://127.0.0.1:{port.group(1)}"


def cases(quick: bool) -> list:
    found = []
    for game in list_games():
        book = load_rulebook(game)
        plain = [c for c in book.cases if not c.events and not c.requests and not c.cards]
        for case in plain[: (8 if quick else None)]:
            try:
                found.append((game, {q: v for q, v in check_all(case.answers, book).items()}))
            except Exception:
                continue
    return found


def per_question(base: str, quick: bool) -> tuple[list, list, int]:
    taps, gets, failures = [], [], 0
    for game, answers in cases(quick):
        ref = Referee(base)
        try:
            ref.new(game, {})
            walk(ref, answers, taps, gets)
        except Failed as exc:
            failures += 1
            print(f"  ({game}: {exc})")
    return taps, gets, failures


def concurrent(base: str, folder: Path, n: int = 20, deadline_s: float = 300) -> dict:
    results: list[dict] = [{} for _ in range(n)]
    deadline = time.monotonic() + deadline_s

    taps: list[float] = []

    def one(i: int) -> None:
        ref = Referee(base)
        bridge = i % 4 == 3
        start = time.perf_counter()
        try:
            if bridge:
                ref.new("bridge", {"N": f"N{i}", "E": f"E{i}", "S": f"S{i}", "W": f"W{i}"})
                given = walk(ref, {}, taps, cards=True)
            else:
                ref.new("preferans", {"declarer": f"Marko {i}", "defender_1": f"Jovan {i}", "defender_2": f"Petar {i}"})
                given = walk(ref, DEMO, taps)
            code = re.search(r'class="mono code">([^<]+)<', ref.page).group(1)
            results[i] = {"ok": True, "code": code, "given": given, "url": ref.url, "bridge": bridge,
                          "requests": ref.requests, "seconds": time.perf_counter() - start}
        except Failed as exc:
            results[i] = {"ok": False, "error": str(exc), "requests": ref.requests}
        if time.monotonic() > deadline:
            results[i]["late"] = True

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(1.0, deadline - time.monotonic()))
    wall = time.perf_counter() - start
    errors = sum(1 for r in results if not r.get("ok")) + sum(1 for t in threads if t.is_alive())
    lost = lost_answers(folder, [r for r in results if r.get("ok")])
    return {"n": n, "errors": errors, "lost": lost, "wall": wall, "taps": taps,
            "requests": sum(r.get("requests", 0) for r in results),
            "late": sum(1 for r in results if r.get("late")),
            "messages": [r["error"] for r in results if r.get("error")]}


def lost_answers(folder: Path, done: list[dict]) -> int:
    """Answers given that the case file does not hold, and rulings missing from the register
    or ruled otherwise than the same dispute alone."""
    lost = 0
    files = {p.stem: p for p in (folder / "interviews").glob("*/*.yaml")}
    with Register(str(folder / "register.sqlite"), create=False) as reg:
        expected = {}
        for r in done:
            dispute = r["url"].split("/")[2]
            data = read_case(files[dispute])
            answers = data.get("answers") or {}
            for qid, value in r["given"]:
                if qid not in answers:
                    lost += 1
                elif value != "unknown" and answers[qid] != value:
                    lost += 1
            found = reg.get(r["code"])
            if found is None:
                lost += 1
                continue
            findings = [(f["provisions"], f["penalty"]) for f in found[1]["findings"]]
            key = "bridge" if r["bridge"] else "preferans"
            expected.setdefault(key, findings)
            lost += findings != expected[key]
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="eight cases per rulebook instead of all")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="referee-bench-web-") as tmp:
        folder = Path(tmp)
        proc, base = start_server(folder)
        try:
            Referee(base).open("/")
            time.sleep(3)                         # the engines are built in the background at start-up
            cpu_before = cpu_seconds(proc.pid)
            taps, gets, failures = per_question(base, args.quick)
            cpu_after = cpu_seconds(proc.pid)
            result = concurrent(base, folder)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)
    p50, p95 = percentile(taps, 50), percentile(taps, 95)
    g50, g95 = percentile(gets, 50), percentile(gets, 95)
    print(f"page response per question, {len(taps)} taps over {len(cases(args.quick))} disputes "
          f"({failures} walks failed):")
    print(f"  tap to the next question's page (POST, 303, GET): p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms "
          f"= {p95 / TARGET_P95:.2f} of the 50 ms target; mean {statistics.mean(taps) * 1000:.1f} ms")
    print(f"  the question page alone (GET):                   p50 {g50 * 1000:.1f} ms, p95 {g95 * 1000:.1f} ms "
          f"= {g95 / TARGET_P95:.2f} of the target")
    if cpu_before is not None and cpu_after is not None:
        per_tap = (cpu_after - cpu_before) / len(taps)
        print(f"  server CPU time per tap (its POST and both GETs, the walks' new disputes and rulings "
              f"included): {per_tap * 1000:.1f} ms")
    print(f"{result['n']} concurrent interviews to the ruling: {result['errors']} errors, {result['lost']} answers lost, "
          f"{result['requests']} requests in {result['wall']:.1f} s, {result['late']} past the 300 s bound")
    if result["taps"]:
        t = result["taps"]
        print(f"  taps under that load: p50 {percentile(t, 50) * 1000:.0f} ms, p95 {percentile(t, 95) * 1000:.0f} ms, "
              f"slowest {max(t) * 1000:.0f} ms")
    print(f"  (load average when done: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores)")
    for message in result["messages"]:
        print(f"  {message}")


if __name__ == "__main__":
    main()
