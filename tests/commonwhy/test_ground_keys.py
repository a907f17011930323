"""Rule commonwhy_ground passes exactly the `commonwhy:` keys ground reads; any other set is rejected."""

from __future__ import annotations

import pytest

from benchval.commonwhy.config_keys import GROUND_KEYS
from benchval.commonwhy.steps.commonwhy_ground import ground
from benchval.plumbing.config import section_defaults


def test_ground_rejects_too_few_or_too_many_keys(tmp_path):
    given = {key: section_defaults("commonwhy")[key] for key in GROUND_KEYS}
    outs = [str(tmp_path / name) for name in ("c.parquet", "r.csv", "s.json")]
    for wrong in ({k: v for k, v in given.items() if k != "language"}, given | {"annotations": []}):
        with pytest.raises(ValueError, match="ground reads exactly") as error:
            ground(tmp_path, wrong, None, *outs)
        print(error.value)
