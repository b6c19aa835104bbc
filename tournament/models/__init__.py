"""Data and invariants of the organizer's domain. Logic that changes them lives in services.

One module per part (the tournament, players, rounds, staff, sign-ups); every name is imported
from here, ``tournament.models``, as migrations and the rest of the code do."""

# isort: off
# In the order the models were declared before the split: Django registers them so (the order
# of reverse relations, of deletions, of dumps).
from tournament.models.base import (
    MAX_ID,
    MAX_TABLE_NUMBER,
    InTournament,
    account_reference,
    tournament_reference,
)
from tournament.models.tournament import (
    Club,
    Format,
    TieBreak,
    TimeLimitMode,
    Tournament,
    default_placement_points,
    default_tie_breaks,
)
from tournament.models.players import (
    PASS_CODE_ALPHABET,
    PASS_CODE_LENGTH,
    PRIVATE_NOTE_MAX,
    Player,
    new_pass_code,
)
from tournament.models.rounds import BankerLink, Round, Seat, Table
from tournament.models.staff import Incident, StaffRole
from tournament.models.signups import Signup, SignupMail, SignupSettings, new_signup_token
# isort: on

__all__ = [
    "MAX_ID",
    "MAX_TABLE_NUMBER",
    "PASS_CODE_ALPHABET",
    "PASS_CODE_LENGTH",
    "PRIVATE_NOTE_MAX",
    "BankerLink",
    "Club",
    "Format",
    "InTournament",
    "Incident",
    "Player",
    "Round",
    "Seat",
    "Signup",
    "SignupMail",
    "SignupSettings",
    "StaffRole",
    "Table",
    "TieBreak",
    "TimeLimitMode",
    "Tournament",
    "account_reference",
    "default_placement_points",
    "default_tie_breaks",
    "new_pass_code",
    "new_signup_token",
    "tournament_reference",
]
