"""The knowledge language: loading rulebook folders, the rulebook model, conditions, expressions, questions and answers."""
