"""The atlas's workflow steps, one module per Snakemake rule (workflow/rules/atlas.smk), so that a change to one
step reruns only its rule (a rule depends on the modules its script imports). Each function reads what its rule
passes and writes that rule's outputs; the logic lives in the atlas modules it calls."""
