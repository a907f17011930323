"""The ground floor: configuration, errors, folders, strict YAML, the start of every job, threads, raw files.

Nothing here computes a result of the study (the stage packages do), and nothing here imports any other
package of benchval (tests/test_import_graph.py; docs/workflow.md "Floors"). What
only the workflow needs (the layout, rerun helpers, cluster sizing, the GPU-hours planner, the rules'
step modules) is in the jobs wing, benchval.jobs, above the stages.

* folders: the repository root, results/, resources/, the models and download folders, where the
  raw-data mirror is and where raw files are read (the one place that decides it);
* config_error: the error of a bad configuration;
* config: start-up checks of the merged config and the one filler of its schema defaults;
* strict_yaml: YAML that refuses a key given twice;
* raw_files: declared raw files, their lookup in the mirror or the download folder, downloads, checksums;
* raw_file_checks: raw files checked against their declared sha256 where a job reads them;
* published_folders: results/figures/ and results/tables/ checked against their manifest;
* command_line: the targets and the dry-run flag of the snakemake command line;
* planning_checks: checks run when the workflow is read (csv studies' columns, Hub models);
* job_threads: a model job's share of the ``--cores`` budget, and torch's threads in it;
* job: ``start_job(snakemake)``, the first statement of every rule script.
"""
