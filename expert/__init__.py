"""The engine and everything around it, in layers (tests/test_layers.py keeps them so):

- ``language``: the knowledge language (YAML loading, the rulebook model, conditions,
  expressions, question types, answers);
- ``cards``: cards, deals and the facts they show (pure Python);
- ``engine``: compiling productions to Experta and ruling on a set of answers;
- ``records``: ruling records, their seals and the register (depends on ``language`` only);
- ``interview``: what to ask next, the session every front end drives, case files, appeals;
- ``authoring``: checks, casebooks and the rule-base analyses, for rule authors;
- ``console``: the terminal front end of the interview.

A layer imports only from the layers above it in this list; nothing imports a front end.
"""
