"""The words of the public site's refusals."""

from django.utils.translation import gettext_lazy as _

NO_SUCH_TOURNAMENT = _("There is no public tournament “%(slug)s”.")
