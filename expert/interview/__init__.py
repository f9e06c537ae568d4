"""The interview: what to ask next, case files, answers from the cards, appeals."""
