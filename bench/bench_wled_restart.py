"""How long a panel stays dark after WLED restarts mid-game with ``wled_baud`` set (prints figures).

Issue 25: a WLED that restarts (a brown-out from LED current) listens at 115200 again while
the link sends at the fast rate; on a real wire WLED reads those bytes as other bytes, and
the baud commands among them move it to any of its rates.  Each trial: the link runs WLED at
921600 on a pty (:class:`~firmware_bridge.virtual.VirtualMatrix`, ``wrong_baud="garble"``:
the byte-level WLED model behind the bit-level wire model), WLED is restarted, and a new
random picture is shown every 33 ms (the kiosk's 30 frames/s) until the panel shows a new
one at 921600.  Printed per trial and in
sum: seconds from the restart until WLED shows the game again at 921600 with the link
knowing it (wall time on this machine; the link's own waits dominate, not the CPU), the
rates the link went through, and the commands WLED ran from garbage meanwhile.

    .venv/bin/python bench/bench_wled_restart.py [--trials 10] [--third-rate] [--size 16]

``--third-rate``: after each restart WLED is also moved to a random third rate, as garbage
holding a baud command does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from firmware_bridge.layout import MatrixLayout
from firmware_bridge.link import LedLink
from firmware_bridge.virtual import VirtualMatrix
from firmware_bridge.wled import BAUD_COMMANDS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--third-rate", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=16, help="panel side in LEDs (default 16: 16x16)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    leds = args.size * args.size
    wled = VirtualMatrix(args.size, args.size, firmware="wled", wrong_baud="garble")
    # The kiosk's own link settings (keepalive 1 s, a question every 2 s).
    link = LedLink(wled.port, 115200, wled_baud=921600, layout=MatrixLayout(args.size, args.size))
    model = wled.wled
    assert model is not None
    times: list[float] = []
    try:
        link.show([(1, 2, 3)] * leds)
        deadline = time.monotonic() + 20
        while not (model.baud == 921600 and link.status().answers) and time.monotonic() < deadline:
            time.sleep(0.01)
        for trial in range(args.trials):
            time.sleep(0.5)
            before = len(model.events)
            wled.reboot()
            if args.third_rate:
                model.feed(bytes([BAUD_COMMANDS[rng.choice([r for r in BAUD_COMMANDS if r not in (115200, 921600)])]]))
                model.replies.clear()
            start = time.monotonic()
            last_fast = wled.latest_chain or ()
            rates: list[int] = []
            lost = False
            while time.monotonic() - start < 60:
                # A game's pictures: every byte value occurs (what WLED mishears varies with them).
                picture = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(leds)]
                link.show(picture)
                status = link.status()
                if not rates or rates[-1] != status.baudrate:
                    rates.append(status.baudrate)
                if status.answers is False:
                    lost = True
                shown = wled.latest_chain
                if (model.baud == 921600 and status.baudrate == 921600 and status.answers and shown is not None
                        and (lost or not rates[1:])
                        and any(sum(abs(a - b) for a, b in zip(p, q)) > 12 for p, q in zip(shown, last_fast))):
                    break
                time.sleep(1 / 30)
            took = time.monotonic() - start
            times.append(took)
            garbage = [e.kind if e.kind != "baud" else f"baud {e.value}" for e in model.events[before:]
                       if e.kind != "version" and not (e.kind == "baud" and e.value == 921600)]
            print(f"trial {trial + 1}: dark for {took:.2f} s, the link at {' -> '.join(map(str, rates))} baud, "
                  f"WLED ran from garbage: {', '.join(f'{k} x{n}' for k, n in Counter(garbage).items()) or 'nothing'}")
    finally:
        link.close()
        wled.close()
    print(f"{len(times)} restarts: dark median {statistics.median(times):.2f} s, worst {max(times):.2f} s")


if __name__ == "__main__":
    main()
