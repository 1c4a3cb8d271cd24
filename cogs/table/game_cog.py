"""``GameCog``: what every game's cog shares, and the hooks each game fills in.

A game's cog subclasses ``GameCog[ItsState]`` with its spec, colour, rules text, picture
and command help; the base gives it the ``new``, ``rules`` and ``move`` commands (``new``
takes the spec's table options), the board picture, the rules embed and its place in the
registry. It reaches the table machinery only through ``TablePort``, which the machinery
hands it when the bot is built.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, Interaction
from cogs.language import private_language, sentence
from cogs.render_pool import RenderJob
from cogs.table.components import LESSON_TABLE, TableButton, Target, view_of
from cogs.table.computers import LEVEL_HELP, Level
from cogs.table.deadlines import CLOCK_HELP, CLOCK_OPTIONS
from cogs.table.payload import MessagePayload, PrivateView
from cogs.table.private import PrivateMessages
from data import Table
from games import DEFAULT_LEVEL, GameSpec, GameState
from games.proof import computer_seed
from texts.common import full_rules
from texts.i18n import ENGLISH, N_, command_name, t
from texts.lessons import lesson_of

S = TypeVar("S", bound=GameState)

UNKNOWN_CONTROL = N_("Unknown control.")
LEARN = "learn"
"""The verb of the Learn button under a game's rules (its argument: the game's key)."""
LEARN_LABEL = N_("Learn {game} step by step")

Picture = Callable[[Any, Sequence[str], "str | None", str], bytes]
"""A game's board picture: its public view, the seat names, a headline and the
table's language -> PNG."""


@dataclass(frozen=True)
class Step(Generic[S]):
    """One action a seat played: the state it was played in and the state it led to."""

    seat: int
    before: S
    action: str
    after: S


@dataclass(frozen=True)
class TurnLine:
    """One turn told under the board, with the seat that played it."""

    seat: int
    text: str


@dataclass
class Turn(Generic[S]):
    """One click on a game's own control, already checked to come from a seated player."""

    interaction: Interaction
    table: Table
    state: S
    seat: int
    target: Target
    values: list[str] = field(default_factory=list)


class TablePort(Protocol):
    """What a game's cog may ask of the table machinery."""

    @property
    def private(self) -> PrivateMessages:
        """The players' newest private menus and confirmations."""

    async def play(
        self, turn: Turn[Any], actions: Sequence[str], *, done: str | None = None
    ) -> None:
        """Apply the seat's actions, let computers answer, save and redraw."""

    async def text_move(self, interaction: Interaction, kind: str, notation: str) -> None:
        """A move typed in the game's notation."""

    async def open_table(
        self,
        interaction: Interaction,
        kind: str,
        *,
        options: dict[str, Any],
        invited: discord.abc.User | None,
        computers: int,
        level: str,
        clock: int | None,
    ) -> None:
        """Answer `/<game> new` with a lobby (or the board, when the seats are full)."""

    async def table_in_channel(self, channel_id: int) -> Table | None:
        """The open table of a channel, if any."""

    async def learn(self, interaction: Interaction, kind: str) -> None:
        """Answer `/<game> learn`: the member's lesson of the game, privately."""


class GameCog(commands.GroupCog, Generic[S]):
    """Base class of a game's Discord adapter: subclass as
    ``class XCog(GameCog[XState], name="X", group_name="x", group_description="…")``."""

    registry: ClassVar[dict[str, type[GameCog[Any]]]] = {}
    """Every game's cog class by its game's key, filled as the classes are defined."""

    spec: ClassVar[GameSpec[Any]]
    colour: ClassVar[discord.Colour] = discord.Colour.blurple()
    rules_text: ClassVar[str]
    """The rules in short, for `/<game> rules` (an English sentence of the catalogue)."""
    move_help: ClassVar[str]
    """What `/<game> move` does, with an example (in the catalogue)."""
    notation_help: ClassVar[str]
    """The notation `/<game> move` takes (in the catalogue)."""
    picture: Picture

    new: ClassVar[app_commands.Command[Any, Any, None]]
    """`/<game> new`, built from the spec's options for each game (``new_command``)."""
    rules: ClassVar[app_commands.Command[Any, Any, None]]
    """`/<game> rules`, described with the game's title (``rules_command``)."""
    move: ClassVar[app_commands.Command[Any, Any, None]]
    """`/<game> move notation:`, described with the game's help (``move_command``)."""
    learn: ClassVar[app_commands.Command[Any, Any, None]]
    """`/<game> learn`, for a game that has a lesson (``learn_command``)."""

    private_label: ClassVar[str] = ""
    """Label of the board button that shows a seat its private view, an English sentence
    of the catalogue: required when the spec has hidden information (checked when the
    cogs are found), and only then."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "spec" in cls.__dict__:
            GameCog.registry[cls.spec.key] = cls
            # Set before discord.py's CogMeta collects the class's commands: each game's
            # commands carry its own (translatable) descriptions.
            cls.rules = rules_command(cls.spec)
            cls.move = move_command(cls.move_help, cls.notation_help)
            if lesson_of(cls.spec.key) is not None:
                cls.learn = learn_command(cls.spec)
            _after_rules_and_move(cls)
            cls.new = new_command(cls.spec)

    def __init__(self, bot: Host, tables: TablePort) -> None:
        self.bot = bot
        self.tables = tables

    async def show_rules(self, interaction: Interaction) -> None:
        """The rules in short, with a Learn button when the game has a lesson."""
        language = private_language(interaction)
        embed = self.rules_embed(language)
        if lesson_of(self.spec.key) is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        learn = TableButton(
            Target(LESSON_TABLE, 0, LEARN, self.spec.key),
            label=t(language, LEARN_LABEL, game=self.spec.title),
            emoji="🎓",
            style=discord.ButtonStyle.primary,
        )
        await interaction.response.send_message(
            embed=embed, view=view_of([learn]), ephemeral=True
        )

    async def move_typed(self, interaction: Interaction, notation: str) -> None:
        await self.tables.text_move(interaction, self.spec.key, notation)

    async def new_table(self, interaction: Interaction, chosen: dict[str, Any]) -> None:
        """Answer `/<game> new` with the options the player chose (``new_command``)."""
        options = {option.name: chosen[option.name] for option in self.spec.options}
        clock = chosen["clock"].value if chosen["clock"] is not None else None
        if self.spec.max_players == 2:
            level = chosen["computer"]
            await self.open_table(
                interaction,
                options=options,
                invited=None if level else chosen["opponent"],
                computers=1 if level else 0,
                level=level or DEFAULT_LEVEL,
                clock=clock,
            )
        else:
            await self.open_table(
                interaction,
                options=options,
                computers=chosen["computers"],
                level=chosen["computer_level"],
                clock=clock,
            )

    async def open_table(
        self,
        interaction: Interaction,
        *,
        options: dict[str, Any],
        invited: discord.abc.User | None = None,
        computers: int = 0,
        level: str = DEFAULT_LEVEL,
        clock: int | None = None,
    ) -> None:
        """Answer `/<game> new` with a lobby (or the board, when the seats are full)."""
        await self.tables.open_table(
            interaction,
            self.spec.key,
            options=options,
            invited=invited,
            computers=computers,
            level=level,
            clock=clock,
        )

    # ---- hooks a game may fill in ---------------------------------------------------------

    def notation_actions(self, state: S, notation: str) -> list[str]:
        """The actions a `/<game> move` text stands for (IllegalAction to refuse it)."""
        return [notation.strip()]

    def typed_action(self, action: str) -> str:
        """An action of the rules as a player types it in `/<game> move` (reviews and
        puzzles show actions so); the inverse of ``notation_actions``."""
        return action

    def render_job(self, table: Table, state: S, headline: str | None) -> RenderJob:
        """How to draw the public board: a picklable call that returns PNG bytes."""
        arguments = (state.view(None), table.names, headline, table.language)
        return RenderJob(type(self).picture, arguments)

    def render(self, table: Table, state: S, headline: str | None) -> bytes:
        """PNG bytes of the public board, drawn here."""
        return self.render_job(table, state, headline).run()

    def rules_embed(self, language: str = ENGLISH) -> discord.Embed:
        full = full_rules(language, self.spec.key, self.bot.rules_url)
        return discord.Embed(
            title=t(language, "{game}: the rules in short", game=self.spec.title),
            description=f"{t(language, self.rules_text)}\n{full}",
            colour=self.colour,
        )

    def turn_controls(self, table: Table, state: S) -> list[discord.ui.Item[Any]]:
        """Components on the board message for the seat to act (a human)."""
        return []

    async def on_turn_component(self, turn: Turn[S]) -> None:
        """A click on one of this game's controls by the seat whose turn it is."""
        await turn.interaction.response.send_message(
            t(private_language(turn.interaction), UNKNOWN_CONTROL), ephemeral=True
        )

    def status_text(self, table: Table, state: S) -> str:
        return ""

    def result_text(self, table: Table, state: S) -> str:
        return t(table.language, "The game is over.")

    def private_payload(self, table: Table, state: S, seat: int, language: str) -> PrivateView:
        """Message keyword arguments showing ``seat`` what only it may see, in the
        language of the member who reads it."""
        raise NotImplementedError

    def private_closed(self, table: Table, before: S, after: S, language: str) -> str:
        """What a private message about ``before``'s purpose says once that purpose is
        over (``after`` is the state the game went on to, or ended in): it keeps its
        picture and loses its controls."""
        raise NotImplementedError

    def private_purpose(self, state: S) -> str:
        """What a private DM is about: each purpose gets one DM, edited as it changes."""
        return "private"

    def private_recipients(self, table: Table, before: S | None, after: S) -> list[int]:
        """Seats that should get their private view by DM after this change."""
        return []

    def narrate(self, table: Table, before: S, action: str, after: S) -> list[str]:
        """Sentences telling the channel what a seat's ``action`` did."""
        seat = before.current_player
        name = table.seats[seat].name if seat is not None else "?"
        return [t(table.language, "{name}: {move}", name=name, move=before.describe(action))]

    def turn_lines(self, table: Table, steps: Sequence[Step[S]]) -> list[TurnLine]:
        """One line per turn that ``steps`` played, in order, never two turns in one line.
        By default every action is a turn of its own; a game whose turn takes several
        actions groups them."""
        return [
            TurnLine(step.seat, " ".join(self.narrate(table, step.before, step.action, step.after)))
            for step in steps
        ]

    async def after_play(self, turn: Turn[S], table: Table, after: S, done: str | None) -> None:
        """Called once for each play that landed (never for a refused or outdated one),
        after the board is redrawn and before the next player is pinged: the place for a
        game's own summaries and follow-up menus. ``turn.state`` is the state before."""

    async def finished_part(self, table: Table, before: S, after: S) -> MessagePayload | None:
        """The channel's record of a part of the game (a deal, a round) that the change
        from ``before`` to ``after`` finished, or None. The board it finished on turns into
        this record, and the board is posted anew below it, so the live board stays the
        channel's newest message."""
        return None

    def typed_confirmation(
        self, table: Table, state: S, actions: Sequence[str], language: str
    ) -> str | None:
        """The private note saying what a move typed with `/<game> move` did, when the
        game can say more than "You played …" (a roll's number, say); None otherwise.
        Called before the move is checked: None for actions the rules refuse."""
        return None

    def automatic_action(self, state: S) -> str | None:
        """A human seat's action that plays itself (e.g. a forced move), or None to wait
        for the player."""
        return None

    def hint_offered(self, state: S) -> bool:
        """Whether the seat to act has a choice a hint can help with (drawing the board
        asks, so this must be quick)."""
        return len(state.legal_actions()) > 1

    def hint(self, table: Table, state: S, language: str) -> str:
        """The normal computer's choice for the seat to act and why, as advice in
        ``language`` ("Tip to 4 and move knight 3 c2–c3: captures knights 2 and 5.").
        Runs off the event loop; the choice must come from what that seat may see."""
        action = self.spec.bot_action(state, seed=hint_seed(table), level=DEFAULT_LEVEL)
        return t(language, "The computer would play {move}.", move=action)


def hint_seed(table: Table, step: int = 0) -> int:
    """The seed of a hint's ``step``-th decision: the one the computer would get for it
    if it played the seat from the table's current version, so a hint is the normal
    computer's own choice (and gives nothing about the dice away)."""
    return computer_seed(table.seed, table.version + step)


def _after_rules_and_move(cls: type[GameCog[Any]]) -> None:
    """Move the game's own commands after `rules`, `move` and `learn`: Discord lists a
    group's subcommands in the order the bot syncs them, which follows the class's
    attributes."""
    own = [
        name
        for name, value in cls.__dict__.items()
        if isinstance(value, app_commands.Command) and name not in ("rules", "move", LEARN)
    ]
    for name in own:
        command = cls.__dict__[name]
        delattr(cls, name)
        setattr(cls, name, command)


def rules_command(spec: GameSpec[Any]) -> app_commands.Command[Any, Any, None]:
    """`/<key> rules`: the rules in short, privately."""

    async def rules(self: GameCog[Any], interaction: Interaction) -> None:
        await self.show_rules(interaction)

    rules.__qualname__ = f"GameCog.{rules.__name__}"
    description = sentence(N_("How to play {game}"), game=spec.title)
    return app_commands.command(name=command_name("rules"), description=description)(rules)


def learn_command(spec: GameSpec[Any]) -> app_commands.Command[Any, Any, None]:
    """`/<key> learn`: the game taught step by step, privately."""

    async def learn(self: GameCog[Any], interaction: Interaction) -> None:
        await self.tables.learn(interaction, self.spec.key)

    learn.__qualname__ = f"GameCog.{learn.__name__}"
    description = sentence(N_("Learn {game} step by step in a private lesson"), game=spec.title)
    return app_commands.command(name=command_name("learn"), description=description)(learn)


def move_command(move_help: str, notation_help: str) -> app_commands.Command[Any, Any, None]:
    """`/<key> move notation:`: a move typed in the game's notation."""

    async def move(self: GameCog[Any], interaction: Interaction, notation: str) -> None:
        await self.move_typed(interaction, notation)

    move.__qualname__ = f"GameCog.{move.__name__}"
    described = app_commands.describe(notation=sentence(notation_help))(move)
    renamed = app_commands.rename(notation=command_name("notation"))(described)
    return app_commands.command(name=command_name("move"), description=sentence(move_help))(
        renamed
    )


def new_command(spec: GameSpec[Any]) -> app_commands.Command[Any, Any, None]:
    """`/<key> new` with a parameter for each of the spec's table options, after the
    seats: an invited opponent or one computer for a two-player game, otherwise a number
    of computer seats."""
    parameters: list[tuple[str, Any, Any, app_commands.locale_str]]
    if spec.max_players == 2:
        parameters = [
            (
                command_name("opponent"),
                discord.Member | None,
                None,
                sentence(N_("Invite one player (only they can take the seat)")),
            ),
            (
                command_name("computer"),
                Level | None,
                None,
                sentence(N_("Play against the computer right away, at this level")),
            ),
        ]
    else:
        computers = app_commands.Range[int, 0, spec.max_players - 1]
        parameters = [
            (
                command_name("computers"),
                computers,
                0,
                sentence(N_("Computer players to seat at once (more can be added in the lobby)")),
            ),
            (command_name("computer_level"), Level, DEFAULT_LEVEL, sentence(LEVEL_HELP)),
        ]
    offered: dict[str, list[app_commands.Choice[Any]]] = {"clock": CLOCK_OPTIONS}
    for option in spec.options:
        kind: Any = bool
        if option.choices:
            kind = str
            offered[option.name] = [
                app_commands.Choice(name=sentence(choice.name), value=choice.value)
                for choice in option.choices
            ]
        elif not isinstance(option.default, bool):
            kind = app_commands.Range[int, option.minimum, option.maximum]
        parameters.append((option.name, kind, option.default, sentence(option.description)))
    parameters.append(
        (command_name("clock"), app_commands.Choice[int] | None, None, sentence(CLOCK_HELP))
    )

    async def new(self: GameCog[Any], interaction: Interaction, /, **chosen: Any) -> None:
        await self.new_table(interaction, chosen)

    keyword = inspect.Parameter.KEYWORD_ONLY
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature(
        [
            inspect.Parameter("self", positional),
            inspect.Parameter("interaction", positional, annotation=discord.Interaction),
            *(
                inspect.Parameter(name, keyword, annotation=kind, default=default)
                for name, kind, default, _ in parameters
            ),
        ]
    )
    # discord.py reads a command's parameters from its callback's signature and binds a
    # callback defined in a class to the cog: this one is built per game, so say both.
    new.__qualname__ = f"GameCog.{new.__name__}"
    vars(new)["__signature__"] = signature
    described = app_commands.describe(**{name: text for name, _, _, text in parameters})(new)
    with_choices = app_commands.choices(**offered)(described)
    if spec.min_players != spec.max_players:
        description = sentence(
            N_("Open a {game} table in this channel ({minimum}–{maximum} players)"),
            game=spec.title,
            minimum=spec.min_players,
            maximum=spec.max_players,
        )
    else:
        description = sentence(N_("Open a {game} table in this channel"), game=spec.title)
    return app_commands.command(name=command_name("new"), description=description)(with_choices)


class GameCogs:
    """This bot's game cogs by their game's key: every part of the table machinery that
    draws, tells or asks a game's cog finds it here."""

    def __init__(self) -> None:
        self._by_kind: dict[str, GameCog[Any]] = {}

    def add(self, cog: GameCog[Any]) -> None:
        self._by_kind[cog.spec.key] = cog

    def __getitem__(self, kind: str) -> GameCog[Any]:
        try:
            return self._by_kind[kind]
        except KeyError:
            raise LookupError(f"no cog for game {kind!r}") from None
