"""The ``focus-arcade`` command.

    focus-arcade                      the arcade on this machine (TV + inputs from config)
    focus-arcade demo                 simulated players on MockFactory pins + virtual LED matrix
    focus-arcade headless --game focusx --mode classic --players 4 --games 20 --seed 1
    focus-arcade perft --game focus|crossfire --depth N [--moves "..."]
    focus-arcade check-config [PATH]  validate a configuration file (PATH, else --config): every problem, the LED frame rate
    focus-arcade doctor [--config PATH] check this machine: display, sound, GPIO, LED controller, store, PIN
    focus-arcade --version
    focus-arcade event status         the event's cabinets and games (needs [event])
    focus-arcade event remove GAME_ID | close | add-cabinet NAME --event EVENT | clear-cabinet NAME   the operator's moderation
    focus-arcade leaderboard-web [--host 127.0.0.1] [--port 8080]   the event's leaderboard page

The global options (``--config``, ``--windowed``, ``--screenshot-dir``, ``--screenshot-every``)
may come before or after the command's name: ``focus-arcade doctor --config F`` and
``focus-arcade --config F doctor`` are the same.
"""

from __future__ import annotations

# Only what the interpreter has loaded already: a stop signal that comes while the rest loads
# (0.2-0.3 s here, seconds on a Pi 3) is caught by main's first line (issue 23), so every other
# module is imported inside the functions that use it.
import os
import sys
from typing import TYPE_CHECKING, Callable

from kiosk import version

if TYPE_CHECKING:
    import argparse

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _skill(text: str) -> str:
    import argparse

    from arcade.registry import SKILLS
    if text not in SKILLS:
        raise argparse.ArgumentTypeError(f"{text!r}: expected one of {', '.join(SKILLS)}")
    return text


def _seconds(low: float, high: float, example: str) -> Callable[[str], float]:
    """An argparse type: seconds from ``low`` to ``high`` (a clear message otherwise)."""
    def check(text: str) -> float:
        import argparse
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: expected seconds, e.g. {example}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r}: expected {low:g} to {high:g} seconds")
        return value
    return check


_pace = _seconds(0.3, 30, "2.0")
_every = _seconds(0.2, 3600, "5")


def _add_global_options(p: argparse.ArgumentParser, defaults: bool) -> None:
    """The options every command takes, before or after its name (``demo --screenshot-dir D``).

    On the top-level parser (``defaults``) they carry their defaults; on each command's
    parser they default to nothing (``argparse.SUPPRESS``), so one given after the
    command's name overrides and one given before it is kept."""
    import argparse

    def d(value: object) -> object:
        return value if defaults else argparse.SUPPRESS
    p.add_argument("--config", default=d(None), help="TOML configuration file (default: $FOCUS_ARCADE_CONFIG or "
                                                     "~/.config/focus-arcade/arcade.toml)")
    p.add_argument("--windowed", action="store_true", default=d(False), help="never fullscreen")
    p.add_argument("--frames", type=int, default=d(0), help=argparse.SUPPRESS)        # tests: stop after N frames
    p.add_argument("--screenshot-dir", default=d(""), metavar="DIR",
                   help="save PNG screenshots in DIR: each new screen, a game's moments, F12 / Print Screen / a "
                        "gamepad's Guide button")
    p.add_argument("--screenshot-every", type=_every, default=d(0.0), metavar="SECONDS",
                   help="with --screenshot-dir: also one PNG every SECONDS (0.2 to 3600)")


def _parser() -> argparse.ArgumentParser:
    import argparse

    class _Version(argparse.Action):
        """``--version``: looked up when asked, not each time the parser is made (reading the
        installed package's metadata cost 0.1-0.2 s of every start, issue 22)."""

        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                     option_string: str | None = None) -> None:
            print(f"focus-arcade {version()}")
            parser.exit()

    p = argparse.ArgumentParser(prog="focus-arcade", description="Focus Arcade: the FOCUS party arcade.")
    _add_global_options(p, defaults=True)
    p.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    common = argparse.ArgumentParser(add_help=False)
    _add_global_options(common, defaults=False)
    sub = p.add_subparsers(dest="command")

    d = sub.add_parser("demo", parents=[common], help="a game played by simulated players through gpiozero's MockFactory")
    d.add_argument("--game", default="focusx", help="a game's name (focusx-duel-x, focus-3p, crossfire, "
                                                    "coop-sherlock...) or a family with --mode")
    d.add_argument("--mode", default=None, help="the mode or variant (default: the first)")
    d.add_argument("--variant", default=None, help="for --game focus: 2p, 3p, 4p-teams, 4p, crossfire")
    d.add_argument("--case", default=None, help="for --game coop: a Mrs. Hudson case")
    d.add_argument("--players", type=int, default=0)
    d.add_argument("--seed", type=int, default=None)
    d.add_argument("--skill", default="medium", type=_skill, help="easy, medium, hard or expert")
    d.add_argument("--pace", type=_pace, default=2.0, help="seconds a table shows before the next card (0.3-30)")
    d.add_argument("--loop", action="store_true", help="play game after game (kiosk attract demo)")
    d.add_argument("--x-rule", action="store_true", help="FocusX rule on (FX-3) in FocusX modes")

    h = sub.add_parser("headless", parents=[common], help="computer players only, one JSON line per game")
    h.add_argument("--game", default="focusx", help="a game's name (focusx-duel-x, focus-3p, crossfire, "
                                                    "coop-sherlock...) or a family with --mode")
    h.add_argument("--mode", default=None, help="the mode (default: each game's first; for focus, the variant)")
    h.add_argument("--variant", default=None, help="for --game focus: 2p, 3p, 4p-teams, 4p, crossfire")
    h.add_argument("--players", type=int, default=None,
                   help="seats (default: 4 for focusx and sherlook, 2 for coop, the variant's for focus)")
    h.add_argument("--games", type=int, default=1)
    h.add_argument("--seed", type=int, default=0)
    h.add_argument("--skill", default="medium", help="skill of every seat, or a comma list per seat")
    h.add_argument("--x-rule", action="store_true", help="FocusX rule on (FX-3)")
    h.add_argument("--case", default=None, help="for --game coop: a Mrs. Hudson case")
    h.add_argument("--miss-rate-scale", type=float, default=None,
                   help="x the computer players' miss rate (default: [computer] of --config, else 1)")
    h.add_argument("--false-rate-scale", type=float, default=None,
                   help="x the computer players' false-shout rates (default: [computer] of --config, else 1)")

    pf = sub.add_parser("perft", help="count leaf positions of FOCUS / Crossfire")
    pf.add_argument("rest", nargs=argparse.REMAINDER)

    c = sub.add_parser("check-config", parents=[common], help="validate a configuration file: every problem, and the LED frame rate")
    c.add_argument("path", nargs="?", help="the file (default: --config, then $FOCUS_ARCADE_CONFIG or "
                                           "~/.config/focus-arcade/arcade.toml)")
    c.add_argument("--accept", action="store_true",
                   help="make the file as it is the last good copy (settings it lacks are then defaults)")
    c.add_argument("--force", action="store_true",
                   help="with --accept: also a file that lacks the copy's kiosk mode, GPIO stations, PIN or "
                        "store path (they become the defaults)")

    dr = sub.add_parser("doctor", parents=[common], help="check this machine: display, sound, GPIO, LG_WD, LED controller, "
                                       "configuration, store; OK or the fix for each")
    dr.add_argument("--no-probe", action="store_true", help="do not open serial ports to ask the LED controller")

    e = sub.add_parser("event", parents=[common], help="the event of [event]: 'status' prints the hall's cabinets and games; "
                                     "the operator's 'remove GAME_ID', 'close', 'add-cabinet NAME', 'clear-cabinet NAME'")
    e.add_argument("what", choices=["status", "remove", "close", "add-cabinet", "clear-cabinet"])
    e.add_argument("target", nargs="?", help="remove: the game id; add-cabinet, clear-cabinet: the cabinet's name")
    e.add_argument("--event", default=None, dest="event_name",
                   help="add-cabinet: the event the cabinet's login may write under, and its lines say "
                        "(default: the configuration's)")
    e.add_argument("--cabinet", default=None,
                   help="remove: whose game (when two cabinets' games have the id)")
    e.add_argument("--passwd", default="/etc/mosquitto/focus-arcade/passwd",
                   help="add-cabinet: the hall broker's password file")
    e.add_argument("--acl", default="/etc/mosquitto/focus-arcade/acl",
                   help="add-cabinet: the hall broker's ACL file")
    e.add_argument("--host", default=None, dest="broker_host",
                   help="add-cabinet: the broker's name or address as the cabinets reach it (default: this "
                        "machine's [event] host unless it is localhost, else this machine's name)")
    e.add_argument("--broker-pid-file", default="/run/mosquitto/mosquitto.pid",
                   help="remove, close: the pid file of the broker on this machine, asked to save at once")
    e.add_argument("--broker-store", default="/var/lib/mosquitto/mosquitto.db",
                   help="remove, close: that broker's persistence file")
    e.add_argument("--replace", action="store_true",
                   help="add-cabinet: give a cabinet that has a login already a new password")
    e.add_argument("--wait", type=float, default=15.0, help="seconds to wait at most for the broker (default 15)")

    w = sub.add_parser("leaderboard-web", parents=[common], help="serve the event's leaderboard as a live, read-only web page")
    w.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for the hall's Wi-Fi)")
    w.add_argument("--port", type=int, default=8080, help="TCP port (default 8080)")
    return p


def _check_config(path_arg: str | None, config: str | None = None, accept: bool = False,
                  force: bool = False) -> int:
    """Every problem of the file (not only the first), every setting the arcade would take from
    the last good copy instead (issue 23: missing, unreadable, a bad value, the whole file
    gone), then the LED frame rate it gives.  ``accept``: a file without problems becomes the
    last good copy, as it is; one that lacks settings of the copy that make a cabinet (kiosk
    mode, the GPIO stations, the PIN, the store path: :data:`kiosk.config.KIOSK_KEYS`) only
    with ``force``; one that changes those settings from the copy's (held at the copy's until
    then) is the operator's deliberate change and is accepted; a file cut inside its last line
    (no newline at its end) never is.

    The file is ``path_arg``, else ``config`` (``--config``), else the default one; two
    different files named at once are refused (status 2) rather than one ignored."""
    from pathlib import Path

    from kiosk import config as configmod
    if path_arg and config and os.path.abspath(path_arg) != os.path.abspath(config):
        print(f"focus-arcade: check-config {path_arg} --config {config}: two files named; give one",
              file=sys.stderr)
        return 2
    path = path_arg or config or configmod.default_path()
    if path is None:
        print("defaults: OK (no configuration file: ~/.config/focus-arcade/arcade.toml or $FOCUS_ARCADE_CONFIG)")
        print(configmod.Config(configmod.defaults()).language_line())
        return 0
    cfg, _ = configmod.load_over_last_good(Path(path))     # as the arcade would run (the copy not touched)

    def done(status: int) -> int:
        print(cfg.language_line())                         # issue 26: the screens' language, and where from
        return status

    copy_at = configmod.last_good_path()
    restored = set(cfg.restored)
    from_copy = (f"the last good copy's values ({copy_at}) for {len(cfg.restored)} setting(s): "
                 f"{', '.join(cfg.restored)}")
    try:
        raw = configmod._read(path, whole=True)         # a last line cut short is not read (issue 23)
    except configmod.ConfigError as exc:
        for line in cfg.problems or [str(exc)]:
            print(f"focus-arcade: {line}", file=sys.stderr)
        what = "the defaults" if cfg.source == "defaults" else configmod.running_with(cfg)
        print(f"focus-arcade: {path} does not read as a whole; the kiosk would run with {what}", file=sys.stderr)
        if accept:
            print(f"focus-arcade: {path} not accepted as the last good copy", file=sys.stderr)
        return done(2)
    try:
        cut = configmod.whole_lines(Path(path).read_bytes())[1] != b""
    except OSError:
        cut = False
    data, problems = configmod.check_all(raw, str(path))
    own = [p for p in problems if configmod._problem_key(p) not in restored]
    for line in cfg.notes:                               # a last line cut short, settings held at the copy's
        print(f"focus-arcade: {line}", file=sys.stderr)
    for problem in problems:
        note = "" if problem in own else "; the last good copy's value is used"
        print(f"focus-arcade: {problem}{note}", file=sys.stderr)
    if problems or cut:
        runs = [from_copy] if cfg.restored else []
        runs += list(dict.fromkeys(p.effect for p in own if p.effect))
        kept = list(dict.fromkeys(p.key for p in own if not p.effect))
        if kept:
            runs.append(f"the defaults for {', '.join(kept)}")
        print(f"focus-arcade: {len(problems) + cut} problem(s) in {path}; the kiosk would run with "
              f"{', and '.join(runs) or 'the file as it reads and the defaults for the rest'}", file=sys.stderr)
        if accept:
            why = "; it ends inside its last line: finish that line and end it with a newline" if cut else ""
            print(f"focus-arcade: {path} not accepted as the last good copy{why}", file=sys.stderr)
        return done(2)
    if accept:
        good = configmod.read_last_good(path)
        lacking = [k for k in configmod.missing_keys(raw, good) if k in configmod.KIOSK_KEYS]
        if lacking and not force:
            print(f"focus-arcade: {path} lacks {', '.join(lacking)}, which the last good copy ({copy_at}) has: "
                  f"once accepted, the cabinet would run with the defaults for them, a "
                  f"laptop's. Add them to the file, or accept it anyway: "
                  f"focus-arcade check-config --accept --force {path}", file=sys.stderr)
            print(f"focus-arcade: {path} not accepted as the last good copy", file=sys.stderr)
            return done(2)
        configmod.accept_as_last_good(Path(path))
        print(f"{path}: OK, accepted as the last good copy ({copy_at})")
    elif cfg.restored or cfg.held:
        if cfg.restored:
            print(f"focus-arcade: {path} lacks setting(s) of the last good copy; the kiosk would run with "
                  f"{from_copy}. Add them, or keep the file as it is: focus-arcade check-config --accept {path}",
                  file=sys.stderr)
        if cfg.held:
            print(f"focus-arcade: {path} changes {', '.join(cfg.held)} from the last good copy ({copy_at}); the "
                  f"kiosk would run with the copy's until the change is accepted: "
                  f"focus-arcade check-config --accept {path}", file=sys.stderr)
        return done(2)
    else:
        print(f"{path}: OK")
    if "led" in raw:
        print(configmod.led_rate(data["led"])[1])
    return done(0)


def main(argv: list[str] | None = None) -> int:
    """The command.  Its first step installs the stop signals' handling (issue 23: a Ctrl+C,
    SIGTERM or SIGHUP while the modules still load used to print a traceback or kill the
    process with no word): any of them, at any moment, ends it with one line and no traceback
    (:func:`kiosk.service.stopping.install_early`; the running arcade then takes over with
    :class:`kiosk.service.stopping.StopSignals`).  Status: 130 after Ctrl+C, 0 after SIGTERM or SIGHUP
    (a stop, as the running arcade's)."""
    from kiosk.service import stopping
    stopping.install_early()
    try:
        return _main(argv)
    except KeyboardInterrupt as exc:
        return stopping.stopped_early(exc)


def _main(argv: list[str] | None = None) -> int:
    from kiosk import config as configmod
    argv = sys.argv[1:] if argv is None else argv
    if "perft" in argv:
        # ``perft`` (FOCUS's, from its house) takes its own options; global options before it do not apply to it.
        import time

        from arcade import registry
        command = registry.house_command("perft")
        if command is not None:
            return command(argv[argv.index("perft") + 1:], time.perf_counter)
    args = _parser().parse_args(argv)
    if args.command == "headless":
        return _headless(args)
    if args.command == "check-config":
        return _check_config(args.path, args.config, args.accept, args.force)
    if args.command == "doctor":
        from kiosk.service.doctor import doctor_main
        return doctor_main(args.config, probe=not args.no_probe)
    if args.command in ("event", "leaderboard-web"):
        return _event_command(args)
    path = args.config or configmod.default_path()
    cfg = configmod.load_or_default(path)
    for problem in cfg.problems:
        print(f"focus-arcade: configuration problem: {problem}", file=sys.stderr)
    if cfg.problems:
        print(f"focus-arcade: running with {configmod.running_with(cfg)}", file=sys.stderr)
    from kiosk.app.window import run
    return run(cfg, args)


def _event_command(args: argparse.Namespace) -> int:
    """``event status`` and ``leaderboard-web``: both need a valid [event] section (``event
    add-cabinet``, run on the broker's machine, does not)."""
    from kiosk import config as configmod
    if args.command == "event" and args.what == "add-cabinet":
        from kiosk.event import link as ev
        name, configured = args.event_name, {}
        try:                                    # the configuration's event and host, if this machine has one
            cfg = configmod.load(args.config or configmod.default_path())
            if cfg.event_on():
                configured = {"host": str(cfg["event"].get("host") or "")}
                if name is None:
                    name = str(cfg["event"].get("event") or "") or None
        except Exception:
            pass
        return ev.operator_main(args.what, args.target, configured, args.wait, args.passwd, args.replace, event=name,
                                acl_file=args.acl, host=args.broker_host)
    path = args.config or configmod.default_path()
    try:
        cfg = configmod.load(path)
    except configmod.ConfigError as exc:
        print(f"focus-arcade: {exc}", file=sys.stderr)
        return 2
    if not cfg.event_on():
        print(f"focus-arcade: no event: set [event] host (and event, username...) in {path or 'a --config file'}",
              file=sys.stderr)
        return 2
    import logging
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    from kiosk.event import link as event
    if args.command == "event" and args.what != "status":
        return event.operator_main(args.what, args.target, cfg["event"], args.wait, args.passwd,
                                   cabinet=args.cabinet, host=args.broker_host,
                                   broker_pid_file=args.broker_pid_file, broker_store=args.broker_store)
    if args.command == "event":
        board, problem = event.watch(cfg["event"], seconds=args.wait)
        print(f"event {cfg['event']['event']!r} on {cfg['event']['host']}:{cfg['event']['port']}")
        if problem:
            print(f"focus-arcade: {problem}", file=sys.stderr)
            if not board.statuses:
                return 1
        # What was read is shown even when some cabinet's games were not all handed over in time.
        print(event.format_status(board))
        return 1 if problem else 0
    from kiosk.event.web import LeaderboardWeb
    if not 0 <= args.port <= 65535:
        print(f"focus-arcade: --port {args.port}: expected 0 to 65535", file=sys.stderr)
        return 2
    try:
        web = LeaderboardWeb(cfg["event"], host=args.host, port=args.port)
    except OSError as exc:
        print(f"focus-arcade: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    import signal
    import time

    def _terminate(*_: object) -> None:
        raise KeyboardInterrupt

    web.start()
    # before the address is printed: whoever read it may stop the page at once (status 0)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        print(f"leaderboard of event {cfg['event']['event']!r}: http://{args.host}:{web.port}/  (Ctrl+C stops)",
              flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        web.stop()
    return 0


def _headless(args: argparse.Namespace) -> int:
    import dataclasses

    from arcade.core.errors import ArcadeError
    from kiosk import config as configmod
    from kiosk.players import headless
    if args.games < 0:
        print(f"focus-arcade: --games {args.games}: expected a number of games, 0 or more", file=sys.stderr)
        return 2
    from arcade.core.errors import SettingsError
    try:
        spec = headless.spec_of(args)
    except SettingsError as exc:
        print(f"focus-arcade: {exc}", file=sys.stderr)
        return 2
    if args.players is None:
        args.players = spec.default_seats
    if args.players < 1 or args.games < 0:
        print(f"focus-arcade: --players {args.players} / --games {args.games}: expected at least 1 player "
              "and 0 or more games", file=sys.stderr)
        return 2
    skills = args.skill.split(",")
    if len(skills) == 1:
        skills = skills * args.players
    if len(skills) != args.players:
        print(f"focus-arcade: --skill names {len(skills)} levels for {args.players} players", file=sys.stderr)
        return 2
    # Computer players' error rates: [computer] of an explicit --config, then the options.
    rates = dict(configmod.defaults()["computer"])
    if args.config:
        try:
            rates.update(configmod.load(args.config)["computer"])
        except configmod.ConfigError as exc:
            print(f"focus-arcade: {exc}", file=sys.stderr)
            return 2
    given = {"miss_rate_scale": args.miss_rate_scale, "false_rate_scale": args.false_rate_scale}
    for key, value in given.items():
        if value is not None:
            if not 0 <= value <= 10:
                print(f"focus-arcade: --{key.replace('_', '-')} {value}: expected a number from 0 to 10",
                      file=sys.stderr)
                return 2
            rates[key] = value
    miss, false = rates["miss_rate_scale"], rates["false_rate_scale"]
    opts = dataclasses.replace(headless.HeadlessOptions.of(args), skills=skills,
                               miss_rate_scale=float(miss) if isinstance(miss, (int, float)) else None,
                               false_rate_scale=float(false) if isinstance(false, (int, float)) else None)
    try:
        runner = headless.runner(args.game)
        runner(opts, sys.stdout)
    except (ArcadeError, KeyError) as exc:
        print(f"focus-arcade: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
