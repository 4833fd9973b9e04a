"""A cabinet in its own process for tests/test_event.py (the one killed with -9).

    python tests/event_cabinet.py STORE PORT EVENT CABINET

Finishes a game every 5 ms, forever, and prints ``saved N sent M`` after each
(M = games the broker has acknowledged so far).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mqtt_broker import password_of  # noqa: E402

from kiosk.event.link import EventLink  # noqa: E402
from kiosk.persist.storage import Results  # noqa: E402


def main() -> None:
    store_path, port, event, name = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    settings = {"host": "127.0.0.1", "port": port, "tls": False, "ca_file": "", "username": name,
                "password": password_of(name), "password_file": "", "event": event, "cabinet": name}
    store = Results(store_path)
    link = EventLink(settings, store.path, cabinet=name)
    store.outbox_hook, store.outbox_committed = link.outbox_hook, link.committed
    link.start()
    n = 0
    while True:
        n += 1
        store.save({"game": "sherlook", "seats": 3, "settings": {}}, (n % 3,), "test",
                   tuple(float((n + s) % 7) for s in range(3)))
        print(f"saved {n} sent {link.sent}", flush=True)
        time.sleep(0.005)  # the cabinet's pace (a game every 5 ms), not a wait: the test kills it mid-stream


if __name__ == "__main__":
    main()
