"""The dice luck picture: one panel per dice game, bars per face, doubles when two dice."""

from __future__ import annotations

import io

from PIL import Image

from games.luck import DiceLuck
from render.luck import HEADER_HEIGHT, PANEL_HEIGHT, render_luck


def game_view(title: str, throws: list[list[int]], lowest: int = 1) -> dict:
    luck = DiceLuck(games=1)
    for throw in throws:
        luck.add_throw(throw, lowest)
    faces = [
        [face, "bar" if face == 0 else "", count] for face, count in sorted(luck.faces.items())
    ]
    return {
        "title": title,
        "rolls": luck.rolls,
        "dice": luck.dice,
        "games": luck.games,
        "faces": faces,
        "expected": luck.expected_per_face,
        "pairs": luck.pair_rolls,
        "doubles": luck.doubles,
        "expected_doubles": luck.expected_doubles,
    }


def picture(games: list[dict]) -> Image.Image:
    return Image.open(
        io.BytesIO(render_luck({"name": "Jürgen", "season": "S1", "games": games}, "en"))
    )


def test_one_panel_per_dice_game():
    two = picture([game_view("Gul Bara", [[6, 6], [1, 2]]), game_view("Barree", [[0], [5]], 0)])
    one = picture([game_view("Gul Bara", [[6, 6], [1, 2]])])
    assert one.width == two.width == 900
    assert two.height - one.height == PANEL_HEIGHT + 14
    assert one.height > HEADER_HEIGHT + PANEL_HEIGHT


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    return len(image.crop(box).getcolors(maxcolors=1 << 16) or [])


def test_the_doubles_chart_is_drawn_only_for_two_dice():
    pairs = picture([game_view("Gul Bara", [[3, 3], [3, 3]])]).convert("RGB")
    singles = picture([game_view("Barree", [[3], [3]], 0)]).convert("RGB")
    doubles_area = (620, HEADER_HEIGHT + 90, 860, HEADER_HEIGHT + 200)
    assert colours_in(pairs, doubles_area) > colours_in(singles, doubles_area)
