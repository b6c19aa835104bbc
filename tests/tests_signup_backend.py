"""An e-mail backend whose server refuses every message (tests of the outbox's retries)."""

from django.core.mail.backends.base import BaseEmailBackend


class Broken(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise ConnectionRefusedError("connection refused by the test's mail server")
