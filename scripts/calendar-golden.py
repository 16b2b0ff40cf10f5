"""Labels calendar grading cases with NeMo Gym's own grade_assistant_response (its utils.py, read from a checkout).

usage: python3 scripts/calendar-golden.py <NeMo Gym checkout>/resources_servers/calendar > src/components/resources_servers/calendar/data/golden.json
The cases are built from the server's example.jsonl states and the published replies, mutated; the labels are upstream's.
"""
import json, random, sys

sys.path.insert(0, sys.argv[1])
from utils import grade_assistant_response  # noqa: E402

here = "src/components/resources_servers/calendar/data"
states = [json.loads(l)["exp_cal_state"] for l in open(f"{here}/example.jsonl")]
replies = []
for l in open(f"{here}/example_rollouts.jsonl"):
    out = json.loads(l)["response"]["output"][-1]
    replies.append(out["content"][0]["text"])

rng = random.Random(7)
cases = []

def add(reply, state):
    cases.append({"reply": reply, "state": state, "label": list(grade_assistant_response(reply, state))})

def fmt12(m):
    h, mm = divmod(m, 60)
    p = "am" if h < 12 else "pm"
    h = h if h <= 12 else h - 12
    h = 12 if h == 0 else h
    return f"{h}{p}" if mm == 0 else f"{h}:{mm:02d}{p}"

for state in states:
    # a calendar that satisfies the state when possible: place each event at its earliest legal slot
    events = []
    for k, ev in state.items():
        events.append({"event_id": int(k), "event_name": f"e{k}", "start_time": "10:00", "duration": ev["duration"]})
    for trial in range(40):
        evs = [dict(e) for e in events]
        for e in evs:
            m = rng.randrange(10 * 60, 16 * 60, 15)
            e["start_time"] = rng.choice([f"{m // 60:02d}:{m % 60:02d}", fmt12(m), f"{m // 60}:{m % 60:02d}"])
            if rng.random() < 0.1:
                e["duration"] = rng.choice([e["duration"] + 15, str(e["duration"]), float(e["duration"]), None, True])
            if rng.random() < 0.05:
                e["event_id"] = rng.choice([str(e["event_id"]), e["event_id"] + 10, True])
        if rng.random() < 0.1 and evs:
            evs.append(dict(evs[0]))
        if rng.random() < 0.1 and evs:
            evs.pop()
        text = json.dumps(evs)
        wrap = rng.choice(["{}", "Here is the calendar:\n{}\nDone.", "```json\n{}\n```", "[note] {}", "<think>x</think>{}", "{} and [{{\"a\": 1}}]"])
        add(wrap.format(text), state)
for reply in replies:
    for state in states:
        add(reply, state)
    add(reply, {})
add("no list here", states[0])
add("[]", states[0])
add('[{"event_id": 0, "start_time": "10:00", "duration": 60}', states[0])
add('[{"event_id": 0, "start_time": "10am", "duration": 60}, {"event_id": 1, "start_time": "11 am", "duration": 60}]', states[0])
add('[{"event_id": 0, "start_time": "12pm", "duration": 60}, {"event_id": 1, "start_time": "12am", "duration": 60}]', states[0])
add('[{"event_id": 0, "start_time": "10:00", "duration": 60, "x": {"y": 1}}, {"event_id": 1, "start_time": "11:00", "duration": 60}]', states[0])
json.dump(cases, sys.stdout, indent=0)
print()
