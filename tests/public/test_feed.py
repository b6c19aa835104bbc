"""The event feed in words: every event type of the game record (and ``end``) in German and
English, with and without the engine's state; free text and unconsented names never leak.

German comes from ``locale/glossary-de-public.json``, compiled here into a temporary catalogue
placed before the project's, so these tests do not depend on the .po files being merged yet.
"""

from __future__ import annotations

from pathlib import Path

from referee import rules
from referee.feed import describe_event, format_clock

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"1": "Anna", "2": "Ben", "3": "Carla", "4": "Dieter"}
BOARD = rules.get_board("classic-de")


def game(*events, ruleset="classic", ledger=False, players=("1", "2", "3", "4")):
    played = rules.Game(players=players, ruleset=ruleset, ledger=ledger)
    played.extend([{"type": "start"}, *events])
    return played


def say(event, language, *, state=None, **kwargs):
    return describe_event(event, names=NAMES, board=BOARD, language=language, state=state,
                          **kwargs)


def both(event, **kwargs):
    return say(event, "de", **kwargs), say(event, "en", **kwargs)


DARK_BLUE = [{"type": "buy", "player": "1", "deed": "parkstrasse"},
             {"type": "buy", "player": "1", "deed": "schlossallee"}]
FOUR_HOUSES_EACH = [{"type": "build", "deed": deed}
                    for _ in range(4) for deed in ("parkstrasse", "schlossallee")]


# --------------------------------------------------------------------------- each event type


def test_clock_events():
    assert both({"type": "start"}) == ("Spiel gestartet", "Game started")
    assert both({"type": "pause"}) == ("Pause: die Uhr steht", "Break: the clock stops")
    assert both({"type": "resume"}) == ("Das Spiel geht weiter", "Play resumes")
    assert both({"type": "auction_stop"}, clock="45:00") == (
        "Auktionsstopp (45:00)", "Auction stop (45:00)")
    assert both({"type": "auction_stop"}) == ("Auktionsstopp", "Auction stop")
    assert both({"type": "time_up"}) == ("Zeit abgelaufen", "Time is up")
    final_round = rules.get_ruleset("karlsruhe").replace(
        time_limit_mode="finish_round", time_limit_minutes=60)
    state = rules.Game(players=("1", "2", "3"), ruleset=final_round).state
    assert both({"type": "time_up"}, state=state) == (
        "Zeit abgelaufen: die letzte Runde beginnt", "Time is up: the last round of turns begins")
    assert both({"type": "end"}) == (
        "Spielende nach der letzten Runde", "Game over after the last round of turns")


def test_deals_purchases_and_auctions():
    assert both({"type": "deal", "player": "1", "deed": "badstrasse"}) == (
        "Anna erhält Badstraße (Verteilung)", "Anna is dealt Badstraße")
    assert both({"type": "buy", "player": "1", "deed": "schlossallee"}) == (
        "Anna kauft Schlossallee für 400", "Anna buys Schlossallee for 400")
    assert both({"type": "auction", "deed": "turmstrasse", "winner": "2", "price": 40}) == (
        "Auktion: Ben ersteigert Turmstraße für 40", "Auction: Ben wins Turmstraße for 40")
    assert both({"type": "auction", "deed": "turmstrasse", "winner": None, "price": 0}) == (
        "Auktion: kein Gebot für Turmstraße, bleibt bei der Bank",
        "Auction: no bid for Turmstraße, it stays with the bank")


def test_the_board_gives_the_price_in_its_own_money():
    dm = rules.get_board("classic-de-dm")
    text = describe_event({"type": "buy", "player": "1", "deed": "schlossallee"}, names=NAMES,
                          board=dm, language="de")
    assert text == "Anna kauft Schlossallee für 8.000"
    assert describe_event({"type": "buy", "player": "1", "deed": "schlossallee"}, names=NAMES,
                          board=dm, language="en") == "Anna buys Schlossallee for 8,000"


def test_buildings_name_the_owner_and_tell_house_from_hotel():
    before_house = game(*DARK_BLUE).state
    assert both({"type": "build", "deed": "schlossallee"}, state=before_house) == (
        "Anna baut ein Haus auf Schlossallee", "Anna builds a house on Schlossallee")
    before_hotel = game(*DARK_BLUE, *FOUR_HOUSES_EACH).state
    assert both({"type": "build", "deed": "schlossallee"}, state=before_hotel) == (
        "Anna baut ein Hotel auf Schlossallee", "Anna builds a hotel on Schlossallee")
    with_hotel = game(*DARK_BLUE, *FOUR_HOUSES_EACH, {"type": "build", "deed": "schlossallee"})
    assert both({"type": "sell_building", "deed": "schlossallee"}, state=with_hotel.state) == (
        "Anna verkauft das Hotel auf Schlossallee", "Anna sells the hotel on Schlossallee")
    assert both({"type": "sell_building", "deed": "parkstrasse"}, state=before_hotel) == (
        "Anna verkauft ein Haus auf Parkstraße", "Anna sells a house on Parkstraße")
    # without the state nobody can know whose street it is
    assert both({"type": "build", "deed": "schlossallee"}) == (
        "Ein Gebäude mehr auf Schlossallee", "One building more on Schlossallee")
    assert both({"type": "sell_building", "deed": "schlossallee"}) == (
        "Ein Gebäude weniger auf Schlossallee", "One building less on Schlossallee")
    auctioned = both({"type": "build", "deed": "schlossallee", "price": 250}, state=before_house)
    assert auctioned == ("Anna baut ein Haus auf Schlossallee (ersteigert für 250)",
                         "Anna builds a house on Schlossallee (auctioned for 250)")


def test_mortgages():
    owned = game(*DARK_BLUE).state
    assert both({"type": "mortgage", "deed": "parkstrasse"}, state=owned) == (
        "Anna nimmt eine Hypothek auf Parkstraße auf", "Anna mortgages Parkstraße")
    assert both({"type": "unmortgage", "deed": "parkstrasse"}, state=owned) == (
        "Anna löst die Hypothek auf Parkstraße ab", "Anna pays off the mortgage on Parkstraße")
    assert both({"type": "mortgage", "deed": "parkstrasse"}) == (
        "Parkstraße wird mit einer Hypothek belastet", "Parkstraße is mortgaged")
    assert both({"type": "unmortgage", "deed": "parkstrasse"}) == (
        "Die Hypothek auf Parkstraße ist abgelöst", "The mortgage on Parkstraße is paid off")


def test_trades():
    deeds = {"type": "trade", "from": "1", "to": "2", "deeds": ["badstrasse", "turmstrasse",
                                                                "suedbahnhof"], "cash": 1500}
    assert both(deeds) == (
        "Handel: Anna gibt Badstraße, Turmstraße und Südbahnhof an Ben für 1.500",
        "Trade: Anna gives Badstraße, Turmstraße and Südbahnhof to Ben for 1,500")
    assert both({"type": "trade", "from": "1", "to": "2", "deeds": ["badstrasse"]}) == (
        "Handel: Anna gibt Badstraße an Ben", "Trade: Anna gives Badstraße to Ben")
    assert both({"type": "trade", "from": "1", "to": "2", "deeds": [], "cash": 100}) == (
        "Handel: Ben zahlt 100 an Anna", "Trade: Ben pays 100 to Anna")


def test_jail():
    assert both({"type": "jail", "player": "3"}) == (
        "Carla muss ins Gefängnis", "Carla goes to jail")
    assert both({"type": "release", "player": "3"}) == (
        "Carla verlässt das Gefängnis", "Carla leaves jail")
    assert both({"type": "release", "player": "3", "fine": True}) == (
        "Carla zahlt die Strafe und verlässt das Gefängnis", "Carla pays the fine and leaves jail")


def test_payments_never_show_the_bankers_free_text():
    rent = {"type": "pay", "from": "1", "to": "2", "amount": 2000, "reason": "Miete Frau X"}
    assert both(rent) == ("Anna zahlt 2.000 an Ben", "Anna pays 2,000 to Ben")
    assert both({"type": "pay", "from": "1", "to": "bank", "amount": 200}) == (
        "Anna zahlt 200 an die Bank", "Anna pays 200 to the bank")
    assert both({"type": "pay", "from": "bank", "to": "4", "amount": 200}) == (
        "Die Bank zahlt 200 an Dieter", "The bank pays 200 to Dieter")


def test_cash_counts_show_the_amount_only_in_ledger_mode():
    count = {"type": "cash", "player": "4", "amount": 1234}
    assert both(count) == ("Bargeld von Dieter gezählt", "Cash of Dieter counted")
    assert both(count, state=game().state) == ("Bargeld von Dieter gezählt",
                                               "Cash of Dieter counted")
    assert both(count, state=game(ledger=True).state) == (
        "Bargeld von Dieter gezählt: 1.234", "Cash of Dieter counted: 1,234")
    assert both(count, ledger=True)[1] == "Cash of Dieter counted: 1,234"


def test_bankruptcies():
    assert both({"type": "bankrupt", "player": "3", "creditor": "1"}) == (
        "Carla ist bankrott (an Anna)", "Carla is bankrupt (to Anna)")
    assert both({"type": "bankrupt", "player": "3", "creditor": "bank"}) == (
        "Carla ist bankrott (an die Bank)", "Carla is bankrupt (to the bank)")


def test_corrections_name_what_they_cancel_but_not_why():
    void = {"type": "void", "event": 7, "reason": "Ben hat sich vertan"}
    assert both(void) == ("Korrektur: Ereignis Nr. 7 ist gestrichen",
                          "Correction: event no. 7 is cancelled")
    target = {"type": "buy", "player": "1", "deed": "schlossallee"}
    assert both(void, target=target) == (
        "Korrektur: „Anna kauft Schlossallee für 400“ ist gestrichen",
        "Correction: “Anna buys Schlossallee for 400” is cancelled")
    assert say(void, "en", target="Anna builds a house on Schlossallee") == (
        "Correction: “Anna builds a house on Schlossallee” is cancelled")
    assert "vertan" not in " ".join(both(void, target=target))


def test_every_event_type_of_the_record_has_words():
    samples = {
        "start": {}, "pause": {}, "resume": {}, "auction_stop": {}, "time_up": {}, "end": {},
        "deal": {"player": "1", "deed": "badstrasse"},
        "buy": {"player": "1", "deed": "badstrasse"},
        "auction": {"deed": "badstrasse", "winner": "1", "price": 10},
        "build": {"deed": "badstrasse"}, "sell_building": {"deed": "badstrasse"},
        "mortgage": {"deed": "badstrasse"}, "unmortgage": {"deed": "badstrasse"},
        "trade": {"from": "1", "to": "2", "deeds": ["badstrasse"]},
        "jail": {"player": "1"}, "release": {"player": "1"},
        "pay": {"from": "1", "to": "2", "amount": 5}, "cash": {"player": "1", "amount": 5},
        "bankrupt": {"player": "1", "creditor": "bank"}, "void": {"event": 1, "reason": "x"},
        "on_turn": {"player": "1"}, "turn_played": {"player": "1"},
    }
    assert set(samples) == set(rules.EVENT_TYPES) | set(rules.PROJECT_EVENT_TYPES)
    for kind, fields in samples.items():
        for language in ("de", "en"):
            text = say({"type": kind, **fields}, language)
            assert text and not text.startswith(("Event:", "Ereignis:")), (kind, language)
            assert "%(" not in text


def test_unknown_and_malformed_events_do_not_break_the_feed():
    assert both({"type": "teleport"}) == ("Ereignis: teleport", "Event: teleport")
    assert both(["buy"]) == ("Unlesbares Ereignis", "Unreadable event")
    # an unknown player key or deed is shown as it is rather than failing
    assert say({"type": "buy", "player": "99", "deed": "mondstrasse"}, "en") == "99 buys mondstrasse"


def test_game_clock_format():
    assert format_clock(0) == "0:00"
    assert format_clock(45 * 60) == "45:00"
    assert format_clock(105 * 60 + 12.9) == "105:12"
    assert format_clock(None) == ""
