"""``python -m mobilegym``: the ``mobilegym`` command line."""
import sys

from mobilegym.cli import main

if __name__ == "__main__":
    sys.exit(main())
