"""`membank mcp`: the agent tool surface of spec/wiki-memory-pkf.md served over MCP.

catalog.py names the tools (light: the CLI's help reads it), server.py builds the server on the
official MCP SDK over flows/surface.py (the same stage code as the CLI), cli.py is the command.
"""
