"""`python -m bot` is the same as the `chaos-referee` command."""

import sys

from bot.cli import main

sys.exit(main())
