"""Helpers for tests and small demonstrations: tiny local models and a tiny workflow config."""
