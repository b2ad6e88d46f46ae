"""Brings the translations' catalogues up to date with the English sources (``nox -s catalogues``).

``python -m sonnx_sphinx.catalogues TEMPLATES LOCALES LANGUAGE``: for each template (``.pot``) that the
gettext build wrote in TEMPLATES (one per page, ``site.pot``, ``rules/<operator>.pot``), the catalogue of
the same name in ``LOCALES/LANGUAGE/LC_MESSAGES/`` gains the new messages (untranslated), keeps the
translations of unchanged ones, marks those whose English changed ``fuzzy`` (shown in English until a
translator checks them) and drops the messages the English no longer has. Catalogues without a template
are deleted: their page is gone.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po


def update(templates: Path, locales: Path, language: str) -> list[str]:
    """Updates the catalogues; returns what changed, a line each."""
    folder = locales / language / "LC_MESSAGES"
    if not any(templates.rglob("*.pot")):  # a failed gettext build: never take it for "every page is gone"
        raise SystemExit(f"no template (.pot) in {templates}: run the gettext build first")
    changes = []
    wanted = set()
    for template_path in sorted(templates.rglob("*.pot")):
        name = template_path.relative_to(templates).with_suffix(".po")
        wanted.add(name)
        with template_path.open("rb") as file:
            template = read_po(file)
        path = folder / name
        if path.exists():
            with path.open("rb") as file:
                catalogue = read_po(file, locale=language)
        else:
            catalogue = Catalog(locale=language, project=template.project)
        before = {(m.context, m.id): (m.string, "fuzzy" in m.flags) for m in catalogue if m.id}
        catalogue.update(template, update_header_comment=False)
        after = {(m.context, m.id): (m.string, "fuzzy" in m.flags) for m in catalogue if m.id}
        if before != after or not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as file:
                write_po(file, catalogue, width=0, ignore_obsolete=True, include_previous=True)
            untranslated = sum(1 for m in catalogue if m.id and (not m.string or m.fuzzy))
            changes.append(f"{path.relative_to(locales)}: {untranslated} of {len(after)} to translate")
    for path in sorted(folder.rglob("*.po")):
        if path.relative_to(folder) not in wanted:
            path.unlink()
            changes.append(f"{path.relative_to(locales)}: deleted (no template)")
    return changes


def main(argv: list[str]) -> int:
    templates, locales, language = argv
    for line in update(Path(templates), Path(locales), language):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
