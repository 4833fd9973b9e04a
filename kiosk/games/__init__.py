"""Per-family kiosk screens: kiosk/games/<family>/scene.py and draw.py (see docs/architecture.md)."""
