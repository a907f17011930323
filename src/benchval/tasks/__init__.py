"""Task adapters: raw benchmark files -> the items table of docs/data-contract.md."""
