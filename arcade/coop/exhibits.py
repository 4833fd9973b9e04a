"""The exhibits of Focus (2023): 168 faces on 84 double-sided cards (ruling CO-1).

Card ``n`` (1..84) carries faces ``2n-1`` and ``2n`` (CO-1: the only pairing
under which no Mrs. Hudson case needs both faces of one card).  Every face has
a number, a name, a few tags (the vocabulary the screen shows and the partner's
association table is built from) and a picture key that
``kiosk/games/coop/draw.py`` draws (the arcade's own drawings of Victorian objects,
people and places; no published card art is copied).

The four Mrs. Hudson cases use the face numbers the seed lists (20 faces each);
their faces show objects from those stories by Arthur Conan Doyle.

Pure data, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from arcade.core.errors import ArcadeError
from arcade.i18n import N_

FACES = 168
CARDS = 84


class ExhibitError(ArcadeError, KeyError):
    """An unknown face number or case name (names the value and what was expected)."""

    def __str__(self) -> str:          # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class Exhibit:
    """One exhibit face.

    Attributes:
        face: face number 1..168 (as printed bottom-right on the card).
        name: what the face shows ("smoking pipe").
        tags: 3 to 5 lower-case words associated with it.
        picture: the drawing key for ``kiosk.games.coop.draw`` (a slug of the name).
        case: the Mrs. Hudson case key it belongs to, or "" (CO-1).
    """

    face: int
    name: str
    tags: tuple[str, ...]
    picture: str
    case: str = ""

    @property
    def card(self) -> int:
        """The card (1..84) carrying this face: faces 2n-1 and 2n are card n (CO-1)."""
        return (self.face + 1) // 2

    @property
    def other_face(self) -> int:
        """The face on the back of the same card."""
        return self.face + 1 if self.face % 2 else self.face - 1


#: The Mrs. Hudson cases: key -> (title, face numbers), from the seed.
CASES: Mapping[str, tuple[str, tuple[int, ...]]] = {
    "scarlet": (N_("A Study in Scarlet"),
                (13, 16, 19, 21, 28, 32, 45, 53, 55, 60, 61, 63, 89, 96, 97, 124, 136, 144, 159, 165)),
    "sign": (N_("The Sign of the Four"),
             (10, 17, 35, 39, 49, 51, 57, 71, 75, 81, 91, 93, 111, 115, 127, 131, 135, 147, 153, 166)),
    "pips": (N_("The Five Orange Pips"),
             (1, 3, 23, 33, 36, 42, 43, 50, 64, 65, 83, 87, 120, 126, 128, 130, 141, 158, 163, 168)),
    "hound": (N_("The Hound of the Baskervilles"),
              (5, 8, 12, 26, 30, 41, 67, 69, 73, 77, 79, 99, 101, 103, 119, 125, 137, 145, 149, 157)),
}

# (name, tags), in the order of each case's face numbers above; the names are translated
# where they are shown (``arcade.i18n``).
_CASE_FACES: Mapping[str, tuple[tuple[str, str], ...]] = {
    "scarlet": (
        (N_("wedding ring"), "ring gold marriage jewel woman"),
        (N_("RACHE on the wall"), "writing blood wall revenge word"),
        (N_("box of pills"), "poison pill medicine box"),
        (N_("sick terrier"), "dog pet animal poison"),
        (N_("hansom cab"), "cab horse carriage london driver"),
        (N_("street urchin"), "boy child street london messenger"),
        (N_("magnifying glass"), "lens detective glass clue"),
        (N_("tape measure"), "measure tool detective tailor"),
        (N_("covered wagon"), "wagon pioneer america journey desert"),
        (N_("alkali desert"), "desert america heat sand thirst"),
        (N_("hunting rifle"), "gun weapon hunt america"),
        (N_("army medal"), "soldier war medal afghanistan"),
        (N_("test tube"), "chemistry science laboratory blood glass"),
        (N_("newspaper advert"), "newspaper advert print paper"),
        (N_("telegram"), "message paper telegraph america"),
        (N_("candle stub"), "candle light wax night"),
        (N_("empty house"), "house building london dark"),
        (N_("violin"), "music instrument wood holmes"),
        (N_("horseshoe"), "horse iron luck"),
        (N_("handcuffs"), "police arrest metal crime"),
    ),
    "sign": (
        (N_("treasure chest"), "treasure box iron india gold"),
        (N_("pearl"), "jewel pearl gift sea white"),
        (N_("poisoned thorn"), "poison thorn dart weapon death"),
        (N_("blowpipe"), "weapon tube island hunt"),
        (N_("wooden leg"), "leg wood convict sailor"),
        (N_("steam launch"), "boat steam river chase engine"),
        (N_("river Thames"), "river water london boat"),
        (N_("tracker dog"), "dog nose scent animal trail"),
        (N_("creosote barrel"), "barrel smell tar trail"),
        (N_("map of the four"), "map paper cross secret"),
        (N_("pocket watch"), "watch time gold brother"),
        (N_("mysterious letter"), "letter paper invitation mystery"),
        (N_("Lyceum Theatre"), "theatre building london pillars"),
        (N_("coil of rope"), "rope climb ship"),
        (N_("bare footprint"), "footprint foot clue trail"),
        (N_("Agra fort"), "fort india fortress war"),
        (N_("palm island"), "island sea palm tropical"),
        (N_("bull's-eye lantern"), "lantern light police night"),
        (N_("skylight"), "roof window attic house"),
        (N_("Agra diamonds"), "diamond jewel treasure india"),
    ),
    "pips": (
        (N_("five orange pips"), "seed orange five warning"),
        (N_("postmarked envelope"), "envelope letter post stamp warning"),
        (N_("brass box"), "box brass metal secret"),
        (N_("sundial"), "sundial time garden sun stone"),
        (N_("three-masted barque"), "ship sail sea voyage"),
        (N_("equinoctial gale"), "storm wind rain weather"),
        (N_("dripping umbrella"), "umbrella rain weather"),
        (N_("ashes in the grate"), "fire ashes fireplace burn paper"),
        (N_("chalk pit"), "pit chalk fall danger country"),
        (N_("Waterloo Bridge"), "bridge river london night"),
        (N_("police constable"), "police helmet london law"),
        (N_("torn diary page"), "diary page paper writing secret"),
        (N_("cotton boll"), "cotton plant america farm"),
        (N_("brandy bottle"), "bottle drink brandy alcohol"),
        (N_("padlock"), "lock key secret door"),
        (N_("encyclopaedia"), "book knowledge reading america"),
        (N_("Horsham manor"), "house country manor estate"),
        (N_("orange"), "fruit orange food"),
        (N_("anchor"), "anchor ship sea docks"),
        (N_("shipping ledger"), "ledger book register ships numbers"),
    ),
    "hound": (
        (N_("spectral hound"), "dog hound monster night fire"),
        (N_("walking stick"), "stick cane doctor wood"),
        (N_("old black boot"), "boot shoe leather clue"),
        (N_("Dartmoor tor"), "moor hill rock wild"),
        (N_("Grimpen Mire"), "bog mud danger moor"),
        (N_("Baskerville Hall"), "hall manor house old"),
        (N_("escaped convict"), "convict prisoner escape crime"),
        (N_("candle at the window"), "candle signal window night light"),
        (N_("butterfly net"), "net butterfly hunt naturalist"),
        (N_("butterfly"), "insect butterfly wings nature"),
        (N_("family portrait"), "portrait painting ancestor frame"),
        (N_("cut-out letters"), "newspaper letters warning paste"),
        (N_("scissors"), "scissors cut tool"),
        (N_("stone hut"), "hut stone ancient moor shelter"),
        (N_("cigar"), "cigar smoke ash tobacco"),
        (N_("yew alley"), "tree hedge path garden"),
        (N_("old manuscript"), "manuscript legend curse paper old"),
        (N_("full moon"), "moon night sky light"),
        (N_("phosphorus tin"), "phosphorus glow paint chemical"),
        (N_("false beard"), "beard disguise face spy"),
    ),
}

# The other 88 faces, in ascending order of the face numbers no case uses.
_OTHER_FACES: tuple[tuple[str, str], ...] = (
    (N_("smoking pipe"), "pipe smoke tobacco holmes"),
    (N_("sailing boat"), "boat sail sea water travel"),
    (N_("globe"), "globe world travel map earth"),
    (N_("deerstalker hat"), "hat cap detective tweed country"),
    (N_("top hat"), "hat gentleman black fashion"),
    (N_("monocle"), "glass eye gentleman lens"),
    (N_("teapot"), "tea drink china home"),
    (N_("gas street lamp"), "lamp light street night gas"),
    (N_("steam locomotive"), "train steam railway travel engine"),
    (N_("penny-farthing"), "bicycle wheel ride"),
    (N_("hot-air balloon"), "balloon sky flight travel air"),
    (N_("clock tower"), "clock tower time london bell"),
    (N_("telescope"), "telescope lens stars sea"),
    (N_("microscope"), "microscope science lens small"),
    (N_("quill and inkwell"), "quill ink writing feather"),
    (N_("typewriter"), "typewriter writing machine letters"),
    (N_("telephone"), "telephone call voice machine"),
    (N_("gramophone"), "music record sound machine"),
    (N_("bellows camera"), "camera photograph lens picture"),
    (N_("skeleton key"), "key lock door metal secret"),
    (N_("oil lamp"), "lamp light oil fire home"),
    (N_("chess knight"), "chess game horse strategy"),
    (N_("playing cards"), "cards game gamble luck"),
    (N_("pair of dice"), "dice game luck gamble"),
    (N_("revolver"), "gun weapon crime police"),
    (N_("fencing foil"), "sword sport weapon duel"),
    (N_("boxing gloves"), "boxing sport fight gloves"),
    (N_("cricket bat"), "cricket sport bat ball england"),
    (N_("spinning top"), "toy game child spin"),
    (N_("rocking horse"), "toy horse child wood"),
    (N_("porcelain doll"), "doll toy child girl"),
    (N_("kite"), "kite wind sky toy"),
    (N_("piano"), "piano music instrument home"),
    (N_("bugle"), "bugle music soldier brass"),
    (N_("drum"), "drum music soldier march"),
    (N_("church bell"), "bell church ring sound"),
    (N_("lighthouse"), "lighthouse sea light coast"),
    (N_("windmill"), "windmill wind country mill flour"),
    (N_("castle"), "castle king stone fortress"),
    (N_("village church"), "church steeple religion village"),
    (N_("thatched cottage"), "cottage house country home"),
    (N_("factory chimney"), "factory smoke industry coal"),
    (N_("stagecoach"), "coach horse carriage travel"),
    (N_("rowing boat"), "boat oars river water"),
    (N_("paddle steamer"), "steamship steam sea travel paddle"),
    (N_("railway ticket"), "ticket train travel paper"),
    (N_("gold sovereign"), "coin gold money queen"),
    (N_("banknote"), "money paper bank pound"),
    (N_("crown"), "crown king queen royalty jewel"),
    (N_("Queen Victoria"), "queen royalty woman portrait"),
    (N_("police whistle"), "whistle police sound alarm"),
    (N_("carriage horse"), "horse animal ride carriage"),
    (N_("black cat"), "cat animal pet night luck"),
    (N_("parrot"), "parrot bird talk colour"),
    (N_("raven"), "raven bird black tower"),
    (N_("owl"), "owl bird night wise"),
    (N_("fish"), "fish sea water food"),
    (N_("red rose"), "rose flower love garden"),
    (N_("potted fern"), "fern plant home green"),
    (N_("oak tree"), "tree oak wood forest"),
    (N_("mushroom"), "mushroom forest food poison"),
    (N_("apple"), "fruit apple food red"),
    (N_("loaf of bread"), "bread food bakery"),
    (N_("pork pie"), "pie food meat"),
    (N_("glass of wine"), "wine glass drink red"),
    (N_("mantel clock"), "clock time home"),
    (N_("hourglass"), "time sand glass"),
    (N_("compass"), "compass direction north travel"),
    (N_("sextant"), "sextant navigation sea stars"),
    (N_("balance scales"), "scales justice weight law"),
    (N_("postage stamp"), "stamp post letter queen"),
    (N_("pillar box"), "post letter red street"),
    (N_("newspaper"), "newspaper news print paper"),
    (N_("leather book"), "book reading knowledge library"),
    (N_("spectacles"), "spectacles glasses eyes reading"),
    (N_("bowler hat"), "hat gentleman city"),
    (N_("kid gloves"), "gloves fashion hands"),
    (N_("pocket knife"), "knife blade tool"),
    (N_("axe"), "axe wood tool chop"),
    (N_("hammer"), "hammer tool nail"),
    (N_("ladder"), "ladder climb wood"),
    (N_("armchair"), "chair home comfort fireside"),
    (N_("bathtub"), "bath water wash home"),
    (N_("hand mirror"), "mirror glass reflection vanity"),
    (N_("lady's fan"), "fan fashion lady summer"),
    (N_("parasol"), "parasol sun lady fashion"),
    (N_("bonnet"), "bonnet hat lady fashion"),
    (N_("ship in a bottle"), "ship bottle model glass"),
)


def _slug(name: str) -> str:
    out = "".join(c if c.isalnum() else "_" for c in name.lower())
    while "__" in out:
        out = out.replace("__", "_")
    return out.strip("_")


def _build() -> dict[int, Exhibit]:
    table: dict[int, Exhibit] = {}
    for key, (_title, faces) in CASES.items():
        for face, (name, tags) in zip(faces, _CASE_FACES[key], strict=True):
            table[face] = Exhibit(face, name, tuple(tags.split()), _slug(name), key)
    others = [f for f in range(1, FACES + 1) if f not in table]
    for face, (name, tags) in zip(others, _OTHER_FACES, strict=True):
        table[face] = Exhibit(face, name, tuple(tags.split()), _slug(name))
    return dict(sorted(table.items()))


EXHIBITS: Mapping[int, Exhibit] = _build()
"""Every face by number, 1..168."""


def exhibit(face: int) -> Exhibit:
    """The exhibit on face ``face`` (1..168).

    Raises:
        ExhibitError: ``face`` is not a face number.
    """
    try:
        return EXHIBITS[face]
    except (KeyError, TypeError):
        raise ExhibitError(f"face {face!r}: expected a face number 1..{FACES}") from None


def card_faces(card: int) -> tuple[int, int]:
    """The two faces of card ``card`` (1..84): ``(2n-1, 2n)`` (CO-1).

    Raises:
        ExhibitError: ``card`` is not 1..84.
    """
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= CARDS:
        raise ExhibitError(f"card {card!r}: expected a card number 1..{CARDS}")
    return (2 * card - 1, 2 * card)


def case_faces(case: str) -> tuple[int, ...]:
    """The 20 face numbers of a Mrs. Hudson case (seed, "The cases").

    Raises:
        ExhibitError: unknown case key (the message lists the keys).
    """
    if case not in CASES:
        raise ExhibitError(f"case {case!r}: expected one of {sorted(CASES)}")
    return CASES[case][1]


def case_title(case: str) -> str:
    """The title of a case ("A Study in Scarlet", in English: translated where shown); raises
    :class:`ExhibitError`."""
    case_faces(case)
    return CASES[case][0]
