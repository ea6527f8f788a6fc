"""Write translations into a .po catalogue from index-keyed dictionaries (a translator's
tool, kept for the next language): ``python scripts/fill_translations.py locale/ru/LC_MESSAGES/django.po
msgids.json part1.py part2.py ...``.  ``msgids.json`` lists the catalogue's msgids in order (a string,
or [singular, plural]); each part defines ``T = {index: translation or [plural forms]}``.
Placeholders (``%(name)s``) must match the msgid's; the script refuses otherwise."""

from __future__ import annotations

import json
import re
import runpy
import sys

import polib

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


def main(po_path: str, msgids_path: str, *parts: str) -> int:
    po = polib.pofile(po_path)
    ids = json.load(open(msgids_path, encoding="utf-8"))
    table: dict[int, object] = {}
    for part in parts:
        table.update(runpy.run_path(part)["T"])
    nplurals = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    by_id = {(e.msgid, e.msgid_plural or None): e for e in po}
    problems = []
    for index, text in sorted(table.items()):
        key = ids[index]
        msgid, plural = (key[0], key[1]) if isinstance(key, list) else (key, None)
        entry = by_id.get((msgid, plural))
        if entry is None:
            problems.append(f"{index}: not in the catalogue: {msgid!r}")
            continue
        wanted = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
        forms = text if isinstance(text, list) else [text]
        for form in forms:
            if set(PLACEHOLDER.findall(form)) - wanted or (plural is None and set(PLACEHOLDER.findall(form)) != wanted):
                problems.append(f"{index}: placeholders differ: {msgid!r} / {form!r}")
        if plural is None:
            entry.msgstr = forms[0]
        else:
            forms = forms + [forms[-1]] * (nplurals - len(forms))
            entry.msgstr_plural = dict(enumerate(forms[:nplurals]))
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    if problems:
        print("\n".join(problems))
        return 1
    po.save(po_path)
    po.save_as_mofile(po_path[:-3] + ".mo")
    missing = [e.msgid for e in po if not e.translated()]
    print(f"{len(table)} written; {len(missing)} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
