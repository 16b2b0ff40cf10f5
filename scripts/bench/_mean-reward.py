# The orjson peer of the stage benches (NeMo Gym reads rollouts with orjson): mean reward per task, mean over tasks.
import sys

import orjson

sums = {}
with open(sys.argv[1], "rb") as f:
    for line in f:
        row = orjson.loads(line)
        s = sums.get(row["_ng_task_index"])
        if s is None:
            sums[row["_ng_task_index"]] = [row["reward"], 1]
        else:
            s[0] += row["reward"]
            s[1] += 1
print(len(sums), sum(s / n for s, n in sums.values()) / len(sums))
