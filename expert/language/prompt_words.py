"""The interview's own words in each rulebook language: prompts, hints, card entry, what an
answer may be. The questions' texts are the rulebooks'; article quotes are never translated."""
from __future__ import annotations

# what undoes the last answer, in any language of the prompts
BACK_WORDS = ("back", "nazad", "назад", "vissza", "wstecz")
# what answers "nobody can establish this", in any language of the prompts
UNKNOWN_WORDS = ("unknown", "nepoznato", "ne zna se", "nieznane", "nie wiadomo", "неизвестно",
                 "не установлено", "ismeretlen", "nem tudni")


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
    "en": {"filled": "(filled in: the cards left after the other three hands)", "offer": "Do you have the cards (hands and play)? (y/n, ? for help) ",
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
    "sr": {"filled": "(popunjeno: karte koje ostaju posle ostale tri ruke)", "offer": "Da li imate karte (ruke i tok igre)? (d/n, ? za pomoć) ",
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
    "pl": {"filled": "(uzupełniono: karty pozostałe po trzech pozostałych rękach)", "offer": "Czy masz karty (ręce i przebieg gry)? (t/n, ? – pomoc) ",
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
    "ru": {"filled": "(заполнено: карты, оставшиеся после трёх других рук)", "offer": "Есть ли у вас карты (руки и ход розыгрыша)? (д/н, ? — справка) ",
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
    "hu": {"filled": "(kitöltve: a másik három kéz után maradt lapok)", "offer": "Megvannak a lapok (a kezek és a lejátszás)? (i/n, ? – súgó) ",
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
           "text": "any text", "one": "one of: {values}", "some": "one or more of: {values} (comma-separated)",
           "unknown": "unknown", "or_unknown": "or 'unknown' if nobody can establish it"},
    "sr": {"yes": "da", "no": "ne", "yesno": "da ili ne", "number": "ceo broj", "from": "od {n}", "to": "do {n}",
           "text": "bilo koji tekst", "one": "jedno od: {values}",
           "some": "jedno ili više od: {values} (odvojeno zarezima)",
           "unknown": "nepoznato", "or_unknown": "ili „nepoznato” ako to niko ne može da utvrdi"},
    "pl": {"yes": "tak", "no": "nie", "yesno": "tak lub nie", "number": "liczba całkowita", "from": "od {n}", "to": "do {n}",
           "text": "dowolny tekst", "one": "jedno z: {values}",
           "some": "jedno lub więcej z: {values} (oddzielone przecinkami)",
           "unknown": "nieznane", "or_unknown": "albo „nieznane”, jeśli nikt nie może tego ustalić"},
    "ru": {"yes": "да", "no": "нет", "yesno": "да или нет", "number": "целое число", "from": "от {n}", "to": "до {n}",
           "text": "любой текст", "one": "одно из: {values}",
           "some": "одно или несколько из: {values} (через запятую)",
           "unknown": "неизвестно", "or_unknown": "или «неизвестно», если это невозможно установить"},
    "hu": {"yes": "igen", "no": "nem", "yesno": "igen vagy nem", "number": "egész szám", "from": "legalább {n}", "to": "legfeljebb {n}",
           "text": "tetszőleges szöveg", "one": "egy ezek közül: {values}",
           "some": "egy vagy több ezek közül: {values} (vesszővel elválasztva)",
           "unknown": "ismeretlen", "or_unknown": "vagy „ismeretlen”, ha senki sem tudja megállapítani"},
}


# The session's own words: several events, the parties' requests, facts nobody can establish.
SESSION = {
    "en": {"name": "Name of the player: {seat} (Enter to leave it out):", "name_help": "The names go on the ruling beside the seats; the seat stands for the player when left out.",
           "event": "Event {n}",
           "review": "Type a number to change that answer, '+' if something else happened in this deal, "
                     "'r' to record what a party asks for, or press Enter to rule:",
           "review_pick": "expected a number from 1 to {n}, '+', 'r', or Enter",
           "event_added": "Event {n}: what else happened in this deal?",
           "events_heading": "Events, in the order they happened:",
           "shared_heading": "The deal:",
           "request_party": "Which player asks the referee for something?",
           "request_asks": "What does the player ask for?",
           "request_text": "The request, in the player's words:",
           "request_provision": "The article the player invokes (its label or id; Enter if none):",
           "request_added": "Request recorded.",
           "requests_heading": "Requests:",
           "ask_upheld": "the claim upheld: an irregularity established against the other side",
           "ask_rejected": "the claim rejected: no irregularity established against this player",
           "ask_other": "something else (in the player's words)",
           "ask_provision": "the article applied: {label}",
           "unknown_hint": "'unknown' if nobody can establish it",
           "conditional": "(asked for the case where the unknown fact is so: {facts})",
           "no_article": "no such article: {raw!r}; expected an article's label or id, or Enter"},
    "sr": {"name": "Ime igrača: {seat} (Enter da se izostavi):", "name_help": "Imena se upisuju u odluku pored mesta; ako se izostave, navodi se mesto.",
           "event": "Događaj {n}",
           "review": "Upišite broj da promenite taj odgovor, '+' ako se u ovom deljenju dogodilo još nešto, "
                     "'r' da zabeležite šta igrač traži, ili pritisnite Enter za odluku:",
           "review_pick": "očekuje se broj od 1 do {n}, '+', 'r' ili Enter",
           "event_added": "Događaj {n}: šta se još dogodilo u ovom deljenju?",
           "events_heading": "Događaji, redom kojim su se dogodili:",
           "shared_heading": "Deljenje:",
           "request_party": "Koji igrač nešto traži od sudije?",
           "request_asks": "Šta igrač traži?",
           "request_text": "Zahtev, rečima igrača:",
           "request_provision": "Član na koji se igrač poziva (oznaka ili id; Enter ako nijedan):",
           "request_added": "Zahtev je zabeležen.",
           "requests_heading": "Zahtevi:",
           "ask_upheld": "da se reklamacija usvoji: utvrđena povreda druge strane",
           "ask_rejected": "da se reklamacija odbije: nije utvrđena povreda ovog igrača",
           "ask_other": "nešto drugo (rečima igrača)",
           "ask_provision": "primena člana: {label}",
           "unknown_hint": "„nepoznato” ako to niko ne može da utvrdi",
           "conditional": "(pita se za slučaj da je nepoznata činjenica takva: {facts})",
           "no_article": "nema takvog člana: {raw!r}; očekuje se oznaka ili id člana, ili Enter"},
    "pl": {"name": "Nazwisko gracza: {seat} (Enter, aby pominąć):", "name_help": "Nazwiska trafiają do orzeczenia obok miejsc; gdy ich brak, podaje się miejsce.",
           "event": "Zdarzenie {n}",
           "review": "Wpisz numer, aby zmienić odpowiedź, '+', jeśli w tym rozdaniu wydarzyło się coś "
                     "jeszcze, 'r', aby zapisać żądanie gracza, albo naciśnij Enter, aby wydać orzeczenie:",
           "review_pick": "oczekiwano liczby od 1 do {n}, '+', 'r' albo Enter",
           "event_added": "Zdarzenie {n}: co jeszcze wydarzyło się w tym rozdaniu?",
           "events_heading": "Zdarzenia w kolejności, w jakiej nastąpiły:",
           "shared_heading": "Rozdanie:",
           "request_party": "Który gracz czegoś żąda od sędziego?",
           "request_asks": "Czego żąda gracz?",
           "request_text": "Żądanie słowami gracza:",
           "request_provision": "Przepis, na który powołuje się gracz (oznaczenie lub id; Enter, jeśli żaden):",
           "request_added": "Żądanie zapisano.",
           "requests_heading": "Żądania:",
           "ask_upheld": "uwzględnienie reklamacji: wykroczenie drugiej strony",
           "ask_rejected": "oddalenie reklamacji: brak wykroczenia tego gracza",
           "ask_other": "coś innego (słowami gracza)",
           "ask_provision": "zastosowanie przepisu: {label}",
           "unknown_hint": "„nieznane”, jeśli nikt nie może tego ustalić",
           "conditional": "(pytanie na wypadek, gdyby nieznany fakt był taki: {facts})",
           "no_article": "nie ma takiego przepisu: {raw!r}; oczekiwano oznaczenia lub id przepisu albo Enter"},
    "ru": {"name": "Имя игрока: {seat} (Enter — пропустить):", "name_help": "Имена вносятся в решение рядом с местами; если имя не указано, указывается место.",
           "event": "Событие {n}",
           "review": "Введите номер, чтобы изменить ответ, '+', если в этой сдаче произошло что-то ещё, "
                     "'r', чтобы записать требование игрока, или нажмите Enter, чтобы вынести решение:",
           "review_pick": "ожидается число от 1 до {n}, '+', 'r' или Enter",
           "event_added": "Событие {n}: что ещё произошло в этой сдаче?",
           "events_heading": "События в порядке, в котором они произошли:",
           "shared_heading": "Сдача:",
           "request_party": "Какой игрок чего-то требует от судьи?",
           "request_asks": "Чего требует игрок?",
           "request_text": "Требование словами игрока:",
           "request_provision": "Правило, на которое ссылается игрок (номер или id; Enter, если нет):",
           "request_added": "Требование записано.",
           "requests_heading": "Требования:",
           "ask_upheld": "удовлетворить заявку: нарушение другой стороны установлено",
           "ask_rejected": "отклонить заявку: нарушение этого игрока не установлено",
           "ask_other": "другое (словами игрока)",
           "ask_provision": "применить правило: {label}",
           "unknown_hint": "«неизвестно», если это невозможно установить",
           "conditional": "(вопрос на случай, если неизвестный факт таков: {facts})",
           "no_article": "нет такого правила: {raw!r}; ожидается номер или id правила, или Enter"},
    "hu": {"name": "A játékos neve: {seat} (Enter: kihagyás):", "name_help": "A nevek a döntésbe a helyek mellé kerülnek; ha hiányoznak, a hely szerepel.",
           "event": "{n}. esemény",
           "review": "Írja be a módosítandó válasz számát, '+' jelet, ha ebben a leosztásban más is történt, "
                     "'r' betűt egy játékos kérésének rögzítéséhez, vagy nyomjon Entert a döntéshez:",
           "review_pick": "1 és {n} közötti számot, '+' jelet, 'r' betűt vagy Entert várunk",
           "event_added": "{n}. esemény: mi történt még ebben a leosztásban?",
           "events_heading": "Az események, abban a sorrendben, ahogy történtek:",
           "shared_heading": "A leosztás:",
           "request_party": "Melyik játékos kér valamit a játékvezetőtől?",
           "request_asks": "Mit kér a játékos?",
           "request_text": "A kérés a játékos szavaival:",
           "request_provision": "A szabály, amelyre a játékos hivatkozik (jelölése vagy azonosítója; Enter, ha nincs):",
           "request_added": "A kérés rögzítve.",
           "requests_heading": "Kérések:",
           "ask_upheld": "a reklamáció elfogadása: a másik fél szabálysértése megállapítva",
           "ask_rejected": "a reklamáció elutasítása: e játékos szabálysértése nincs megállapítva",
           "ask_other": "más (a játékos szavaival)",
           "ask_provision": "a szabály alkalmazása: {label}",
           "unknown_hint": "„ismeretlen”, ha senki sem tudja megállapítani",
           "conditional": "(arra az esetre kérdezzük, ha az ismeretlen tény így áll: {facts})",
           "no_article": "nincs ilyen szabály: {raw!r}; a szabály jelölését vagy azonosítóját, vagy Entert várunk"},
}
