"""The work of membank: plain typed functions by stage, over a small store layer."""

from tasks.prefect_env import apply_prefect_defaults

apply_prefect_defaults()
