"""The structure-aware seed generators of make_structured_seeds.py, one module per format family."""
