"""``focus-arcade doctor``: checks the machine it runs on, one line per item, OK or the fix.

Items: the video driver and its system libraries (pygame-ce's KMSDRM video
needs libdrm, libgbm, EGL and GLES), the display (a DRM card the user may open,
a connected screen), the sound device, the GPIO chip and the ``gpio`` group,
``LG_WD`` (where lgpio writes its pipes), the LED controller (found, baud,
answers), the configuration (every problem), the service PIN (not a default one), the
results store and whether polkit lets this user shut the Pi down and reboot it (the
service menu).  It changes nothing: ports are opened only to ask the LED controller ``v``
(``--no-probe`` skips that), the store is opened read-only.
"""

from __future__ import annotations

import ctypes
import glob
import grp
import os
import platform
import pwd
import socket
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, TextIO

from kiosk import config as configmod

if TYPE_CHECKING:
    from firmware_bridge.link import Found


class Finding(Protocol):
    """A controller search (:class:`firmware_bridge.discovery.ControllerFinder`): called, the
    controller found or None; then ``problem`` says why none was."""

    @property
    def problem(self) -> str: ...

    def __call__(self) -> Found | None: ...


class Ran(Protocol):
    """What ``check_power`` reads of a finished command (:class:`subprocess.CompletedProcess`)."""

    @property
    def returncode(self) -> int: ...

    @property
    def stderr(self) -> str | None: ...

APT_VIDEO = "libdrm2 libgbm1 libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri"
#: Where libglvnd finds its EGL vendors (Mesa's is 50_mesa.json) and Mesa its DRI drivers
#: (vc4/v3d on a Pi, virtio_gpu in a VM): without both, SDL's KMSDRM says "EGL not initialized".
EGL_VENDOR_GLOBS = ("/usr/share/glvnd/egl_vendor.d/*.json", "/etc/glvnd/egl_vendor.d/*.json")
DRI_DRIVER_GLOBS = ("/usr/lib/*/dri/*_dri.so", "/usr/lib/dri/*_dri.so")
APT_SOUND = "libasound2 alsa-utils"


@dataclass(frozen=True)
class Check:
    """One item: ``name``, ``ok``, what was found (``detail``) and, when not ok, the ``fix``."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


def _user() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


def _in_group(name: str) -> bool | None:
    """True/False for membership of group ``name``; None when the group does not exist."""
    try:
        gid = grp.getgrnam(name).gr_gid
    except KeyError:
        return None
    return gid in os.getgroups() or gid == os.getgid() or _user() in grp.getgrgid(gid).gr_mem


def _loadable(lib: str) -> bool:
    try:
        ctypes.CDLL(lib)
        return True
    except OSError:
        return False


def machine() -> str:
    """``Raspberry Pi 5 Model B Rev 1.0`` or the platform, and the OS name."""
    model = ""
    try:
        model = Path("/proc/device-tree/model").read_text(errors="replace").strip("\x00\n ")
    except OSError:
        pass
    osname = ""
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                osname = line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return f"{model or platform.machine()} / {osname or platform.system()}"


def is_pi() -> bool:
    return "raspberry pi" in machine().lower()


def check_video() -> Check:
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    missing = [lib for lib in ("libdrm.so.2", "libgbm.so.1", "libEGL.so.1", "libGLESv2.so.2") if not _loadable(lib)]
    try:
        import pygame

        pg = f"pygame-ce {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}"
    except Exception as exc:  # noqa: BLE001
        return Check("video driver", False, f"pygame-ce does not load: {exc}",
                     "reinstall: sudo kiosk/install.sh (it installs pygame-ce into the arcade's venv)")
    shown = f"SDL_VIDEODRIVER={driver or '(unset)'}; {pg}"
    if missing:
        return Check("video driver", False, f"{shown}; missing {', '.join(missing)} (KMSDRM needs them)",
                     f"sudo apt install {APT_VIDEO}")
    if driver and driver not in ("kmsdrm", "x11", "wayland", "dummy", "offscreen"):
        return Check("video driver", False, f"{shown}: unknown driver",
                     "use SDL_VIDEODRIVER=kmsdrm on the Pi console (the service sets it)")
    if driver == "kmsdrm":
        import glob

        lacking = [what for what, globs in (("an EGL vendor (Mesa's)", EGL_VENDOR_GLOBS),
                                            ("Mesa's DRI drivers", DRI_DRIVER_GLOBS))
                   if not any(glob.glob(g) for g in globs)]
        if lacking:
            return Check("video driver", False, f"{shown}; no {' and no '.join(lacking)}: EGL cannot start on the "
                         "console (\"EGL not initialized\")", "sudo apt install libegl-mesa0 libgl1-mesa-dri")
    return Check("video driver", True, f"{shown}; libdrm, libgbm, EGL, GLES present")


def check_display() -> Check:
    cards = sorted(glob.glob("/dev/dri/card*"))
    if not cards:
        fix = ("enable the KMS driver: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, then reboot"
               if is_pi() else "no DRM display here (not a Pi): the kiosk needs a screen; use --windowed on a desktop")
        return Check("display", False, "no /dev/dri/card* (no KMS display device)", fix)
    usable = [c for c in cards if os.access(c, os.R_OK | os.W_OK)]
    if not usable:
        return Check("display", False, f"{', '.join(cards)} not usable by {_user()}",
                     f"sudo usermod -aG video,render {_user()} (then log in again)")
    connected = []
    for status in glob.glob("/sys/class/drm/card*-*/status"):
        try:
            if Path(status).read_text().strip() == "connected":
                connected.append(Path(status).parent.name)
        except OSError:
            pass
    if not connected:
        return Check("display", False, f"{', '.join(usable)} usable, but no screen is connected",
                     "plug the TV into HDMI 0 (the port next to the power socket) and switch it on")
    return Check("display", True, f"{', '.join(usable)}; connected: {', '.join(connected)}")


def check_sound() -> Check:
    if not _loadable("libasound.so.2"):
        return Check("sound device", False, "libasound.so.2 missing (SDL's ALSA output)", f"sudo apt install {APT_SOUND}")
    try:
        cards = Path("/proc/asound/cards").read_text().strip()
    except OSError:
        cards = ""
    outputs = sorted(glob.glob("/dev/snd/pcmC*D*p"))
    if not outputs or "no soundcards" in cards.lower() or not cards:
        fix = ("turn the audio on: dtparam=audio=on in /boot/firmware/config.txt (HDMI sound needs the TV on), reboot"
               if is_pi() else "no sound card here: the arcade runs silent (SDL_AUDIODRIVER=dummy)")
        return Check("sound device", False, "no sound output device (/dev/snd/pcm*p)", fix)
    if not all(os.access(o, os.W_OK) for o in outputs):
        return Check("sound device", False, f"{outputs[0]} not writable by {_user()}",
                     f"sudo usermod -aG audio {_user()} (then log in again)")
    first = cards.splitlines()[0].strip()
    return Check("sound device", True, f"{len(outputs)} output(s); {first}")


def check_gpio_chip() -> Check:
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        fix = ("update Raspberry Pi OS (sudo apt full-upgrade) and reboot" if is_pi()
               else "no GPIO here (not a Pi): use keyboard stations, or gpio pin_factory = \"mock\" for a demo")
        return Check("GPIO chip", False, "no /dev/gpiochip*", fix)
    usable = [c for c in chips if os.access(c, os.R_OK | os.W_OK)]
    if not usable:
        return Check("GPIO chip", False, f"{', '.join(chips)} not usable by {_user()}",
                     f"sudo usermod -aG gpio {_user()} (then log in again)")
    try:
        import lgpio  # type: ignore[import-not-found]  # noqa: F401

        lg = "lgpio present"
    except ImportError:
        return Check("GPIO chip", False, f"{', '.join(usable)}; the lgpio module is missing",
                     "sudo apt install python3-lgpio where the archive has it (Raspberry Pi OS), else "
                     "/opt/focus-arcade/venv/bin/pip install lgpio; sudo kiosk/install.sh does either")
    return Check("GPIO chip", True, f"{', '.join(usable)}; {lg}")


def check_pin_factory(cfg: configmod.Config) -> Check | None:
    """The GPIO pin factory the kiosk would open for ``cfg`` (``hardware.gpio.pin_factory_choice``),
    when it is worth a line: on a Pi anything but lgpio is a FIX (the buzzers need it, loudly);
    elsewhere an environment overriding the file's name is said (e.g. ``mock`` on a laptop)."""
    if "gpio" not in cfg["seats"]["stations"]:
        return None
    from hardware.gpio import pin_factory_choice
    name, note = pin_factory_choice(cfg["gpio"]["pin_factory"])
    if is_pi() and name != "lgpio":
        what = note or (f"pin factory {name!r}" if name else "no pin factory named: gpiozero would pick one quietly")
        return Check("GPIO pin factory", False, what,
                     '[gpio] pin_factory = "lgpio" (sudo kiosk/install.sh writes it)'
                     + (", and unset GPIOZERO_PIN_FACTORY" if note else ""))
    if note:
        return Check("GPIO pin factory", True, note)
    return None


def check_gpio_group() -> Check:
    member = _in_group("gpio")
    if member is None:
        return Check("gpio group", not is_pi(), "no gpio group on this machine",
                     "Raspberry Pi OS has it; elsewhere GPIO buzzers are not used" if not is_pi()
                     else "sudo groupadd gpio, then sudo usermod -aG gpio " + _user())
    if not member:
        return Check("gpio group", False, f"{_user()} is not in the gpio group",
                     f"sudo usermod -aG gpio {_user()} (then log in again; the service adds it itself)")
    return Check("gpio group", True, f"{_user()} is in the gpio group")


def check_lg_wd() -> Check:
    wd = os.environ.get("LG_WD", "")
    if not wd:
        return Check("LG_WD", False, "LG_WD is not set: lgpio writes its pipes into the working folder",
                     "set LG_WD to a writable folder, e.g. export LG_WD=/run/user/$(id -u) "
                     "(the service sets LG_WD=/run/focus-arcade)")
    if not os.path.isdir(wd) or not os.access(wd, os.W_OK):
        return Check("LG_WD", False, f"LG_WD={wd} is not a writable folder",
                     f"mkdir -p {wd} and make it writable for {_user()}, or point LG_WD elsewhere")
    return Check("LG_WD", True, f"LG_WD={wd} (writable)")


def check_led(cfg: configmod.Config, probe: bool = True,
              finder_factory: Callable[..., Finding] | None = None) -> Check:
    led = cfg["led"]
    port = str(led["port"]).strip()
    rate = configmod.led_rate(led)[1]
    from kiosk.output.led import split_ddp_port

    ddp = split_ddp_port(port)
    if led["transport"] == "ddp" or ddp is not None:
        host, number = ddp if ddp is not None else (led["host"], led["ddp_port"])
        try:
            address = socket.getaddrinfo(host, number, type=socket.SOCK_DGRAM)[0][4][0]
        except OSError as exc:
            return Check("LED controller", False, f"DDP to {host}:{number}: the name does not resolve ({exc})",
                         "set [led] host to WLED's IP address (WLED: Info page, or your router's list)")
        return Check("LED controller", True, f"DDP to {host}:{number} ({address}); WLED shows it when it is on "
                     "the Wi-Fi (DDP is not answered, so check the panel)")
    if port.lower() in ("", "none", "off"):
        return Check("LED controller", True, "off ([led] port = \"none\")")
    if port.lower() == "virtual":
        return Check("LED controller", True, "virtual matrix on the TV ([led] port = \"virtual\"); "
                     "for a real panel set port = \"auto\"")
    from firmware_bridge.discovery import (
        ControllerFinder,
        candidates,
        describe,
        parse_usb_id,
        probe_rates,
        probe_schedule,
    )
    from firmware_bridge.discovery import probe as probe_port

    usb_id = parse_usb_id(led["usb_id"])
    seen = [describe(p) for p in candidates(usb_id)]
    if not probe:
        ok = bool(seen) if port.lower() == "auto" else os.path.exists(port) or "://" in port
        return Check("LED controller", ok, f"not asked (--no-probe); USB serial devices: {', '.join(seen) or 'none'}",
                     "" if ok else "plug in the LED controller's USB cable")
    # Every rate a controller may be at (a WLED left at another rate, issue 25), as the link's "auto".
    bauds = probe_rates(led["baudrate"], led["wled_baud"])
    if port.lower() == "auto":
        finder = (finder_factory or ControllerFinder)(usb_id, bauds, wait_s=2.5)
        found = finder()
        if found is None:
            from firmware_bridge.link import advice_for
            return Check("LED controller", False, finder.problem or "not found",
                         advice_for(finder.problem or "not found"))
        if found.port is not None:
            found.port.close()
    else:
        if not os.path.exists(port) and "://" not in port:
            return Check("LED controller", False, f"{port} does not exist; USB serial devices: {', '.join(seen) or 'none'}",
                         'plug the controller in, or set [led] port = "auto" to find it by itself')
        found = None
        for baud, listen_s in probe_schedule(bauds, 2.5, 0.6, 2):
            found = probe_port(port, baud, wait_s=listen_s, keep_open=False)
            if found is not None:
                break
        if found is None:
            return Check("LED controller", False, f"{port} does not answer as WLED or Adalight at "
                         f"{' / '.join(str(b) for b in bauds)} baud",
                         "check the firmware (WLED, or the Adalight sketch) and [led] baudrate (stock WLED: 115200)")
    what = f"WLED {found.version}" if found.kind == "wled" else "an Adalight device"
    note = ""
    # With wled_baud the link switches a WLED from whatever rate it is at; otherwise the
    # controller's own rate belongs in [led] baudrate (it is where it starts).
    if found.baudrate != led["baudrate"] and not (found.kind == "wled" and led["wled_baud"]):
        note = f"; set [led] baudrate = {found.baudrate}"
    return Check("LED controller", not note, f"{what} on {found.url} answers at {found.baudrate} baud; {rate}",
                 note.lstrip("; "))


def check_config(path: str | os.PathLike[str] | None) -> tuple[Check, configmod.Config]:
    cfg = configmod.load_or_default(path)
    where = str(path) if path else "no file: the defaults"
    if cfg.problems:
        return Check("configuration", False, f"{where}: {len(cfg.problems)} problem(s): " + " | ".join(cfg.problems),
                     f"edit {where} (focus-arcade check-config lists each problem)"), cfg
    return Check("configuration", True, f"{where}: OK"), cfg


#: PINs every cabinet would share: the one the README names and the built-in default (issue 20).
KNOWN_PINS = frozenset({"2580"})


def default_pins() -> frozenset[str]:
    """The PINs that are no secret: :data:`KNOWN_PINS` and ``[service] pin`` of the defaults."""
    return KNOWN_PINS | {str(configmod.defaults()["service"]["pin"])}


def check_pin(cfg: configmod.Config, where: str = "the configuration") -> Check:
    """``[service] pin``: a FIX when it is a default PIN (any guest who read the README opens
    the service menu, and can shut the Pi down) or empty (no PIN at all); the PIN itself is
    never printed."""
    pin = str(cfg["service"]["pin"])
    low, high = configmod.PIN_DIGITS
    fix = (f'set [service] pin to digits only the operator knows ({low} to {high}, e.g. pin = "4719") in {where}; '
           "sudo kiosk/install.sh draws one when the PIN is the default")
    if pin == "":
        return Check("service PIN", False, "no PIN: anyone who holds the service combination opens the service menu",
                     fix)
    if pin in default_pins():
        return Check("service PIN", False, "the default PIN (every cabinet has it; it is in the README)", fix)
    return Check("service PIN", True, f"set, {len(pin)} digits, not a default one")


def check_restored(cfg: configmod.Config) -> Check | None:
    """The settings the arcade takes from the last good copy of the configuration because the
    file lacks them or cannot read them, or changes what makes the cabinet a kiosk without an
    operator's accept (issue 23), or None when there are none."""
    if not cfg.restored and not cfg.held:
        return None
    said = []
    if cfg.restored:
        said.append(f"{len(cfg.restored)} missing or unreadable in {cfg.source}: {', '.join(cfg.restored)}")
    if cfg.held:
        said.append(f"{len(cfg.held)} changed in {cfg.source} but not accepted, the copy's used: "
                    f"{', '.join(cfg.held)}")
    return Check("settings from the last good copy", False,
                 f"taken from {configmod.last_good_path()}: " + "; ".join(said),
                 f"fix {cfg.source} (focus-arcade check-config {cfg.source} lists each problem), or keep it as it "
                 f"is: focus-arcade check-config --accept {cfg.source}")


def check_store(cfg: configmod.Config) -> Check:
    path = cfg.storage_path()
    folder = path.parent
    probe_dir = folder
    while not probe_dir.exists() and probe_dir != probe_dir.parent:
        probe_dir = probe_dir.parent
    if not os.access(probe_dir, os.W_OK):
        return Check("store", False, f"{folder} is not writable by {_user()}",
                     f"sudo install -d -o {_user()} {folder}, or set [storage] path")
    if not path.exists():
        return Check("store", True, f"{path} (made at the first game)")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = db.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return Check("store", False, f"{path}: {exc}", "the arcade moves a damaged file aside and starts a new one; "
                     "or restore a backup")
    if result != "ok":
        return Check("store", False, f"{path}: integrity check says {result}", "restore a backup, or move the file aside")
    return Check("store", True, f"{path} (integrity ok)")


def check_event(cfg: configmod.Config, seconds: float = 4.0) -> Check:
    """With ``[event]`` on (issue 15): the broker answers and takes the login; what it holds."""
    from kiosk.event import link as event
    ev = cfg["event"]
    where = f"{ev['host']}:{ev['port']}{' (TLS)' if ev['tls'] else ''}"
    board, problem = event.watch(ev, seconds=seconds)
    if problem:
        return Check("event broker", False, problem,
                     "check [event] (host, port, tls, ca_file, username, password) and that Mosquitto runs "
                     "(README, Events)")
    online = sum(1 for s in board.statuses.values() if s.state != "offline")
    return Check("event broker", True, f"{where}, event {ev['event']!r}: {len(board.all_games())} games, "
                 f"{online} of {len(board.statuses)} cabinets online")


#: The logind actions the service menu's "Shut the Pi down" / "Restart the Pi" need (kiosk/service/power.py).
POWER_ACTIONS = ("org.freedesktop.login1.power-off", "org.freedesktop.login1.reboot")


def check_power(run: Callable[..., Ran] | None = None, euid: int | None = None) -> Check:
    """Whether polkit lets this user power off and reboot through logind (``pkcheck``).

    ``run`` is :func:`subprocess.run` (tests give another); ``euid`` the user id
    (default this process's).  pkcheck: 0 = yes, 1/2/3 = no, anything else = no answer.
    """
    import shutil
    import subprocess
    name = "shut down / reboot"
    rule = "sudo kiosk/install.sh again (it installs polkitd and /etc/polkit-1/rules.d/50-focus-arcade.rules)"
    if (os.geteuid() if euid is None else euid) == 0:
        return Check(name, True, "root: logind lets root power off without asking polkit")
    pkcheck = shutil.which("pkcheck") if run is None else "pkcheck"
    if pkcheck is None:
        return Check(name, False, "polkit is not installed (no pkcheck): logind refuses the service menu's "
                     "shut down", rule)
    run = run or subprocess.run
    for action in POWER_ACTIONS:
        try:
            r = run([pkcheck, "--action-id", action, "--process", str(os.getpid())], capture_output=True,
                    text=True, timeout=10)
        except (OSError, subprocess.SubprocessError) as exc:
            return Check(name, False, f"pkcheck failed: {exc}", rule)
        said = next((line for line in reversed((r.stderr or "").splitlines()) if line.strip()), "")
        if r.returncode in (1, 2, 3):
            return Check(name, False, f"polkit says no to {action.rsplit('.', 1)[1]} for {_user()}"
                         + (f" ({said})" if said else ""), rule)
        if r.returncode != 0:
            return Check(name, False, f"polkit does not answer ({said or f'pkcheck status {r.returncode}'})",
                         "sudo systemctl start polkit (or sudo apt install polkitd), then ask again")
    return Check(name, True, f"polkit lets {_user()} power off and reboot (the service menu)")


def run_checks(config_path: str | None, probe: bool = True) -> list[Check]:
    """Every check, in order."""
    cfg_check, cfg = check_config(config_path)
    checks = [check_video(), check_display(), check_sound(), check_gpio_chip(), check_gpio_group(), check_lg_wd()]
    try:
        checks.append(check_led(cfg, probe))
    except Exception as exc:  # noqa: BLE001 - a doctor never crashes
        checks.append(Check("LED controller", False, f"check failed: {exc}", "see the log: journalctl -u focus-arcade"))
    checks.append(cfg_check)
    factory = check_pin_factory(cfg)
    if factory is not None:
        checks.append(factory)
    checks.append(check_pin(cfg, config_path or "a configuration file (--config)"))
    restored = check_restored(cfg)
    if restored is not None:
        checks.append(restored)
    try:
        checks.append(check_store(cfg))
    except Exception as exc:  # noqa: BLE001
        checks.append(Check("store", False, f"check failed: {exc}", "set [storage] path to a writable file"))
    try:
        checks.append(check_power())
    except Exception as exc:  # noqa: BLE001
        checks.append(Check("shut down / reboot", False, f"check failed: {exc}", "see docs/kiosk-service.md"))
    if cfg.event_on():
        try:
            checks.append(check_event(cfg))
        except Exception as exc:  # noqa: BLE001
            checks.append(Check("event broker", False, f"check failed: {exc}", "check [event]"))
    return checks


def doctor_main(config: str | None = None, probe: bool = True, out: TextIO | None = None) -> int:
    """Print each check (``OK`` / ``FIX`` and the fix); 0 when all are OK, else 1."""
    import sys

    from kiosk import version

    out = out or sys.stdout
    path = config or configmod.default_path()
    print(f"focus-arcade {version()} doctor on {socket.gethostname()}: {machine()}", file=out)
    checks = run_checks(str(path) if path else None, probe)
    for c in checks:
        print(f"  {'OK ' if c.ok else 'FIX'}  {c.name}: {c.detail}", file=out)
        if not c.ok and c.fix:
            print(f"       -> {c.fix}", file=out)
    bad = sum(not c.ok for c in checks)
    print(f"{len(checks)} checks, {bad} to fix." if bad else f"{len(checks)} checks, all OK.", file=out)
    return 1 if bad else 0
