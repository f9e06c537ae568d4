"""For rule authors: `referee check`, casebooks and the rule-base analyses."""
