"""The strings console.js shows (JS has no catalogue): translated on the server, in the
banker's language, when the console page is rendered (``views.js_strings``)."""

from django.utils.translation import gettext_lazy as _

JS_STRINGS = {
    "bank": _("the bank"),
    "game_time": _("Game time"),
    "offline": _("Offline"),
    "offline_queued": _("Offline – %(n)s queued"),
    # A page kept by the service worker, opened without network (HH:MM of the kept state).
    "offline_stale": _("Offline – state as of %(time)s"),
    "offline_stale_one": _("Offline – state as of %(time)s; 1 action waiting"),
    "offline_stale_many": _("Offline – state as of %(time)s; %(n)s actions waiting"),
    "sending": _("Sending %(n)s …"),
    "queued": _("%(n)s queued"),
    "online": _("Online"),
    "checking": _("Asking the rules engine …"),
    "not_checked": _(
        "Offline: the server cannot check this now. It is queued and checked when the "
        "network is back."),
    "confirm": _("Confirm"),
    "sent": _("Recorded"),
    "queued_one": _("Queued (offline): %(label)s"),
    "conflict_title": _("Not recorded – please decide"),
    "conflict_stale": _(
        "The table changed before this was sent (another device, or the server's clock "
        "recorded the auction stop or the time limit)."),
    "conflict_refused": _("The rules engine refused this queued action:"),
    "conflict_closed": _("The table no longer takes this queued action:"),
    "drop": _("Drop this action"),
    "resend": _("Send it against the current state"),
    "reload": _("Reload the page"),
    "session": _("Not allowed: log in again or open the banker link again."),
    "session_kept": _(
        "This action is kept: it is sent once the console is logged in again or opened with "
        "the banker link."),
    "retry": _("Send again"),
    "login_again": _("Log in again"),
    "server_error": _("The server had a problem; it will be tried again."),
    "auction_stop_in": _("Auction stop in"),
    "auction_stop_now": _("Auction stop now"),
    "auction_stop_done": _("Auction stop done"),
    "limit_in": _("Limit in"),
    "extra_minutes": _("+%(minutes)s min (head referee)"),
    "time_up": _("Time is up"),
    "not_started": _("Not started"),
    "paused": _("PAUSED"),
    "game_over": _("Game over"),
    "choose_deed": _("Choose a deed."),
    "choose_player": _("Choose a player."),
    "choose_winner": _("Choose the winner, or “No bid”."),
    "enter_amount": _("Enter an amount."),
    "min_bid": _("The minimum bid is %(n)s."),
    "choose_dice": _("Enter the dice total (2–12)."),
    "no_rent": _("No rent is due on this deed now."),
    "no_rent_jail": _(
        "No rent: %(owner)s is in jail, and under this tournament's rules an owner in jail "
        "collects no rent."
    ),
    "no_rent_mortgaged": _("No rent: %(deed)s is mortgaged."),
    "nothing": _("Nothing to do: nothing was changed."),
    "reason_needed": _("Give a reason."),
    "cash_for_deeds": _("Only the side that receives deeds can pay cash."),
    "trade_needs_deeds": _("Choose the deeds that change hands."),
    "max_deals": _("%(name)s gets only %(n)s more."),
    "refused": _("Refused"),
    "label_start": _("Start the clock"),
    "label_pause": _("Pause"),
    "label_resume": _("Resume"),
    "label_end": _("Last turn played"),
    "label_on_turn": _("On turn at time: %(player)s"),
    "label_turn_played": _("Last turn played: %(player)s"),
    "label_deal": _("%(player)s is dealt %(deeds)s"),
    # the deal's answer, computed in the browser (same words as the server's check)
    "deal_paid": _("%(player)s is dealt %(deed)s and pays %(amount)s to the bank."),
    "deal_free": _("%(player)s is dealt %(deed)s free of charge."),
    # the start sheet, while deeds are ticked on the deal form but not confirmed
    "deal_unbooked_one": _(
        "1 more deed is ticked on the deal but not booked yet: “Confirm the deal” books it."),
    "deal_unbooked_many": _(
        "%(n)s more deeds are ticked on the deal but not booked yet: “Confirm the deal” books "
        "them."),
    "cash_head": _("Cash"),
    "before": _("before"),
    "change": _("change"),
    "after": _("after"),
    "label_buy": _("%(player)s buys %(deed)s"),
    "label_auction": _("Auction of %(deed)s"),
    "label_rent": _("%(player)s pays rent for %(deed)s"),
    "label_pay": _("%(player)s: payment of %(amount)s"),
    "label_buildings": _("%(player)s: buildings"),
    "label_mortgage": _("%(player)s: mortgages"),
    "label_trade": _("Trade %(player)s ↔ %(partner)s"),
    "label_jail": _("%(player)s goes to jail"),
    "label_release": _("%(player)s leaves jail"),
    "label_cash": _("%(player)s: cash %(amount)s"),
    "label_bankrupt": _("%(player)s is bankrupt"),
    "label_void": _("Correction of event %(index)s"),
    "label_count": _("Counted cash"),
}
