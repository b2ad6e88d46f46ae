"""Live examples: the built site served on loopback, its examples run against the reference on request.

``nox -s serve`` (or ``python -m sonnx_live``) serves docs/_build/html on 127.0.0.1 and
runs the code its pages send, each run in a fresh, limited process. It is tooling,
not part of the reference: it needs only the standard library, and the reference
(numpy, ml_dtypes) in the processes that run the code. It does not need Sphinx: the
site is built by ``nox -s docs``.

``server``  the HTTP server: static files, the token in every page, the checks of who asks
``runner``  one run: a child process, its limits, its output capped, its outcome classified
``child``   what runs in that process (a script run by path: it imports nothing of this package)

Why these checks, and what they do not protect against: the README's "Live examples".
"""
