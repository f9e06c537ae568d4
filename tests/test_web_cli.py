"""`referee serve` as a command: it answers on loopback without a code, prints the access code and
a QR code on any other address, stops on Ctrl-C, and a port in use is one error line (exit 2)."""
from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.web.serve import banner, make_server


def test_serve_has_help_with_examples():
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--host" in result.output and "--port" in result.output and "referee serve --host 0.0.0.0" in result.output


def test_a_port_in_use_is_one_error_line(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--interviews", str(tmp_path / "iv")])
    finally:
        taken.close()
    assert result.exit_code == 2
    assert re.match(rf"error: cannot listen on 127\.0\.0\.1:{port}: .*choose another --port", result.output)


def test_on_a_network_address_the_code_and_its_qr_code_are_printed(tmp_path):
    server = make_server("0.0.0.0", 0, tmp_path / "iv", register=str(tmp_path / "r.sqlite"))
    try:
        lines = []
        banner(server, "0.0.0.0", lines.append)
        text = "\n".join(lines)
        code = server.referee_code
        assert re.fullmatch(r"[2-9A-Z]{4}-[2-9A-Z]{4}", code)
        assert f"access code: {code}" in text
        if "scan this" in text:                       # a QR code when the laptop has a network address
            assert f"/code?c={code.replace('-', '')}" in text
            assert sum(1 for line in text.splitlines() if "█" in line or "▀" in line or "▄" in line) > 10
    finally:
        server.close()


def test_on_loopback_no_code_is_printed(tmp_path):
    server = make_server("127.0.0.1", 0, tmp_path / "iv")
    try:
        lines = []
        banner(server, "127.0.0.1", lines.append)
        assert server.referee_code is None
        assert "access code" not in "\n".join(lines)
        assert f"http://127.0.0.1:{server.effective_port}/" in lines[0]
    finally:
        server.close()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_referee_serve_answers_and_stops_on_ctrl_c(tmp_path):
    exe = Path(sys.executable).parent / "referee"
    command = [str(exe)] if exe.exists() else [shutil.which("referee") or "referee"]
    proc = subprocess.Popen([*command, "serve", "--port", "0", "--interviews", str(tmp_path / "iv"),
                             "--register", str(tmp_path / "r.sqlite")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    try:
        first = proc.stdout.readline()
        port = re.search(r"http://127\.0\.0\.1:(\d+)/", first).group(1)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
                    assert r.status == 200 and b"New dispute" in r.read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
        assert (tmp_path / "iv" / ".secret-key").is_file()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_addresses_printed_are_the_laptops_own_interfaces():
    from referee.web.serve import interface_addresses
    ip = ("1: lo    inet 127.0.0.1/8 scope host lo\\\n"
          "3: wlan0    inet 10.1.2.3/24 brd 10.1.2.255 scope global dynamic wlan0\\\n")
    ifconfig = "lo0: inet 127.0.0.1 netmask 0xff000000\nen0: inet 172.20.1.7 netmask 0xffffff00\n" \
               "en5: inet 169.254.3.4 netmask 0xffff0000\n"
    assert interface_addresses(ip) == ["10.1.2.3"]
    assert interface_addresses(ifconfig) == ["172.20.1.7"]
