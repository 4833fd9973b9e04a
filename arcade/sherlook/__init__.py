"""Sherlook: spot the differences between two generated crime-scene photos.

Rule sources: seed ``002`` (the rulebook), rulings SL-1..SL-6 and R-1..R-8,
and the arcade's own decisions in ``docs/rules-sherlook.md``.
"""
