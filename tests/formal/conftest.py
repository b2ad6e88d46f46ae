"""The harness (formal/harness) is not part of the installed package: import it from the repository; the
Why3 tools, once per test module."""

import dataclasses
import fcntl
import shutil
import sys
from pathlib import Path

import pytest
from support import unavailable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module")
def why3_tools(tmp_path_factory: pytest.TempPathFactory):
    """The harness's tools, with a private copy of its Why3 configuration: under pytest-xdist, workers
    detecting the tools at once rewrite build/why3/ while another worker's why3 reads it."""
    from formal.harness import tools
    from formal.harness.sources import BUILD

    BUILD.mkdir(exist_ok=True)
    with (BUILD / "why3.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            found = tools.detect()
        except tools.ToolError as error:
            unavailable(f"why3, Z3 and cvc5: {error}")
        folder = tmp_path_factory.mktemp("why3")
        for driver in found.config.parent.glob("*.drv"):
            shutil.copy(driver, folder / driver.name)
        text = found.config.read_text().replace(str(found.config.parent), str(folder))
    (folder / "why3.conf").write_text(text)
    return dataclasses.replace(found, config=folder / "why3.conf")
