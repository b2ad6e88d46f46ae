"""The language of the operator pages, read without Sphinx.

``example_language``  the ``{example}`` blocks: their lines, values and check against the reference
``value_tables``      the values and the notation of the special-values tables, and the types table
``special_values``    the special-values tables as data (``[[special]]`` in the rules files), each row
                      checked against the reference

The site's directives, the formal harness (which states the same examples in Why3), the tests and the
live examples' server all import them from here: they are part of the installed package.
"""
