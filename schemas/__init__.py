"""Pydantic v2 contracts for every file membank reads or writes, and its reports. No I/O here."""
