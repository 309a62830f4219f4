"""A payload whose usage errors keep argparse's exit code 2 (the examples move theirs to 64)."""
import argparse

argparse.ArgumentParser(prog="payload").parse_args()
