"""Checks that fail the build with located errors: each module checks one promise of the site."""

from __future__ import annotations

from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger("sonnx_sphinx.lints")


def report(subtype: str, location: str, message: str) -> None:
    """A build error (warnings are errors) at ``path:line`` or at a document."""
    where = location if ":" in Path(location).name else f"{location}:0"  # Sphinx reads "path" as a document
    logger.warning("%s: %s", subtype, message, location=where, type="sonnx", subtype=subtype)
