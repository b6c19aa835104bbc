"""Translation catalogues for tests: German from a glossary before ``make messages`` merged it."""

from __future__ import annotations

import array
import struct
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
