"""The catalogue of refusal codes: one stable snake_case code per rule, German and English text.

Codes are the contract with the console and the archive (they never change meaning); the texts
are for the banker and name the real deeds. Templates use ``str.format`` with the parameters a
refusal carries; a parameter may be a ``Localized`` value or a nested refusal (``cause``).
"""

from __future__ import annotations

from typing import NamedTuple


class Text(NamedTuple):
    de: str
    en: str


CODES: dict[str, Text] = {
    # ---- malformed events and records
    "malformed_event": Text("Das Ereignis ist kein JSON-Objekt", "the event is not a JSON object"),
    "unknown_event_type": Text("Unbekannter Ereignistyp „{type}“", "unknown event type '{type}'"),
    "missing_field": Text("Das Feld „{field}“ fehlt", "the field '{field}' is missing"),
    "wrong_type": Text(
        "Das Feld „{field}“ muss {expected} sein", "the field '{field}' must be {expected}"
    ),
    "unknown_player": Text(
        "„{player}“ spielt an diesem Tisch nicht mit", "'{player}' does not play at this table"
    ),
    "unknown_deed": Text(
        "„{deed}“ gibt es auf diesem Spielplan nicht", "'{deed}' is not on this board"
    ),
    "not_a_deed": Text(
        "{deed} ist kein Grundstück, das man besitzen kann", "{deed} is not a deed anyone can own"
    ),
    "not_a_street": Text(
        "{deed} ist keine Straße – nur Straßen werden bebaut",
        "{deed} is not a street — only streets take buildings",
    ),
    # {field} names the amount in words ("Die Zahlung" / "the payment"): the console shows these
    "amount_too_large": Text(
        "{field} ist zu groß: höchstens {maximum}, nicht {value}",
        "{field} is too large: at most {maximum}, not {value}",
    ),
    "bad_amount": Text(
        "{field} muss eine ganze Zahl ab {minimum} sein, nicht {value}",
        "{field} must be a whole number of at least {minimum}, not {value}",
    ),
    "bad_time": Text(
        "„{at}“ ist keine Uhrzeit nach ISO 8601 mit Zeitzone",
        "'{at}' is not an ISO 8601 time with an offset",
    ),
    "time_goes_backwards": Text(
        "Die Zeit läuft rückwärts: {at} liegt vor {previous}",
        "time goes backwards: {at} is before {previous}",
    ),
    "same_party": Text(
        "{party} kann nicht mit sich selbst handeln oder zahlen",
        "{party} cannot trade with or pay themselves",
    ),
    "bad_record": Text(
        "Die Partie-Datei ist ungültig: {reason}", "the game record is invalid: {reason}"
    ),
    # ---- flow of the game
    "not_started": Text(
        "Das Spiel hat noch nicht begonnen – zuerst „start“ (vorher nur das Austeilen)",
        "the game has not started — record 'start' first (only deals come before it)",
    ),
    "already_started": Text("Das Spiel läuft bereits", "the game has already started"),
    "game_over": Text(
        "Das Spiel ist beendet – jetzt nur noch Bargeldzählungen und Korrekturen",
        "the game is over — only cash counts and voids are accepted now",
    ),
    "already_paused": Text("Das Spiel ist bereits unterbrochen", "the game is already paused"),
    "not_paused": Text("Das Spiel ist nicht unterbrochen", "the game is not paused"),
    "player_bankrupt": Text(
        "{player} ist bankrott und spielt nicht mehr mit",
        "{player} is bankrupt and out of the game",
    ),
    # ---- set-up deals
    "deals_not_allowed": Text(
        "Nach den Regeln „{ruleset}“ werden zu Beginn keine Besitzrechtkarten ausgeteilt",
        "the '{ruleset}' rules deal no deeds at the start",
    ),
    "deal_limit": Text(
        "{player} hat schon {limit} Besitzrechtkarten erhalten – mehr werden nicht ausgeteilt",
        "{player} has already been dealt {limit} deeds — no more are dealt",
    ),
    "deal_after_setup": Text(
        "Besitzrechtkarten werden nur vor dem ersten Spielzug ausgeteilt",
        "deeds are dealt only before play begins",
    ),
    # ---- deeds, purchase and auction
    "deed_already_owned": Text(
        "{deed} gehört bereits {owner}", "{deed} already belongs to {owner}"
    ),
    "deed_unowned": Text("{deed} gehört noch der Bank", "{deed} still belongs to the bank"),
    "not_owner": Text(
        "{deed} gehört {owner}, nicht {player}", "{deed} belongs to {owner}, not {player}"
    ),
    "auction_stop_pending": Text(
        "Auktionsstopp: {deed} wird versteigert, nicht mehr zum aufgedruckten Preis verkauft",
        "auction stop: {deed} must be auctioned, it is no longer sold at the printed price",
    ),
    "auction_required": Text(
        "{deed} ist durch einen Bankrott an die Bank gefallen und muss versteigert werden",
        "{deed} came back to the bank through a bankruptcy and must be auctioned",
    ),
    "auction_below_min_bid": Text(
        "Das Mindestgebot ist {minimum}, {price} reicht nicht",
        "the minimum bid is {minimum}, {price} is too low",
    ),
    "auction_price_without_winner": Text(
        "Ohne Gebot bleibt {deed} bei der Bank – der Preis muss 0 sein, nicht {price}",
        "with no bid {deed} stays with the bank — the price must be 0, not {price}",
    ),
    "no_auction_stop": Text(
        "Nach den Regeln „{ruleset}“ gibt es keinen Auktionsstopp",
        "the '{ruleset}' rules have no auction stop",
    ),
    "auction_stop_too_early": Text(
        "Der Auktionsstopp kommt erst nach {minimum} Spielzeit, jetzt sind es {game_time}",
        "the auction stop comes at {minimum} game time, it is only {game_time}",
    ),
    "auction_stop_repeated": Text(
        "Der Auktionsstopp wurde bereits ausgerufen", "the auction stop has already been called"
    ),
    # ---- building
    "incomplete_group": Text(
        "{player} besitzt nicht die ganze Farbgruppe {group}: {missing} fehlt",
        "{player} does not own the whole {group} group: {missing} is missing",
    ),
    "mortgaged_in_group": Text(
        "{mortgaged} ist mit einer Hypothek belastet – auf der ganzen Farbgruppe wird nicht gebaut",
        "{mortgaged} is mortgaged — nothing may be built anywhere in its group",
    ),
    "owner_in_jail": Text(
        "{player} sitzt im Gefängnis und darf nicht bauen (verkaufen ist erlaubt)",
        "{player} is in jail and may not build (selling is allowed)",
    ),
    "uneven_building": Text(
        "Ungleichmäßig gebaut: {other} hat {other_level}, {deed} {deed_level}",
        "uneven building — {other} has {other_level}, {deed} {deed_level}",
    ),
    "max_buildings": Text(
        "Auf {deed} steht schon ein Hotel – mehr geht nicht",
        "{deed} already has a hotel — nothing more can be built",
    ),
    "no_houses_left": Text(
        "Die Bank hat kein Haus mehr (alle {supply} stehen auf dem Brett)",
        "the bank has no house left (all {supply} are on the board)",
    ),
    "no_hotels_left": Text(
        "Die Bank hat kein Hotel mehr (alle {supply} stehen auf dem Brett)",
        "the bank has no hotel left (all {supply} are on the board)",
    ),
    "building_auction_not_allowed": Text(
        "Versteigert wird nur das letzte Haus der Bank; die Bank hat noch {houses}",
        "only the bank's last house is auctioned; the bank still has {houses}",
    ),
    "no_building": Text("Auf {deed} steht kein Gebäude", "there is no building on {deed}"),
    "uneven_selling": Text(
        "Ungleichmäßig verkauft: {other} hat {other_level}, {deed} {deed_level}",
        "uneven selling — {other} has {other_level}, {deed} {deed_level}",
    ),
    "no_houses_for_hotel": Text(
        "Für das Hotel auf {deed} muss die Bank {needed} Häuser zurückgeben, sie hat {houses}",
        "selling the hotel on {deed} needs {needed} houses from the bank, it has {houses}",
    ),
    # ---- mortgages
    "already_mortgaged": Text(
        "{deed} ist bereits mit einer Hypothek belastet", "{deed} is already mortgaged"
    ),
    "not_mortgaged": Text(
        "{deed} ist nicht mit einer Hypothek belastet", "{deed} is not mortgaged"
    ),
    "buildings_in_group": Text(
        "In der Farbgruppe von {deed} stehen Gebäude ({built}) – erst an die Bank verkaufen",
        "there are buildings in {deed}'s group ({built}) — sell them to the bank first",
    ),
    # ---- trades
    "trade_without_deeds": Text(
        "Ein Handel ohne Grundstücke wäre ein Darlehen – Geld leihen ist verboten",
        "a trade without deeds would be a loan — lending between players is forbidden",
    ),
    "duplicate_deed": Text("{deed} steht zweimal in der Liste", "{deed} is listed twice"),
    "not_transferred": Text(
        "{deed} wechselt hier nicht den Besitzer", "{deed} does not change hands here"
    ),
    # ---- jail
    "already_in_jail": Text("{player} sitzt schon im Gefängnis", "{player} is already in jail"),
    "not_in_jail": Text("{player} sitzt nicht im Gefängnis", "{player} is not in jail"),
    # ---- money
    "insufficient_cash": Text(
        "{player} hat nur {cash}, braucht aber {amount}",
        "{player} has only {cash} but needs {amount}",
    ),
    # ---- bankruptcy
    "unmortgage_to_bank": Text(
        "Die Bank nimmt die Grundstücke hypothekenfrei zurück – es gibt nichts abzulösen",
        "the bank takes the deeds back free of mortgage — there is nothing to pay off",
    ),
    "unmortgage_moot": Text(
        "Mit diesem Bankrott endet das Spiel – die Hypotheken bleiben, wie sie sind",
        "this bankruptcy ends the game — mortgages stay as they are",
    ),
    # ---- time
    "no_time_limit": Text(
        "Nach den Regeln „{ruleset}“ gibt es kein Zeitlimit",
        "the '{ruleset}' rules have no time limit",
    ),
    "time_up_too_early": Text(
        "Das Zeitlimit von {minimum} ist nicht erreicht, Spielzeit {game_time}",
        "the time limit of {minimum} is not reached, game time is {game_time}",
    ),
    "already_final_round": Text(
        "Die letzte Runde läuft bereits", "the final round is already being played"
    ),
    "not_final_round_turn": Text(
        "Wer am Zug ist, zählt nur in der letzten Runde nach dem Zeitlimit",
        "turns are only marked in the final round after the time limit",
    ),
    "final_turns_unknown": Text(
        "Erst festhalten, wer beim Zeitlimit am Zug war",
        "first record who was on turn at the time limit",
    ),
    "final_turns_known": Text(
        "Wer beim Zeitlimit am Zug war, ist schon festgehalten",
        "who was on turn at the time limit is already recorded",
    ),
    "not_their_turn": Text(
        "{player} ist nicht dran – als Nächstes spielt {expected} den letzten Zug",
        "{player} is not next: {expected} plays their last turn first",
    ),
    "not_final_round": Text(
        "„end“ schließt nur die letzte Runde nach dem Zeitlimit ab",
        "'end' only closes the final round after the time limit",
    ),
    # ---- corrections
    "bad_event_index": Text(
        "Ereignis {target} gibt es nicht – korrigiert werden nur frühere Ereignisse (0 bis {last})",
        "there is no event {target} — only earlier events (0 to {last}) can be voided",
    ),
    "void_of_void": Text("Eine Korrektur kann nicht korrigiert werden", "a void cannot be voided"),
    "void_of_start": Text(
        "Der Spielbeginn kann nicht gestrichen werden", "the start cannot be voided"
    ),
    "already_voided": Text(
        "Ereignis {target} ist bereits gestrichen", "event {target} is already voided"
    ),
    "void_breaks_later_event": Text(
        "Ohne Ereignis {target} wäre ein späteres Ereignis unzulässig – {cause}",
        "without event {target} a later event would be refused — {cause}",
    ),
}


def text(code: str) -> Text:
    """The texts of a code (KeyError for an uncatalogued code: every refusal must be listed)."""
    return CODES[code]
