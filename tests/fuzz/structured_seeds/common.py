"""What every format's seeds share: the sizes that no mutation of a small seed reaches, and the
hatchet tree shapes that the Proton formats and their traces reuse."""
import json


DEEP = 100_000      # levels: far past every depth limit (512 JSON, 4096 scanner)
REPEATED = 100_000  # elements: the count that no mutation of a small seed reaches
RUN = 1 << 20       # bytes of one repeated byte
U64_MAX = 2**64 - 1


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


def leaf(name="k", count=1, ns=1.0):
    return {"frame": {"name": name}, "metrics": {"count": count, "time (ns)": ns}}


def tree(children):
    return [{"frame": {"name": "ROOT", "type": "function"}, "metrics": {},
             "children": children}, {}]
