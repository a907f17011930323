"""Leaderboard files as they are (issue 23): each quirk with a file that has it, in tmp_path."""

import pandas as pd
import pytest

from benchval.atlas.leaderboards import (
    LeaderboardError,
    deduplicate_columns,
    leaderboard_of,
    read_leaderboard,
    select_snapshots,
)
from benchval.atlas.sources import drop_declared_columns, resolve_duplicates

TOKENS = ["-", ""]


def write(path, text):
    path.write_text(text)
    return path


def test_missing_tokens_are_missing_and_counted(tmp_path):
    read = read_leaderboard(write(tmp_path / "helm_x_240829.csv", "model,a,b\nm1,-,0.5\nm2,0.4,\n"), TOKENS)
    assert read.n_missing == 2
    assert sorted(zip(read.cells["raw_name"], read.cells["column"])) == [("m1", "b"), ("m2", "a")]


def test_a_non_numeric_cell_that_is_no_declared_token_fails_with_file_line_column(tmp_path):
    path = write(tmp_path / "x_240829.csv", "model,a,b\nm1,0.1,0.2\nm2,0.3,n/a\n")
    with pytest.raises(LeaderboardError, match=r"x_240829.csv: line 3, column 'b': 'n/a' is not a number"):
        read_leaderboard(path, TOKENS)


def test_a_repeated_header_line_is_dropped_and_listed(tmp_path):
    read = read_leaderboard(write(tmp_path / "oc_240829.csv", "model,a\nm1,1\nmodel,a\nm2,2\n"), TOKENS)
    assert read.cells["raw_name"].tolist() == ["m1", "m2"]
    assert read.dropped == [
        {"source": "oc_240829.csv", "line": 3, "raw_name": "model", "rule": "header line repeated inside the file"}
    ]


def test_a_row_without_a_score_and_a_short_row_are_dropped_and_listed(tmp_path):
    read = read_leaderboard(write(tmp_path / "oc_240829.csv", "model,a,b,c\nm1,1,2,3\nm2\nm3,1,2\n"), TOKENS)
    assert set(read.cells["raw_name"]) == {"m1"}
    assert [(d["line"], d["rule"].split(":")[0]) for d in read.dropped] == [
        (3, "row without a score"),
        (4, "row with 3 cells, the header has 4"),
    ]


def test_a_row_with_too_many_cells_fails(tmp_path):
    with pytest.raises(LeaderboardError, match=r"line 3: 3 cells, the header has 2"):
        read_leaderboard(write(tmp_path / "x_240829.csv", "model,a\nm1,1\nm2,1,2\n"), TOKENS)


def test_lower_is_better_is_negated_before_ranking(tmp_path):
    read = read_leaderboard(write(tmp_path / "helm_airbench_240916.csv", "model,a\nm1,0.1\nm2,0.9\n"), TOKENS, True)
    assert read.flipped and read.cells["value"].tolist() == [-0.1, -0.9]


def test_long_format_columns_are_named_by_leaderboard_and_scenario(tmp_path):
    text = (
        "model,score,scenario,source,aggragated_from,tag\n"
        "m1,31.4,arc_c,olmes_260624,[],r\nm1,50,hellaswag,olmes_260624,[],r\n"
    )
    read = read_leaderboard(write(tmp_path / "olmes_260624.csv", text), TOKENS)
    assert read.cells["column"].tolist() == ["olmes_arc_c", "olmes_hellaswag"]


def test_snapshot_rule_latest_then_most_cells_and_byte_identical_once(tmp_path):
    old = write(tmp_path / "arena_240829.csv", "model,elo\nm1,1\n")
    new = write(tmp_path / "arena_241104.csv", "model,elo\nm1,1\nm2,2\n")
    wide = write(tmp_path / "lb_240829.csv", "model,avg,a,b\nm1,1,2,3\n")
    summary = write(tmp_path / "lb_240829_holistic.csv", "model,avg\nm1,1\n")
    copy = write(tmp_path / "lb_240829_frozen.csv", "model,avg,a,b\nm1,1,2,3\n")
    chosen, table = select_snapshots([old, new, wide, summary, copy], lambda p: p.name)
    assert sorted(p.name for p in chosen) == ["arena_241104.csv", "lb_240829.csv"]
    decisions = dict(zip(table["source"], table["decision"]))
    assert decisions["arena_240829.csv"].startswith("not used: older snapshot")
    assert decisions["lb_240829_holistic.csv"].startswith("not used: fewer score cells")
    assert decisions["lb_240829_frozen.csv"] == "not used: byte-identical to lb_240829.csv"
    assert leaderboard_of("arena_hard_2404") == ("arena_hard", "240400")


def test_a_column_in_two_used_files_is_kept_once():
    cells = pd.DataFrame(
        {
            "source": ["wide", "wide", "one"],
            "column": ["OC_Language", "OC_Math", "OC_Language"],
            "value": [1.0, 2.0, 1.0],
        }
    )
    kept, dropped = deduplicate_columns(cells)
    assert kept["source"].tolist() == ["wide", "wide"]
    assert dropped[["column", "source"]].values.tolist() == [["OC_Language", "one"]]


def test_two_versions_of_a_column_one_is_dropped_by_declaration_and_an_absent_one_fails():
    cells = pd.DataFrame({"source": "v2", "column": ["HFV2_BBH", "HFV2_BBH Raw"], "value": [1.0, 0.5]})
    kept, dropped = drop_declared_columns(cells, {"HFV2_BBH Raw": "raw accuracy; HFV2_BBH is the normalised score"})
    assert kept["column"].tolist() == ["HFV2_BBH"] and dropped["column"].tolist() == ["HFV2_BBH Raw"]
    with pytest.raises(LeaderboardError, match="'HFV2_BBH Rw'"):
        drop_declared_columns(cells, {"HFV2_BBH Rw": "typo"})


def _duplicated_cells():
    return pd.DataFrame(
        {
            "source": "v2.csv",
            "leaderboard": "v2",
            "line": [3, 5, 7],
            "raw_name": ["gpt2", "openai-community/gpt2", "other"],
            "column": "a",
            "value": [6.0, 5.0, 1.0],
            "canonical_id": ["openai-community/gpt2", "openai-community/gpt2", "other"],
        }
    )


@pytest.mark.parametrize("rule, value", [("first", 6.0), ("last", 5.0), ("mean", 5.5)])
def test_re_evaluations_in_one_file_follow_the_configured_rule_and_are_listed(rule, value):
    kept, report = resolve_duplicates(_duplicated_cells(), rule)
    assert kept.set_index("canonical_id").at["openai-community/gpt2", "value"] == value
    assert report[["canonical_id", "lines", "values"]].values.tolist() == [["openai-community/gpt2", "3;5", "6;5"]]


def test_duplicates_rule_error_names_file_lines_and_column():
    with pytest.raises(LeaderboardError, match=r"v2.csv: lines 3;5, column 'a': model 'openai-community/gpt2'"):
        resolve_duplicates(_duplicated_cells(), "error")
