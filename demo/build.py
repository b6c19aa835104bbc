"""The demo championship: a realistic tournament for trying the product and for benchmarks.

Idempotent: every object is found by its natural key before it is created, so running it twice
changes nothing. A different player count rebuilds the demo tournament from scratch.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from referee import engine_cache, rules
from referee import results as referee_results
from referee import services as referee_services
from referee.rules.simulate import random_step
from scoring import screens
from scoring.models import HallScreen
from tournament import staff
from tournament.models import (
    Club,
    Player,
    Signup,
    SignupSettings,
    StaffRole,
    Table,
    Tournament,
)
from tournament.rounds import services
from tournament.signup.selectors import email_key

DEMO_SLUG = "demo"
ORGANIZER_LOGIN = ("organizer", "demo-organizer")
BANKER_PASSWORD = "demo-banker"

CLUBS = [
    ("Spielfreunde Durlach", "SF Durlach"),
    ("Monopoly-Club Karlsruhe", "MC KA"),
    ("Brettspieltreff Mühlburg", "BT Mühlburg"),
    ("Würfelglück Knielingen", "WG Knielingen"),
    ("Schlossallee e. V.", "Schlossallee"),
    ("Familie Weißgärber", "Fam. Weißgärber"),
    ("KIT Spieleabend", "KIT"),
    ("Grünwinkler Spielerunde", "GW Spielerunde"),
]
FIRST_NAMES = [
    "Anna", "Ben", "Carla", "Dieter", "Eva", "Frank", "Gül", "Hannes", "Ilse", "Jürgen",
    "Katharina", "Lukas", "Marie", "Niklas", "Özlem", "Paul", "Quirin", "Rosa", "Stefan",
    "Theresa", "Uwe", "Verena", "Wolfgang", "Xenia", "Yusuf", "Zoë", "Björn", "Sören",
    "Jörg", "Änne", "Maximilian", "Sophie", "Leon", "Mia", "Felix", "Hanna", "Jonas",
    "Lea", "Elias", "Lina",
]
LAST_NAMES = [
    "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker",
    "Schulz", "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf",
    "Schröder", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann", "Hartmann",
    "Lange", "Schmitt", "Werner", "Krause", "Meier", "Lehmann", "Weiß", "Jäger", "Groß",
]


@dataclass(frozen=True)
class DemoSummary:
    tournament: Tournament
    created: bool
    players: int
    tables: int
    bankers: list[str]
    stages: dict[str, int]
    hall_screen: str  # its key: /t/<slug>/hall/<key>/
    player_code: str  # a player's personal code (/p/<code>/): the first player, by name
    player_name: str


#: What each table of round 1 shows, in turn: the demo has every stage of a game at once.
STAGES = ("not_started", "running", "after_auction_stop", "counted", "confirmed")
HEAD_REFEREE_LOGIN = ("mrmonopoly", "demo-referee")
DESK_LOGIN = ("desk", "demo-desk")
#: A second organizer with a tournament of their own: sees nothing of the demo.
SECOND_ORGANIZER_LOGIN = ("organizer2", "demo-organizer2")
SECOND_SLUG = "demo-pokal"
#: The tournament with its public sign-up open: every place taken, a short waiting list.
OPEN_SLUG = "demo-open"
OPEN_CAPACITY = 24
OPEN_WAITING = 3
AUCTION_STOP = dt.timedelta(minutes=45)
TIME_LIMIT = dt.timedelta(minutes=90)
DEMO_SKIPS = ("pause", "auction_stop", "time_up", "end")
#: The demo's hall screen (automatic: seating list, clock, standings as the round goes).
HALL_SCREEN = "Halle vorne"


def demo_player_names(count: int) -> list[str]:
    """Distinct, reproducible German names (the RNG is seeded; no two alike)."""
    rng = random.Random(20261128)
    combos = [f"{first} {last}" for last in LAST_NAMES for first in FIRST_NAMES]
    rng.shuffle(combos)
    names = combos[:count]
    suffix = 2
    while len(names) < count:  # more players than name combinations
        names.extend(f"{name} {suffix}" for name in combos[: count - len(names)])
        suffix += 1
    return names


def _user(username: str, password: str, *, staff: bool = False) -> User:
    user, created = User.objects.get_or_create(username=username, defaults={"is_staff": staff})
    if created or not user.check_password(password):
        user.set_password(password)
        user.is_staff = staff
        user.save()
    return user


def _appoint_team(tournament: Tournament) -> None:
    """The demo's staff: an organizer, a head referee and a desk volunteer (bankers come with
    their tables)."""
    for login, role, is_staff in (
        (ORGANIZER_LOGIN, StaffRole.Role.ORGANIZER, True),
        (HEAD_REFEREE_LOGIN, StaffRole.Role.HEAD_REFEREE, False),
        (DESK_LOGIN, StaffRole.Role.DESK, False),
    ):
        staff.ensure_role(tournament=tournament, user=_user(*login, staff=is_staff), role=role)


def _hall_screen(tournament: Tournament) -> None:
    """One screen in the hall, so the demo shows the kiosk pages too (kept on a re-run)."""
    if not HallScreen.objects.filter(tournament=tournament).exists():
        screens.add_screen(tournament=tournament, name=HALL_SCREEN)


def _second_organizers_cup() -> Tournament:
    """Another organizer's tournament in registration: the demo shows that neither sees the other."""
    cup, created = Tournament.objects.get_or_create(
        slug=SECOND_SLUG,
        defaults={
            "name": "Pokal der Spielfreunde (Demo)",
            "date": timezone.localdate(),
            "venue": "Durlach",
            "status": Tournament.Status.REGISTRATION,
        },
    )
    if created:
        Player.objects.bulk_create(
            [Player(tournament=cup, name=name, checked_in=False)
             for name in demo_player_names(8)]
        )
    staff.ensure_role(
        tournament=cup, user=_user(*SECOND_ORGANIZER_LOGIN, staff=True),
        role=StaffRole.Role.ORGANIZER,
    )
    return cup


def _open_cup(now: dt.datetime) -> Tournament:
    """A tournament in two weeks whose public sign-up is open: 24 places, all taken (20 signed
    up online, 4 entered by the organizer), three on the waiting list. Built once (kept on a
    re-run, whatever people signed up since); no mails are sent for the demo's own rows."""
    cup, created = Tournament.objects.get_or_create(
        slug=OPEN_SLUG,
        defaults={
            "name": "Frühjahrsturnier mit Online-Anmeldung (Demo)",
            "date": timezone.localdate(now) + dt.timedelta(days=14),
            "venue": "Karlsruhe, Bürgerzentrum Südstadt",
            "status": Tournament.Status.REGISTRATION,
            "retention_months": 3,
        },
    )
    _appoint_team(cup)
    if not created:
        return cup
    SignupSettings.objects.create(
        tournament=cup, is_open=True, capacity=OPEN_CAPACITY, waiting_list=True,
        closes_at=now + dt.timedelta(days=12), entry_fee="10 € (bar an der Kasse)",
    )
    names = demo_player_names(OPEN_CAPACITY + OPEN_WAITING + 40)[40:]
    rng = random.Random(OPEN_SLUG)
    for index, name in enumerate(names):
        email = f"anmeldung{index + 1}@example.org"
        signed_up = now - dt.timedelta(days=20 - index * 0.5)
        consent = rng.random() < 0.75
        player = None
        if index < OPEN_CAPACITY:
            player = Player.objects.create(tournament=cup, name=name, email=email,
                                           public_name_consent=consent)
        if index < OPEN_CAPACITY - 4 or index >= OPEN_CAPACITY:
            signup = Signup.objects.create(
                tournament=cup, name=name, email=email, email_key=email_key(email),
                public_name_consent=consent, player=player,
                status=Signup.Status.REGISTERED if player else Signup.Status.WAITING,
                confirmed_at=signed_up + dt.timedelta(hours=1),
                waiting_since=None if player else signed_up + dt.timedelta(hours=1),
                fee_paid_at=signed_up + dt.timedelta(days=1) if player and index % 4 == 0
                else None,
            )
            Signup.objects.filter(pk=signup.pk).update(created_at=signed_up)
    return cup


@transaction.atomic
def build_demo(*, players: int = 36, now: dt.datetime | None = None) -> DemoSummary:
    now = now or timezone.now()
    _second_organizers_cup()
    _open_cup(now)
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None and existing.players.count() == players:
        _appoint_team(existing)
        _hall_screen(existing)
        return _summary(existing, created=False)
    if existing is not None:
        existing.delete()

    tournament = Tournament.objects.create(
        slug=DEMO_SLUG,
        name="1. Monopoly Stadtmeisterschaft Karlsruhe (Demo)",
        date=timezone.localdate(now),
        venue="Karlsruhe, Stadthalle",
        ruleset="karlsruhe",
        board="classic-de",
        table_size=6,
        preliminary_rounds=3,
        status=Tournament.Status.RUNNING,
    )
    _appoint_team(tournament)
    _hall_screen(tournament)
    clubs = [
        Club.objects.get_or_create(tournament=tournament, name=name,
                                   defaults={"short_name": short})[0]
        for name, short in CLUBS
    ]
    rng = random.Random(players)
    Player.objects.bulk_create(
        [
            Player(
                tournament=tournament,
                name=name,
                # About a third play for no club; the rest are spread over the clubs.
                club=None if index % 3 == 2 else clubs[index % len(clubs)],
                email=f"spieler{index + 1}@example.org",
                public_name_consent=rng.random() < 0.75,
                checked_in=True,
            )
            for index, name in enumerate(demo_player_names(players))
        ]
    )

    round_one = services.create_round(tournament=tournament)
    tables = services.seat_round(round_=round_one, seed=1, seconds=2.0).tables
    for table in tables:
        banker = _user(f"banker{table.number}", BANKER_PASSWORD)
        services.assign_banker(table=table, banker=banker)
    round_one = services.lock_round(round_=round_one)
    round_one = services.start_round(round_=round_one)
    for index, table in enumerate(tables):
        play_demo_game(table=table, stage=STAGES[index % len(STAGES)], now=now, seed=index)
    return _summary(tournament, created=True)


def _demo_events(
    game: rules.Game, *, rng: random.Random, start: dt.datetime, until: dt.datetime,
    auction_stop: bool, finish: bool,
) -> None:
    """Random legal play from ``start`` on, with the auction stop and the end where due."""
    def choose(options):
        # Table-wide events are the demo's own business: no breaks, stop and limit on time.
        kept = [option for option in options if option not in DEMO_SKIPS]
        return rng.choice(kept or list(options))

    moment = start
    game.apply({"type": "start", "at": start.isoformat()})
    while moment < until and game.status != "finished":
        moment += dt.timedelta(seconds=40)
        played = game.state.game_time(moment) or dt.timedelta()
        if auction_stop and played >= AUCTION_STOP and not game.state.auction_stop:
            game.apply({"type": "auction_stop", "at": moment.isoformat()})
            for deed in rules.unowned_deeds(game.state):
                winner = rng.choice([None, None, *game.state.active_players])
                price = rng.randrange(1, 200) if winner else 0
                game.apply({"type": "auction", "deed": deed, "winner": winner, "price": price,
                            "at": moment.isoformat()})
            continue
        if finish and played >= TIME_LIMIT:
            game.apply({"type": "time_up", "at": moment.isoformat()})
            break
        random_step(game, choose, allow_ending=finish, allow_void=False, at=moment)


def play_demo_game(*, table: Table, stage: str, now: dt.datetime, seed: int) -> None:
    """Give a table's game the history of its stage, every event checked by the engine."""
    if stage == "not_started":
        return
    game = referee_services.ensure_game(table=table)
    minutes = {"running": 25, "after_auction_stop": 60}.get(stage, 100)
    start = now - dt.timedelta(minutes=minutes)
    engine = engine_cache.new_engine(game)
    _demo_events(
        engine, rng=random.Random(seed), start=start, until=now,
        auction_stop=stage != "running", finish=stage in ("counted", "confirmed"),
    )
    referee_services.load_events(game_id=game.pk, events=list(engine.events))
    if stage in ("counted", "confirmed"):
        referee_results.count_result(game_id=game.pk, revision=referee_results.revision_of(game.pk),
                                     author=table.banker, now=now)
    if stage == "confirmed":
        game.refresh_from_db()
        referee_results.confirm_result(
            game_id=game.pk, revision=referee_results.revision_of(game.pk),
            code=game.confirmation_code, by=None, now=now
        )


def _summary(tournament: Tournament, *, created: bool) -> DemoSummary:
    tables = Table.objects.filter(round__tournament=tournament, round__number=1)
    bankers = tables.exclude(banker=None).order_by("number").values_list(
        "banker__username", flat=True
    )
    stages = dict.fromkeys(STAGES, 0)
    for index in range(tables.count()):
        stages[STAGES[index % len(STAGES)]] += 1
    player = tournament.players.order_by("name").first()
    return DemoSummary(
        tournament=tournament,
        created=created,
        players=tournament.players.count(),
        tables=tables.count(),
        bankers=list(bankers),
        stages=stages,
        hall_screen=tournament.hall_screens.order_by("pk").values_list("key", flat=True)[0],
        player_code=player.pass_code,
        player_name=player.name,
    )
