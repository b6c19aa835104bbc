"""Delivering the outbox: one Celery task per message, taking its id.

Idempotent: the row is locked while it is sent and a sent message is never sent again (a
redelivered task finds it sent). A failure is recorded on the row (the organizer's outbox
page shows it) and retried with growing pauses; the sign-up sweep queues again what the broker
never took and what failed fewer than :data:`MAX_ATTEMPTS` times.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from config.queue import enqueue
from tournament.models import SignupMail

logger = logging.getLogger("tournament.signup")

MAX_ATTEMPTS = 5


def deliver(*, mail_id: int) -> str:
    """Send one message unless it was sent already; returns its status afterwards."""
    with transaction.atomic():
        mail = SignupMail.objects.select_for_update().filter(pk=mail_id).first()
        if mail is None:  # erased (or the sign-up expired) before the worker came to it
            return "gone"
        if mail.status == SignupMail.Status.SENT:
            return mail.status
        message = EmailMessage(subject=mail.subject, body=mail.body,
                               from_email=settings.DEFAULT_FROM_EMAIL, to=[mail.to],
                               headers={"Auto-Submitted": "auto-generated"})
        mail.attempts += 1
        try:
            message.send(fail_silently=False)
        except Exception as error:  # noqa: BLE001 - any backend error: recorded, retried
            logger.warning("mail %s to the outbox's %s failed: %s", mail.pk, mail.kind, error)
            mail.status = SignupMail.Status.FAILED
            mail.error = f"{type(error).__name__}: {error}"[:300]
        else:
            mail.status = SignupMail.Status.SENT
            mail.sent_at = timezone.now()
            mail.error = ""
        mail.save(update_fields=["status", "attempts", "error", "sent_at"])
        return mail.status


@shared_task(bind=True, name="tournament.send_signup_mail", max_retries=MAX_ATTEMPTS - 1)
def send_signup_mail(self, mail_id: int) -> str:
    status = deliver(mail_id=mail_id)
    if status == SignupMail.Status.FAILED and not self.request.is_eager:
        raise self.retry(countdown=30 * 2**self.request.retries)
    return status


def send_after_commit(mail: SignupMail) -> None:
    """Queue the message once the row that holds it is committed (the worker must see it)."""
    mail_id = mail.pk
    transaction.on_commit(lambda: enqueue(send_signup_mail, mail_id))
