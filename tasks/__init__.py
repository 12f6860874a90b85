"""The work of membank: plain typed functions by stage, over a small store layer."""
