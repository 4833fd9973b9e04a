"""kiosk/install.sh run in a sandbox (issues 20, 22 and 25).

The script's functions are sourced (``FOCUS_ARCADE_INSTALL_FUNCTIONS_ONLY=1``) and run
with the paths pointed into a temporary folder and shims for what needs root or the real
system (``runuser``, ``systemctl``, ``systemd-run``, ``apt-get``, ``apt-cache``, ``tty``,
``install -o``, ``chown``); the arcade itself is the real one of this test environment.
What an owner would notice is checked: the doctor step really checks the installed
configuration, the report is out (and kept in a file) before the service takes tty1, lgpio
comes from the Python package index when the archive has no python3-lgpio, the PIN is the
cabinet's own and shown once, the bytecode is compiled, the dependencies are the tested ones.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from kiosk import config
from kiosk.service import doctor

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "kiosk" / "install.sh"
VENV = Path(sys.prefix)
needs_venv_script = pytest.mark.skipif(not (VENV / "bin" / "focus-arcade").exists(),
                                       reason="the focus-arcade command is not installed in this environment")


def write_shims(tmp_path: Path, *, tty: str = "not a tty", lgpio_candidate: str = "(none)",
                pip_fails: int = 0, parent_tty: str = "") -> Path:
    """Shims on PATH; each notes its call (and what the report file held then) in calls.log.

    ``tty``: what ``tty`` says (the script's own terminal); ``parent_tty``: the terminal
    ``ps -o tty=`` gives for the script's parent processes (``""``: the script's own)."""
    own = tty.removeprefix("/dev/") if tty.startswith("/dev/") else "?"
    ps_tty = parent_tty or own
    bin_ = tmp_path / "shim"
    bin_.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    note = f'echo "$(basename "$0") $* [report: $(grep -c "Left to do" "{tmp_path}/report.txt" 2>/dev/null)]" >> {log}'
    scripts = {
        # runuser -u USER -- CMD...: as this user (the sandbox has no service user)
        "runuser": f'{note}\nshift 3\nexec "$@"\n',
        "systemctl": f"{note}\n",
        "systemd-run": f"{note}\n",
        "tty": f'echo "{tty}"\n[ "{tty}" != "not a tty" ]\n',
        # ps -o tty= -p PID: the parents' terminal; ps -o ppid=: the real parent
        "ps": f'case "$*" in *tty=*) echo " {ps_tty}";; *) exec {shutil.which("ps")} "$@";; esac\n',
        "apt-get": f"{note}\n",
        "apt-cache": f'{note}\necho "$2:"\necho "  Installed: (none)"\necho "  Candidate: {lgpio_candidate}"\n',
        "chown": f"{note}\n",
        "chgrp": f"{note}\n",
        # the system's users are never touched (the service user is this user)
        "useradd": "exit 1\n", "usermod": "exit 1\n", "gpasswd": "exit 1\n", "userdel": "exit 1\n",
        "install": textwrap.dedent(f"""\
            args=""
            while [ $# -gt 0 ]; do
              case "$1" in -o|-g) shift 2;; *) args="$args '$1'"; shift;; esac
            done
            eval exec {shutil.which("install")} $args
            """),
    }
    for name, body in scripts.items():
        (bin_ / name).write_text("#!/bin/bash\n" + body, encoding="utf-8")
        (bin_ / name).chmod(0o755)
    fake = tmp_path / "fakevenv" / "bin"
    fake.mkdir(parents=True, exist_ok=True)
    (fake / "pip").write_text(textwrap.dedent(f"""\
        #!/bin/bash
        {note}
        echo "${{PYPI:-unset}}" >> {tmp_path}/pip-env.log
        n=$(grep -c "^pip " {log})
        [ "$n" -gt {pip_fails} ]
        """), encoding="utf-8")
    (fake / "python").write_text("#!/bin/sh\necho 0.2.2.0\n", encoding="utf-8")
    for f in fake.iterdir():
        f.chmod(0o755)
    return bin_


def run_functions(tmp_path: Path, body: str, shims: Path | None = None, venv: Path = VENV,
                  **shim_options: str | int) -> subprocess.CompletedProcess[str]:
    """``body`` run after sourcing install.sh with every path in ``tmp_path``.

    Only a script that stops after defining its functions when sourced with
    FOCUS_ARCADE_INSTALL_FUNCTIONS_ONLY=1 is sourced at all (never the install itself)."""
    text = INSTALL.read_text(encoding="utf-8")
    guard = text.find('if [ "${FOCUS_ARCADE_INSTALL_FUNCTIONS_ONLY:-}" = 1 ]; then')
    assert guard > 0, "install.sh cannot be sourced for its functions alone"
    first_step = re.search(r"^(focus_arcade_\w+(?: .*)?$|install |python3 |useradd |apt-get )", text[:guard], re.M)
    assert first_step is None, f"install.sh runs {first_step.group(0)!r} before its functions-only guard"
    shims = shims or write_shims(tmp_path, **shim_options)  # type: ignore[arg-type]
    (tmp_path / "etc").mkdir(exist_ok=True)
    script = textwrap.dedent(f"""\
        set -euo pipefail
        FOCUS_ARCADE_INSTALL_FUNCTIONS_ONLY=1 source {INSTALL}
        service_user=$(id -un)
        venv={venv}
        cfg={tmp_path / "etc"}
        state={tmp_path / "state"}
        runtime={tmp_path / "run"}
        report_file={tmp_path / "report.txt"}
        mkdir -p "$state"
        """) + textwrap.dedent(body)
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "XDG_STATE_HOME": str(tmp_path / "xdg-state"),
           "HOME": str(tmp_path / "home")}
    env.pop("FOCUS_ARCADE_CONFIG", None)
    return subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def installed_config(tmp_path: Path, **replace: str) -> Path:
    """The configuration install.sh writes (its own sed lines), LED port and PIN replaced."""
    (tmp_path / "etc").mkdir(exist_ok=True)
    script = INSTALL.read_text(encoding="utf-8")
    body = script[script.index("focus_arcade_first_config() {"):]
    body = body[:body.index('"$repo/kiosk/default.toml"')]
    exprs = re.findall(r"-e '([^']*)'", body)
    text = subprocess.run(["sed", *[a for e in exprs for a in ("-e", e)], str(ROOT / "kiosk" / "default.toml")],
                          check=True, capture_output=True, text=True).stdout
    for key, value in replace.items():
        text = re.sub(rf"^{key} = .*$", f"{key} = {value}", text, count=1, flags=re.M)
    path = tmp_path / "etc" / "arcade.toml"
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- the doctor step


@needs_venv_script
def test_the_installer_s_doctor_step_checks_the_installed_configuration(tmp_path: Path) -> None:
    """Issue 25: it ran ``doctor --config F --no-probe``, which the command refused ("unrecognized
    arguments"), and then said to apply the fixes the doctor printed."""
    cfg = installed_config(tmp_path, port='"none"', pin='"4719"')
    out = run_functions(tmp_path, """\
        focus_arcade_doctor
        printf 'LEFT %s\\n' "${left_steps[@]}"
        """)
    assert out.returncode == 0, out.stderr
    assert "unrecognized arguments" not in out.stdout + out.stderr
    assert re.search(r"^focus-arcade \S+ doctor on ", out.stdout, re.M)
    assert f"  OK   configuration: {cfg}: OK" in out.stdout
    assert re.search(r"^\d+ checks, (all OK|\d+ to fix)\.$", out.stdout, re.M)
    # With the service's own environment: its video driver, store and LG_WD.
    assert "video driver: SDL_VIDEODRIVER=kmsdrm" in out.stdout
    assert "store: /var/lib/focus-arcade/arcade.sqlite3" in out.stdout
    assert f"  OK   LG_WD: LG_WD={tmp_path / 'run'} (writable)" in out.stdout
    assert "  OK   service PIN" in out.stdout
    # The doctor ran as the service user (runuser), and its output is in the report file.
    assert re.search(r"^runuser -u \S+ -- env .*focus-arcade doctor --config ", (tmp_path / "calls.log").read_text(),
                     re.M)
    report = (tmp_path / "report.txt").read_text()
    assert f"configuration: {cfg}: OK" in report
    fixes = "  FIX  " in out.stdout
    assert ("LEFT apply the fixes the doctor printed above" in out.stdout) == fixes


@needs_venv_script
def test_the_doctor_step_names_a_broken_configuration(tmp_path: Path) -> None:
    cfg = installed_config(tmp_path, port='"none"', fps="3")
    out = run_functions(tmp_path, 'focus_arcade_doctor\nprintf "LEFT %s\\n" "${left_steps[@]}"\n')
    assert out.returncode == 0, out.stderr
    assert f"FIX  configuration: {cfg}: 1 problem(s): " in out.stdout and "display.fps = 3" in out.stdout
    assert "FIX  service PIN: the default PIN" in out.stdout
    assert "LEFT apply the fixes the doctor printed above" in out.stdout


# ---------------------------------------------------------------------------- report, then start


@needs_venv_script
@pytest.mark.parametrize("terminal, parent", [("/dev/tty1", ""), ("/dev/pts/0", ""), ("/dev/pts/0", "tty1")],
                         ids=["tty1", "ssh", "sudo-pty-on-tty1"])
def test_the_report_is_out_and_kept_before_the_service_takes_the_console(tmp_path: Path, terminal: str,
                                                                         parent: str) -> None:
    """Issue 25: ``systemctl enable --now`` with Conflicts=getty@tty1 and TTYVHangup hung up an
    installer run on tty1 before its report was shown.  ``sudo-pty-on-tty1``: ``sudo
    kiosk/install.sh`` typed at the tty1 console; Debian's sudo (use_pty) gives the script a pty
    of its own, so ``tty`` says /dev/pts/N while sudo holds tty1 (tools/rehearse-pi saw the
    service start at once and hang the installer up before its last lines)."""
    installed_config(tmp_path, port='"none"')
    out = run_functions(tmp_path, """\
        done_steps+=("installed something")
        focus_arcade_report
        focus_arcade_start
        """, tty=terminal, parent_tty=parent)
    assert out.returncode == 0, out.stderr
    report = (tmp_path / "report.txt").read_text()
    assert "== Done" in report and "== Left to do" in report and "installed something" in report
    calls = (tmp_path / "calls.log").read_text().splitlines()
    starts = [c for c in calls if re.match(r"(systemctl (re)?start|systemd-run)", c)]
    assert len(starts) == 1, calls
    # The start comes after the report was written (the shim saw "Left to do" in the file).
    assert starts[0].endswith("[report: 1]")
    if terminal == "/dev/tty1" or parent == "tty1":
        # Not from within the script: a timer starts it once the script has ended.
        assert starts[0].startswith("systemd-run ") and "--on-active=3" in starts[0]
        assert starts[0].split(" [report")[0].endswith("systemctl start focus-arcade.service")
        assert "/var/log" not in out.stdout and str(tmp_path / "report.txt") in out.stdout
    else:
        assert starts[0].startswith("systemctl restart --no-block focus-arcade.service")


def test_the_service_is_enabled_by_the_unit_step_and_started_last() -> None:
    text = INSTALL.read_text(encoding="utf-8")
    assert "enable --now" not in text
    unit_fn = re.search(r"^focus_arcade_install_unit\(\) \{\n(.*?)^\}", text, re.M | re.S)
    assert unit_fn and "systemctl enable focus-arcade.service" in unit_fn.group(1)
    steps = [line for line in text.split("# --- The steps, in order", 1)[1].splitlines()
             if re.match(r"^focus_arcade_\w+", line)]
    assert steps[-3:] == ["focus_arcade_doctor", "focus_arcade_report", "focus_arcade_start"]
    assert steps.index("focus_arcade_install_unit") < steps.index("focus_arcade_doctor")


# ---------------------------------------------------------------------------- lgpio


@pytest.mark.parametrize("candidate, from_apt", [("(none)", False), ("2.2-1+rpt1", True)])
def test_lgpio_from_the_package_index_when_the_archive_has_no_python3_lgpio(tmp_path: Path, candidate: str,
                                                                           from_apt: bool) -> None:
    """Issue 25: python3-lgpio is only in Raspberry Pi's own archive; apt-get stopped the installer."""
    out = run_functions(tmp_path, """\
        focus_arcade_system_packages
        echo "FROM $lgpio_from"
        if [ "$lgpio_from" = pypi ]; then focus_arcade_pip_lgpio; fi
        printf 'DONE %s\\n' "${done_steps[@]}"
        """, venv=tmp_path / "fakevenv", lgpio_candidate=candidate)
    assert out.returncode == 0, out.stderr
    calls = (tmp_path / "calls.log").read_text().splitlines()
    installs = [c for c in calls if c.startswith("apt-get install")]
    assert len(installs) == 1 and "libdrm2" in installs[0]
    # Mesa's EGL and DRI drivers: only recommended by libegl1 on plain Debian (the rehearsal's
    # service died with "EGL not initialized" without them).
    assert {"libegl-mesa0", "libgl1-mesa-dri"} <= set(installs[0].split())
    assert ("python3-lgpio" in installs[0]) == from_apt
    assert f"FROM {'apt' if from_apt else 'pypi'}" in out.stdout
    pips = [c for c in calls if c.startswith("pip ")]
    if from_apt:
        assert pips == []
    else:
        assert len(pips) == 1 and f"--constraint {ROOT / 'constraints.txt'} lgpio" in pips[0]
        assert "DONE installed lgpio 0.2.2.0 from the Python package index" in out.stdout


def test_a_failed_step_says_it_stopped_and_how_to_go_on(tmp_path: Path) -> None:
    """Issue 25 (tools/rehearse-pi): the index reset pip's connections 5 times within seconds
    and the installer ended on pip's last error line, with no report and no word on what to do.
    pip now gets more tries and time (also the pip it starts for build dependencies: the
    environment), and a failed step ends with a note on the screen and in the report file."""
    out = run_functions(tmp_path, """\
        trap focus_arcade_stopped EXIT
        bash -c 'echo "pip sees retries=$PIP_RETRIES timeout=$PIP_TIMEOUT"'
        done_steps+=("installed the system packages")
        focus_arcade_pip_lgpio
        echo "NOT REACHED"
        """, venv=tmp_path / "fakevenv", pip_fails=5)
    assert out.returncode != 0
    assert "pip sees retries=10 timeout=60" in out.stdout
    assert "NOT REACHED" not in out.stdout
    for text in (out.stderr, (tmp_path / "report.txt").read_text()):
        assert "== Stopped before the end" in text
        assert "done: installed the system packages" in text
        assert "run sudo kiosk/install.sh again" in text


def test_a_finished_install_says_nothing_of_stopping(tmp_path: Path) -> None:
    out = run_functions(tmp_path, """\
        trap focus_arcade_stopped EXIT
        done_steps+=("installed the system packages")
        """)
    assert out.returncode == 0, out.stderr
    assert "Stopped" not in out.stdout + out.stderr


def test_the_installer_sets_its_stop_note_before_its_first_step() -> None:
    steps = INSTALL.read_text(encoding="utf-8").split("# --- The steps, in order", 1)[1]
    assert steps.index("trap focus_arcade_stopped EXIT") < steps.index("focus_arcade_system_packages\n")


def test_lgpio_without_a_wheel_is_built_with_its_tools(tmp_path: Path) -> None:
    out = run_functions(tmp_path, "focus_arcade_pip_lgpio\n", venv=tmp_path / "fakevenv", pip_fails=1)
    assert out.returncode == 0, out.stderr
    calls = [c.split(" [report")[0] for c in (tmp_path / "calls.log").read_text().splitlines()]
    assert [c.split()[0] for c in calls] == ["pip", "apt-get", "pip"]
    assert calls[1] == "apt-get install -y --no-install-recommends swig python3-dev gcc"
    # Debian has no liblgpio to link against: the build from source compiles it in (PYPI=1).
    assert (tmp_path / "pip-env.log").read_text().split() == ["unset", "1"]


# ---------------------------------------------------------------------------- device groups

UNIT = ROOT / "kiosk" / "systemd" / "focus-arcade.service"
PLAIN_DEBIAN_GROUPS = ["video", "render", "input", "audio", "dialout", "tty"]  # base-passwd, udev


def unit_supplementary_groups() -> list[str]:
    line = next(x for x in UNIT.read_text(encoding="utf-8").splitlines() if x.startswith("SupplementaryGroups="))
    return line.split("=", 1)[1].split()


def group_shims(tmp_path: Path, groups: list[str]) -> Path:
    """getent/groupadd over a group file of the sandbox; udevadm noted."""
    shims = write_shims(tmp_path)
    group_file = tmp_path / "group"
    group_file.write_text("".join(f"{g}:x:{100 + i}:\n" for i, g in enumerate(groups)), encoding="utf-8")
    log = tmp_path / "calls.log"
    bodies = {
        "getent": f'[ "$1" = group ] && grep "^$2:" {group_file}\n',
        "groupadd": f'echo "groupadd $*" >> {log}\necho "${{@: -1}}:x:999:" >> {group_file}\n',
        "udevadm": f'echo "udevadm $*" >> {log}\n',
    }
    for name, body in bodies.items():
        (shims / name).write_text("#!/bin/bash\n" + body, encoding="utf-8")
        (shims / name).chmod(0o755)
    return shims


def test_on_plain_debian_the_installer_makes_the_gpio_group_and_gives_it_the_gpio_chips(tmp_path: Path) -> None:
    """Issue 25 (found by tools/rehearse-pi): plain Debian has no gpio group, so the unit's
    SupplementaryGroups=gpio stopped every start with status 216/GROUP."""
    assert "gpio" in unit_supplementary_groups()
    out = run_functions(tmp_path, f"""\
        udev_rules={tmp_path / "rules.d"}
        focus_arcade_device_groups
        printf 'DONE %s\\n' "${{done_steps[@]}}"
        """, shims=group_shims(tmp_path, PLAIN_DEBIAN_GROUPS))
    assert out.returncode == 0, out.stderr
    # Every group the unit asks for exists now: systemd can start it.
    have = {line.split(":")[0] for line in (tmp_path / "group").read_text().splitlines()}
    assert set(unit_supplementary_groups()) <= have
    calls = (tmp_path / "calls.log").read_text().splitlines()
    assert [c for c in calls if c.startswith("groupadd")] == ["groupadd --system gpio"]
    # The GPIO chips are the group's (read and write for it, nobody else), now and at each boot.
    rule = (tmp_path / "rules.d" / "60-focus-arcade-gpio.rules").read_text()
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rule.splitlines()
    assert "udevadm trigger --subsystem-match=gpio --action=change" in calls
    assert "Made the missing group gpio" in out.stdout and "DONE made the gpio group and " in out.stdout


def test_raspberry_pi_os_keeps_its_own_gpio_group_and_rules(tmp_path: Path) -> None:
    out = run_functions(tmp_path, f"""\
        udev_rules={tmp_path / "rules.d"}
        focus_arcade_device_groups
        """, shims=group_shims(tmp_path, ["gpio", *PLAIN_DEBIAN_GROUPS]))
    assert out.returncode == 0, out.stderr
    calls = (tmp_path / "calls.log").read_text() if (tmp_path / "calls.log").exists() else ""
    assert "groupadd" not in calls and "udevadm" not in calls
    assert not (tmp_path / "rules.d").exists()


# ---------------------------------------------------------------------------- the service PIN


def draw_pin(tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], str]:
    out = run_functions(tmp_path, 'focus_arcade_service_pin\necho "PIN=$new_pin"\n')
    assert out.returncode == 0, out.stderr
    return out, re.search(r"^PIN=(\d*)$", out.stdout, re.M).group(1)  # type: ignore[union-attr]


@needs_venv_script
def test_a_new_configuration_gets_a_random_pin_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: every cabinet had the README's 2580, and the installer kept it.  Issue 23: the
    drawn PIN is the last good copy's too (the arcade would else keep the copy's 2580)."""
    pins = set()
    for n in range(4):
        where = tmp_path / str(n)
        where.mkdir()
        monkeypatch.setenv("STATE_DIRECTORY", str(where / "state"))     # the installer's and the service's
        cfg = installed_config(where)
        assert config.load_or_default(cfg)["service"]["pin"] == "2580"
        _, pin = draw_pin(where)
        assert re.fullmatch(r"\d{4}", pin) and pin not in doctor.default_pins()
        text = cfg.read_text()
        assert config.load_or_default(cfg)["service"]["pin"] == pin
        assert re.search(rf'^pin = "{pin}" +# then this PIN', text, re.M)  # its help comment kept
        assert stat.S_IMODE(cfg.stat().st_mode) == 0o640
        pins.add(pin)
    assert len(pins) > 1  # drawn, not one fixed PIN for all
    # Installed again: the cabinet's PIN is kept.
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "0" / "state"))
    _, again = draw_pin(tmp_path / "0")
    assert again == "" and config.load_or_default(tmp_path / "0" / "etc" / "arcade.toml")["service"]["pin"] in pins


@needs_venv_script
@pytest.mark.parametrize("text, drawn", [
    ('[service]\npin = "7391"\n', False),                 # the operator's own
    ('[service]\npin = ""\n', False),                     # none, on purpose (the doctor warns)
    ('[service]\npin = "2580"   # README\n', True),       # an older install's
    ('[display]\nfps = 30\n', True),                      # no [service]: the built-in default
    ('[service]\nhold_s = 3.0\n[sound]\nvolume = 0.5\n', True),
])
def test_an_existing_configuration_keeps_its_own_pin_and_loses_a_default_one(tmp_path: Path, text: str,
                                                                            drawn: bool,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))     # the copy the installer and service see
    cfg = tmp_path / "etc" / "arcade.toml"
    cfg.parent.mkdir()
    cfg.write_text(text, encoding="utf-8")
    before = config.load_or_default(cfg)
    _, pin = draw_pin(tmp_path)
    after = config.load_or_default(cfg)
    assert after.problems == [] and bool(pin) == drawn
    assert after["service"]["pin"] == (pin if drawn else before["service"]["pin"])
    assert {k: v for k, v in after.data.items() if k != "service"} == \
           {k: v for k, v in before.data.items() if k != "service"}


@needs_venv_script
def test_the_pin_is_shown_once_and_kept_out_of_the_report_file(tmp_path: Path) -> None:
    installed_config(tmp_path, port='"none"')
    out = run_functions(tmp_path, "focus_arcade_service_pin\nfocus_arcade_report\n")
    assert out.returncode == 0, out.stderr
    pin = config.load_or_default(tmp_path / "etc" / "arcade.toml")["service"]["pin"]
    assert out.stdout.count(pin) == 1 and f"The service PIN of this cabinet: {pin}" in out.stdout
    report = (tmp_path / "report.txt").read_text()
    assert pin not in report and "[service] pin in" in report


def test_doctor_says_fix_for_a_default_pin_and_never_prints_the_pin(tmp_path: Path) -> None:
    for n, (text, ok, said) in enumerate([
            ("", False, "the default PIN"), ('[service]\npin = "2580"\n', False, "the default PIN"),
            ('[service]\npin = ""\n', False, "no PIN"), ('[service]\npin = "73915"\n', True, "5 digits")]):
        cfg = tmp_path / f"arcade{n}.toml"      # one file each: a PIN edited by hand is held until accepted
        cfg.write_text(text, encoding="utf-8")
        check = doctor.check_pin(config.load_or_default(cfg), str(cfg))
        assert check.ok is ok and said in check.detail, text
        assert ok or (str(cfg) in check.fix and "install.sh" in check.fix)
        assert "73915" not in check.detail + check.fix
    assert "2580" in doctor.default_pins() and config.defaults()["service"]["pin"] in doctor.default_pins()


def test_doctor_lists_the_pin_check(tmp_path: Path) -> None:
    import io
    cfg = tmp_path / "arcade.toml"
    cfg.write_text(f'[storage]\npath = "{tmp_path / "r.sqlite3"}"\n', encoding="utf-8")
    out = io.StringIO()
    assert doctor.doctor_main(str(cfg), probe=False, out=out) == 1
    assert "  FIX  service PIN: the default PIN" in out.getvalue()


# ---------------------------------------------------------------------------- the pin factory


def _app_on_installed_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, factory_env: str | None) -> object:
    """The arcade opened on the configuration install.sh writes (LED link off, results in
    ``tmp_path``), ``GPIOZERO_PIN_FACTORY`` set to ``factory_env`` (None: unset)."""
    import argparse
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    if factory_env is None:
        monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    else:
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", factory_env)
    import pygame

    from kiosk.app.loop import App
    path = installed_config(tmp_path, port='"none"', path=f'"{tmp_path / "r.sqlite3"}"')
    cfg = config.load_or_default(path)
    assert cfg.problems == [] and cfg["gpio"]["pin_factory"] == "lgpio", "the installer names lgpio for the Pi"
    pygame.init()
    screen = pygame.display.set_mode((800, 480))
    return App(cfg, screen, argparse.Namespace(command=None, screenshot_dir="", frames=0))


def test_the_installed_configuration_on_a_laptop_with_mock_pins_gets_mockfactory_buzzers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 20's recipe: the cabinet's file tried on a laptop with GPIOZERO_PIN_FACTORY=mock.
    The file's ``pin_factory = "lgpio"`` used to win (lgpio absent: no buzzers at all); an
    explicit GPIOZERO_PIN_FACTORY in the environment wins, and the log says so."""
    import pygame
    from gpiozero.pins.mock import MockFactory
    caplog.set_level("WARNING", logger="focus-arcade")
    app = _app_on_installed_config(tmp_path, monkeypatch, "mock")
    try:
        gpio = app.gpio                                            # type: ignore[attr-defined]
        assert gpio is not None, "no GPIO buzzers: " + " | ".join(m for m, _ in app.messages)  # type: ignore[attr-defined]
        assert isinstance(gpio._factory, MockFactory)
        gpio._factory.pin(app.cfg["gpio"]["buzzers"][1]).drive_low()   # type: ignore[attr-defined]  # P2's press
        edge = gpio.queue.get(timeout=2)
        assert (edge.seat, edge.control, edge.pressed) == (1, "buzzer", True)
        assert 'GPIOZERO_PIN_FACTORY=mock in the environment overrides [gpio] pin_factory = "lgpio"' in caplog.text
    finally:
        app.close()                                                # type: ignore[attr-defined]
        pygame.display.quit()


@pytest.mark.parametrize("factory_env", [None, "lgpio"], ids=["by hand", "the service"])
def test_the_installed_configuration_asks_for_lgpio_loudly_or_not_at_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, factory_env: str | None) -> None:
    """On the Pi (the systemd unit sets GPIOZERO_PIN_FACTORY=lgpio; run by hand it is unset) the
    kiosk opens lgpio, never a quiet fallback: here, where lgpio cannot load, no buzzers and a
    message naming lgpio."""
    import pygame

    import hardware.gpio as hgpio
    asked: list[str | None] = []
    real = hgpio.pin_factory_from_env

    def spy(environ=None, *, require=None):                       # type: ignore[no-untyped-def]
        asked.append((environ or {}).get("GPIOZERO_PIN_FACTORY"))
        return real(environ, require=require)
    monkeypatch.setattr(hgpio, "pin_factory_from_env", spy)
    monkeypatch.setenv("LG_WD", str(tmp_path))
    app = _app_on_installed_config(tmp_path, monkeypatch, factory_env)
    try:
        assert asked == ["lgpio"]
        if importlib.util.find_spec("lgpio") is None:
            assert app.gpio is None                                # type: ignore[attr-defined]
            said = " | ".join(m for m, _ in app.messages)        # type: ignore[attr-defined]
            assert "GPIO buzzers unavailable" in said and "lgpio" in said, said
    finally:
        app.close()                                                # type: ignore[attr-defined]
        pygame.display.quit()


def test_doctor_names_the_pin_factory_the_environment_chose(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The doctor says when GPIOZERO_PIN_FACTORY overrides the file's; on a Pi anything but lgpio is a FIX."""
    cfg = config.load_or_default(installed_config(tmp_path, port='"none"'))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(doctor, "is_pi", lambda: False)
    check = doctor.check_pin_factory(cfg)
    assert check is not None and check.ok and "GPIOZERO_PIN_FACTORY=mock" in check.detail
    monkeypatch.setattr(doctor, "is_pi", lambda: True)
    check = doctor.check_pin_factory(cfg)
    assert check is not None and not check.ok and "unset GPIOZERO_PIN_FACTORY" in check.fix
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert doctor.check_pin_factory(cfg) is None                   # lgpio from the file: nothing to say


# ---------------------------------------------------------------------------- bytecode


def test_the_installed_modules_get_their_compiled_bytecode(tmp_path: Path) -> None:
    """Issue 22: without compiled bytecode the first frame came 17.8 s after the start; the
    service may not write next to its modules (ProtectSystem=strict)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    purelib = Path(subprocess.run([str(venv / "bin" / "python"), "-c",
                                   'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
                                  check=True, capture_output=True, text=True).stdout.strip())
    shutil.copytree(ROOT / "firmware_bridge", purelib / "firmware_bridge",
                    ignore=shutil.ignore_patterns("__pycache__"))
    out = run_functions(tmp_path, 'focus_arcade_compile\nprintf "DONE %s\\n" "${done_steps[@]}"\n', venv=venv)
    assert out.returncode == 0, out.stderr
    sources = sorted((purelib / "firmware_bridge").glob("*.py"))
    assert sources
    for source in sources:
        assert Path(importlib.util.cache_from_source(str(source))).exists(), source
    assert f"DONE compiled the arcade's bytecode in {purelib}" in out.stdout
    text = INSTALL.read_text(encoding="utf-8")
    body = re.search(r"^focus_arcade_install_package\(\) \{\n(.*?)^\}", text, re.M | re.S)
    assert body and body.group(1).rstrip().endswith("focus_arcade_compile")


# ---------------------------------------------------------------------------- dependencies


def _requirement(text: str) -> tuple[str, list[tuple[str, str]]]:
    name, spec = re.match(r"^([A-Za-z0-9_.-]+)\s*(.*)$", text).groups()  # type: ignore[union-attr]
    return re.sub(r"[-_.]+", "-", name).lower(), [re.match(r"(>=|<|==|>|<=|!=)\s*(\S+)", s.strip()).groups()
                                                  for s in spec.split(",") if s.strip()]  # type: ignore[union-attr]


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text.split(".post")[0]))


def constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, spec = _requirement(line)
            assert len(spec) == 1 and spec[0][0] == "==", line
            pins[name] = spec[0][1]
    return pins


def test_every_runtime_dependency_stops_below_its_next_major_and_is_pinned_as_tested() -> None:
    """Issue 25: lower bounds only and no constraints file: the next paho-mqtt or pygame-ce major
    could break an installed cabinet on its next install."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = constraints()
    runtime = list(project["dependencies"]) + list(project["optional-dependencies"]["pi"])
    for requirement in runtime:
        name, spec = _requirement(requirement)
        ops = dict(spec)
        assert ">=" in ops and "<" in ops, requirement
        assert _version(ops["<"]) == (_version(ops[">="])[0] + 1,), f"{requirement}: the bound is the next major"
        assert name in pins, f"{name} is not in constraints.txt"
        assert _version(ops[">="]) <= _version(pins[name]) < _version(ops["<"]), (requirement, pins[name])
    # What they need in turn is pinned too (gpiozero's colorzero).
    from importlib.metadata import PackageNotFoundError, requires
    for requirement in project["dependencies"]:
        try:
            needs = requires(_requirement(requirement)[0]) or []
        except PackageNotFoundError:
            continue
        for need in needs:
            if "extra ==" not in need and "platform_system" not in need and "python_version" not in need:
                assert _requirement(need.split(";")[0])[0] in pins, need


def test_install_sh_installs_the_dependencies_through_the_constraints() -> None:
    text = INSTALL.read_text(encoding="utf-8")
    assert re.search(r"^constraints=\$repo/constraints\.txt\b", text, re.M)
    installs = [line for line in text.splitlines() if re.search(r'"\$venv/bin/pip" install', line)
                and "--upgrade pip" not in line and "--no-deps" not in line]
    assert len(installs) >= 3
    for line in installs:
        assert '--constraint "$constraints"' in line, line


# ---------------------------------------------------------------------------- the service's docs


def test_the_service_docs_check_the_service_s_configuration_and_name_its_store(monkeypatch: pytest.MonkeyPatch,
                                                                              tmp_path: Path) -> None:
    """Issue 25: docs/kiosk-service.md's doctor command checked the defaults, and its table gave the
    store with an extra focus-arcade/."""
    import shlex

    from kiosk import cli
    text = (ROOT / "docs" / "kiosk-service.md").read_text(encoding="utf-8")
    commands = [line for line in re.findall(r"`([^`\n]+)`|^(sudo [^\n]+)$", text, re.M) for line in line
                if "focus-arcade doctor" in line or "focus-arcade check-config" in line]
    assert commands
    for command in commands:
        words = shlex.split(command)
        env = dict(w.split("=", 1) for w in words if re.match(r"^[A-Z_]+=", w))
        start = next(i for i, w in enumerate(words) if re.fullmatch(r"(\S*/bin/)?focus-arcade", w) and words[i - 1] != "-u")
        args = cli._parser().parse_args(words[start + 1:])
        assert args.config == "/etc/focus-arcade/arcade.toml", command
        if args.command == "doctor":
            assert env.get("XDG_DATA_HOME") == "/var/lib" and env.get("LG_WD") == "/run/focus-arcade", command
    store = re.search(r"^\| results store \| `([^`]+)` \|$", text, re.M)
    assert store
    monkeypatch.setenv("XDG_DATA_HOME", "/var/lib")
    assert str(config.load_or_default(tmp_path / "none.toml").storage_path()) == store.group(1)
    unit = (ROOT / "kiosk" / "systemd" / "focus-arcade.service").read_text(encoding="utf-8")
    assert "Environment=XDG_DATA_HOME=/var/lib" in unit and "Environment=LG_WD=/run/focus-arcade" in unit
