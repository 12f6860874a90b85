"""The `membank` command line: app.py registers every command; one module per command group."""
