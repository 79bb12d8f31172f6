"""``python -m idiomkit.cli``: the ``idiomkit`` console entry point."""

from idiomkit.cli import main

main()
