"""Rules items_irt_recovery (the recovery gate; workflow/scripts/items_irt_recovery.py) and items_irt_{source}
(1PL and 2PL of a source's benchmarks, every respondent, after the coverage rule; workflow/scripts/items_irt.py):
:mod:`benchval.items.irt` on the stored responses. One module for the two scripts of the IRT rule family."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchval.items import readers
from benchval.items.irt import check_recovery, fit_irt, recovery_passed
from benchval.items.irt import recovery as simulate_and_fit
from benchval.items.irt_settings import IrtSettings
from benchval.items.matrix import task_matrix

IRT_FILES = ("item_params", "fit", "abilities")


def run_recovery_step(recovery: dict, seed: int, output: str) -> None:
    table = simulate_and_fit(recovery["designs"], seed)
    table.to_csv(output, index=False)
    failures = check_recovery(table, recovery["thresholds"])
    if failures:
        raise RuntimeError("IRT recovery check failed: " + "; ".join(failures))


def run_irt_steps(responses_path: str, tasks: list, items: dict, recovery_csv: str, out_dir: str) -> None:
    """:func:`run_irt_step` for each task, into ``<out_dir>/<task>/{item_params,fit,abilities}.csv``; ``items``:
    the ``items:`` keys the rule passes (benchval.items.irt_settings)."""
    settings = IrtSettings.from_config(items)
    recovery_passed(recovery_csv, settings.recovery_thresholds)
    responses = readers.read_responses(responses_path)
    for task in tasks:
        folder = Path(out_dir) / task
        folder.mkdir(parents=True, exist_ok=True)
        run_irt_step(responses, task, settings, {name: str(folder / f"{name}.csv") for name in IRT_FILES})


def run_irt_step(responses: pd.DataFrame, task: str, settings: IrtSettings, outputs: dict) -> None:
    """IRT of one task on every respondent (the nlu runs: all 90, checkpoints included), constant items
    left out (counted in the fit table)."""
    matrix, _ = task_matrix(responses, task, settings.min_model_coverage)
    values = matrix.to_numpy(float)
    varying = values.min(axis=0) != values.max(axis=0)
    items, fits, abilities = [], [], []
    for model in settings.models:
        fitted = fit_irt(matrix.loc[:, varying], model, settings.max_iter)
        items.append(fitted.items.reset_index().assign(irt_model=model))
        fits.append({**fitted.fit, "task": task, "constant_items_left_out": int((~varying).sum())})
        abilities.append(fitted.abilities.rename_axis("respondent").reset_index().assign(irt_model=model))
    pd.concat(items).to_csv(outputs["item_params"], index=False)
    pd.DataFrame(fits).to_csv(outputs["fit"], index=False)
    pd.concat(abilities).to_csv(outputs["abilities"], index=False)
