"""The sackson family's kiosk screen: scene.py (input mapping, driving) and draw.py (drawing)."""
