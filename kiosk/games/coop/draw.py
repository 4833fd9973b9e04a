"""The exhibit pictures of Focus (2023), drawn by the arcade itself (ruling CO-1).

Every one of the 168 faces has a small drawing made of bold shapes with dark
outlines on a parchment card, with its name in large letters underneath and
its face number bottom-right (as on the cards), so it reads on a TV from three
metres.  The drawings are the arcade's own simple pictures of Victorian objects,
people and places; nothing is copied from published card art.

A drawing is a string of operations in a 100 x 100 box, separated by ``;``:

=====================================  ==========================================
``c COL x y r``                        filled circle
``o COL x y r w``                      ring of width w
``r COL x y w h``                      filled rectangle (top-left x, y)
``R COL x y w h rad``                  rounded rectangle
``e COL x y w h``                      filled ellipse in that box
``p COL x1 y1 x2 y2 ...``              filled polygon
``l COL w x1 y1 x2 y2 ...``            line through the points, width w
``a COL w x y w h a0 a1``              arc of the ellipse in that box (degrees)
``t COL size x y TEXT [w=W]``          text centred at x, y (``_`` = space), shrunk
                                       to fit W units wide (default: the box)
=====================================  ==========================================

Filled shapes get a dark outline.  ``COL`` is a name of :data:`PALETTE`.
:func:`face_surface` draws a whole card face; :func:`contact_sheet` draws all
168 for checking by eye.
"""

from __future__ import annotations

import pygame

from arcade import i18n
from arcade.coop.exhibits import EXHIBITS, exhibit
from arcade.i18n import _
from kiosk import render

PALETTE: dict[str, tuple[int, int, int]] = {
    "k": (35, 28, 22), "w": (250, 250, 245), "cr": (244, 232, 200), "br": (125, 78, 38),
    "lb": (196, 146, 88), "dk": (70, 70, 78), "g": (135, 135, 140), "lg": (205, 205, 210),
    "r": (205, 40, 40), "dr": (130, 25, 30), "o": (245, 140, 30), "y": (245, 205, 40),
    "gd": (225, 170, 30), "gr": (70, 160, 60), "dg": (35, 95, 45), "b": (45, 100, 205),
    "lbl": (140, 195, 245), "nv": (30, 40, 95), "p": (125, 60, 160), "pk": (240, 160, 185),
    "s": (238, 192, 150), "sv": (190, 196, 208), "bl": (22, 22, 26), "tan": (222, 190, 140),
    "sea": (40, 120, 170), "gl": (120, 255, 140), "cy": (80, 210, 220),
}
CARD_BG = (246, 238, 214)
CLUE_NAME_MIN = 24          # px: a clue-file name never gets smaller (three metres)
CARD_EDGE = (92, 62, 30)
INK = (35, 28, 22)


# -- reusable parts (strings of operations) ---------------------------------------
def _dog(col: str = "lb", x: float = 0, extra: str = "") -> str:
    return (f"e {col} {22+x} 45 50 26; c {col} {72+x} 40 15; p {col} {80+x} 30 {92+x} 42 {84+x} 48; "
            f"p br {64+x} 26 {70+x} 40 {60+x} 38; r {col} {28+x} 64 7 20; r {col} {56+x} 64 7 20; "
            f"l {col} 5 {24+x} 52 {10+x} 36; c bl {76+x} 37 2.5; c bl {90+x} 44 2.5{extra}")


def _bust(coat: str = "nv", skin: str = "s", extra: str = "") -> str:
    return f"p {coat} 18 100 24 72 40 64 60 64 76 72 82 100; c {skin} 50 46 18{extra}"


def _paper(x: float = 22, y: float = 12, w: float = 56, h: float = 76, col: str = "w") -> str:
    return f"r {col} {x} {y} {w} {h}"


def _lines(x: float, y: float, w: float, n: int, gap: float = 9, col: str = "g") -> str:
    return "; ".join(f"l {col} 3 {x} {y + i * gap} {x + w} {y + i * gap}" for i in range(n))


def _house(wall: str = "lb", roof: str = "dr", x: float = 15, w: float = 70) -> str:
    return (f"r {wall} {x} 45 {w} 45; p {roof} {x-6} 47 50 12 {x+w+6} 47; r br 44 66 12 24; "
            f"r lbl {x+8} 55 12 12; r lbl {x+w-20} 55 12 12")


def _bottle(col: str, label: str = "w") -> str:
    return f"R {col} 32 40 36 52 8; r {col} 43 14 14 28; r br 42 8 16 8; r {label} 36 58 28 18"


def _hat_brim(col: str, crown: str) -> str:
    return f"e {col} 10 70 80 16; {crown}"


def _boat(hull: str = "br", sail: str = "w") -> str:
    return (f"p sea 0 84 100 84 100 100 0 100; p {hull} 14 70 86 70 74 86 26 86; l k 3 50 70 50 14; "
            f"p {sail} 52 16 52 64 84 64; p {sail} 48 22 48 64 22 64")


def _tree(trunk: str = "br", crown: str = "gr") -> str:
    return f"r {trunk} 44 56 12 36; c {crown} 50 38 26; c {crown} 32 50 16; c {crown} 68 50 16"


def _book(col: str, band: str = "gd") -> str:
    return f"R {col} 22 14 56 74 4; r {band} 22 26 56 5; r {band} 22 70 56 5; r cr 74 16 5 70"


DRAWINGS: dict[str, str] = {
    # -- A Study in Scarlet ----------------------------------------------------------
    "wedding_ring": "o gd 50 58 26 10; p lbl 50 14 62 26 50 38 38 26",
    "rache_on_the_wall": ("r tan 4 14 92 72; l lb 2 4 34 96 34; l lb 2 4 54 96 54; l lb 2 30 14 30 34; "
                          "l lb 2 66 34 66 54; l lb 2 40 54 40 86; t r 34 50 70 RACHE w=86"),
    "box_of_pills": "R lb 14 44 72 40 4; R tan 10 34 80 14 4; e w 26 56 22 16; e w 54 56 22 16; t r 14 50 41 PILLS w=40",
    "sick_terrier": _dog("w", extra="; c lb 30 52 7; l dk 3 72 48 80 50"),
    "hansom_cab": ("c bl 40 74 20; c lg 40 74 12; p bl 22 60 58 60 58 24 30 24; r lbl 30 30 20 14; "
                   "l bl 4 58 58 92 52; l bl 4 60 28 72 18; r bl 66 14 10 6"),
    "street_urchin": _bust("br", extra="; p dk 30 36 70 36 66 24 34 24; e dk 26 32 48 8; c bl 44 46 2; c bl 56 46 2"),
    "magnifying_glass": "l br 10 62 62 88 88; o k 40 40 28 8; c lbl 40 40 24",
    "tape_measure": "c y 40 50 30; c lb 40 50 10; p y 62 66 96 66 96 80 62 80; l k 2 70 66 70 72; l k 2 78 66 78 74; l k 2 86 66 86 72",
    "covered_wagon": ("p w 14 62 86 62 78 22 22 22; l lb 2 34 22 30 62; l lb 2 50 22 50 62; l lb 2 66 22 70 62; "
                      "r br 10 60 80 12; c br 26 80 12; c lb 26 80 5; c br 74 80 12; c lb 74 80 5"),
    "alkali_desert": "r y 0 0 100 40; c o 78 20 12; p tan 0 60 30 40 60 55 100 38 100 100 0 100; l br 3 30 80 50 80; c w 22 74 4",
    "hunting_rifle": "p br 8 58 36 52 40 64 12 72; r dk 36 50 58 8; r dk 74 46 4 6; l k 3 46 60 50 70",
    "army_medal": "p r 38 8 62 8 58 40 42 40; c gd 50 58 22; p y 50 42 56 54 68 56 58 64 62 76 50 68 38 76 42 64 32 56 44 54",
    "test_tube": "p w 36 8 50 8 50 76 43 84 36 76; p r 37 44 49 44 49 76 43 82 37 76; l sv 6 60 20 82 92; p lbl 62 22 80 22 76 40 66 40",
    "newspaper_advert": _paper(14, 10, 72, 80) + "; r k 20 16 60 10; " + _lines(20, 36, 26, 5) + "; R y 52 34 30 32 2; t k 12 67 45 FOUND w=26; o gd 67 58 5 2",
    "telegram": _paper(14, 22, 72, 56, "tan") + "; r o 14 22 72 12; t k 12 50 28 TELEGRAM w=64; " + _lines(22, 46, 56, 3, 10, "dk"),
    "candle_stub": "e sv 18 76 64 16; r w 38 46 24 36; l k 2 50 46 50 40; p o 50 16 58 32 50 42 42 32; p y 50 26 54 34 50 40 46 34",
    "empty_house": _house("g", "dk") + "; r bl 23 55 12 12; r bl 65 55 12 12; r bl 44 66 12 24",
    "violin": "e br 28 50 44 42; e br 32 24 36 34; r bl 46 2 8 30; r bl 44 56 12 26; a k 3 38 40 8 16 90 270; a k 3 54 40 8 16 270 450; l lb 3 6 90 94 20",
    "horseshoe": "a dk 14 20 16 60 70 -30 210; c lg 24 78 3; c lg 76 78 3; c lg 18 52 3; c lg 82 52 3",
    "handcuffs": "o sv 26 68 17 7; o sv 74 32 17 7; R dk 14 42 22 14 3; R dk 66 50 22 14 3; c k 25 49 2; c k 77 57 2; o dk 41 53 5 3; o dk 50 50 5 3; o dk 59 47 5 3",
    # -- The Sign of the Four ------------------------------------------------------
    "treasure_chest": "R br 12 44 76 44 4; p br 12 46 12 30 50 16 88 30 88 46; r dk 12 44 76 6; r gd 44 40 12 16; c gd 30 38 4; c y 68 36 4",
    "pearl": "p lbl 10 70 50 90 90 70 50 58; c w 50 46 22; c lg 44 40 5",
    "poisoned_thorn": "r br 4 44 14 22; p br 16 36 92 52 16 68; p lb 16 44 70 51 16 56; l gl 4 88 56 88 66; c gl 88 72 5; c gl 80 84 3",
    "blowpipe": "l br 8 8 86 92 20; l lb 3 8 80 92 14; p k 88 14 96 10 94 18; r dg 20 76 10 10",
    "wooden_leg": "p bl 38 6 62 6 60 46 40 46; r lb 42 46 16 12; p lb 44 58 56 58 54 92 46 92; r dk 40 90 20 6",
    "steam_launch": "p sea 0 80 100 80 100 100 0 100; p dk 6 64 92 64 82 82 14 82; r w 28 44 34 20; r bl 66 30 10 34; c lg 72 18 8; c lg 82 10 6",
    "river_thames": "r lbl 0 0 100 50; r sea 0 50 100 50; l w 3 6 66 30 66; l w 3 56 78 86 78; r dk 62 24 30 26; p dk 60 24 77 10 94 24; r dk 10 30 18 20",
    "tracker_dog": _dog("tan", extra="; p br 34 46 50 46 46 60; l k 3 88 48 98 52"),
    "creosote_barrel": "e br 22 10 56 16; r br 22 18 56 64; e br 22 74 56 16; l dk 4 22 34 78 34; l dk 4 22 66 78 66; e bl 26 12 48 10; t w 16 50 50 TAR w=36",
    "map_of_the_four": _paper(10, 14, 80, 72, "tan") + "; l r 5 30 36 40 46; l r 5 40 36 30 46; l r 5 60 36 70 46; l r 5 70 36 60 46; l r 5 30 60 40 70; l r 5 40 60 30 70; l r 5 60 60 70 70; l r 5 70 60 60 70",
    "pocket_watch": "l gd 4 50 6 60 2; o gd 50 12 6 3; c gd 50 54 34; c w 50 54 27; l k 4 50 54 50 34; l k 4 50 54 64 60; t k 12 50 32 XII",
    "mysterious_letter": "r w 10 26 80 52; p tan 10 26 50 56 90 26; c dr 50 56 9; t w 10 50 56 ?",
    "lyceum_theatre": "p lg 6 30 50 8 94 30; r lg 10 30 80 8; r w 16 38 8 44; r w 34 38 8 44; r w 58 38 8 44; r w 76 38 8 44; r lg 6 82 88 10",
    "coil_of_rope": "o lb 50 56 34 8; o lb 50 56 22 8; o lb 50 56 10 6; l lb 7 84 56 96 20",
    "bare_footprint": "e br 32 34 34 56; c br 36 22 6; c br 46 17 5; c br 55 16 5; c br 63 19 4; c br 70 24 4",
    "agra_fort": "r dr 8 40 84 50; r dr 8 30 12 12; r dr 30 30 12 12; r dr 58 30 12 12; r dr 80 30 12 12; p dr 36 40 50 14 64 40; r bl 42 66 16 24",
    "palm_island": "r sea 0 70 100 30; e y 16 60 68 22; l br 6 48 70 56 30; p gr 56 30 84 26 90 40; p gr 56 30 30 22 22 36; p dg 56 30 70 12 76 18",
    "bull_s_eye_lantern": "R dk 28 24 44 56 6; c y 50 52 16; c w 50 52 7; l dk 5 40 24 40 10 60 10 60 24; r dk 66 30 10 8",
    "skylight": "p dk 0 70 50 30 100 70 100 100 0 100; p lbl 30 52 58 36 72 50 44 66; l dk 3 51 44 51 58",
    "agra_diamonds": "p cy 22 30 40 30 48 42 31 62 14 42; p w 56 20 76 20 86 34 66 58 46 34; p lbl 50 56 68 56 76 68 59 86 42 68",
    # -- The Five Orange Pips -------------------------------------------------------------
    "five_orange_pips": "e o 12 18 18 28; e o 41 8 18 28; e o 70 18 18 28; e o 24 56 18 28; e o 58 56 18 28",
    "postmarked_envelope": "r w 8 24 84 54; l g 3 8 24 50 54 92 24; r r 70 30 14 16; o k 30 46 13 3; t k 8 30 46 PONDY w=20; a k 2 44 38 12 8 0 180; a k 2 44 44 12 8 180 360; a k 2 56 38 12 8 0 180; a k 2 56 44 12 8 180 360",
    "brass_box": "R gd 14 38 72 46 4; r y 14 30 72 12; r br 44 52 12 14; c k 50 57 3; t br 14 50 36 KKK w=44",
    "sundial": "r lg 36 60 28 32; e lg 14 48 72 20; p dk 50 30 50 58 72 56",
    "three_masted_barque": "p sea 0 82 100 82 100 100 0 100; p br 8 68 92 68 82 84 18 84; l k 3 26 68 26 16; l k 3 50 68 50 8; l k 3 74 68 74 18; r w 16 24 20 36; r w 40 14 20 44; r w 64 26 20 34",
    "equinoctial_gale": "e lg 10 14 50 30; e g 36 8 54 34; l lbl 4 24 56 16 80; l lbl 4 44 56 36 86; l lbl 4 64 56 56 80; l w 5 10 92 40 88 70 94 92 86",
    "dripping_umbrella": "p bl 8 46 50 10 92 46; l bl 5 50 46 50 84; a bl 5 50 76 16 16 180 360; c lbl 20 60 4; c lbl 80 62 4; c lbl 34 80 4",
    "ashes_in_the_grate": "r dk 10 20 80 72; r bl 20 32 60 54; p g 24 86 40 70 56 82 76 74 76 86; p o 40 74 50 54 60 74; p y 46 74 50 62 54 74; r w 58 60 14 10",
    "chalk_pit": "p gr 0 20 100 20 100 100 0 100; p w 18 24 82 24 70 90 30 90; p lg 30 90 70 90 60 60 40 60",
    "waterloo_bridge": "r nv 0 0 100 100; r sea 0 70 100 30; p lg 0 44 100 44 100 56 0 56; a lg 5 8 52 28 40 0 180; a lg 5 36 52 28 40 0 180; a lg 5 64 52 28 40 0 180; c y 80 16 6",
    "police_constable": _bust("nv", extra="; p nv 34 38 38 10 62 10 66 38; c sv 50 24 5; r k 34 36 32 4; c bl 44 48 2; c bl 56 48 2"),
    "torn_diary_page": "p w 16 10 84 10 84 60 76 66 80 74 72 80 76 90 16 90; " + _lines(24, 24, 50, 5, 10, "dk") + "; t r 12 40 78 PIPS w=28",
    "cotton_boll": "l dg 4 50 92 50 56; p br 30 60 50 72 70 60 50 54; c w 38 44 14; c w 62 44 14; c w 50 30 15",
    "brandy_bottle": _bottle("dr", "cr") + "; t dr 12 50 67 XO w=24",
    "padlock": "a sv 8 30 14 40 44 0 180; R gd 20 38 60 50 6; c k 50 58 6; p k 46 60 54 60 56 74 44 74",
    "encyclopaedia": _book("dr") + "; t gd 14 48 50 A-Z w=40",
    "horsham_manor": "r lg 6 40 88 50; p dk 0 42 50 18 100 42; r lbl 14 50 12 14; r lbl 32 50 12 14; r lbl 56 50 12 14; r lbl 74 50 12 14; r br 44 70 12 20; r dk 18 20 6 16; r dk 76 20 6 16",
    "orange": "c o 50 56 34; p gr 50 22 66 10 72 20 56 28; l br 4 50 22 50 14",
    "anchor": "l dk 8 50 16 50 84; o dk 50 12 8 5; l dk 6 30 30 70 30; a dk 8 16 44 68 48 180 360; p dk 12 62 20 62 16 74; p dk 88 62 80 62 84 74",
    "shipping_ledger": "R nv 10 20 80 64 4; r w 14 24 34 56; r w 52 24 34 56; " + _lines(18, 32, 26, 5, 10) + "; " + _lines(56, 32, 26, 5, 10) + "; r w 30 84 40 12; t r 9 50 90 LONE_STAR w=36",
    # -- The Hound of the Baskervilles ---------------------------------------------------
    "spectral_hound": "r nv 0 0 100 100; " + _dog("bl", extra="; c gl 76 37 3; c gl 90 44 3; p gl 66 50 94 54 90 60") + "; l gl 3 10 92 90 92",
    "walking_stick": "l br 8 30 12 68 92; a br 8 12 4 30 26 0 200; r gd 26 34 12 8; t k 10 64 40 C.C.H. w=30",
    "old_black_boot": "p bl 30 10 56 10 58 62 90 70 90 86 24 86; r dk 24 84 66 6; l lg 3 36 20 50 20; l lg 3 36 32 50 32",
    "dartmoor_tor": "r lbl 0 0 100 60; p gr 0 60 100 60 100 100 0 100; p g 26 62 36 30 48 24 58 34 70 62; l dk 3 40 44 56 44; l dk 3 36 54 62 54",
    "grimpen_mire": "r g 0 0 100 44; p br 0 44 100 44 100 100 0 100; e dg 10 56 30 10; e dg 56 70 34 10; c bl 40 80 4; c bl 70 56 3; l gr 3 20 50 22 30",
    "baskerville_hall": "r dk 10 38 80 52; r dk 8 20 20 70; r dk 72 20 20 70; p dk 6 20 18 8 30 20; p dk 70 20 82 8 94 20; r y 14 32 6 10; r y 80 32 6 10; r y 38 50 8 12; r y 56 50 8 12; r br 44 70 12 20",
    "escaped_convict": _bust("w", extra="; l bl 5 24 80 76 80; l bl 5 20 92 80 92; e bl 30 26 40 18; c bl 44 46 2; c bl 56 46 2; l bl 2 40 56 60 56"),
    "candle_at_the_window": "r dk 10 6 80 88; r y 18 14 64 72; l dk 5 50 14 50 86; l dk 5 18 50 82 50; r w 30 60 10 22; p o 35 48 39 58 31 58",
    "butterfly_net": "l br 6 10 92 52 44; o w 66 30 20 4; p w 50 36 78 46 70 74 56 60",
    "butterfly": "p o 50 50 14 18 10 52 50 56; p o 50 50 86 18 90 52 50 56; p y 50 56 20 88 44 84; p y 50 56 80 88 56 84; e bl 46 34 8 46; l bl 2 48 34 42 20; l bl 2 52 34 58 20",
    "family_portrait": "R gd 12 6 76 88 4; r dg 20 14 60 72; " + _bust("dr", extra="; e bl 32 22 36 14; e w 40 66 20 6").replace("p dr 18 100 24 72 40 64 60 64 76 72 82 100", "p dr 22 86 28 70 40 64 60 64 72 70 78 86"),
    "cut_out_letters": _paper(12, 12, 76, 76) + "; r w 18 22 16 16; t k 16 26 30 Y; r y 38 24 16 16; t k 16 46 32 O; r w 58 22 16 16; t k 16 66 30 U; r lbl 24 54 16 16; t k 16 32 62 R; r w 44 52 16 16; t k 16 52 60 L; r pk 64 54 16 16; t k 16 72 62 I",
    "scissors": "o dk 30 74 12 5; o dk 70 74 12 5; p sv 36 64 44 64 62 8 56 8; p sv 64 64 56 64 38 8 44 8; c k 50 44 3",
    "stone_hut": "p g 10 90 14 44 50 20 86 44 90 90; c lg 28 60 6; c lg 48 44 7; c lg 70 62 6; c lg 40 76 6; p bl 42 90 42 66 58 66 58 90",
    "cigar": "R br 10 44 72 16 8; r r 56 44 8 16; r g 82 46 8 12; l lg 3 90 40 94 28 88 18",
    "yew_alley": "r gr 0 80 100 20; p tan 40 100 60 100 54 40 46 40; r dg 4 10 30 74; r dg 66 10 30 74; r lbl 34 10 32 30",
    "old_manuscript": "r tan 18 14 64 72; e lb 12 8 16 16; e lb 72 80 16 16; " + _lines(26, 28, 48, 5, 10, "br") + "; t dr 12 50 22 1742 w=34",
    "full_moon": "r nv 0 0 100 100; c y 50 48 30; c gd 40 40 5; c gd 60 56 6; c w 80 14 2; c w 18 80 2; c w 14 20 2",
    "phosphorus_tin": "R sv 24 30 52 60 6; e sv 24 22 52 16; r gl 28 48 44 22; t k 14 50 59 PHOS w=40",
    "false_beard": "l k 2 24 30 12 10; l k 2 76 30 88 10; c br 26 42 12; c br 74 42 12; c br 24 58 13; c br 76 58 13; c br 32 74 14; c br 68 74 14; c br 50 82 16; c br 40 60 14; c br 60 60 14; c br 50 70 14; e cr 38 42 24 12; e dk 26 32 26 12; e dk 48 32 26 12",
    # -- the other faces --------------------------------------------------------------------
    "smoking_pipe": "p br 12 44 48 48 60 60 36 64 10 52; R br 52 38 22 34 6; e bl 54 34 18 8; l lg 4 64 28 58 16 66 6",
    "sailing_boat": _boat("br", "w"),
    "globe": "r br 44 82 12 10; e br 26 88 48 8; a br 4 14 10 72 72 -60 120; c b 50 46 30; p gr 34 28 52 24 56 40 44 56 30 46; p gr 58 50 72 46 74 62 62 70",
    "deerstalker_hat": _hat_brim("tan", "p tan 16 70 22 40 50 26 78 40 84 70; l br 3 50 26 50 70; l br 3 30 34 30 70; l br 3 70 34 70 70; p tan 16 64 8 82 28 76; p tan 84 64 92 82 72 76"),
    "top_hat": _hat_brim("bl", "r bl 26 20 48 56; r r 26 56 48 8"),
    "monocle": "c s 50 54 44; a br 5 24 16 48 22 20 160; e w 32 42 36 20; c b 50 52 8; c bl 50 52 4; o gd 50 52 22 5; l gd 3 70 64 74 72; c gd 74 76 3; c gd 72 84 3; c gd 68 91 3; c gd 62 96 3",
    "teapot": "e w 22 36 56 46; r w 40 28 20 10; c w 50 24 5; p w 76 56 94 36 90 32 72 48; a w 5 10 44 20 24 90 270; p b 30 54 70 54 70 60 30 60",
    "gas_street_lamp": "r dk 46 40 8 56; r dk 36 90 28 8; p y 34 14 66 14 60 40 40 40; p dk 32 14 50 4 68 14; l dk 3 34 40 66 40",
    "steam_locomotive": "r dk 14 40 56 30; r dk 58 24 28 46; r r 62 30 18 14; r dk 20 22 10 18; c bl 30 78 12; c bl 56 78 12; c bl 78 80 9; c lg 20 12 6; c lg 12 6 5",
    "penny_farthing": "o dk 36 52 32 4; o dk 82 80 10 4; l dk 4 36 52 82 80; l dk 4 36 20 40 8; r bl 34 16 12 6",
    "hot_air_balloon": "c r 50 36 30; p r 22 46 78 46 60 70 40 70; l y 6 50 6 50 66; l y 6 28 28 72 28; R br 40 76 20 16 3; l k 2 42 70 42 76; l k 2 58 70 58 76",
    "clock_tower": "r lb 32 30 36 66; p dk 32 30 50 4 68 30; c w 50 44 12; l k 3 50 44 50 36; l k 3 50 44 56 48; r y 40 62 20 12; r lb 26 90 48 8",
    "telescope": "p br 14 62 80 26 86 40 20 76; r gd 66 28 12 16; l dk 4 40 62 26 94; l dk 4 40 62 56 94; l dk 4 40 62 40 94",
    "microscope": "r dk 24 86 52 8; a dk 8 30 30 40 60 90 270; p sv 40 16 52 12 62 48 50 52; r dk 32 60 40 6; r w 38 54 28 4",
    "quill_and_inkwell": "R bl 18 62 40 30 4; e nv 22 58 32 10; p w 40 60 88 10 92 14 46 62; l lg 2 46 56 88 14",
    "typewriter": "p dk 12 86 88 86 80 50 20 50; r bl 22 34 56 16; r w 30 14 40 24; c lg 24 60 3; c lg 36 60 3; c lg 48 60 3; c lg 60 60 3; c lg 72 60 3; c lg 30 72 3; c lg 42 72 3; c lg 54 72 3; c lg 66 72 3",
    "telephone": "r bl 40 30 10 54; e bl 26 80 38 12; e bl 34 16 22 18; l dk 4 50 44 70 40 74 30; e bl 66 20 16 14",
    "gramophone": "R br 16 66 68 24 3; r dk 30 58 40 8; l gd 5 50 58 50 42; p gd 46 46 20 6 86 6 54 46",
    "bellows_camera": "r dk 52 34 30 36; p bl 52 34 52 70 24 62 24 42; l lg 2 34 40 34 64; l lg 2 42 37 42 67; o lg 18 52 10 4; c bl 18 52 6; l dk 5 60 70 52 96; l dk 5 74 70 82 96",
    "skeleton_key": "o gd 26 50 16 7; l gd 8 42 50 90 50; r gd 74 50 6 16; r gd 84 50 6 12",
    "oil_lamp": "R gd 28 66 44 22 6; r gd 36 60 28 8; e w 34 14 32 48; p o 50 28 56 44 50 50 44 44; e gd 22 86 56 8",
    "chess_knight": "r bl 24 82 52 12; p bl 30 82 34 50 28 40 40 18 56 10 74 26 76 44 62 42 58 56 68 82; c w 56 24 3",
    "playing_cards": "R w 14 20 44 60 4; R w 40 14 44 60 4; t r 30 62 44 A; p r 62 34 54 46 62 58 70 46; t k 22 30 74 K",
    "pair_of_dice": "R w 10 36 40 40 6; R r 52 24 40 40 6; c bl 20 46 4; c bl 30 56 4; c bl 40 66 4; c w 62 34 4; c w 82 34 4; c w 62 54 4; c w 82 54 4",
    "revolver": "p dk 10 34 72 34 72 50 10 50; r bl 46 32 26 24; c lg 56 44 8; p br 60 54 76 50 90 84 70 88; l dk 3 52 56 56 66 64 62",
    "fencing_foil": "l sv 4 14 86 80 20; c k 82 18 4; a gd 5 8 66 28 28 270 90; r dk 10 84 12 10",
    "boxing_gloves": "R r 10 20 38 52 16; r w 14 66 30 20; R r 52 26 38 52 16; r w 56 72 30 20",
    "cricket_bat": "R tan 38 6 24 64 8; r br 44 66 12 28; c r 76 80 10; l w 2 70 76 82 84",
    "spinning_top": "p r 20 36 80 36 50 86; e y 20 28 60 16; r br 46 10 8 22; l b 4 30 46 70 46",
    "rocking_horse": "a br 6 10 66 80 30 200 340; e lb 24 40 48 22; c lb 78 34 12; p lb 70 30 82 18 88 26; l br 4 32 58 24 78; l br 4 60 58 68 78; l dk 5 22 44 10 60",
    "porcelain_doll": "p pk 28 96 34 54 66 54 72 96; c w 50 36 18; e y 28 18 44 20; c b 44 36 3; c b 56 36 3; c r 50 44 2",
    "kite": "p r 50 8 78 40 50 70 22 40; l y 3 50 8 50 70; l y 3 22 40 78 40; l dk 2 50 70 40 82 56 90 46 98; p b 40 80 44 76 46 84; p b 52 88 56 86 56 94",
    "piano": "r bl 10 20 80 50; r w 14 54 72 14; l bl 2 24 54 24 68; l bl 2 34 54 34 68; l bl 2 44 54 44 68; l bl 2 54 54 54 68; l bl 2 64 54 64 68; l bl 2 74 54 74 68; r bl 14 70 6 22; r bl 80 70 6 22",
    "bugle": "p gd 60 36 94 16 94 64 60 48; l gd 8 8 42 60 42; a gd 6 14 42 46 34 180 360; c gd 10 42 5; p dr 30 60 44 60 40 90 34 90",
    "drum": "e w 16 20 68 20; r r 16 30 68 44; e r 16 64 68 20; l y 3 18 34 34 72 50 34 66 72 82 34; l br 4 30 6 44 26; l br 4 70 6 56 26",
    "church_bell": "p gd 22 78 30 30 50 16 70 30 78 78; e gd 14 72 72 14; c br 50 88 6; r br 46 6 8 12",
    "lighthouse": "r sea 0 86 100 14; p w 38 86 62 86 58 26 42 26; r r 40 40 20 10; r r 40 62 20 10; r y 40 14 20 12; p dk 38 14 50 4 62 14; p y 60 16 96 8 96 28",
    "windmill": "p lg 38 92 62 92 58 40 42 40; p br 36 40 50 26 64 40; l dk 6 50 36 20 10; l dk 6 50 36 80 10; l dk 6 50 36 20 62; l dk 6 50 36 80 62; r br 46 76 8 16",
    "castle": "r lg 16 40 68 52; r lg 10 26 18 66; r lg 72 26 18 66; r lg 10 20 6 8; r lg 22 20 6 8; r lg 72 20 6 8; r lg 84 20 6 8; p dk 40 92 40 68 50 60 60 68 60 92; r r 76 6 2 16; p r 78 6 90 10 78 14",
    "village_church": "r w 20 50 56 42; p dr 14 52 48 30 82 52; r w 62 22 18 30; p dk 60 22 71 2 82 22; r br 40 70 12 22; r lbl 26 60 8 14; l k 2 71 4 71 10",
    "thatched_cottage": "r w 14 50 72 40; p y 6 56 26 22 74 22 94 56; r br 44 66 14 24; r lbl 22 62 14 12; r lbl 64 62 14 12; r dr 70 16 8 12",
    "factory_chimney": "r dr 10 56 80 36; p dr 10 56 30 44 30 56 50 44 50 56 70 44 70 56; r dr 74 14 12 44; c g 80 8 8; c lg 88 2 6; r y 18 66 10 10; r y 38 66 10 10",
    "stagecoach": "R r 24 30 52 36 6; r lbl 30 36 16 14; r lbl 52 36 16 14; c bl 30 74 14; c y 30 74 5; c bl 72 74 14; c y 72 74 5; r br 20 24 60 6",
    "rowing_boat": "p sea 0 74 100 74 100 100 0 100; p lb 10 56 90 56 80 76 20 76; l br 4 26 50 6 88; l br 4 74 50 94 88",
    "paddle_steamer": "p sea 0 80 100 80 100 100 0 100; p w 8 62 92 62 84 80 16 80; r dk 30 28 10 34; r dk 52 28 10 34; r r 30 28 10 6; r r 52 28 10 6; c br 50 66 16; c dk 50 66 6",
    "railway_ticket": "R tan 8 30 84 40 6; r w 12 34 76 32; t k 14 50 44 LONDON w=68; t k 12 50 58 3rd_CLASS w=68; c dk 80 50 4",
    "gold_sovereign": "c gd 50 50 38; o y 50 50 32 3; p br 42 30 56 28 64 40 60 56 54 70 42 66 40 50; t br 12 50 84 1887 w=26",
    "banknote": "R w 6 26 88 48 4; o g 26 50 14 3; t k 18 66 40 £5 w=30; " + _lines(50, 56, 32, 2, 8),
    "crown": "p gd 14 74 14 32 32 52 50 24 68 52 86 32 86 74; r dr 14 70 72 14; c r 50 40 5; c w 30 76 4; c w 50 76 4; c w 70 76 4",
    "queen_victoria": _bust("bl", extra="; p w 32 40 50 24 68 40; p gd 36 24 40 14 50 20 60 14 64 24; c k 44 46 2; c k 56 46 2"),
    "police_whistle": "p sv 14 40 70 40 70 56 14 56; c sv 70 58 16; r bl 14 44 6 8; o sv 10 48 6 2; l dk 2 30 40 40 40",
    "carriage_horse": "e br 20 40 54 28; p br 66 44 80 16 92 24 82 54; r br 26 62 7 30; r br 36 62 7 30; r br 58 62 7 30; r br 66 62 7 30; l bl 6 78 20 66 44; p bl 20 44 8 60 18 50",
    "black_cat": "e bl 24 46 44 46; c bl 46 34 16; p bl 32 26 36 10 44 22; p bl 60 26 56 10 48 22; c gl 40 34 3; c gl 52 34 3; l bl 6 66 84 86 70 84 50",
    "parrot": "e gr 30 24 36 56; c gr 54 26 14; p y 62 26 76 32 64 38; c w 52 22 4; c bl 52 22 2; p b 34 70 44 96 56 70; l br 5 16 74 84 74",
    "raven": "e bl 18 34 56 40; c bl 72 30 14; p dk 82 28 98 34 84 38; c w 74 26 3; p bl 18 46 2 40 18 60; l dk 3 40 72 36 90; l dk 3 52 72 56 90",
    "owl": "e br 26 20 48 70; c w 40 40 10; c w 60 40 10; c bl 40 40 4; c bl 60 40 4; p o 46 50 54 50 50 58; p br 28 22 36 6 42 22; p br 72 22 64 6 58 22; l dk 5 10 92 90 92",
    "fish": "e lbl 16 34 60 32; p lbl 70 50 94 30 94 70; c w 30 46 5; c bl 30 46 2; a b 3 36 36 16 28 270 90",
    "red_rose": "l dg 5 50 96 50 50; p gr 50 72 30 62 40 74; p gr 50 66 70 58 60 70; c r 50 34 20; a dr 3 40 24 20 20 0 300; c dr 50 34 4",
    "potted_fern": "p br 30 62 70 62 64 94 36 94; p gr 50 64 20 20 30 20 52 58; p gr 50 62 50 8 60 12 54 58; p gr 50 64 82 22 72 18 48 58; p dg 48 64 10 40 14 48",
    "oak_tree": _tree("br", "dg") + "; e br 60 58 8 10; e br 30 60 8 10",
    "mushroom": "r w 40 56 20 34; p r 12 60 50 16 88 60; c w 34 44 5; c w 60 36 6; c w 74 52 4",
    "apple": "c r 38 56 26; c r 62 56 26; l br 5 50 34 54 16; p gr 54 24 74 14 66 28",
    "loaf_of_bread": "e lb 10 36 80 50; l br 4 30 44 24 60; l br 4 50 40 44 60; l br 4 70 44 64 60; r lb 12 64 76 18",
    "pork_pie": "e w 4 78 92 20; R lb 16 34 68 48 10; e gd 16 22 68 24; e lb 24 26 52 14; c gd 20 34 5; c gd 30 40 5; c gd 42 43 5; c gd 54 43 5; c gd 66 40 5; c gd 78 34 5; p tan 34 48 66 48 58 82 42 82; p pk 38 53 62 53 56 80 44 80; l y 4 38 53 62 53; l br 3 34 30 40 26",
    "glass_of_wine": "p w 28 10 72 10 64 46 36 46; p dr 31 24 69 24 64 46 36 46; r w 47 46 6 32; e w 28 76 44 12",
    "mantel_clock": "p br 16 92 16 40 50 10 84 40 84 92; c w 50 50 22; l k 3 50 50 50 34; l k 3 50 50 62 54; r gd 16 84 68 8",
    "hourglass": "r br 20 8 60 8; r br 20 84 60 8; p w 26 16 74 16 52 50 74 84 26 84 48 50; p y 32 22 68 22 52 44 48 44; p y 28 82 72 82 50 64",
    "compass": "c gd 50 50 38; c w 50 50 30; p r 50 22 56 50 44 50; p dk 50 78 56 50 44 50; t k 12 50 15 N",
    "sextant": "a gd 7 -10 -46 120 120 238 302; l gd 6 50 12 18 70; l gd 6 50 12 82 70; l gd 3 32 46 68 46; l dk 4 50 12 62 74; c dk 50 12 5; R dk 14 26 38 10 4; r lbl 50 4 10 12; r lbl 22 40 8 12; R br 70 22 12 30 5; l k 2 26 72 28 66; l k 2 38 78 39 72; l k 2 50 80 50 74; l k 2 62 78 61 72; l k 2 74 72 72 66",
    "balance_scales": "r gd 46 14 8 72; r gd 30 84 40 8; l gd 4 14 24 86 24; l gd 2 14 24 6 54 22 54 14 24; l gd 2 86 24 78 54 94 54 86 24; e gd 2 50 24 10; e gd 74 50 24 10",
    "postage_stamp": "r w 18 10 64 80; r bl 24 16 52 68; e w 36 28 28 40; t w 12 50 78 ONE_PENNY w=46",
    "pillar_box": "r r 28 28 44 66; e r 24 12 52 24; r bl 36 40 28 6; t y 12 50 58 VR w=30; r dk 24 90 52 6",
    "newspaper": _paper(12, 10, 76, 80) + "; t k 14 50 20 THE_TIMES w=68; l k 3 16 28 84 28; " + _lines(16, 36, 30, 6, 8) + "; " + _lines(54, 36, 30, 6, 8),
    "leather_book": _book("br"),
    "spectacles": "l dk 3 6 40 14 50; l dk 3 94 40 86 50; o dk 28 54 16 4; o dk 72 54 16 4; c lbl 28 54 13; c lbl 72 54 13; a dk 4 40 46 20 16 20 160; l w 2 22 48 26 44; l w 2 66 48 70 44",
    "bowler_hat": _hat_brim("bl", "e bl 24 30 52 56; r bl 24 56 52 16; r dk 24 62 52 6"),
    "kid_gloves": "R lg 8 42 26 32 8; l lg 7 12 44 10 20; l lg 7 19 42 18 12; l lg 7 26 42 27 12; l lg 7 32 44 35 22; l lg 7 10 60 2 48; r w 8 70 26 16; c gd 21 78 3; R tan 62 42 26 32 8; l tan 7 84 44 86 20; l tan 7 77 42 78 12; l tan 7 70 42 69 12; l tan 7 64 44 61 22; l tan 7 86 60 94 48; r w 62 70 26 16; c gd 75 78 3; l pk 3 44 88 52 70 60 88",
    "pocket_knife": "R br 10 52 56 16 8; p sv 62 54 94 34 90 52 62 64; c lg 20 60 3",
    "axe": "l br 8 20 92 60 24; p sv 52 10 86 20 80 52 56 34",
    "hammer": "l br 8 50 92 50 30; R dk 22 14 56 20 3; p dk 78 16 90 8 86 24",
    "ladder": "l br 6 30 6 24 96; l br 6 70 6 76 96; l lb 5 29 20 71 20; l lb 5 28 38 72 38; l lb 5 27 56 73 56; l lb 5 26 74 74 74",
    "armchair": "R dr 20 14 60 50 10; R dr 10 40 18 40 6; R dr 72 40 18 40 6; r r 24 56 52 20; r br 14 80 6 14; r br 80 80 6 14",
    "bathtub": "R w 8 40 84 34 12; r sv 8 40 84 6; l sv 4 80 40 80 14 66 14; c lbl 66 22 3; c lbl 66 30 3; r gd 16 74 8 14; r gd 76 74 8 14",
    "hand_mirror": "e gd 26 6 48 56; e lbl 32 12 36 44; l w 3 40 22 48 30; R gd 44 60 12 34 4",
    "lady_s_fan": "p pk 50 86 6 38 18 24 34 14 50 10 66 14 82 24 94 38; l p 2 50 86 18 24; l p 2 50 86 34 14; l p 2 50 86 50 10; l p 2 50 86 66 14; l p 2 50 86 82 24; c gd 50 86 5",
    "parasol": "p pk 6 48 50 10 94 48; p w 30 48 50 14 40 48; p w 70 48 50 14 60 48; l br 4 50 48 50 88; a br 4 50 80 14 14 0 180",
    "bonnet": "e y 8 8 84 80; e tan 14 14 72 68; e s 28 26 44 48; c bl 42 46 2.5; c bl 58 46 2.5; a dr 2 44 54 12 8 200 340; c pk 18 30 7; c r 18 30 3; c pk 82 30 7; c r 82 30 3; p r 50 78 34 68 34 88; p r 50 78 66 68 66 88; c r 50 78 5; l r 4 46 82 40 98; l r 4 54 82 60 98",
    "ship_in_a_bottle": "R lbl 8 30 74 44 18; r br 82 44 12 16; p br 20 58 62 58 56 66 26 66; l k 2 40 58 40 36; p w 42 38 42 56 56 56; r lb 8 74 74 6",
}


def _num(tok: str, s: float) -> float:
    return float(tok) * s


def draw_picture(surface: pygame.Surface, rect: pygame.Rect, recipe: str, outline: bool = True) -> None:
    """Draw a recipe (see the module docstring) into ``rect`` (a square is fitted).

    Raises:
        ValueError: an unknown operation or colour (names it).
    """
    side = min(rect.w, rect.h)
    ox = rect.x + (rect.w - side) / 2
    oy = rect.y + (rect.h - side) / 2
    s = side / 100.0
    edge = max(1, int(round(side / 55)))

    def pt(x: str, y: str) -> tuple[int, int]:
        return (int(ox + float(x) * s), int(oy + float(y) * s))

    for op in recipe.split(";"):
        tok = op.split()
        if not tok:
            continue
        kind, col_name, args = tok[0], tok[1], tok[2:]
        if col_name not in PALETTE:
            raise ValueError(f"colour {col_name!r} in {op!r}: expected one of {sorted(PALETTE)}")
        col = PALETTE[col_name]
        if kind == "c":
            c, r = pt(args[0], args[1]), max(1, int(_num(args[2], s)))
            pygame.draw.circle(surface, col, c, r)
            if outline:
                pygame.draw.circle(surface, INK, c, r, edge)
        elif kind == "o":
            c, r, w = pt(args[0], args[1]), max(1, int(_num(args[2], s))), max(1, int(_num(args[3], s)))
            if outline:
                pygame.draw.circle(surface, INK, c, r + edge, w + 2 * edge)
            pygame.draw.circle(surface, col, c, r, w)
        elif kind in ("r", "R", "e"):
            x, y = pt(args[0], args[1])
            box = pygame.Rect(x, y, max(1, int(_num(args[2], s))), max(1, int(_num(args[3], s))))
            if kind == "e":
                pygame.draw.ellipse(surface, col, box)
                if outline:
                    pygame.draw.ellipse(surface, INK, box, edge)
            else:
                rad = int(_num(args[4], s)) if kind == "R" else 0
                pygame.draw.rect(surface, col, box, border_radius=rad)
                if outline:
                    pygame.draw.rect(surface, INK, box, edge, border_radius=rad)
        elif kind == "p":
            pts = [pt(args[i], args[i + 1]) for i in range(0, len(args) - 1, 2)]
            pygame.draw.polygon(surface, col, pts)
            if outline:
                pygame.draw.polygon(surface, INK, pts, edge)
        elif kind == "l":
            w = max(1, int(_num(args[0], s)))
            pts = [pt(args[i], args[i + 1]) for i in range(1, len(args) - 1, 2)]
            if outline and col_name not in ("k", "bl", "dk"):
                pygame.draw.lines(surface, INK, False, pts, w + 2 * edge)
                for p in (pts[0], pts[-1]):
                    pygame.draw.circle(surface, INK, p, (w + 2 * edge) // 2)
            pygame.draw.lines(surface, col, False, pts, w)
            for p in (pts[0], pts[-1]):
                pygame.draw.circle(surface, col, p, max(1, w // 2))
        elif kind == "a":
            import math
            w = max(1, int(_num(args[0], s)))
            x, y = pt(args[1], args[2])
            box = pygame.Rect(x, y, max(2, int(_num(args[3], s))), max(2, int(_num(args[4], s))))
            a0, a1 = math.radians(float(args[5])), math.radians(float(args[6]))
            if outline and col_name not in ("k", "bl", "dk"):
                pygame.draw.arc(surface, INK, box.inflate(edge, edge), a0, a1, w + 2 * edge)
            pygame.draw.arc(surface, col, box, a0, a1, w)
        elif kind == "t":
            words = args[3:]
            cx = float(args[1])
            limit = 2 * min(cx - 2, 98 - cx)             # never past the picture box
            if words and words[-1].startswith("w="):
                limit = min(limit, float(words[-1][2:]))
                words = words[:-1]
            img = fit_text(" ".join(words).replace("_", " "), float(args[0]), limit, s, col)
            surface.blit(img, img.get_rect(center=pt(args[1], args[2])))
        else:
            raise ValueError(f"operation {kind!r} in {op!r}: expected one of c o r R e p l a t")


def _text_image(msg: str, size: int, col: tuple[int, int, int]) -> pygame.Surface:
    return render.any_font(size, True).render(msg, True, col)


def fit_text(msg: str, size: float, limit: float, scale: float,
             col: tuple[int, int, int] = INK) -> pygame.Surface:
    """The lettering of a drawing: ``msg`` in bold at ``size`` box units, shrunk
    until it is at most ``limit`` box units wide (``scale`` px per unit), so no
    word ever runs out of its sign, stamp or label."""
    px = max(6, int(size * scale * 1.4))
    img = _text_image(msg, px, col)
    while img.get_width() > limit * scale and px > 6:
        px -= 1
        img = _text_image(msg, px, col)
    return img


def _wrap(name: str, font: pygame.font.Font, width: int, hyphens: bool = True) -> list[str]:
    """Lines of at most ``width`` px where possible, broken at spaces, and after a
    hyphen when a hyphenated word does not fit ("penny-" / "farthing")."""
    pieces: list[tuple[str, str]] = []            # (text, separator before it)
    for word in name.split():
        parts = word.split("-") if hyphens else [word]
        for i, part in enumerate(parts):
            text = part + ("-" if i < len(parts) - 1 else "")
            pieces.append((text, " " if i == 0 else ""))
    lines: list[str] = []
    for text, sep in pieces:
        if lines and (sep == "" or font.size(lines[-1] + sep + text)[0] <= width):
            if sep == "" and font.size(lines[-1] + text)[0] > width:
                lines.append(text)
                continue
            lines[-1] += sep + text
        else:
            lines.append(text)
    return lines


def _fit_name(name: str, width: int, height: int, start: int, smallest: int) -> tuple[pygame.font.Font, list[str]]:
    """The largest bold font (``start`` down to ``smallest`` px) that sets ``name`` in
    at most 2 lines within ``width`` x ``height``, and the lines."""
    size = start
    while True:
        f = render.any_font(size, True)
        lines = _wrap(name, f, width)
        if size <= smallest or (len(lines) <= 2 and all(f.size(x)[0] <= width for x in lines)
                                and len(lines) * f.get_linesize() <= height):
            if len(lines) > 2:
                lines = _wrap(name, f, width, hyphens=False)
            return f, lines
        size -= 1


#: The card faces, clue cards and thumbnails made, at most one screen's pixel bytes (3.5 MB at
#: 1280x720, :func:`kiosk.render.fit_caches`): two deals' 20 faces (the table's and the next,
#: made ahead) are 0.6 of it.  Counting entries (512 faces) let a day of table sizes keep 28 MB
#: at 1280x720 (issue 23).
FACES = render.screen_cache(1.0, 8 * 2**20)


def face_surface(face: int, w: int, h: int, show_number: bool = True) -> pygame.Surface:
    """A whole exhibit card face ``w`` x ``h`` px: picture, name (1-2 lines, as
    large as fits), face number bottom-right inside the border (CO-1).  Cached
    (:data:`FACES`); do not draw on it.

    Raises:
        ExhibitError: unknown face; ValueError: a broken drawing.
    """
    key = ("face", face, w, h, show_number, i18n.current())      # its name is in the language spoken
    got = FACES.get(key)
    return got if got is not None else FACES.put(key, _face_surface(face, w, h, show_number))


def _face_surface(face: int, w: int, h: int, show_number: bool) -> pygame.Surface:
    ex = exhibit(face)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    rad = max(4, w // 12)
    border = max(2, w // 40)
    pygame.draw.rect(surf, CARD_BG, surf.get_rect(), border_radius=rad)
    pygame.draw.rect(surf, CARD_EDGE, surf.get_rect(), border, border_radius=rad)
    nf = render.any_font(max(11, int(h * 0.12)))
    num_img = nf.render(str(face), True, CARD_EDGE)
    num_h = num_img.get_height() * 3 // 4           # the name leaves room for it, shown or not
    label_h = int(h * 0.31)
    pic = pygame.Rect(int(w * 0.06), int(h * 0.04), int(w * 0.88), h - label_h - int(h * 0.05))
    draw_picture(surf, pic, DRAWINGS[ex.picture])
    band = label_h - num_h // 2 - border
    f, lines = _fit_name(_(ex.name), int(w * 0.92), band, max(10, int(label_h * 0.56)), 9)
    y = h - label_h + (band - len(lines) * f.get_linesize()) // 2
    for line in lines:
        img = f.render(line, True, INK)
        surf.blit(img, img.get_rect(midtop=(w // 2, y)))
        y += f.get_linesize()
    if show_number:
        # inside the border and clear of the rounded corner: never clipped
        surf.blit(num_img, num_img.get_rect(bottomright=(w - border - rad // 2 - 1, h - border)))
    return surf


def clue_surface(face: int, w: int, h: int) -> pygame.Surface:
    """A clue-file card ``w`` x ``h`` px: the picture over the name in large
    letters (2 lines, at least ``CLUE_NAME_MIN`` px when the card is at least
    100 px wide), to read from three metres; no face number.  Cached (:data:`FACES`)."""
    key = ("clue", face, w, h, i18n.current())
    got = FACES.get(key)
    return got if got is not None else FACES.put(key, _clue_surface(face, w, h))


def _clue_surface(face: int, w: int, h: int) -> pygame.Surface:
    ex = exhibit(face)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    rad = max(4, w // 12)
    pygame.draw.rect(surf, CARD_BG, surf.get_rect(), border_radius=rad)
    pygame.draw.rect(surf, CARD_EDGE, surf.get_rect(), max(2, w // 40), border_radius=rad)
    label_h = int(h * 0.42)
    pic = pygame.Rect(int(w * 0.10), int(h * 0.03), int(w * 0.80), h - label_h - int(h * 0.03))
    draw_picture(surf, pic, DRAWINGS[ex.picture])
    f, lines = _fit_name(_(ex.name), w - 6, label_h - 2, max(CLUE_NAME_MIN, int(label_h * 0.55)), CLUE_NAME_MIN)
    y = h - label_h + (label_h - len(lines) * f.get_linesize()) // 2 - 1
    for line in lines:
        img = f.render(line, True, INK)
        if img.get_width() > w - 4:                       # a single very long word: squeeze, never cut
            img = pygame.transform.smoothscale(img, (w - 4, img.get_height()))
        surf.blit(img, img.get_rect(midtop=(w // 2, y)))
        y += f.get_linesize()
    return surf


def thumb_surface(face: int, size: int) -> pygame.Surface:
    """The picture alone on a small parchment square (earlier clues in a full clue file).
    Cached (:data:`FACES`)."""
    key = ("thumb", face, size)
    got = FACES.get(key)
    return got if got is not None else FACES.put(key, _thumb_surface(face, size))


def _thumb_surface(face: int, size: int) -> pygame.Surface:
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(surf, CARD_BG, surf.get_rect(), border_radius=max(3, size // 8))
    pygame.draw.rect(surf, CARD_EDGE, surf.get_rect(), 2, border_radius=max(3, size // 8))
    draw_picture(surf, surf.get_rect().inflate(-4, -4), DRAWINGS[exhibit(face).picture], outline=size >= 40)
    return surf


def contact_sheet(w: int = 150, h: int = 130, cols: int = 14, faces: list[int] | None = None) -> pygame.Surface:
    """Every face (or ``faces``) on one surface, for checking the drawings by eye."""
    faces = list(EXHIBITS) if faces is None else faces
    rows = (len(faces) + cols - 1) // cols
    sheet = pygame.Surface((cols * (w + 6) + 6, rows * (h + 6) + 6))
    sheet.fill((18, 22, 34))
    for i, face in enumerate(faces):
        sheet.blit(face_surface(face, w, h), (6 + (i % cols) * (w + 6), 6 + (i // cols) * (h + 6)))
    return sheet


def missing_drawings() -> list[str]:
    """Picture keys of exhibits that have no drawing (should be empty)."""
    return [e.picture for e in EXHIBITS.values() if e.picture not in DRAWINGS]
