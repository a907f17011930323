"""benchval.plumbing.job.start_job: a job's logging, prints, warnings and failure end up in its log file,
and the library gets plain values."""

import os
import subprocess
import sys
import textwrap

from benchval.plumbing.job import plain
from benchval.plumbing.job_threads import torch_threads

JOB_SCRIPT = """
import logging, warnings
from types import SimpleNamespace
from benchval.plumbing.job import start_job

snakemake = SimpleNamespace(log=[{log!r}], params={{"settings": {{"a": 1}}}}, wildcards={{"model": "m1"}},
                            threads=3, config={{"local": {{"model_jobs_at_once": 2, "light_job_niceness": 10}}}})
job = start_job(snakemake, warnings_to_console=True)
logging.getLogger("benchval.test").info("started %s with %d torch threads", job.wildcards["model"], job.torch_threads)
print("progress 50%")
warnings.warn("a library warning")
logging.getLogger("benchval.test").warning("task skipped")
def read_table():
    raise ValueError("cell B3 is not a number")
read_table()
"""


def test_logging_prints_warnings_and_the_failure_go_to_the_log(tmp_path):
    log = tmp_path / "job.log"
    script = tmp_path / "rule_script.py"
    script.write_text(textwrap.dedent(JOB_SCRIPT.format(log=str(log))))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert done.returncode == 1
    text = log.read_text()
    lines = text.rstrip("\n").split("\n")
    assert f"INFO benchval.test: started m1 with {torch_threads(3, 2)} torch threads" in lines[0]
    assert "progress 50%" in text and "a library warning" in text
    assert lines[-1] == "ValueError: cell B3 is not a number"
    assert any(line.startswith("Traceback (most recent call last):") for line in lines)
    # the console gets the failure and benchval's warnings, not the INFO lines or the prints
    assert "ValueError: cell B3 is not a number" in done.stderr
    assert "benchval WARNING: task skipped" in done.stderr
    assert "started" not in done.stderr and "progress" not in done.stdout + done.stderr


def test_plain_turns_named_lists_into_dicts_and_unnamed_ones_into_lists():
    from snakemake.iocontainers import Namedlist

    params = Namedlist(fromdict={"settings": {"k": (1, 2)}, "files": Namedlist(["x.csv", "y.csv"])})
    value = plain(params)
    assert value == {"settings": {"k": [1, 2]}, "files": ["x.csv", "y.csv"]}
    assert type(value) is dict and type(value["files"]) is list and type(value["settings"]["k"]) is list


NICENESS_SCRIPT = """
import os
from pathlib import Path
from types import SimpleNamespace
from benchval.plumbing.job import start_job

before = os.nice(0)
snakemake = SimpleNamespace(log=[{log!r}], params={{}}, wildcards={{}}, threads=1,
                            resources=SimpleNamespace(torch_threads={share}),
                            config={{"local": {{"model_jobs_at_once": 1, "light_job_niceness": 10}}}})
job = start_job(snakemake, **{kwargs})
Path({out!r}).write_text(f"{{os.nice(0) - before}} {{job.torch_threads}}")
"""


def _niceness_and_torch_threads(tmp_path, share, **kwargs):
    script, out = tmp_path / "rule_script.py", tmp_path / "out.txt"
    script.write_text(NICENESS_SCRIPT.format(log=str(tmp_path / "job.log"), share=share, kwargs=kwargs, out=str(out)))
    subprocess.run([sys.executable, str(script)], check=True)
    raised, threads = map(int, out.read_text().split())
    return raised, threads


def test_light_jobs_run_at_the_configured_niceness_and_model_jobs_and_preparation_do_not(tmp_path):
    assert _niceness_and_torch_threads(tmp_path, 3)[0] == 10  # a light job (the default)
    assert _niceness_and_torch_threads(tmp_path, 3, torch=True)[0] == 0  # a model job
    assert _niceness_and_torch_threads(tmp_path, 3, light=False)[0] == 0  # model preparation


def test_a_model_job_takes_its_torch_threads_from_its_resource_not_its_one_budget_thread(tmp_path):
    # the layout gives a local model job one --cores thread and its share as the torch_threads resource
    threads = _niceness_and_torch_threads(tmp_path, 3, torch=True)[1]
    assert threads == torch_threads(3, 1) == min(3, os.cpu_count())
