"""Text generation for open-ended answers: local Hugging Face models and OpenAI-compatible endpoints.

- :mod:`.prompts`  chat messages and how they become model input (chat template or plain text)
- :mod:`.hf`       batched deterministic greedy decoding with a prepared local model
- :mod:`.endpoint` an OpenAI-compatible ``/chat/completions`` client (timeouts, retries, clear errors)
- :mod:`.server`   a small OpenAI-compatible HTTP server around a local model (tests, local judges)
- :mod:`.runner`   resumable, batched generation over a table of prompts with progress

Every generator has ``name`` and ``generate(list_of_messages, max_new_tokens) -> list[str]``.
"""
