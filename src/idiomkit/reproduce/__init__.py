"""Reproduce the benchmark tables from declarative experiment files (``benchmarks/experiments/<benchmark>/*.toml``).

One TOML file per experiment: which benchmark table it feeds, the seeds, the data it reads (paths inside the data
directory) and exactly one run table:

- ``[train]``: an ``idiomkit train`` run (recipe, model, hyper-parameters, ``evaluate`` tasks; :class:`TrainRun`);
- ``[evaluate]``: an ``idiomkit evaluate`` run (task, model, pooling, query mode, ...; :class:`EvaluateRun`);
- ``[method]``: a benchmark script ``benchmarks/<script>.py`` (or an ``idiomkit`` subcommand) with typed
  arguments (:class:`MethodRun`). Nothing is a shell command or a format string: the argv is built by code, and the
  values the job supplies (seed, results folder, output folder, another experiment's output) are inline tables
  such as ``{ inject = "seed" }`` (:class:`Injected`).

A ``[quick]`` table overrides fields for ``--quick`` (tiny slices, a few steps); only experiments with
``quick.include = true`` (the default) run in quick mode. Every field is checked by name and type when the file is
read; a bad file is one line naming the file and the field.

Every (experiment, seed) becomes one CLI command run as a subprocess, so each result file records the exact
command that made it and can be re-run on its own. A job is skipped when its stamp (``<run root>/state``) holds the
same key: sha256 of the command + the code (the installed ``idiomkit`` package, and ``pyproject.toml`` in a
checkout) + the experiment's data files. Training jobs resume from their checkpoints, so an interrupted ``--full``
run continues where it stopped.

Example ``benchmarks/experiments/semeval2b-dev/2b-adaptive-triplet-mwe-minilm.toml``::

    benchmark = "semeval2b-dev"
    seeds = [0, 1, 2]
    data = ["semeval2022_task2/SubTaskB", "sts"]

    [train]
    recipe = "adaptive-triplet"
    model = "minilm"
    epochs = 2
    evaluate = ["semeval2b"]

    [quick]
    seeds = [0]
    max_steps = 20
    limit_groups = 100

and a method (``idiomkit run semeval2a --method classifier -m minilm --epochs 2 --context --seeds <seed>
--results-dir <results>``)::

    [method]
    script = "idiomkit"
    subcommand = "run"
    positional = ["semeval2a"]

    [method.args]
    method = "classifier"
    m = "minilm"                         # one letter: -m; otherwise --name, spelled as the script spells it
    epochs = 2
    context = true                       # true: the bare flag; false: left out
    seeds = { inject = "seed" }
    results-dir = { inject = "results" }

Modules: :mod:`~idiomkit.reproduce.schema` (the typed tables and field checks), :mod:`~idiomkit.reproduce.method_runs`
(``[method]``: injected values, write-path checks, the argv), :mod:`~idiomkit.reproduce.experiments` (reading the
files), :mod:`~idiomkit.reproduce.jobs` (commands, skip keys, running), :mod:`~idiomkit.reproduce.check`,
:mod:`~idiomkit.reproduce.compare` and :mod:`~idiomkit.reproduce.check_report` (``--check``).
"""
