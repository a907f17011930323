"""The workflow's plumbing: configuration, folders, the start of every job, code digests, cluster resources.

Nothing here computes a result of the study; the stage packages (tasks, scoring, evaluation, analysis,
atlas, commonwhy, ...) do. The ground floor (folders, config_error, config, strict_yaml, raw_files,
raw_file_checks, published_folders, job_threads, job) imports no stage (config reads one constant of
benchval.lmeval's __init__); the workflow layer (layout, reruns, cluster_resources: what the rule files
use to build the plan) may import stage modules' constants, and no module below it imports the layout
(tests/test_import_graph.py). gpu_hours is a command on top of the stages (it builds the tasks).

* folders: the repository root, results/, resources/, the models and download folders, where the
  raw-data mirror is and where raw files are read (the one place that decides it);
* config_error: the error of a bad configuration;
* config: start-up checks of the merged config and the one filler of its schema defaults;
* strict_yaml: YAML that refuses a key given twice;
* raw_files: declared raw files, their lookup in the mirror or the download folder, downloads, checksums;
* raw_file_checks: raw files checked against their declared sha256 where a job reads them;
* published_folders: results/figures/ and results/tables/ checked against their manifest;
* job_threads: a model job's share of the ``--cores`` budget, and torch's threads in it;
* job: ``start_job(snakemake)``, the first statement of every rule script;
* layout: the file layout (paths, name patterns) and the studies, models and tasks a config asks for;
* reruns: what makes reruns honest (canonical params, code digests, working-directory-relative paths);
* cluster_resources: memory, runtime and GPUs of the model-heavy rules, from the model's size;
* gpu_hours: GPU-hours a config's scoring will take (``python -m benchval.plumbing.gpu_hours``).
"""
