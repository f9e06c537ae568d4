"""referee: an expert system that settles disputes at card-game tournaments.

Installed under this one name (pyproject.toml maps the repository's root to the package
``referee``): ``referee.cli`` (the command line), ``referee.expert`` (the engine and the tools
around it), ``referee.reports`` (templates and their renderer) and ``referee/knowledge`` (the
rulebooks, as data).
"""
