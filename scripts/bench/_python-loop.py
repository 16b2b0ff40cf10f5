# What a user would otherwise write: a bare Python loop that parses each line (and writes it back with --write).
import json
import sys

out = sys.stdout if "--write" in sys.argv else None
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        row = json.loads(line)
        if out is not None:
            out.write(json.dumps(row) + "\n")
