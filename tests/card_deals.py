"""Deals shared by the card tests."""

# A full preferans deal in herc. Seats in order of play; defender_1 is first to play.
PREFERANS = {
    "seats": ["defender_1", "defender_2", "declarer"],
    "declarer": "declarer",
    "contract": "herc",
    "hands": {
        "declarer": "♥AKQJ10 ♠AK ♦A ♣A7",
        "defender_1": "♥987 ♠QJ10 ♦KQJ ♣K",
        "defender_2": "♠987 ♦10987 ♣QJ10",
    },
    "talon": "♣98",
    "discard": "♣98",
    "play": [
        "♣K ♣Q ♣A",          # declarer wins
        "♣7 ♠10 ♣J",         # defender_1 void in clubs, holds hearts, does not trump
    ],
}
