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
