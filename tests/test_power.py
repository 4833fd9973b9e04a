"""Shutting down, rebooting and restarting from the service menu (issue 10).

What the technician notices: under the hardened unit (user ``focus-arcade``, no
sudo) "Shut the Pi down" and "Restart the Pi" work because install.sh puts a
polkit rule that allows exactly that user exactly those logind actions; when
the Pi refuses anyway, the menu says why and what to do.  "Restart the arcade"
comes back both under systemd (exit 75, which the unit restarts on) and when
``focus-arcade`` was started by hand (it runs itself again, same process).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import kiosk.app.loop as kapp
from kiosk.scenes.service.menu import ServiceScene
from kiosk.scenes.service.rows import MENU
from kiosk.service import power
from kiosk.service.stopping import EXIT_RESTART, EXIT_STOP
from tests.test_event_day import P1, Day, docs_shot, event_config, menu_to, open_service
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parent.parent
RULE = ROOT / "kiosk" / "systemd" / "focus-arcade.rules"
INSTALL = ROOT / "kiosk" / "install.sh"
LOGIN1_POLICY = Path("/usr/share/polkit-1/actions/org.freedesktop.login1.policy")
ALLOWED = {"org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions",
           "org.freedesktop.login1.reboot", "org.freedesktop.login1.reboot-multiple-sessions"}
#: Actions a guest must never get through the arcade's user, and look-alikes of the allowed ones.
OTHERS = ["org.freedesktop.login1.power-off-ignore-inhibit", "org.freedesktop.login1.reboot-ignore-inhibit",
          "org.freedesktop.login1.suspend", "org.freedesktop.login1.hibernate", "org.freedesktop.login1.halt",
          "org.freedesktop.login1.set-reboot-to-firmware-setup", "org.freedesktop.login1.manage",
          "org.freedesktop.systemd1.manage-units", "org.freedesktop.timedate1.set-time",
          "org.freedesktop.login1.power-off.evil", "org.freedesktop.login1.power"]


# -- the polkit rule ------------------------------------------------------------------------
def rule_text() -> str:
    return RULE.read_text(encoding="utf-8")


def test_the_rule_allows_exactly_power_off_and_reboot_for_the_service_user() -> None:
    text = rule_text()
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    assert code.count("polkit.addRule(") == 1 and "addAdminRule" not in code
    assert set(re.findall(r'"(org\.freedesktop\.[^"]+)"', code)) == ALLOWED
    assert re.search(r'subject\.user === "focus-arcade" && allowed\.indexOf\(action\.id\) >= 0', code)
    assert code.count("polkit.Result.YES") == 1 and "polkit.Result.NOT_HANDLED" in code
    # polkit's engine (duktape) is ECMAScript 5: nothing newer.
    for newer in ("=>", "let ", "const ", "`", ".includes(", "class "):
        assert newer not in code, newer
    # the unit's user is the rule's user
    unit = (ROOT / "kiosk" / "systemd" / "focus-arcade.service").read_text(encoding="utf-8")
    assert "User=focus-arcade" in unit.splitlines()


@pytest.mark.skipif(not LOGIN1_POLICY.exists(), reason="systemd-logind's polkit actions are not installed here")
def test_the_allowed_actions_are_logind_s_own() -> None:
    ids = set(re.findall(r'<action id="([^"]+)"', LOGIN1_POLICY.read_text(encoding="utf-8")))
    assert ALLOWED <= ids


@pytest.mark.skipif(shutil.which("node") is None, reason="no JavaScript engine (node) on this machine")
def test_the_rule_evaluated_by_a_javascript_engine_says_yes_only_where_it_should(tmp_path: Path) -> None:
    """The rule file run as polkit runs it: addRule(fn), then fn(action, subject) for each question."""
    probe = tmp_path / "probe.js"
    questions = [(a, u) for a in sorted(ALLOWED) + OTHERS for u in ("focus-arcade", "pi", "root", "focus-arcade2")]
    probe.write_text(textwrap.dedent("""
        "use strict";
        var rules = [];
        var polkit = {Result: {YES: "yes", NO: "no", AUTH_ADMIN: "auth_admin", NOT_HANDLED: null},
                      addRule: function (f) { rules.push(f); },
                      addAdminRule: function () { throw new Error("no admin rules"); },
                      log: function () {}, spawn: function () { throw new Error("no spawning"); }};
        var fs = require("fs");
        (new Function("polkit", fs.readFileSync(process.argv[2], "utf8")))(polkit);
        var out = JSON.parse(process.argv[3]).map(function (q) {
            var subject = {user: q[1], local: false, active: false, isInGroup: function () { return false; }};
            return rules[0]({id: q[0]}, subject);
        });
        console.log(JSON.stringify({rules: rules.length, answers: out}));
        """), encoding="utf-8")
    got = subprocess.run(["node", str(probe), str(RULE), json.dumps(questions)], capture_output=True,
                         text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    result = json.loads(got.stdout)
    assert result["rules"] == 1
    for (action, user), answer in zip(questions, result["answers"]):
        want = "yes" if (action in ALLOWED and user == "focus-arcade") else None
        assert answer == want, (action, user, answer)


def shims(tmp_path: Path) -> dict[str, str]:
    """A PATH where ``install`` ignores -o/-g (not root) and ``systemctl`` only notes its calls."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    real = shutil.which("install")
    (bin_ / "install").write_text(textwrap.dedent(f"""\
        #!/bin/sh
        args=""
        while [ $# -gt 0 ]; do
          case "$1" in -o|-g) shift 2;; *) args="$args '$1'"; shift;; esac
        done
        eval exec {real} $args
        """), encoding="utf-8")
    (bin_ / "systemctl").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path}/systemctl.log\n", encoding="utf-8")
    for f in bin_.iterdir():
        f.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}"}


def test_install_sh_installs_the_rule_where_polkit_reads_it(tmp_path: Path) -> None:
    text = INSTALL.read_text(encoding="utf-8")
    assert re.search(r"^polkit_rules=/etc/polkit-1/rules\.d$", text, re.M)
    body = re.search(r"^focus_arcade_polkit_rule\(\) \{\n(.*?)^\}", text, re.M | re.S)
    assert body, "install.sh has a function that installs the polkit rule"
    unit_fn = re.search(r"^focus_arcade_install_unit\(\) \{\n(.*?)^\}", text, re.M | re.S)
    assert unit_fn and "focus_arcade_polkit_rule" in unit_fn.group(1)     # run with the unit
    assert re.search(r"^\s+polkitd\s", text, re.M)                         # the package that reads it
    rules = tmp_path / "etc" / "polkit-1" / "rules.d"
    script = f"set -euo pipefail\nrepo={ROOT}\npolkit_rules={rules}\nfocus_arcade_polkit_rule() {{\n{body.group(1)}}}\n" \
             "focus_arcade_polkit_rule\n"
    env = shims(tmp_path)
    out = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    installed = rules / "50-focus-arcade.rules"
    assert installed.read_bytes() == RULE.read_bytes()
    assert stat.S_IMODE(installed.stat().st_mode) == 0o644          # polkitd must read it; only root writes
    assert "50-focus-arcade.rules" in out.stdout
    # run again (an update): the same file, no error
    again = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and installed.read_bytes() == RULE.read_bytes()


# -- the unit restarts on the arcade's restart status -------------------------------------------
def test_the_unit_restarts_on_the_restart_status_and_stays_stopped_on_the_stop_status() -> None:
    from tests.test_unit_file import settings
    s = settings()
    assert s["RestartForceExitStatus"] == [str(EXIT_RESTART)]
    assert s["RestartPreventExitStatus"] == [str(EXIT_STOP)]
    assert set(s["SuccessExitStatus"][0].split()) == {str(EXIT_STOP), str(EXIT_RESTART)}


# -- the service menu's shut down, refused ---------------------------------------------------
def refusing(tmp_path: Path, message: str) -> str:
    script = tmp_path / "refuse.sh"
    script.write_text(f"#!/bin/sh\necho '{message}' >&2\nexit 1\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("what, key, stderr, says", [
    ("shutdown", "shutdown_command", "Call to PowerOff failed: Access denied", "polkit rule is missing"),
    ("reboot", "reboot_command", "Failed to reboot system via logind: Interactive authentication required.",
     "polkit rule is missing"),
    ("shutdown", "shutdown_command", 'Operation inhibited by "PackageKit" (PID 812 "packagekitd", user root), '
     'reason is "Installing updates".', "a program is blocking it"),
])
def test_a_refused_shut_down_says_why_and_the_menu_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         what: str, key: str, stderr: str, says: str) -> None:
    cfg = event_config(tmp_path, service={key: refusing(tmp_path, stderr)})
    d = Day(cfg, monkeypatch)
    try:
        d.app.run_command = kapp.App.run_command.__get__(d.app)    # type: ignore[method-assign]  # the real one
        d.app.home()
        d.frames(2)
        svc = open_service(d)
        menu_to(d, svc, what)
        d.press(P1["right"])                                        # "Yes"
        d.press(P1["ok"])
        wait_until(lambda: d.frames(1, until=lambda: says in svc.status),     # the command runs in the background
                   what=f"the menu saying {says!r}")
        assert d.top is svc and svc.page == "menu" and d.app.running   # still in the menu
        assert says in svc.status and stderr.split(":")[0][:20] in svc.status
        assert "Shutting down" not in svc.status
        if what == "shutdown" and "polkit" in says:
            docs_shot(d.screen, "service-shutdown-refused.png")
    finally:
        d.close()


def test_a_missing_command_is_a_message_not_a_crash() -> None:
    got: list[str | None] = []
    r = power.Running("/nonexistent/poweroff now", "shut down", got.append)
    assert r.wait(5) and r.returncode == 127
    assert got and got[0] is not None and "cannot be started" in got[0] and "[service]" in got[0]
    ok = power.Running(f"{sys.executable} -c pass", "shut down", got.append)
    assert ok.wait(30) and ok.refusal() is None and got[-1] is None


def test_the_menu_lists_shut_down_and_restart_the_pi() -> None:
    keys = [k for k, _ in MENU]
    assert {"shutdown", "reboot", "restart", "stop"} <= set(keys)
    assert ServiceScene._reboot is not ServiceScene._shutdown


# -- "Restart the arcade", for real ----------------------------------------------------------------
HARNESS = """
import os, sys
generation = int(os.environ.get("FA_TEST_GENERATION", "0")) + 1
os.environ["FA_TEST_GENERATION"] = str(generation)
print(f"start {generation} pid {os.getpid()} argv {sys.argv[1:]}", flush=True)
import kiosk.app.loop as kapp
from kiosk.scenes.service.rows import MENU

loop = kapp.App.loop

def operator(self, max_frames=0):
    if generation == 1:          # the operator: service menu, "Restart the arcade", "Yes"
        self.enter_service()
        menu = self.scenes[-1]
        menu.cursor = [k for k, _ in MENU].index("restart")
        menu.act("ok")
        menu.cursor = 1
        menu.act("ok")
    loop(self, max_frames)

kapp.App.loop = operator
from kiosk.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_harness(tmp_path: Path, extra_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    (tmp_path / "harness.py").write_text(HARNESS, encoding="utf-8")
    cfg = tmp_path / "arcade.toml"
    cfg.write_text(f'[led]\nport = "none"\n[storage]\npath = "{tmp_path / "arcade.sqlite3"}"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "INVOCATION_ID", "FA_TEST_GENERATION")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT), **extra_env)
    return subprocess.run([sys.executable, str(tmp_path / "harness.py"), "--config", str(cfg), "--windowed",
                           "--frames", "5"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_restart_started_by_hand_runs_the_same_command_line_again(tmp_path: Path) -> None:
    out = run_harness(tmp_path, {})
    starts = re.findall(r"start (\d) pid (\d+) argv (.*)", out.stdout)
    assert [s[0] for s in starts] == ["1", "2"], out.stdout + out.stderr
    assert starts[0][1] == starts[1][1]              # the same process: the same terminal, same supervisor
    assert starts[0][2] == starts[1][2]              # the same options
    assert out.returncode == 0, out.stderr           # the second one ended normally (--frames)
    assert "restarting:" in out.stderr and "Traceback" not in out.stderr


def test_restart_under_systemd_exits_with_the_status_the_unit_restarts_on(tmp_path: Path) -> None:
    out = run_harness(tmp_path, {"NOTIFY_SOCKET": str(tmp_path / "no-notify-socket"), "INVOCATION_ID": "abc123"})
    assert re.findall(r"start (\d)", out.stdout) == ["1"], out.stdout + out.stderr      # systemd restarts it
    assert out.returncode == EXIT_RESTART, out.stderr


def test_systemd_is_told_apart_from_a_terminal() -> None:
    assert power.under_systemd({"NOTIFY_SOCKET": "/run/systemd/notify", "INVOCATION_ID": "5d1f"})
    assert not power.under_systemd({"INVOCATION_ID": "5d1f"})        # a desktop terminal's shell
    assert not power.under_systemd({})


# -- focus-arcade doctor asks polkit -----------------------------------------------------------
class Answer:
    def __init__(self, code: int, err: str = "") -> None:
        self.returncode, self.stderr, self.stdout = code, err, ""


@pytest.mark.parametrize("code, err, ok, says", [
    (0, "", True, "power off and reboot"),
    (1, "Not authorized.", False, "install.sh again"),
    (2, "Authorization requires authentication but no agent is available.", False, "install.sh again"),
    (127, "Error getting authority: Could not connect", False, "polkit does not answer"),
])
def test_the_doctor_asks_polkit_whether_the_menu_may_shut_down(code: int, err: str, ok: bool, says: str) -> None:
    from kiosk.service import doctor
    asked: list[list[str]] = []

    def run(argv: list[str], **_: object) -> Answer:
        asked.append(argv)
        return Answer(code, err)
    check = doctor.check_power(run=run, euid=1000)
    assert check.ok is ok and says in (check.detail + check.fix)
    assert asked[0][:3] == ["pkcheck", "--action-id", "org.freedesktop.login1.power-off"]
    assert ok is (len(asked) == 2)                 # both power-off and reboot asked when the first is yes
    assert doctor.check_power(run=run, euid=0).ok   # root needs no polkit
