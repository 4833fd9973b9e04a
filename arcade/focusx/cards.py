"""The FocusX deck and focus detection (FX-1, FX-2, FX-3).

A card is an integer 0..63: ``category * 16 + (quantity - 1) * 4 + colour``.
Each of the 4 categories x 4 quantities x 4 colours occurs exactly once (FX-1).
Colours carry a second cue, a shape, so colour-blind players can play.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

from arcade.core.race import FOCUS, FOCUS_EX

CATEGORIES = ("fantastic", "aquatic", "terrestrial", "aerial")
COLOURS = ("red", "blue", "green", "yellow")
#: FX-1: the second cue of each colour, in the order of COLOURS.
COLOUR_SHAPES = ("triangle", "circle", "square", "diamond")
FANTASTIC = 0
DECK_SIZE = 64
ATTRIBUTES = ("quantity", "category", "colour")


@dataclass(frozen=True)
class Card:
    """A card's three attributes, decoded from its number."""

    number: int
    category: int
    quantity: int
    colour: int

    @property
    def category_name(self) -> str:
        return CATEGORIES[self.category]

    @property
    def colour_name(self) -> str:
        return COLOURS[self.colour]

    @property
    def shape(self) -> str:
        return COLOUR_SHAPES[self.colour]

    def label(self) -> str:
        """Short text such as ``"3 blue aerial"``."""
        return f"{self.quantity} {self.colour_name} {self.category_name}"


def card(number: int) -> Card:
    """Decode a card number 0..63.

    Raises:
        ValueError: the number is not a card of the deck.
    """
    if not isinstance(number, int) or not 0 <= number < DECK_SIZE:
        raise ValueError(f"card {number!r}: expected a card number from 0 to 63")
    return Card(number, number // 16, (number // 4) % 4 + 1, number % 4)


def make_card(category: int, quantity: int, colour: int) -> int:
    """The number of the card with these attributes (quantity 1..4)."""
    return category * 16 + (quantity - 1) * 4 + colour


def attributes(number: int) -> tuple[int, int, int]:
    """``(quantity, category, colour)`` of a card number."""
    return ((number // 4) % 4 + 1, number // 16, number % 4)


def full_deck() -> list[int]:
    """The 64 card numbers in order (FX-1)."""
    return list(range(DECK_SIZE))


def shares_attribute(a: int, b: int) -> bool:
    """True when two cards share a quantity, category or colour."""
    return any(x == y for x, y in zip(attributes(a), attributes(b)))


def shared_attributes(cards: Sequence[int]) -> tuple[str, ...]:
    """Names of the attributes on which all ``cards`` agree."""
    attrs = [attributes(c) for c in cards]
    return tuple(name for i, name in enumerate(ATTRIBUTES) if len({a[i] for a in attrs}) == 1)


def is_focus(trio: Sequence[int]) -> bool:
    """FX-2: three cards sharing the same value of at least one attribute."""
    return bool(shared_attributes(trio))


def is_focus_ex(trio: Sequence[int]) -> bool:
    """FX-3: one fantastic card plus two cards of one other category, and not a plain focus."""
    if is_focus(trio):
        return False
    cats = sorted(c // 16 for c in trio)
    return cats.count(FANTASTIC) == 1 and cats[1] == cats[2] != FANTASTIC


def claim_kind(trio: Sequence[int], x_rule: bool) -> str | None:
    """The claim that takes ``trio``: "focus", "focus-ex" (only with the rule), or None."""
    if is_focus(trio):
        return FOCUS
    if x_rule and is_focus_ex(trio):
        return FOCUS_EX
    return None


def find_trios(cards: Sequence[int | None], x_rule: bool) -> list[tuple[tuple[int, int, int], str]]:
    """Every trio of positions whose cards form a focus or FocusX.

    ``cards`` is indexed by position (None = empty).  Returns ``((i, j, k), kind)``
    in lexicographic order of positions.
    """
    out = []
    filled = [i for i, c in enumerate(cards) if c is not None]
    for trio in combinations(filled, 3):
        kind = claim_kind([cards[i] for i in trio], x_rule)  # type: ignore[misc]
        if kind is not None:
            out.append((trio, kind))
    return out


def kinds_present(trios: Iterable[tuple[tuple[int, ...], str]]) -> frozenset[str]:
    """The claim kinds that are right for these trios (FX-3: either is right if both exist)."""
    return frozenset(kind for _, kind in trios)
