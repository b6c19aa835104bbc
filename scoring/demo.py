"""The demo championship: a realistic tournament for trying the product and for benchmarks.

Idempotent: every object is found by its natural key before it is created, so running it twice
changes nothing. A different player count rebuilds the demo tournament from scratch.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from referee import engine_cache, rules
from referee import services as referee_services
from referee.rules.simulate import random_step
from tournament import roles, services
from tournament.models import Club, Player, Table, Tournament

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


#: What each table of round 1 shows, in turn: the demo has every stage of a game at once.
STAGES = ("not_started", "running", "after_auction_stop", "counted", "confirmed")
HEAD_REFEREE_LOGIN = ("mrmonopoly", "demo-referee")
AUCTION_STOP = dt.timedelta(minutes=45)
TIME_LIMIT = dt.timedelta(minutes=90)
DEMO_SKIPS = ("pause", "auction_stop", "time_up", "end")


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


@transaction.atomic
def build_demo(*, players: int = 36, now: dt.datetime | None = None) -> DemoSummary:
    now = now or timezone.now()
    organizers, bankers_group = services.ensure_role_groups()
    organizer = _user(*ORGANIZER_LOGIN, staff=True)
    organizer.groups.add(organizers)
    head_referee = _user(*HEAD_REFEREE_LOGIN)
    head_referee.groups.add(Group.objects.get_or_create(name=roles.HEAD_REFEREES_GROUP)[0])

    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None and existing.players.count() == players:
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
    clubs = [
        Club.objects.get_or_create(name=name, defaults={"short_name": short})[0]
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
    tables = services.seat_round(round_=round_one, seed=1, seconds=2.0)
    for table in tables:
        banker = _user(f"banker{table.number}", BANKER_PASSWORD)
        banker.groups.add(bankers_group)
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
        referee_services.count_result(game_id=game.pk, author=table.banker, now=now)
    if stage == "confirmed":
        game.refresh_from_db()
        referee_services.confirm_result(
            game_id=game.pk, code=game.confirmation_code, by=None, now=now
        )


def _summary(tournament: Tournament, *, created: bool) -> DemoSummary:
    tables = Table.objects.filter(round__tournament=tournament, round__number=1)
    bankers = tables.exclude(banker=None).order_by("number").values_list(
        "banker__username", flat=True
    )
    stages = dict.fromkeys(STAGES, 0)
    for index in range(tables.count()):
        stages[STAGES[index % len(STAGES)]] += 1
    return DemoSummary(
        tournament=tournament,
        created=created,
        players=tournament.players.count(),
        tables=tables.count(),
        bankers=list(bankers),
        stages=stages,
    )
