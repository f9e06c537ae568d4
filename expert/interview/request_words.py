"""The words of the review's 'rule' choice and of a request's follow-up questions, in every
language of the interview (the rest of the session's words: language/prompt_words.py).

A request's follow-ups depend on its kind (an effect with an amount asks how much, one that
lasts asks how long, a free-text request asks the article): they are announced before the first
one, so a referee typing ahead knows which answers go where.
"""
from __future__ import annotations

# What rules at the review: the English word in every language, and the language's own. An
# empty line never rules (blind walk 8: a stray Enter registered two rulings).
RULE_WORDS = {"en": "rule", "sr": "odluka", "pl": "orzeczenie", "ru": "решение", "hu": "döntés"}


def is_rule_word(raw: str) -> bool:
    return raw.strip().lower() in {w.lower() for w in RULE_WORDS.values()}


WORDS = {
    "en": {"on_short": "on", "amount_short": "amount", "follow_one": "One more question: {steps}.", "follow_many": "{n} more questions: {steps}.",
           "step_event": "which event", "step_on": "whom", "step_amount": "how much", "step_scope": "how long",
           "step_text": "the player's words", "step_provision": "the article",
           "request_event": "Which event does the request concern? (a number from 1 to {n}; Enter: event {k})",
           "event_expected": "an event's number from 1 to {n}, or Enter (event {k})",
           "player_expected": "a player: {seats} (a seat or a name; a number is not a player)",
           "words_expected": "the player's words (a number alone is not a request; Enter leaves them out)",
           "words_required": "the player's words (a number alone is not a request)",
           "review_empty": "Nothing chosen: type 'rule' to rule."},
    "sr": {"on_short": "na", "amount_short": "iznos", "follow_one": "Još jedno pitanje: {steps}.", "follow_many": "Još {n} pitanja: {steps}.",
           "step_event": "koji događaj", "step_on": "na koga", "step_amount": "koliko", "step_scope": "koliko dugo",
           "step_text": "reči igrača", "step_provision": "član",
           "request_event": "Na koji se događaj zahtev odnosi? (broj od 1 do {n}; Enter: događaj {k})",
           "event_expected": "broj događaja od 1 do {n}, ili Enter (događaj {k})",
           "player_expected": "igrač: {seats} (mesto ili ime; broj nije igrač)",
           "words_expected": "reči igrača (sam broj nije zahtev; Enter ih izostavlja)",
           "words_required": "reči igrača (sam broj nije zahtev)",
           "review_empty": "Ništa nije izabrano: upišite 'odluka' za odluku."},
    "pl": {"on_short": "na", "amount_short": "ile", "follow_one": "Jeszcze jedno pytanie: {steps}.", "follow_many": "Jeszcze pytania ({n}): {steps}.",
           "step_event": "które zdarzenie", "step_on": "kogo", "step_amount": "ile", "step_scope": "na jak długo",
           "step_text": "słowa gracza", "step_provision": "przepis",
           "request_event": "Którego zdarzenia dotyczy żądanie? (numer od 1 do {n}; Enter: zdarzenie {k})",
           "event_expected": "numer zdarzenia od 1 do {n} albo Enter (zdarzenie {k})",
           "player_expected": "gracz: {seats} (miejsce albo nazwisko; liczba nie jest graczem)",
           "words_expected": "słowa gracza (sama liczba nie jest żądaniem; Enter pomija)",
           "words_required": "słowa gracza (sama liczba nie jest żądaniem)",
           "review_empty": "Nic nie wybrano: wpisz 'orzeczenie', aby wydać orzeczenie."},
    "ru": {"on_short": "на", "amount_short": "сколько", "follow_one": "Ещё один вопрос: {steps}.", "follow_many": "Ещё вопросов: {n} — {steps}.",
           "step_event": "какое событие", "step_on": "кого", "step_amount": "сколько", "step_scope": "на какой срок",
           "step_text": "слова игрока", "step_provision": "правило",
           "request_event": "Какого события касается требование? (число от 1 до {n}; Enter: событие {k})",
           "event_expected": "номер события от 1 до {n} или Enter (событие {k})",
           "player_expected": "игрок: {seats} (место или имя; число — не игрок)",
           "words_expected": "слова игрока (одно число — не требование; Enter — пропустить)",
           "words_required": "слова игрока (одно число — не требование)",
           "review_empty": "Ничего не выбрано: введите 'решение', чтобы вынести решение."},
    "hu": {"on_short": "kire", "amount_short": "mennyi", "follow_one": "Még egy kérdés: {steps}.", "follow_many": "Még {n} kérdés: {steps}.",
           "step_event": "melyik esemény", "step_on": "kire", "step_amount": "mennyi", "step_scope": "meddig",
           "step_text": "a játékos szavai", "step_provision": "a szabály",
           "request_event": "Melyik eseményre vonatkozik a kérés? (szám 1 és {n} között; Enter: {k}. esemény)",
           "event_expected": "az esemény száma 1 és {n} között, vagy Enter ({k}. esemény)",
           "player_expected": "egy játékos: {seats} (ülés vagy név; a szám nem játékos)",
           "words_expected": "a játékos szavai (egy szám önmagában nem kérés; Enter: kihagyás)",
           "words_required": "a játékos szavai (egy szám önmagában nem kérés)",
           "review_empty": "Nincs választás: a döntéshez írja be: 'döntés'."},
}


def words(lang: str) -> dict:
    return WORDS.get(lang) or WORDS["en"]
