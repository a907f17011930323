"""Report stage: the HTML pages of workflow/rules/report.smk (pages)."""
