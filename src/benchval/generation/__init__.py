"""Text generation for open-ended answers: local Hugging Face models and OpenAI-compatible endpoints.

- :mod:`.prompts`  chat messages and how they become model input (chat template or plain text)
- :mod:`.hf`       batched deterministic greedy decoding with a prepared local model
- :mod:`.endpoint` an OpenAI-compatible ``/chat/completions`` client, safe to pay for (cache, deadline,
  retries, Retry-After, limits, usage and cost, dry run)
- :mod:`.answer_cache` the endpoint's crash-safe answer cache, keyed on everything that determines an answer
- :mod:`.rate_limit` requests- and tokens-per-minute limits
- :mod:`.usage`  token usage, cost from a price table, estimates before sending
- :mod:`.server`   a small OpenAI-compatible HTTP server around a local model (tests, local judges)
- :mod:`.runner`   resumable, batched generation over a table of prompts with progress

Every generator has ``name`` and ``generate(list_of_messages, max_new_tokens) -> list[str]``.
"""
