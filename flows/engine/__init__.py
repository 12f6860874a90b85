"""The engine: how a flow and its tasks run, in this process or as Prefect runs, and the one
place that knows Prefect's internals (its contexts, task states, workers, settings, server).

    stage.py        @stage_flow, @stage_task, unmapped: Prefect's call shape in both modes
    runners.py      where map steps run (threads, processes, Dask; forked parse workers)
    prefect_env.py  Prefect's environment: defaults, task runners, one-shot tracked runs
"""
