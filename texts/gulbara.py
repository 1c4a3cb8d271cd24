"""Gul Bara's sentences, and the point numbering they and the picture share.

Each player numbers the points 24→1 in his own direction, so his checkers always count
down. Every step a sentence names is written in its mover's own numbering, the one he
types and his buttons show. The board is drawn from one seat's side (``viewer``) and
labels every point with both players' numbers: the viewer's next to the board, the
other player's outside them, each in the player's colour. A step of the other player is
marked as written in his numbering, so a reader knows which row of numbers to follow.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.gulbara import GulbaraGameResult, GulbaraTurn, GulbaraView
from games.gulbara.hints import GulbaraHint
from texts.common import listed, reasons
from texts.i18n import N_, t, tn

RULES = N_(
    """\
**How to play**
1. You roll two dice each turn; each die moves one of your checkers that many points.
2. Everyone moves the same way round, towards his own home (his points 1–6).
3. You may not land on a point where the opponent has a checker.
4. A double (both dice equal) is played four times, and from your fourth roll on it climbs.
5. Once all 15 of your checkers are home, bear them off; the first to clear his board wins.
**Words.** *Point*: one of the 24 triangles; a checker moves from point to point. *Pips*: \
the points your checkers still have to travel (the board shows each player's total: fewer \
is better). *Home*: your points 1–6. *Bear off*: take a checker off the board from home. \
*Head*: your point 24, where all your checkers start. *Prime*: six held points in a row.
**Goal.** Bear off all 15 of your checkers first. 1 point for the win, 2 if your opponent \
has borne off none. A match goes to the points chosen with `match_to`.
**Board.** Everyone numbers the points 24→1 in his own direction: all 15 checkers start \
on your 24, you move towards your home (points 1–6) and bear off below 1. Both players \
travel the same way round; the opponent's 24 is your 12.
**Moving.** Each die is a step of one checker; a double is played four times. Play as \
many dice as you can; if only one of two dice can be played, it must be the higher one.
**No hitting.** A point with even one checker belongs to its owner: the other player may \
not land on it.
**Head rule.** Until your first checker reaches your points 12–7, it is the only one you \
may move. With `head_rule:pass` it must also have passed your 12 (stand on 11 or lower).
**No prime.** You may not hold six points in a row in front of the opponent unless one \
of his checkers is already past them.
**Escalating doubles.** After playing `n-n` four times you go on with `(n+1)-(n+1)`, up \
to 6-6, until a double cannot be played in full. Each player's first three rolls are \
exempt: their doubles are played four times and that is all.
**Bearing off.** Once all your checkers are home: a die equal to a checker's point bears \
it off; a higher die bears off from your highest point.
**Playing here.** Pick a point in the board's menu, then the step. Forced steps play \
themselves (option `autoplay`). **Undo** takes back this turn's last choice.
**Notation for `/gulbara move`.** Steps in your numbering: `24/18 18/13`, `24/18/13`, \
`6/off`, `8/5(2)` for two checkers, or `undo`.\
"""
)

WINS_ONE = N_("{winner} wins 1 point.")
WINS_TWO = N_("{winner} wins 2 points: {loser} bore off no checker.")
WINS_MATCH = N_("{winner} wins the match {won}–{lost}.")
LAST_GAME = N_("Last game: {result}")
UNDECIDED = N_("The game ended before it was decided.")
GAME_NUMBERED = N_("Game {number}: {result}")
TURN_PLAYED = N_("{name} rolled {roll}: {steps}")
TURN_ESCALATED = N_("{name} rolled {roll}, escalated to {last}: {steps}")
TURN_PASSED = N_("{name} rolled {roll} and could not move")
LAST_TURN = N_("Last turn: {turn}")
THIS_TURN = N_("This turn: {steps}")
HIS_NUMBERING = N_("{steps} (his numbering)")
OPENING_ROLL = N_("Opening roll: {first} {first_roll}, {second} {second_roll}")
TO_MOVE = N_("{name} to move: rolled {roll}, dice left {dice}. Pick a point, then a die.")
ESCALATING = N_("Escalating doubles: {chain}.")
MATCH_STANDING = N_(
    "Match to {target}: {first} {first_score}, {second} {second_score} (game {number})."
)
GAME_OVER_IN_MATCH = N_("🎲 Gul Bara game #{table}: game {number} is over. {result}")
NEXT_GAME = N_("Game {number} begins: {opener} opens with {roll}.")
NO_DICE = N_("none")
YOU_STEPPED = N_("✅ You played {step} ({die}).")
YOU_STEPPED_THEN_FORCED = N_("✅ You played {step} ({die}). Then forced: {forced}.")
YOU_STEPPED_PATH = N_("✅ You played {path} ({times} × {die}).")
YOU_STEPPED_PATH_THEN_FORCED = N_("✅ You played {path} ({times} × {die}). Then forced: {forced}.")


def seat_point(point: int, seat: int) -> int:
    """Seat 0's number of ``seat``'s point ``point`` (the mapping is its own inverse)."""
    return point if seat == 0 else (point + 11) % 24 + 1


def board_point(point: int, seat: int, viewer: int) -> int:
    """The label the board drawn from ``viewer``'s side shows on ``seat``'s ``point``."""
    return seat_point(seat_point(point, seat), viewer)


def parse_step(step: str) -> tuple[int, int | None]:
    source, target = step.split("/")
    return int(source), None if target == "off" else int(target)


def step_label(step: str, die: int) -> str:
    """A step as every control writes it: ``24/18 (6)``, ``3/off (4)``, the step in the
    mover's numbering and the die it takes, as the confirmation repeats it."""
    return f"{step} ({die})"


def steps_text(language: str, steps: Sequence[str], seat: int, viewer: int) -> str:
    """Steps of ``seat`` as he writes them ("24/18 18/13"), marked as his numbering when
    the board is drawn from the other player's side (``viewer``)."""
    written = " ".join(steps)
    return written if seat == viewer else t(language, HIS_NUMBERING, steps=written)


def dice_roll(dice: Sequence[int]) -> str:
    """A roll as players write it: "6-5"."""
    return "-".join(str(die) for die in dice)


def dice_left(language: str, dice: Sequence[int]) -> str:
    return ", ".join(str(die) for die in dice) or t(language, NO_DICE)


def point_label(language: str, point: int, checkers: int) -> str:
    """A point of the board's menu with the mover's checkers on it: "Point 13 (2 checkers)"."""
    return tn(
        language,
        "Point {point} ({count} checker)",
        "Point {point} ({count} checkers)",
        checkers,
        point=point,
    )


def chain_text(view: GulbaraView) -> str | None:
    """ "4-4 → 5-5 → 6-6": the double being played and those still to come."""
    if view["stage"] is None or not view["chain"]:
        return None
    return " → ".join(f"{value}-{value}" for value in [view["stage"], *view["chain"]])


def turn_sentence(language: str, turn: GulbaraTurn, names: Sequence[str], viewer: int = 0) -> str:
    """One finished turn, its steps in its mover's numbering (marked so when the board is
    drawn from the other side, ``viewer``'s); an escalation names the last double reached
    (every double between the roll and it was played too)."""
    name, roll = names[turn["seat"]], dice_roll(turn["roll"])
    if turn["passed"]:
        return t(language, TURN_PASSED, name=name, roll=roll)
    steps = steps_text(language, turn["steps"], turn["seat"], viewer)
    if len(turn["stages"]) > 1:
        last = dice_roll([turn["stages"][-1]] * 2)
        return t(language, TURN_ESCALATED, name=name, roll=roll, last=last, steps=steps)
    return t(language, TURN_PLAYED, name=name, roll=roll, steps=steps)


def last_turn(language: str, turn: GulbaraTurn, names: Sequence[str], viewer: int = 0) -> str:
    """The board's reminder of the turn before this one."""
    return t(language, LAST_TURN, turn=turn_sentence(language, turn, names, viewer))


def game_result(language: str, game: GulbaraGameResult, names: Sequence[str]) -> str:
    """One finished game: "Alice wins 2 points: Bob bore off no checker."."""
    winner = game["winner"]
    sentence = WINS_TWO if game["points"] == 2 else WINS_ONE
    return t(language, sentence, winner=names[winner], loser=names[1 - winner])


def result(language: str, view: GulbaraView, names: Sequence[str]) -> str:
    """The game's result, or the match's once a match is over."""
    last = view["last_game"]
    if last is None:
        return t(language, UNDECIDED)
    if view["match_to"] <= 1:
        return game_result(language, last, names)
    winner = view["winner"] if view["winner"] is not None else last["winner"]
    score = view["score"]
    return t(language, WINS_MATCH, winner=names[winner], won=score[winner], lost=score[1 - winner])


def match_standing(language: str, view: GulbaraView, names: Sequence[str]) -> str:
    score = view["score"]
    return t(
        language,
        MATCH_STANDING,
        target=view["match_to"],
        first=names[0],
        first_score=score[0],
        second=names[1],
        second_score=score[1],
        number=view["game_number"],
    )


HINT_PLAY = N_("Play {steps}: {reasons}.")
HINT_WINS = N_("bears off your last checker and wins the game")
HINT_HOME = N_("brings all your checkers home, so you may bear off")
HINT_HEAD = N_("your first checker reaches the opponent's start quarter: every checker may move")
HINT_CHAIN_GOES_ON = N_("the escalation goes on to {double}")
HINT_CHAIN_ENDS = N_("the escalation ends here: this double cannot be played in full")
HINT_BEST = N_("the computer rates it the best play of these dice")


def hint(language: str, advice: GulbaraHint) -> str:
    """The advice of a hint with its reasons, in the numbering of the player it advises
    (the one his menus, panels and typed moves use), e.g. "Play 13/7 11/7: takes point 7:
    the opponent cannot play a 6 any more."."""
    return t(
        language,
        HINT_PLAY,
        steps=" ".join(advice.steps),
        reasons=reasons(language, hint_reasons(language, advice, advice.seat)),
    )


def hint_reasons(language: str, advice: GulbaraHint, viewer: int) -> list[str]:
    """Every reason the play's effects give, the most important first."""
    if advice.wins:
        return [t(language, HINT_WINS)]
    found = []
    if advice.borne_off:
        found.append(
            tn(
                language,
                "bears off {count} checker",
                "bears off {count} checkers",
                advice.borne_off,
            )
        )
    if advice.all_home:
        found.append(t(language, HINT_HOME))
    if advice.head_freed:
        found.append(t(language, HINT_HEAD))
    if advice.new_points:
        found.append(_points_taken(language, advice, viewer))
    if advice.chain_next is not None:
        double = f"{advice.chain_next}-{advice.chain_next}"
        found.append(t(language, HINT_CHAIN_GOES_ON, double=double))
    if advice.chain_ends:
        found.append(t(language, HINT_CHAIN_ENDS))
    return found or [t(language, HINT_BEST)]


def _points_taken(language: str, advice: GulbaraHint, viewer: int) -> str:
    """The points the play takes, and what they do to the opponent's next roll."""
    shown = [board_point(point, advice.seat, viewer) for point in advice.new_points]
    points = listed(language, shown)
    count = len(shown)
    if advice.blocked_dice:
        dice = listed(language, advice.blocked_dice, style="or")
        return tn(
            language,
            "takes point {points}: the opponent cannot play a {dice} any more",
            "takes points {points}: the opponent cannot play a {dice} any more",
            count,
            points=points,
            dice=dice,
        )
    if advice.hindered_dice:
        dice = listed(language, advice.hindered_dice, style="or")
        return tn(
            language,
            "takes point {points}, where the opponent would land with a {dice}",
            "takes points {points}, where the opponent would land with a {dice}",
            count,
            points=points,
            dice=dice,
        )
    return tn(language, "takes point {points}", "takes points {points}", count, points=points)
