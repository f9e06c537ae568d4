"""Issue 17.8 and saving failures in the interview (the Session, expert/interview/session.py,
writing through expert/language/fileio.py):

- end of input or Ctrl-C at ANY question, the first ("Do you have the cards?") included: the
  answers so far (possibly none) are saved to the --save file, stderr says
  "Answers saved to FILE" and "Resume with: referee interview GAME --resume FILE", exit 130;
- a --save target that cannot be written (a missing or read-only folder, /dev/null, a FIFO, a
  symlink) is refused BEFORE the first question: one line `error: FILE: ...` on stderr, exit 2,
  no question asked, the special file untouched (expert/language/fileio.check_target says so);
- a save that fails later (the folder removed mid-interview): one line naming the file, never a
  traceback; no answer is lost without saying so.
"""
import os
import select
import shutil
import signal
import subprocess
import sys
import time

import pytest
import yaml
from click.testing import CliRunner

import hostile_inputs as H
from conftest import FIXTURES, ROOT
from referee.cli import main

K = ["--knowledge", str(FIXTURES)]


def interview(*args, input=""):
    return CliRunner().invoke(main, ["interview", *map(str, args)], input=input)


def resumable(result, save, game):
    assert result.exit_code == 130, (result.exit_code, result.output)
    assert save.is_file()
    data = yaml.safe_load(save.read_text())
    assert data["game"] == game
    assert f"referee interview {game} --resume {save}" in result.stderr


def test_end_of_input_at_the_first_question_saves_and_says_how_to_resume(tmp_path):
    save = tmp_path / "first.yaml"
    result = interview("preferans", "--save", save, input="")        # "Do you have the cards?"
    resumable(result, save, "preferans")
    assert "Aborted" not in result.output


def test_end_of_input_at_a_later_question_saves(tmp_path):
    save = tmp_path / "later.yaml"
    resumable(interview("preferans", "--no-enter-cards", "--save", save, input=""), save, "preferans")
    resumable(interview("preferans", "--enter-cards", "--save", tmp_path / "c.yaml", input=""),
              tmp_path / "c.yaml", "preferans")


def _sigint_at_prompt(args, marker: bytes, save):
    proc = subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "interview", *args,
                             "--save", str(save)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    seen, deadline = b"", time.time() + 60
    while marker not in seen and time.time() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    return proc.returncode, err.decode("utf-8", "replace")


def test_ctrl_c_at_the_first_question_saves_and_exits_130(tmp_path):
    save = tmp_path / "ctrlc.yaml"
    code, err = _sigint_at_prompt(["preferans"], b"cards", save)
    assert code == 130 and save.is_file() and "--resume" in err, (code, err)


def test_ctrl_c_at_a_later_question_saves_and_exits_130(tmp_path):
    save = tmp_path / "ctrlc2.yaml"
    code, err = _sigint_at_prompt(["mini", *K], b"claimed", save)
    assert code == 130 and save.is_file() and "--resume" in err, (code, err)


def _special_targets(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    link = tmp_path / "link.yaml"
    os.symlink(tmp_path / "elsewhere.yaml", link)
    null = H.private_null(tmp_path) or tmp_path / "missing-too" / "s.yaml"   # never the real /dev/null
    return [tmp_path / "missing" / "s.yaml", null, fifo, link]


@pytest.mark.parametrize("which", range(4))
def test_a_save_target_that_cannot_be_written_is_refused_before_the_first_question(tmp_path, which):
    target = _special_targets(tmp_path)[which]
    before = os.lstat(target).st_mode if os.path.lexists(target) else None
    result = interview("mini", "--save", target, *K, input="early\n")
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and str(target) in err
    assert "What is claimed" not in result.stdout          # nothing asked, nothing typed in vain
    assert (os.lstat(target).st_mode if os.path.lexists(target) else None) == before


def test_a_special_save_target_is_never_replaced(tmp_path):
    """Holds today: the first save refuses (after the first answer, until the Session checks first)."""
    for target in _special_targets(tmp_path):
        before = os.lstat(target).st_mode if os.path.lexists(target) else None
        result = interview("mini", "--save", target, *K, input="early\n")
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert (os.lstat(target).st_mode if os.path.lexists(target) else None) == before
    assert not (tmp_path / "elsewhere.yaml").exists()


def test_a_read_only_save_folder_is_refused_before_the_first_question(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    result = interview("mini", "--save", folder / "s.yaml", *K, input="early\n")
    assert result.exit_code == 2 and "What is claimed" not in result.stdout


def test_a_save_that_fails_mid_interview_is_one_line_never_a_traceback(tmp_path):
    folder = tmp_path / "gone"
    folder.mkdir()
    save = folder / "s.yaml"
    proc = subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "interview", "mini",
                             "--save", str(save), "--no-register", *K], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    proc.stdin.write("early\n")
    proc.stdin.flush()
    deadline = time.time() + 60
    while not save.exists() and time.time() < deadline:
        time.sleep(0.05)
    shutil.rmtree(folder)                       # the folder goes after the first answer was saved
    _out, err = proc.communicate("no\npik\nd2\n\n", timeout=60)
    assert proc.returncode in (0, 2, 130), err
    assert "Traceback" not in err and str(save) in err, err


def test_a_5000_digit_number_typed_at_the_review_is_refused_not_a_traceback(tmp_path):
    digits = "9" * 5000
    result = interview("mini", "--save", tmp_path / "s.yaml", "--no-register", *K,
                       input=f"\n\n\nearly\nno\npik\nd2\n{digits}\nrule\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 0
