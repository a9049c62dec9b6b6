"""``python -m conformance.fuzz``: see :mod:`conformance.fuzz.cli`."""

import sys

from .cli import main

sys.exit(main())
