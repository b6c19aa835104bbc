"""Translation catalogues for tests: German from a glossary before ``make messages`` merged it."""

from __future__ import annotations

import array
import json
import struct
from contextlib import contextmanager
from pathlib import Path


def write_mo(path: Path, messages: dict[str, str]) -> None:
    """A GNU .mo catalogue (the format msgfmt writes), so no gettext tools are needed."""
    messages = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for key in keys:
        raw_id, raw_str = key.encode(), messages[key].encode()
        offsets.append((len(ids), len(raw_id), len(strs), len(raw_str)))
        ids += raw_id + b"\0"
        strs += raw_str + b"\0"
    key_start = 7 * 4 + 16 * len(keys)
    value_start = key_start + len(ids)
    table = []
    for id_at, id_len, _str_at, _str_len in offsets:
        table += [id_len, id_at + key_start]
    for _id_at, _id_len, str_at, str_len in offsets:
        table += [str_len, str_at + value_start]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + array.array("i", table).tobytes() + ids + strs)


LOCALE = Path(__file__).resolve().parents[1] / "locale"


def _glossary_paths(names: tuple[str, ...]) -> list[Path]:
    if names == ("*",):  # every glossary, in the order ``make messages`` reads them
        return sorted(LOCALE.glob("glossary-de*.json"))
    return [LOCALE / f"glossary-de-{name}.json" for name in names]


def glossary_messages(*names: str, plurals: dict[str, str] | None = None) -> dict[str, str]:
    """The German of ``locale/glossary-de-<name>.json`` (``"*"``: of every glossary) as .mo
    messages; a plural entry (a list in the glossary) needs its English plural msgid from
    ``plurals`` (singular -> plural)."""
    messages: dict[str, str] = {}
    for path in _glossary_paths(names):
        glossary = json.loads(path.read_text("utf-8"))
        for msgid, german in glossary.items():
            if isinstance(german, list):
                if plurals and msgid in plurals:
                    messages[f"{msgid}\0{plurals[msgid]}"] = "\0".join(german)
            else:
                messages[msgid] = german
    return messages


@contextmanager
def german_from_glossaries(folder: Path, *names: str, plurals: dict[str, str] | None = None,
                           behind: bool = False):
    """German from the named glossaries in a catalogue placed before the project's, as it will
    be once ``make messages`` merged them (the .po files are the lead's); ``behind``: after
    the project's, so that it only fills what the compiled catalogue lacks."""
    from django.conf import settings
    from django.test import override_settings

    write_mo(folder / "de" / "LC_MESSAGES" / "django.mo",
             glossary_messages(*names, plurals=plurals))
    paths = [*settings.LOCALE_PATHS, folder] if behind else [folder, *settings.LOCALE_PATHS]
    with override_settings(LOCALE_PATHS=paths):
        yield
