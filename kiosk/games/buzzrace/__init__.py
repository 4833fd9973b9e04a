"""The Buzz Race screen (the example game, docs/new-game.md): scene.py (input, driving) and draw.py (drawing)."""
