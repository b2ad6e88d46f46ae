"""``python -m sonnx_live``: serve the built site with live examples (``nox -s serve`` runs this)."""

from __future__ import annotations

import argparse
import signal
from pathlib import Path
from types import FrameType

from . import runner
from .runner import Limits
from .server import LiveServer

SITE = Path(__file__).resolve().parent.parent / "docs" / "_build" / "html"


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="nox -s serve --",
        description="Serve the built site on 127.0.0.1; its examples can be edited and run there.",
    )
    parser.add_argument("--port", "-p", type=int, default=8000, help="port on 127.0.0.1 (default 8000)")
    parser.add_argument("--site", type=Path, default=SITE, help="the built site (default docs/_build/html)")
    parser.add_argument(
        "--time-limit", type=float, default=Limits.seconds, help="seconds per run (default 5)"
    )
    parser.add_argument(
        "--memory-limit", type=int, default=Limits.memory_mib, help="MiB per run (default 1024)"
    )
    args = parser.parse_args(argv)
    if args.time_limit <= 0 or args.memory_limit <= 0:
        parser.error("limits are positive")
    if not (args.site / "index.html").is_file():
        parser.error(f"no site in {args.site}: build it with `nox -s docs`")
    limits = Limits(seconds=args.time_limit, memory_mib=args.memory_limit)
    try:
        server = LiveServer(args.site, args.port, limits)
    except OSError as error:
        parser.exit(1, f"cannot listen on 127.0.0.1:{args.port}: {error.strerror}; choose a port: --port N\n")
    # Ctrl-C and a termination both stop it cleanly (a shell may start it with SIGINT ignored).
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    with server:
        print(f"The live site: {server.url}", flush=True)
        print(f"Each run is limited to {limits.describe()}. Ctrl-C stops the server.", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("Stopped.")
        finally:
            runner.stop_all()


if __name__ == "__main__":
    main()
