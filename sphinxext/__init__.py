"""The site's Sphinx extensions, one concern per module (see conf.py)."""
