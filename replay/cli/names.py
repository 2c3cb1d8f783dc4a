"""The names and exit codes the command line's entry point and its app share (no import: the entry point
stays light)."""

#: the name of the distribution on the package index (the import package and the command are ``replay``)
DISTRIBUTION = "patience-replay"
#: exit code after standard output was closed by its reader (128 + SIGPIPE, as the shell reports it)
BROKEN_PIPE = 141
#: exit code after Ctrl-C (128 + SIGINT, as the shell reports it)
INTERRUPTED = 130
