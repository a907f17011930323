"""benchval.joblog: a job's logging, prints and failure end up in its log file."""

import logging

import pytest

from benchval.joblog import job_log


def test_logging_prints_and_a_failure_go_to_the_log(tmp_path):
    path = tmp_path / "job.log"
    with pytest.raises(ValueError, match="bad input"):
        with job_log(path, "scoring toy"):
            logging.getLogger("benchval.test").info("started")
            print("progress 50%")
            raise ValueError("bad input")
    text = path.read_text()
    assert "INFO benchval.test: started" in text and "progress 50%" in text
    assert "scoring toy failed" in text and "ValueError: bad input" in text


def test_a_script_that_fails_after_log_to_file_ends_its_log_with_the_traceback(tmp_path):
    """As Snakemake runs a rule's script (its own Python process): the uncaught exception and its
    traceback are the last lines of the job's log, and still reach stderr."""
    import subprocess
    import sys

    log = tmp_path / "job.log"
    script = tmp_path / "rule_script.py"
    script.write_text(
        "import logging\n"
        "from benchval.joblog import log_to_file\n"
        f"log_to_file({str(log)!r})\n"
        "logging.getLogger('benchval.test').info('started')\n"
        "def read_table():\n"
        "    raise ValueError('cell B3 is not a number')\n"
        "read_table()\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert done.returncode == 1
    lines = log.read_text().rstrip("\n").split("\n")
    assert "started" in lines[0]
    assert lines[-1] == "ValueError: cell B3 is not a number"
    assert any(line.startswith("Traceback (most recent call last):") for line in lines)
    assert any("in read_table" in line for line in lines)
    assert "ValueError: cell B3 is not a number" in done.stderr
