"""The ruling's own words in each rulebook language. Article quotes are never translated."""
from __future__ import annotations

LANGS = ("en", "sr", "pl", "ru", "hu")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "ruling": "Ruling", "tournament": "Tournament", "table": "Table", "deal": "Deal", "date": "Date",
        "referee": "Referee", "players": "Players", "rulebook": "Rulebook", "edition": "edition",
        "source": "source", "facts": "Facts found", "no_infraction": "No infraction",
        "no_infraction_text": "The referee finds no violation of the rules.",
        "finding": "Finding", "offender": "Offender", "in_english": "In English", "penalty": "Penalty", "consequence": "Consequence", "values": "Values used", "order": "Order",
        "reading": "Reading of the text", "not_ruled": "Found but not ruled on",
        "not_established": "Claimed but not established",
        "not_established_text": "the facts found meet no article's conditions for it",
        "not_examined_override": "not examined: {winner} settles the deal and sets aside every article on this claim", "not_examined_later": "not examined: raised after the violation under {first}; {rule} rules only on the one committed first",
        "reasoning": "Reasoning", "against": "against {who}", "yes": "yes", "no": "no",
        "missing": "not computed: the answer to the question '{q}' is missing",
        "override": "set aside: {winner} prevails — {why}",
        "later": "not ruled on: committed after the violation under {first}; {rule} rules only on the one committed first",
        "verification": "Verification code", "from_cards": "from the cards",
        "violation": "Violation established; penalty prescribed",
        "violation-no-penalty": "Violation established; no penalty prescribed",
        "rectification": "Irregularity established; rectification ordered",
        "settlement": "Settlement due under the rules (no irregularity)",
        "no-violation": "No violation", "forfeited": "Claim forfeited",
        "undecided": "Not decided by these rules",
    },
    "sr": {
        "ruling": "Odluka sudije", "tournament": "Turnir", "table": "Sto", "deal": "Deljenje", "date": "Datum",
        "referee": "Sudija", "players": "Igrači", "rulebook": "Pravilnik", "edition": "izdanje",
        "source": "izvor", "facts": "Utvrđene činjenice", "no_infraction": "Nema povrede pravila",
        "no_infraction_text": "Sudija utvrđuje da nema povrede pravila igre.",
        "finding": "Nalaz", "offender": "Prekršilac", "in_english": "Na engleskom", "penalty": "Kazna", "consequence": "Posledica", "values": "Korišćene vrednosti", "order": "Nalog",
        "reading": "Tumačenje teksta", "not_ruled": "Utvrđeno, ali se po tome ne sudi",
        "not_established": "Reklamirano, ali nije utvrđeno",
        "not_established_text": "utvrđene činjenice ne ispunjavaju uslove nijednog člana",
        "not_examined_override": "nije razmatrano: {winner} rešava deljenje i isključuje svaki član o ovoj reklamaciji", "not_examined_later": "nije razmatrano: učinjeno posle povrede koju uređuje {first}; {rule} propisuje da se sudi samo po prvoj učinjenoj",
        "reasoning": "Obrazloženje", "against": "na teret: {who}", "yes": "da", "no": "ne",
        "missing": "nije izračunato: nedostaje odgovor na pitanje „{q}“",
        "override": "ne primenjuje se: prednost ima {winner} — {why}",
        "later": "ne sudi se: učinjeno posle povrede koju uređuje {first}; {rule} propisuje da se sudi samo po prvoj učinjenoj",
        "verification": "Kontrolni kod", "from_cards": "iz karata",
        "violation": "Utvrđena povreda; kazna propisana",
        "violation-no-penalty": "Utvrđena povreda; kazna nije propisana",
        "rectification": "Utvrđena nepravilnost; naložena ispravka",
        "settlement": "Obračun po pravilima (bez nepravilnosti)",
        "no-violation": "Nema povrede", "forfeited": "Pravo na reklamaciju izgubljeno",
        "undecided": "Ova pravila to ne uređuju",
    },
    "pl": {
        "ruling": "Orzeczenie", "tournament": "Turniej", "table": "Stół", "deal": "Rozdanie", "date": "Data",
        "referee": "Sędzia", "players": "Gracze", "rulebook": "Regulamin", "edition": "wydanie",
        "source": "źródło", "facts": "Ustalone fakty", "no_infraction": "Brak wykroczenia",
        "no_infraction_text": "Sędzia nie stwierdza naruszenia przepisów.",
        "finding": "Ustalenie", "offender": "Sprawca", "in_english": "Po angielsku", "penalty": "Kara", "consequence": "Skutek", "values": "Użyte wartości", "order": "Polecenie",
        "reading": "Odczytanie tekstu", "not_ruled": "Ustalone, lecz nie rozstrzygane",
        "not_established": "Zgłoszone, lecz nieustalone",
        "not_established_text": "ustalone fakty nie spełniają warunków żadnego przepisu",
        "not_examined_override": "nie rozpatrywano: {winner} rozstrzyga rozdanie i wyłącza każdy przepis dotyczący tego zgłoszenia", "not_examined_later": "nie rozpatrywano: popełnione po wykroczeniu, którego dotyczy {first}; {rule} rozstrzyga tylko o pierwszym popełnionym",
        "reasoning": "Uzasadnienie", "against": "przeciw: {who}", "yes": "tak", "no": "nie",
        "missing": "nie obliczono: brak odpowiedzi na pytanie „{q}”",
        "override": "pominięte: pierwszeństwo ma {winner} — {why}",
        "later": "nie rozstrzygane: popełnione po wykroczeniu, którego dotyczy {first}; {rule} rozstrzyga tylko o pierwszym popełnionym",
        "verification": "Kod weryfikacyjny", "from_cards": "z kart",
        "violation": "Stwierdzono wykroczenie; kara przewidziana",
        "violation-no-penalty": "Stwierdzono wykroczenie; kara nieprzewidziana",
        "rectification": "Stwierdzono nieprawidłowość; nakazano korektę",
        "settlement": "Rozliczenie według przepisów (bez nieprawidłowości)",
        "no-violation": "Brak wykroczenia", "forfeited": "Roszczenie wygasło",
        "undecided": "Te przepisy tego nie rozstrzygają",
    },
    "ru": {
        "ruling": "Решение судьи", "tournament": "Турнир", "table": "Стол", "deal": "Сдача", "date": "Дата",
        "referee": "Судья", "players": "Игроки", "rulebook": "Правила", "edition": "редакция",
        "source": "источник", "facts": "Установленные факты", "no_infraction": "Нарушения нет",
        "no_infraction_text": "Судья не находит нарушения правил.",
        "finding": "Вывод", "offender": "Нарушитель", "in_english": "По-английски", "penalty": "Наказание", "consequence": "Последствие", "values": "Использованные значения", "order": "Указание",
        "reading": "Толкование текста", "not_ruled": "Установлено, но не рассматривается",
        "not_established": "Заявлено, но не установлено",
        "not_established_text": "установленные факты не отвечают условиям ни одного правила",
        "not_examined_override": "не рассматривалось: {winner} решает сдачу и исключает все правила по этой заявке", "not_examined_later": "не рассматривалось: совершено после нарушения, которое регулирует {first}; {rule} предписывает рассматривать только первое совершённое",
        "reasoning": "Обоснование", "against": "против: {who}", "yes": "да", "no": "нет",
        "missing": "не вычислено: нет ответа на вопрос «{q}»",
        "override": "не применяется: преимущественную силу имеет {winner} — {why}",
        "later": "не рассматривается: совершено после нарушения, которое регулирует {first}; {rule} предписывает рассматривать только первое совершённое",
        "verification": "Код проверки", "from_cards": "по картам",
        "violation": "Нарушение установлено; наказание предусмотрено",
        "violation-no-penalty": "Нарушение установлено; наказание не предусмотрено",
        "rectification": "Нарушение установлено; предписано исправление",
        "settlement": "Расчёт по правилам (без нарушения)",
        "no-violation": "Нарушения нет", "forfeited": "Право на наказание утрачено",
        "undecided": "Эти правила этого не решают",
    },
    "hu": {
        "ruling": "Játékvezetői döntés", "tournament": "Verseny", "table": "Asztal", "deal": "Leosztás",
        "date": "Dátum", "referee": "Játékvezető", "players": "Játékosok", "rulebook": "Szabályzat",
        "edition": "kiadás", "source": "forrás", "facts": "Megállapított tények",
        "no_infraction": "Nincs szabálysértés",
        "no_infraction_text": "A játékvezető szabálysértést nem állapít meg.",
        "finding": "Megállapítás", "offender": "Vétkes", "in_english": "Angolul", "penalty": "Büntetés", "consequence": "Következmény", "values": "Felhasznált értékek", "order": "Utasítás",
        "reading": "A szöveg értelmezése", "not_ruled": "Megállapítva, de nem bírálva",
        "not_established": "Reklamálva, de nem megállapítva",
        "not_established_text": "a megállapított tények egyik szabály feltételeinek sem felelnek meg",
        "not_examined_override": "nem vizsgáltuk: a leosztásról döntő szabály, amely kizár minden erre a reklamációra vonatkozó szabályt: {winner}", "not_examined_later": "nem vizsgáltuk: egy korábbi szabálysértés után történt (a vonatkozó szabály: {first}); csak az elsőként elkövetett szabálysértésről kell dönteni (szabály: {rule})",
        "reasoning": "Indoklás", "against": "{who} terhére", "yes": "igen", "no": "nem",
        "missing": "nincs kiszámítva: hiányzik a válasz erre a kérdésre: „{q}”",
        "override": "nem alkalmazandó; az elsőbbséget élvező szabály: {winner} – {why}",
        "later": "nem bírálva: egy korábbi szabálysértés után történt (a vonatkozó szabály: {first}); csak az elsőként elkövetett szabálysértésről kell dönteni (szabály: {rule})",
        "verification": "Ellenőrző kód", "from_cards": "a lapokból",
        "violation": "Szabálysértés megállapítva; büntetés előírva",
        "violation-no-penalty": "Szabálysértés megállapítva; büntetés nincs előírva",
        "rectification": "Szabálytalanság megállapítva; helyesbítés elrendelve",
        "settlement": "Elszámolás a szabályok szerint (szabálytalanság nélkül)",
        "no-violation": "Nincs szabálysértés", "forfeited": "Az igény elveszett",
        "undecided": "Ezek a szabályok ezt nem döntik el",
    },
}


def plural_form(lang: str, amount) -> int:
    """Which of a unit's forms goes with ``amount``: 0 one, 1 few, 2 many (English: 0 one, 1 other).

    Russian and Serbian: 1, 21, 31 … take the first form, 2-4, 22-24 … the second, the rest the
    third; Polish: only 1 takes the first; Hungarian keeps the singular after a number.
    """
    if lang == "hu":
        return 0
    if not isinstance(amount, int) or isinstance(amount, bool):
        return 1                            # a fraction: the 'few' form (2,5 взятки)
    n = abs(amount)
    if lang == "en":
        return 0 if n == 1 else 1
    few = n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14)
    if lang == "pl":
        return 0 if n == 1 else 1 if few else 2
    if lang in ("ru", "sr"):
        return 0 if n % 10 == 1 and n % 100 != 11 else 1 if few else 2
    return 0 if n == 1 else 1


def unit_for(forms, lang: str, amount) -> str:
    """A unit as written in rulebook.yaml (a word, or its forms [one, few, many]) for ``amount``."""
    if isinstance(forms, (list, tuple)):
        if not forms:
            return ""
        return str(forms[min(plural_form(lang, amount), len(forms) - 1)])
    return "" if forms is None else str(forms)


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])
