"""No file can stop the start (issue 11): fuzzed configuration files and stores.

Hypothesis feeds random and mutated bytes to the configuration loader and to
the results store (the SQLite file, its write-ahead log, single cells) and the
kiosk is started each time (SDL dummy driver, title screen, a few frames).
What the party host notices: the arcade always comes up; a bad file is a
message, never a black screen.  The number of examples is bounded (fast).
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcade.core.record import to_record
from arcade.focusx.autoplay import SimConfig, first_legal, simulate
from arcade.focusx.classic import ClassicGame
from kiosk import config
from kiosk.persist.resume import AUTO_RESUME_NS, ResumeScene
from kiosk.persist.storage import Results
from kiosk.scenes.attract import AttractScene
from tests.kiosk_start import config_for, start_kiosk

DEFAULT_TOML = config.DEFAULT_FILE.read_bytes()
FAST = settings(max_examples=30, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def mutate(data: bytes, edits: list[tuple[int, int, int, bytes]]) -> bytes:
    """Apply (kind, position, length, bytes) edits: 0 flip a byte, 1 insert, 2 delete, 3 repeat."""
    buf = bytearray(data)
    for kind, pos, length, insert in edits:
        if not buf:
            buf += insert
            continue
        pos %= len(buf)
        if kind == 0:
            buf[pos] ^= (length % 255) + 1
        elif kind == 1:
            buf[pos:pos] = insert
        elif kind == 2:
            del buf[pos:pos + length]
        else:
            buf[pos:pos] = bytes(buf[pos:pos + length]) * 3
    return bytes(buf)


EDITS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1 << 20), st.integers(0, 64),
                           st.binary(max_size=24)), min_size=1, max_size=8)

NASTY_TOML = st.sampled_from([
    b"[led]\nport = " + b"[" * 3000 + b"]" * 3000 + b"\n",
    b"[seats]\nstations = " + b"{a = " * 2000 + b"\n",
    b"[display]\nfps = " + b"9" * 6000 + b"\n",
    b"[display]\nwidth = 1e999\nheight = nan\nfps = inf\n",
    b"[judge]\ntie_window_ms = 1979-05-27T07:32:00Z\n",
    b"[storage]\npath = \"\x00\"\n",
    b"\xff\xfe[\x00d\x00i\x00s\x00p\x00l\x00a\x00y\x00]\x00",
    b"\xef\xbb\xbf[display]\nfps = 30\n",
    b"# " + b"x" * 400_000 + b"\n",
    b"[gpio]\nbuzzers = [17, 17]\ncontrols = [[17, 0, 0, 0]]\n[seats]\nstations = [\"gpio\"]\n",
    b"[[seats]]\n[[seats]]\n",
    b"display = 5\nseats = []\n[led]\nusb_id = \"zz:zz\"\nbrightness = -1\n",
])

TOML_INPUTS = st.one_of(
    st.binary(max_size=2000),
    st.text(max_size=500).map(lambda t: t.encode("utf-8", "surrogatepass")),
    EDITS.map(lambda e: mutate(DEFAULT_TOML, e)),
    st.tuples(NASTY_TOML, EDITS).map(lambda x: mutate(x[0], x[1][:2])),
    NASTY_TOML,
)


def assert_started(app: object) -> None:
    assert isinstance(app.scenes[-1], AttractScene)          # type: ignore[attr-defined]
    assert app.results is not None                             # type: ignore[attr-defined]


@FAST
@given(TOML_INPUTS)
def test_any_configuration_file_lets_the_kiosk_start(data: bytes) -> None:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-config-"))
    try:
        path = folder / "arcade.toml"
        path.write_bytes(data)
        cfg = config.load_or_default(path)           # never raises
        assert all(isinstance(p, str) and len(p) < 2000 for p in cfg.problems)
        if cfg.problems:
            # Every problem names a key (or the file) and what was expected.
            assert all("expected" in p for p in cfg.problems)
        config.check_all(cfg.data)                    # what the kiosk runs on is valid
        store = folder / "arcade.sqlite3"
        cfg = config_for(path, store)
        app = start_kiosk(cfg)
        try:
            assert_started(app)
            shown = " ".join(m for m, _ in app.messages)
            for problem in cfg.problems:
                assert problem[:100] in shown
        finally:
            app.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_TEMPLATE: dict[str, bytes] = {}


def template_store() -> dict[str, bytes]:
    """A store of four games as a power cut leaves it (main file, -wal, -shm)."""
    if not _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="fuzz-template-"))
        r = Results(folder / "arcade.sqlite3")
        for seed in range(4):
            state = ClassicGame(3).new_initial_state()
            simulate(state, random.Random(seed), SimConfig(skills=["hard"] * 3), first_legal)
            out = state.outcome()
            r.save(to_record(state, seed), out.winners, out.reason, out.scores)
        r.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        state = ClassicGame(2).new_initial_state()
        simulate(state, random.Random(9), SimConfig(skills=["hard"] * 2), first_legal)
        out = state.outcome()
        r.save(to_record(state, 9), out.winners, out.reason, out.scores)        # lives in the -wal
        # ... and a game in progress in the resume slot (offered at start).
        from kiosk.scenes.lobby import find_game
        game = find_game("focusx", None)
        r.save_resume("fuzz-game", {"family": game.family, "mode": game.mode, "title": game.label, "seed": 3,
                                    "seats": [{"station": "computer", "label": f"c{i}", "skill": "hard",
                                               "can_choose": False} for i in range(3)],
                                    "actions": [], "steps": 0, "digest": ""})
        for extra in ("", "-wal", "-shm"):
            p = folder / f"arcade.sqlite3{extra}"
            if p.exists():
                _TEMPLATE[extra] = p.read_bytes()
        r.close()
        shutil.rmtree(folder, ignore_errors=True)
    return _TEMPLATE


COLUMNS = ["finished_at", "game", "seats", "winners", "reason", "scores", "record", "id",
           "resume.data", "resume.game_key", "resume.saved_at"]
CELL_VALUES = st.one_of(st.binary(max_size=40), st.text(max_size=40), st.integers(), st.floats(),
                        st.none(), st.sampled_from(["[0, ", "[99]", "{}", "[]", "NaN", "\"x\"", "[1e999]"]))

STORE_DAMAGE = st.one_of(
    st.tuples(st.just("file"), st.sampled_from(["", "-wal", "-shm"]), EDITS),
    st.tuples(st.just("cell"), st.sampled_from(COLUMNS), st.lists(st.tuples(st.integers(1, 5), CELL_VALUES),
                                                                   min_size=1, max_size=4)),
    st.tuples(st.just("truncate"), st.sampled_from(["", "-wal"]), st.floats(0, 1)),
    st.tuples(st.just("random"), st.sampled_from(["", "-wal", "-shm"]), st.binary(max_size=5000)),
)


def damage_store(folder: Path, damage: tuple[object, ...]) -> Path:
    path = folder / "arcade.sqlite3"
    files = dict(template_store())
    kind = damage[0]
    if kind == "cell":
        for extra, data in files.items():
            Path(f"{path}{extra}").write_bytes(data)
        db = sqlite3.connect(path)
        db.execute("PRAGMA ignore_check_constraints = 1")
        column = str(damage[1])
        for row, value in damage[2]:                  # type: ignore[union-attr]
            if column == "resume.data" and isinstance(value, str) and row % 2:
                # plausible JSON with wrong parts: the rebuild must fail softly
                value = '{"family": "focusx", "mode": "classic", "seed": 1, "seats": [{"x": 1}], "actions": ' \
                        + value + "}"
            try:
                if column.startswith("resume."):
                    db.execute(f"UPDATE resume SET {column.split('.')[1]} = ?", (value,))
                else:
                    db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, row))
            except (sqlite3.Error, OverflowError):
                pass
        db.commit()
        db.close()
        return path
    extra = damage[1]
    if kind == "file":
        files[extra] = mutate(files.get(extra, b""), damage[2])              # type: ignore[arg-type]
    elif kind == "truncate":
        data = files.get(extra, b"")
        files[extra] = data[: int(len(data) * damage[2])]                     # type: ignore[operator]
    else:
        files[extra] = damage[2]                                              # type: ignore[assignment]
    for e, data in files.items():
        Path(f"{path}{e}").write_bytes(data)
    return path


@FAST
@given(STORE_DAMAGE)
def test_any_damage_to_the_store_lets_the_kiosk_start(damage: tuple[object, ...]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-store-"))
    try:
        path = damage_store(folder, damage)
        app = start_kiosk(config_for(None, path))
        try:
            assert_started(app)
            # The interrupted game (if it can be read) is offered, and resuming it never raises.
            app.resume_offer.offer()
            top = app.scenes[-1]
            if isinstance(top, ResumeScene):
                top.update(1)
                top.update(1 + AUTO_RESUME_NS)
                for _ in range(2):
                    app.step(time.monotonic_ns())
            results = app.results
            assert results is not None
            for game in results.recent(50):        # everything listed was read back whole
                assert isinstance(game["winners"], list) and game["seats"] >= 1
                results.record(game["id"])
            if results.path != ":memory:":
                assert results.db.execute("PRAGMA quick_check").fetchone() == ("ok",)
            if results.notices:
                shown = " ".join(m for m, _ in app.messages)
                assert results.notices[0][:80] in shown
        finally:
            app.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
