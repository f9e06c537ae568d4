"""The terminal front end of the interview: prompts, help, review, card entry."""
