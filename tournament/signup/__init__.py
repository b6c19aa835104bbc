"""Players sign themselves up (issue 30): the tournament's sign-up settings, sign-ups with a
double opt-in, the waiting list that moves up by itself, and the outbox of their e-mails.

Rooms: ``selectors`` (reads: is it open, places left, positions), ``mails`` (messages from
templates in the registrant's language, queued), ``outbox`` (delivery: the Celery task),
``services`` (every write).
"""
