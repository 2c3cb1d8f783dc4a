"""Writing a game move by move: ``replay moves`` (the legal moves of a log) and ``replay play`` (a session).

:mod:`replay.play.moves` lists the legal moves of a table and says why the others are not;
:mod:`replay.play.shortform` reads a move as a person types it (``p6 K2``);
:mod:`replay.play.session` is the interactive session; :mod:`replay.cli.play` the commands.
"""
