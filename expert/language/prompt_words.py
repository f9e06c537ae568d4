"""The interview's own words in each rulebook language: prompts, hints, card entry, what an
answer may be. The questions' texts are the rulebooks'; article quotes are never translated."""
from __future__ import annotations

# what undoes the last answer, in any language of the prompts
BACK_WORDS = ("back", "nazad", "назад", "vissza", "wstecz")


def words(table: dict, lang: str) -> dict:
    """``table`` in ``lang``, each word missing there in English."""
    return {**table["en"], **table.get(lang, {})}


INTERVIEW = {
    "en": {"hint": "(? for help, 'back' to undo the last answer)", "summary": "Answers given:",
           "change": "Type a number to change that answer, or press Enter to rule:",
           "undone": "Undid the answer to", "nothing": "Nothing to undo.", "saved": "Answers saved to",
           "resume": "Resume with: referee interview {game} --resume {path}",
           "pick": "expected a number from 1 to {n}, or Enter", "refused": "{raw!r} is not accepted: expected {allowed}",
           "from_cards": "From the cards: {answers} (not asked)",
           "text_skip": "(Enter leaves it out)", "in_english": "In English"},
    "sr": {"hint": "(? za pomoć, „nazad“ za poništavanje poslednjeg odgovora)", "summary": "Dati odgovori:",
           "change": "Upišite broj da promenite taj odgovor, ili pritisnite Enter za odluku:",
           "undone": "Poništen odgovor na", "nothing": "Nema šta da se poništi.",
           "saved": "Odgovori sačuvani u", "resume": "Nastavak: referee interview {game} --resume {path}",
           "pick": "očekuje se broj od 1 do {n}, ili Enter", "refused": "„{raw}“ nije prihvaćeno: očekuje se {allowed}",
           "from_cards": "Iz karata: {answers} (ne pita se)",
           "text_skip": "(Enter ga izostavlja)", "in_english": "Na engleskom"},
    "pl": {"hint": "(? – pomoc, „wstecz” – cofnięcie ostatniej odpowiedzi)", "summary": "Udzielone odpowiedzi:",
           "change": "Wpisz numer odpowiedzi, aby ją zmienić, albo naciśnij Enter, aby wydać orzeczenie:",
           "undone": "Cofnięto odpowiedź na", "nothing": "Nie ma czego cofnąć.",
           "saved": "Odpowiedzi zapisano w", "resume": "Kontynuacja: referee interview {game} --resume {path}",
           "pick": "oczekiwano liczby od 1 do {n} albo Enter", "refused": "„{raw}” nie zostało przyjęte; oczekiwano: {allowed}",
           "from_cards": "Z kart: {answers} (bez pytania)",
           "text_skip": "(Enter pomija)", "in_english": "Po angielsku"},
    "ru": {"hint": "(? — справка, «назад» — отменить последний ответ)", "summary": "Данные ответы:",
           "change": "Введите номер ответа, чтобы изменить его, или нажмите Enter, чтобы вынести решение:",
           "undone": "Отменён ответ на", "nothing": "Нечего отменять.",
           "saved": "Ответы сохранены в", "resume": "Продолжить: referee interview {game} --resume {path}",
           "pick": "ожидается число от 1 до {n} или Enter", "refused": "«{raw}» не принято: ожидается {allowed}",
           "from_cards": "Из карт: {answers} (не спрашивается)",
           "text_skip": "(Enter — пропустить)", "in_english": "По-английски"},
    "hu": {"hint": "(? – súgó, „vissza” – az utolsó válasz visszavonása)", "summary": "Megadott válaszok:",
           "change": "Írja be a módosítandó válasz számát, vagy nyomjon Entert a döntéshez:",
           "undone": "Visszavonva a válasz erre:", "nothing": "Nincs mit visszavonni.",
           "saved": "A válaszok mentve ide:", "resume": "Folytatás: referee interview {game} --resume {path}",
           "pick": "1 és {n} közötti számot vagy Entert várunk", "refused": "„{raw}” nem fogadható el; a várt válasz: {allowed}",
           "from_cards": "A lapokból: {answers} (nem kérdezzük)",
           "text_skip": "(Enter: kihagyás)", "in_english": "Angolul"},
}



CARDS = {
    "en": {"offer": "Do you have the cards (hands and play)? (y/n, ? for help) ",
           "offer_help": "If the hands and the play record are at hand, enter them: the facts they "
                         "show (revoke, lead out of turn, the holdings the articles name) are then "
                         "not asked.",
           "yn": "{raw!r} is not accepted: expected y or n",
           "intro": "The cards: '?' shows the notation; Enter skips what you do not know; 'back' "
                    "undoes the previous entry.",
           "undone": "(back: the previous entry is undone)", "nothing_to_undo": "nothing to go back to",
           "seats": "Seats in order of play, the first to play first (Enter: {default}): ",
           "declarer": "Declarer (N, E, S or W): ", "contract": "Contract: ",
           "no_contract": "(no contract: hands only, no play record)",
           "bids": "Bids, the suit each bid up to (e.g. declarer=karo defender_1=none "
                   "defender_2=herc): ",
           "hand": "Hand of {seat}: ", "talon": "Talon ({n} cards): ", "skat": "Skat ({n} cards): ",
           "discard": "Discard, the {n} cards put away: ",
           "lead": "Who led to trick 1 (Enter: {default}): ",
           "play": "The play, trick by trick: the cards in the order they were played; an empty "
                   "line ends.",
           "trick": "Trick {n}: ", "unfinished": "(an unfinished trick ends the play record)"},
    "sr": {"offer": "Da li imate karte (ruke i tok igre)? (d/n, ? za pomoć) ",
           "offer_help": "Ako su ruke i tok igre pred vama, unesite ih: činjenice koje pokazuju "
                         "(renons, polaz preko reda, kombinacije iz članova) se onda ne pitaju.",
           "yn": "„{raw}“ nije prihvaćeno: očekuje se d ili n",
           "intro": "Karte: „?“ prikazuje zapis; Enter preskače ono što ne znate; „nazad“ "
                    "poništava prethodni unos.",
           "undone": "(nazad: prethodni unos je poništen)", "nothing_to_undo": "nema se gde nazad",
           "seats": "Mesta po redu igranja, prvi na potezu prvi (Enter: {default}): ",
           "declarer": "Odigravač (N, E, S ili W): ", "contract": "Igra: ",
           "no_contract": "(bez igre: samo ruke, bez toka igre)",
           "bids": "Licitacija, boja do koje je ko licitirao (npr. declarer=karo defender_1=none "
                   "defender_2=herc): ",
           "hand": "Ruka: {seat}: ", "talon": "Talon ({n} karte): ", "skat": "Skat ({n} karte): ",
           "discard": "Škart, {n} odbačene karte: ",
           "lead": "Ko je polazio u prvi štih (Enter: {default}): ",
           "play": "Tok igre, štih po štih: karte redom kako su odigrane; prazan red završava.",
           "trick": "Štih {n}: ", "unfinished": "(nezavršen štih završava tok igre)"},
    "pl": {"offer": "Czy masz karty (ręce i przebieg gry)? (t/n, ? – pomoc) ",
           "offer_help": "Jeśli ręce i zapis rozgrywki są pod ręką, wprowadź je: fakty, które z nich "
                         "wynikają (nieobsłużenie koloru, nieuprawnione wybicie, karty, o których "
                         "mówią przepisy), nie będą wtedy pytane.",
           "yn": "„{raw}” nie zostało przyjęte; oczekiwano t lub n",
           "intro": "Karty: „?” pokazuje zapis; Enter pomija to, czego nie wiesz; „wstecz” cofa "
                    "poprzedni wpis.",
           "undone": "(wstecz: poprzedni wpis cofnięty)", "nothing_to_undo": "nie ma czego cofnąć",
           "seats": "Miejsca w kolejności gry: Przodek, Środek, Zadek (Enter: {default}): ",
           "declarer": "Solista (N, E, S lub W): ", "contract": "Gra: ",
           "no_contract": "(bez gry: tylko ręce, bez zapisu rozgrywki)",
           "bids": "Licytacja, kolor, do którego licytował każdy (np. declarer=karo defender_1=none "
                   "defender_2=herc): ",
           "hand": "Ręka: {seat}: ", "talon": "Talon ({n} karty): ", "skat": "Skat ({n} karty): ",
           "discard": "Odłożone karty ({n}): ",
           "lead": "Kto wybił do pierwszego sztychu (Enter: {default}): ",
           "play": "Rozgrywka, sztych po sztychu: karty w kolejności dołożenia; pusty wiersz kończy.",
           "trick": "Sztych {n}: ", "unfinished": "(niespełniony sztych kończy zapis rozgrywki)"},
    "ru": {"offer": "Есть ли у вас карты (руки и ход розыгрыша)? (д/н, ? — справка) ",
           "offer_help": "Если руки и запись розыгрыша под рукой, введите их: факты, которые они "
                         "показывают (фальшренонс, ход вне очереди, карты, названные в правилах), тогда "
                         "не спрашиваются.",
           "yn": "«{raw}» не принято: ожидается д или н",
           "intro": "Карты: «?» показывает запись; Enter пропускает то, чего вы не знаете; «назад» "
                    "отменяет предыдущий ввод.",
           "undone": "(назад: предыдущий ввод отменён)", "nothing_to_undo": "нечего отменять",
           "seats": "Места в порядке игры, первым — первый играющий (Enter: {default}): ",
           "declarer": "Разыгрывающий (N, E, S или W): ", "contract": "Контракт: ",
           "no_contract": "(без контракта: только руки, без записи розыгрыша)",
           "bids": "Торговля, масть, до которой торговался каждый (напр. declarer=karo defender_1=none "
                   "defender_2=herc): ",
           "hand": "Рука: {seat}: ", "talon": "Прикуп ({n} карты): ", "skat": "Скат ({n} карты): ",
           "discard": "Снос, отложенные карты ({n}): ",
           "lead": "Кто сделал ход в первую взятку (Enter: {default}): ",
           "play": "Розыгрыш, взятка за взяткой: карты в том порядке, в котором они сыграны; пустая "
                   "строка завершает.",
           "trick": "Взятка {n}: ", "unfinished": "(незавершённая взятка завершает запись розыгрыша)"},
    "hu": {"offer": "Megvannak a lapok (a kezek és a lejátszás)? (i/n, ? – súgó) ",
           "offer_help": "Ha a kezek és a lejátszás jegyzéke kéznél van, vigye be őket: az általuk "
                         "mutatott tényeket (renonsz, soron kívüli hívás, a szabályokban nevesített "
                         "lapok) ezután nem kérdezzük.",
           "yn": "„{raw}” nem fogadható el; i vagy n a várt válasz",
           "intro": "Lapok: a „?” megmutatja a jelölést; az Enter kihagyja, amit nem tud; a „vissza” "
                    "visszavonja az előző bevitelt.",
           "undone": "(vissza: az előző bevitel visszavonva)", "nothing_to_undo": "nincs mit visszavonni",
           "seats": "Ülések a játék sorrendjében, elöl az elsőként játszó (Enter: {default}): ",
           "declarer": "Felvevő (N, E, S vagy W): ", "contract": "Játék: ",
           "no_contract": "(játék nélkül: csak a kezek, lejátszás nélkül)",
           "bids": "Licit, a szín, ameddig ki-ki licitált (pl. declarer=karo defender_1=none "
                   "defender_2=herc): ",
           "hand": "Lapok: {seat}: ", "talon": "Talon ({n} lap): ", "skat": "Skat ({n} lap): ",
           "discard": "Letett lapok ({n}): ",
           "lead": "Ki hívott az első ütésbe (Enter: {default}): ",
           "play": "A lejátszás ütésenként: a lapok a kijátszás sorrendjében; üres sor zárja.",
           "trick": "{n}. ütés: ", "unfinished": "(a befejezetlen ütés zárja a lejátszást)"},
}


ALLOWED = {
    "en": {"yes": "yes", "no": "no", "yesno": "yes or no", "number": "a whole number", "from": "from {n}", "to": "to {n}",
           "text": "any text", "one": "one of: {values}", "some": "one or more of: {values} (comma-separated)"},
    "sr": {"yes": "da", "no": "ne", "yesno": "da ili ne", "number": "ceo broj", "from": "od {n}", "to": "do {n}",
           "text": "bilo koji tekst", "one": "jedno od: {values}",
           "some": "jedno ili više od: {values} (odvojeno zarezima)"},
    "pl": {"yes": "tak", "no": "nie", "yesno": "tak lub nie", "number": "liczba całkowita", "from": "od {n}", "to": "do {n}",
           "text": "dowolny tekst", "one": "jedno z: {values}",
           "some": "jedno lub więcej z: {values} (oddzielone przecinkami)"},
    "ru": {"yes": "да", "no": "нет", "yesno": "да или нет", "number": "целое число", "from": "от {n}", "to": "до {n}",
           "text": "любой текст", "one": "одно из: {values}",
           "some": "одно или несколько из: {values} (через запятую)"},
    "hu": {"yes": "igen", "no": "nem", "yesno": "igen vagy nem", "number": "egész szám", "from": "legalább {n}", "to": "legfeljebb {n}",
           "text": "tetszőleges szöveg", "one": "egy ezek közül: {values}",
           "some": "egy vagy több ezek közül: {values} (vesszővel elválasztva)"},
}
