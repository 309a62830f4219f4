"""The checks behind tests/examples/check_examples.py, one concept per module (stdlib only)."""
