"""The referee's rules engine: pure Python, no Django.

It knows the board and the rules, applies a table's events one by one, refuses illegal ones
with a reason a banker understands, and answers what the banker needs (rent, costs, net worth,
placements, what a player may do now).

Boards (``board``)
    ``Board``, ``Square``, ``BoardError``, ``get_board(key)`` (built-in: ``classic-de``,
    ``classic-de-dm``), ``load_board(path, *, key=None, name="", money_scale=None)`` (CSV or
    JSON), ``board_from_csv(text, *, key, ...)``, ``board_from_json(data, *, key=None, ...)``,
    ``BOARD_KEYS``.
Rulesets (``rulesets``)
    ``Ruleset`` (frozen; ``.replace(**overrides)``, ``.for_board(board)``), ``RULESETS``,
    ``get_ruleset(key)`` (``karlsruhe``, ``classic``, ``short-game``, ``time-limit``,
    ``castle-short``, ``classic-dm``) and the enums ``MortgagedGroupRent``,
    ``BuildingShortage``, ``EndCondition``, ``WinnerRule``, ``TimeLimitMode``.
Playing (``engine``)
    ``Game(*, players, ruleset="karlsruhe", board=None, ledger=False)`` with ``.apply(event)``,
    ``.check(event)``, ``.extend(events)``, ``.state``, ``.events``, ``.voided``, ``.status``
    (``setup``/``running``/``final_round``/``finished``), ``.end_reason``, ``.to_record()``;
    ``GameState`` (``.snapshot()``, ``.game_time(at)``); ``check_event(state, event)``;
    ``EVENT_TYPES``, ``PROJECT_EVENT_TYPES`` (``end``, ``on_turn``, ``turn_played``), ``BANK``.
Refusals (``errors``, ``codes``)
    ``RuleViolation`` (``.code``, ``.index``, ``.event``, ``.message_de``, ``.message_en``,
    ``.line(lang)``), ``RecordError``, ``RefereeError``, ``CODES`` (the catalogue).
Answers (``queries``)
    ``rent_due(state, deed, *, dice=None)``, ``build_cost``, ``building_sale_value``,
    ``mortgage_value``, ``payoff_cost``, ``interest_due`` (each ``(state, deed)``),
    ``unowned_deeds(state)``, ``net_worth(state, player) -> NetWorth``,
    ``standings(state) -> list[Standing]``, ``legal_actions(state, player)``.
Records (``record``)
    ``FORMAT``, ``parse_record(data, *, boards=None, rulesets=None) -> Record`` (with
    ``.new_game()``), ``replay(record, *, boards=None, rulesets=None) -> Game``,
    ``replay_result(game_or_state) -> dict``. Random legal games for tests and benchmarks:
    ``referee.rules.simulate.random_game`` / ``random_step``.
"""

from referee.rules.board import (
    BOARD_KEYS,
    Board,
    BoardError,
    Square,
    board_from_csv,
    board_from_json,
    get_board,
    load_board,
)
from referee.rules.codes import CODES
from referee.rules.contract import (
    BANK,
    EVENT_TYPES,
    FORMAT,
    PROJECT_EVENT_TYPES,
)
from referee.rules.engine import Game, check_event
from referee.rules.errors import RecordError, RefereeError, RuleViolation
from referee.rules.queries import (
    NetWorth,
    Standing,
    build_cost,
    building_sale_value,
    checks_read,
    interest_due,
    legal_actions,
    mortgage_value,
    net_worth,
    payoff_cost,
    rent_due,
    standings,
    unowned_deeds,
)
from referee.rules.record import (
    Record,
    parse_record,
    replay,
    replay_result,
)
from referee.rules.rulesets import (
    RULESETS,
    BuildingShortage,
    EndCondition,
    MortgagedGroupRent,
    Ruleset,
    TimeLimitMode,
    WinnerRule,
    get_ruleset,
)
from referee.rules.state import GameState

__all__ = [
    "BANK",
    "BOARD_KEYS",
    "CODES",
    "EVENT_TYPES",
    "FORMAT",
    "PROJECT_EVENT_TYPES",
    "RULESETS",
    "Board",
    "BoardError",
    "BuildingShortage",
    "EndCondition",
    "Game",
    "GameState",
    "MortgagedGroupRent",
    "NetWorth",
    "Record",
    "RecordError",
    "RefereeError",
    "RuleViolation",
    "Ruleset",
    "Square",
    "Standing",
    "TimeLimitMode",
    "WinnerRule",
    "board_from_csv",
    "board_from_json",
    "build_cost",
    "building_sale_value",
    "check_event",
    "checks_read",
    "get_board",
    "get_ruleset",
    "interest_due",
    "legal_actions",
    "load_board",
    "mortgage_value",
    "net_worth",
    "parse_record",
    "payoff_cost",
    "rent_due",
    "replay",
    "replay_result",
    "standings",
    "unowned_deeds",
]
