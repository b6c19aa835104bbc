"""The API's parsers: DRF's, refusing text no field can store (see :mod:`config.inputs`).

Default for every API view (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``); views that pick
their parsers pick these.
"""

from __future__ import annotations

from rest_framework import parsers


def _check(data) -> None:
    # Imported here: DRF reads its settings, and so this module, while config.errors (which
    # config.inputs needs) is still importing rest_framework.views.
    from .inputs import check_text

    check_text(data)


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        _check(data)
        return data


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        _check(dict(data.lists()))
        return data


class MultiPartParser(parsers.MultiPartParser):
    """Form fields are checked; uploaded files are the importers' business."""

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        _check(dict(parsed.data.lists()))
        return parsed
