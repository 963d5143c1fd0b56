"""What the ``bgref`` subcommands do, with their I/O; ``controller.cli``
only parses arguments.  The packages they call stay pure."""
