"""The table machinery every game shares, one job per module, in the order they build on
each other:

- ``components``: buttons and selects whose custom_id survives a restart.
- ``seats``, ``computers``, ``records``, ``private``, ``memory``, ``payload``: who plays
  each seat, computer seats, the fairness record, private messages, what this process
  keeps about a game, a message's payload.
- ``deadlines``: what the machinery knows of the turn clocks.
- ``game_cog``: ``GameCog``, the hooks each game's cog implements, ``Turn`` and
  ``TablePort`` (what a game's cog may ask of the machinery).
- ``lobby_message``, ``turn_lines``, ``board``: the messages a table shows.
- ``delivery``: private views by DM, turn pings.
- ``keeper``: draws table messages and repairs the ones a fault left behind.
- ``results``: resigning, the result announcement and the league's record.
- ``pipeline``: playing a turn, computer seats, saving.
- ``lobby``: opening a table, seats, start and cancel.
- ``clock_verbs``: taking a seat back, pauses.
- ``router``: every click and typed move checked once and handed on.
- ``game_commands``: the `/game` commands.
- ``machinery``: all of them built for one bot.
"""
