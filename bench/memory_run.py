"""Rule N cases with one engine per rulebook; print (rulings so far, peak RSS MiB) as it goes."""
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.expert.language.answers import check_all  # noqa: E402
from referee.expert.language.rulebook import list_games, load_rulebook  # noqa: E402
from referee.expert.engine.ruler import Ruler  # noqa: E402


def main(n: int, root: str | None) -> None:
    work = []
    for game in list_games(root):
        try:
            book = load_rulebook(game, root)
        except Exception:
            continue
        ruler = Ruler(book)
        work += [(ruler, check_all(c.answers, book)) for c in book.cases]
    done = 0
    step = max(1, n // 10)
    while work and done < n:
        for ruler, answers in work:
            ruler.rule(answers)
            done += 1
            if done % step == 0:
                print(done, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, flush=True)
            if done >= n:
                break


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None)
