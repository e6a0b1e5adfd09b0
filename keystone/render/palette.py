"""One palette and one set of sizes for every picture, so the board, the Field and the sheet match.

Habitat colours follow the Okabe-Ito colour-blind-safe set, and every habitat also has its own
shape (pine, cactus, drop, peaks), so no one needs to tell colours apart to read a card.
"""

from __future__ import annotations

from keystone.cards import Habitat, Season

RGB = tuple[int, int, int]

PAGE: RGB = (236, 229, 212)
PAGE_DARK: RGB = (221, 212, 190)
INK: RGB = (43, 38, 32)
MUTED: RGB = (110, 100, 86)
FAINT: RGB = (160, 150, 132)
WHITE: RGB = (255, 253, 247)
CARD: RGB = (251, 247, 236)
CARD_EDGE: RGB = (70, 60, 46)
SIDE_STRIP: RGB = (238, 229, 206)
MAT: RGB = (52, 82, 64)
MAT_EDGE: RGB = (33, 55, 42)
SLOT: RGB = (72, 104, 85)
SLOT_TEXT: RGB = (196, 214, 196)
LABEL_ON_MAT: RGB = (243, 235, 214)
GOLD: RGB = (217, 162, 27)
GOLD_DARK: RGB = (138, 100, 20)
SYNERGY: RGB = (233, 185, 73)
RESEARCH: RGB = (31, 138, 128)
ACTIVE: RGB = (86, 150, 72)
ACTIVE_DARK: RGB = (46, 96, 40)
STONE: RGB = (150, 146, 138)
STONE_DARK: RGB = (94, 90, 84)
HIGHLIGHT: RGB = (255, 214, 92)
ALERT: RGB = (196, 64, 40)
GOOD: RGB = (46, 125, 70)

HABITAT_COLOUR: dict[Habitat, RGB] = {
    Habitat.FOREST: (34, 119, 68),
    Habitat.DESERT: (230, 159, 0),
    Habitat.WETLAND: (0, 114, 178),
    Habitat.ARCTIC: (86, 180, 233),
}
HABITAT_TINT: dict[Habitat, RGB] = {
    Habitat.FOREST: (219, 235, 218),
    Habitat.DESERT: (250, 233, 196),
    Habitat.WETLAND: (212, 230, 244),
    Habitat.ARCTIC: (229, 241, 250),
}
HABITAT_MOTIF: dict[Habitat, RGB] = {
    Habitat.FOREST: (150, 192, 156),
    Habitat.DESERT: (236, 200, 140),
    Habitat.WETLAND: (128, 178, 216),
    Habitat.ARCTIC: (176, 204, 228),
}

SEASON_COLOUR: dict[Season, RGB] = {
    Season.SPRING: (214, 98, 160),
    Season.SUMMER: (240, 176, 0),
    Season.FALL: (200, 80, 30),
    Season.WINTER: (59, 110, 165),
}
ENDANGERED: RGB = (209, 69, 43)
TAG: RGB = (123, 79, 160)

CARD_W, CARD_H = 180, 228
"""A card face on a board cell or in the Field, in pixels: four across fit 800 px, and the names
show at 18 px."""
