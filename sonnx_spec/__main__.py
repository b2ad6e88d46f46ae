"""``python -m sonnx_spec``: the ``sonnx-spec`` command (check, run and compare ONNX models)."""

from .models.cli import main

raise SystemExit(main())
