"""``python -m controller`` runs the ``bgref`` command line."""

from controller.cli import main

main()
