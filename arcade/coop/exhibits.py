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
    "scarlet": ("A Study in Scarlet",
                (13, 16, 19, 21, 28, 32, 45, 53, 55, 60, 61, 63, 89, 96, 97, 124, 136, 144, 159, 165)),
    "sign": ("The Sign of the Four",
             (10, 17, 35, 39, 49, 51, 57, 71, 75, 81, 91, 93, 111, 115, 127, 131, 135, 147, 153, 166)),
    "pips": ("The Five Orange Pips",
             (1, 3, 23, 33, 36, 42, 43, 50, 64, 65, 83, 87, 120, 126, 128, 130, 141, 158, 163, 168)),
    "hound": ("The Hound of the Baskervilles",
              (5, 8, 12, 26, 30, 41, 67, 69, 73, 77, 79, 99, 101, 103, 119, 125, 137, 145, 149, 157)),
}

# name | tags, in the order of each case's face numbers above.
_CASE_FACES: Mapping[str, tuple[str, ...]] = {
    "scarlet": (
        "wedding ring|ring gold marriage jewel woman",
        "RACHE on the wall|writing blood wall revenge word",
        "box of pills|poison pill medicine box",
        "sick terrier|dog pet animal poison",
        "hansom cab|cab horse carriage london driver",
        "street urchin|boy child street london messenger",
        "magnifying glass|lens detective glass clue",
        "tape measure|measure tool detective tailor",
        "covered wagon|wagon pioneer america journey desert",
        "alkali desert|desert america heat sand thirst",
        "hunting rifle|gun weapon hunt america",
        "army medal|soldier war medal afghanistan",
        "test tube|chemistry science laboratory blood glass",
        "newspaper advert|newspaper advert print paper",
        "telegram|message paper telegraph america",
        "candle stub|candle light wax night",
        "empty house|house building london dark",
        "violin|music instrument wood holmes",
        "horseshoe|horse iron luck",
        "handcuffs|police arrest metal crime",
    ),
    "sign": (
        "treasure chest|treasure box iron india gold",
        "pearl|jewel pearl gift sea white",
        "poisoned thorn|poison thorn dart weapon death",
        "blowpipe|weapon tube island hunt",
        "wooden leg|leg wood convict sailor",
        "steam launch|boat steam river chase engine",
        "river Thames|river water london boat",
        "tracker dog|dog nose scent animal trail",
        "creosote barrel|barrel smell tar trail",
        "map of the four|map paper cross secret",
        "pocket watch|watch time gold brother",
        "mysterious letter|letter paper invitation mystery",
        "Lyceum Theatre|theatre building london pillars",
        "coil of rope|rope climb ship",
        "bare footprint|footprint foot clue trail",
        "Agra fort|fort india fortress war",
        "palm island|island sea palm tropical",
        "bull's-eye lantern|lantern light police night",
        "skylight|roof window attic house",
        "Agra diamonds|diamond jewel treasure india",
    ),
    "pips": (
        "five orange pips|seed orange five warning",
        "postmarked envelope|envelope letter post stamp warning",
        "brass box|box brass metal secret",
        "sundial|sundial time garden sun stone",
        "three-masted barque|ship sail sea voyage",
        "equinoctial gale|storm wind rain weather",
        "dripping umbrella|umbrella rain weather",
        "ashes in the grate|fire ashes fireplace burn paper",
        "chalk pit|pit chalk fall danger country",
        "Waterloo Bridge|bridge river london night",
        "police constable|police helmet london law",
        "torn diary page|diary page paper writing secret",
        "cotton boll|cotton plant america farm",
        "brandy bottle|bottle drink brandy alcohol",
        "padlock|lock key secret door",
        "encyclopaedia|book knowledge reading america",
        "Horsham manor|house country manor estate",
        "orange|fruit orange food",
        "anchor|anchor ship sea docks",
        "shipping ledger|ledger book register ships numbers",
    ),
    "hound": (
        "spectral hound|dog hound monster night fire",
        "walking stick|stick cane doctor wood",
        "old black boot|boot shoe leather clue",
        "Dartmoor tor|moor hill rock wild",
        "Grimpen Mire|bog mud danger moor",
        "Baskerville Hall|hall manor house old",
        "escaped convict|convict prisoner escape crime",
        "candle at the window|candle signal window night light",
        "butterfly net|net butterfly hunt naturalist",
        "butterfly|insect butterfly wings nature",
        "family portrait|portrait painting ancestor frame",
        "cut-out letters|newspaper letters warning paste",
        "scissors|scissors cut tool",
        "stone hut|hut stone ancient moor shelter",
        "cigar|cigar smoke ash tobacco",
        "yew alley|tree hedge path garden",
        "old manuscript|manuscript legend curse paper old",
        "full moon|moon night sky light",
        "phosphorus tin|phosphorus glow paint chemical",
        "false beard|beard disguise face spy",
    ),
}

# The other 88 faces, in ascending order of the face numbers no case uses.
_OTHER_FACES: tuple[str, ...] = (
    "smoking pipe|pipe smoke tobacco holmes",
    "sailing boat|boat sail sea water travel",
    "globe|globe world travel map earth",
    "deerstalker hat|hat cap detective tweed country",
    "top hat|hat gentleman black fashion",
    "monocle|glass eye gentleman lens",
    "teapot|tea drink china home",
    "gas street lamp|lamp light street night gas",
    "steam locomotive|train steam railway travel engine",
    "penny-farthing|bicycle wheel ride",
    "hot-air balloon|balloon sky flight travel air",
    "clock tower|clock tower time london bell",
    "telescope|telescope lens stars sea",
    "microscope|microscope science lens small",
    "quill and inkwell|quill ink writing feather",
    "typewriter|typewriter writing machine letters",
    "telephone|telephone call voice machine",
    "gramophone|music record sound machine",
    "bellows camera|camera photograph lens picture",
    "skeleton key|key lock door metal secret",
    "oil lamp|lamp light oil fire home",
    "chess knight|chess game horse strategy",
    "playing cards|cards game gamble luck",
    "pair of dice|dice game luck gamble",
    "revolver|gun weapon crime police",
    "fencing foil|sword sport weapon duel",
    "boxing gloves|boxing sport fight gloves",
    "cricket bat|cricket sport bat ball england",
    "spinning top|toy game child spin",
    "rocking horse|toy horse child wood",
    "porcelain doll|doll toy child girl",
    "kite|kite wind sky toy",
    "piano|piano music instrument home",
    "bugle|bugle music soldier brass",
    "drum|drum music soldier march",
    "church bell|bell church ring sound",
    "lighthouse|lighthouse sea light coast",
    "windmill|windmill wind country mill flour",
    "castle|castle king stone fortress",
    "village church|church steeple religion village",
    "thatched cottage|cottage house country home",
    "factory chimney|factory smoke industry coal",
    "stagecoach|coach horse carriage travel",
    "rowing boat|boat oars river water",
    "paddle steamer|steamship steam sea travel paddle",
    "railway ticket|ticket train travel paper",
    "gold sovereign|coin gold money queen",
    "banknote|money paper bank pound",
    "crown|crown king queen royalty jewel",
    "Queen Victoria|queen royalty woman portrait",
    "police whistle|whistle police sound alarm",
    "carriage horse|horse animal ride carriage",
    "black cat|cat animal pet night luck",
    "parrot|parrot bird talk colour",
    "raven|raven bird black tower",
    "owl|owl bird night wise",
    "fish|fish sea water food",
    "red rose|rose flower love garden",
    "potted fern|fern plant home green",
    "oak tree|tree oak wood forest",
    "mushroom|mushroom forest food poison",
    "apple|fruit apple food red",
    "loaf of bread|bread food bakery",
    "pork pie|pie food meat",
    "glass of wine|wine glass drink red",
    "mantel clock|clock time home",
    "hourglass|time sand glass",
    "compass|compass direction north travel",
    "sextant|sextant navigation sea stars",
    "balance scales|scales justice weight law",
    "postage stamp|stamp post letter queen",
    "pillar box|post letter red street",
    "newspaper|newspaper news print paper",
    "leather book|book reading knowledge library",
    "spectacles|spectacles glasses eyes reading",
    "bowler hat|hat gentleman city",
    "kid gloves|gloves fashion hands",
    "pocket knife|knife blade tool",
    "axe|axe wood tool chop",
    "hammer|hammer tool nail",
    "ladder|ladder climb wood",
    "armchair|chair home comfort fireside",
    "bathtub|bath water wash home",
    "hand mirror|mirror glass reflection vanity",
    "lady's fan|fan fashion lady summer",
    "parasol|parasol sun lady fashion",
    "bonnet|bonnet hat lady fashion",
    "ship in a bottle|ship bottle model glass",
)


def _slug(name: str) -> str:
    out = "".join(c if c.isalnum() else "_" for c in name.lower())
    while "__" in out:
        out = out.replace("__", "_")
    return out.strip("_")


def _build() -> dict[int, Exhibit]:
    table: dict[int, Exhibit] = {}
    for key, (_title, faces) in CASES.items():
        for face, line in zip(faces, _CASE_FACES[key], strict=True):
            name, tags = line.split("|")
            table[face] = Exhibit(face, name, tuple(tags.split()), _slug(name), key)
    others = [f for f in range(1, FACES + 1) if f not in table]
    for face, line in zip(others, _OTHER_FACES, strict=True):
        name, tags = line.split("|")
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
    """The title of a case ("A Study in Scarlet"); raises :class:`ExhibitError`."""
    case_faces(case)
    return CASES[case][0]
