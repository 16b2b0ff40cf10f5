"""Usage: python differential.py SEED COUNT LONGEST OUT.json (from a folder holding NeMo Gym's resources_servers/workplace_assistant).
Runs NeMo Gym's workplace_assistant tools (pandas) on seeded action sequences; prints differential vectors as JSON."""
import json, math, random, sys
sys.path.insert(0, ".")
import numpy as np
from resources_servers.workplace_assistant.utils import get_tools, is_correct

KITS = ["email", "calendar", "analytics", "project_management", "customer_relationship_manager"]

def plain(x):
    if isinstance(x, dict): return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)): return [plain(v) for v in x]
    if isinstance(x, np.generic): x = x.item()
    if isinstance(x, float) and math.isnan(x): return None
    return x

SEED, COUNT, LONGEST = (int(a) for a in (sys.argv[1:4] or ["7", "160", "4"]))
R = random.Random(SEED)
EMAIL_IDS = ["00000057", "00000259", "00000373", "00000001", "99999999", 57, ""]
EVENT_IDS = ["00000252", "00000013", "00000001", "0000025", 252]
TASK_IDS = ["00000149", "00000001", "00000010", "x"]
CUST_IDS = ["00000014", "00000095", "00000009", "00000199", "1"]
PEOPLE = ["carlos.rodriguez@atlas.com", "Raj.Patel@atlas.com", "nadia.moreau@atlas.com", "nobody@atlas.com", "bad-address", 5]
TEXT = ["Hello", "hello", "HELLO there", "", None, 30, "Risk Management Forum"]
DATES = ["2023-12-01", "2023-12-01 10:00:00", "2023-12-01T10:00:00", "2023-11-30", "2023-13-01", "soon", 7]
def pick(xs): return R.choice(xs)

def action():
    kind = R.randrange(24)
    if kind == 0: return "email_send_email", {"recipient": pick(PEOPLE), "subject": pick(TEXT), "body": pick(TEXT)}
    if kind == 1: return "email_delete_email", {"email_id": pick(EMAIL_IDS)}
    if kind == 2: return "email_forward_email", {"email_id": pick(EMAIL_IDS), "recipient": pick(PEOPLE)}
    if kind == 3: return "email_reply_email", {"email_id": pick(EMAIL_IDS), "body": pick(TEXT)}
    if kind == 4: return "email_search_emails", {"query": pick(["kofi", "task update", "", "Carlos report"]), "date_min": pick([None, "2023-11-01"]), "page_size": pick([2, 5])}
    if kind == 5: return "calendar_create_event", {"event_name": pick(TEXT), "participant_email": pick(PEOPLE), "event_start": pick(DATES), "duration": pick(["30", 30, "0", "abc", 45.5, "60"])}
    if kind == 6: return "calendar_delete_event", {"event_id": pick(EVENT_IDS)}
    if kind == 7: return "calendar_update_event", {"event_id": pick(EVENT_IDS), "field": pick(["event_name", "duration", "event_start", "participant_email", "event_id"]), "new_value": pick(TEXT + DATES[:2] + ["Luis.Ortiz@atlas.com", "90"])}
    if kind == 8: return "calendar_search_events", {"query": pick(["sync", "", "luis"]), "time_min": pick([None, "2023-11-01 00:00:00", "bad"]), "page": pick([1, 2, 99])}
    if kind == 9: return "analytics_create_plot", {"time_min": pick(DATES[:2] + [None]), "time_max": pick(["2023-12-31", 20231231]), "value_to_plot": pick(["total_visits", "user_engaged", "clicks"]), "plot_type": pick(["bar", "line", "pie"])}
    if kind == 10: return "analytics_total_visits_count", {"time_min": pick(["2023-11-01", None]), "time_max": pick(["2023-11-05", None])}
    if kind == 11: return "analytics_engaged_users_count", {"time_min": "2023-11-20", "time_max": pick(["2023-11-25", None])}
    if kind == 12: return "analytics_traffic_source_count", {"time_min": "2023-11-20", "traffic_source": pick(["direct", "referral", None])}
    if kind == 13: return "analytics_get_average_session_duration", {"time_min": pick(["2023-11-25", None]), "time_max": pick(["2023-11-28", None])}
    if kind == 14: return "analytics_get_visitor_information_by_id", {"visitor_id": pick(["0860", "4426", "nope"])}
    if kind == 15: return "project_management_create_task", {"task_name": pick(TEXT), "assigned_to_email": pick(["leila.azizi@atlas.com", "LEILA.AZIZI@atlas.com", "nobody@atlas.com"]), "list_name": pick(["Backlog", "backlog", "Completed"]), "due_date": "2023-12-10", "board": pick(["Front end", "Design", "design"])}
    if kind == 16: return "project_management_update_task", {"task_id": pick(TASK_IDS), "field": pick(["list_name", "board", "assigned_to_email", "task_name", "colour"]), "new_value": pick(["Completed", "completed", "Design", "leila.azizi@atlas.com", "New name"])}
    if kind == 17: return "project_management_delete_task", {"task_id": pick(TASK_IDS)}
    if kind == 18: return "project_management_search_tasks", {"task_name": pick(["carousel", None]), "board": pick(["front", None]), "assigned_to_email": pick([None, "leila.azizi@atlas.com", "bad"])}
    if kind == 19: return "customer_relationship_manager_add_customer", {"customer_name": pick(["Dakota Thomas", "", None]), "assigned_to_email": pick(["Nadia.Moreau@atlas.com", "x@atlas.com"]), "status": pick(["Lead", "lead"]), "customer_email": pick([None, "D@T.com"]), "notes": pick(["", None, "n"])}
    if kind == 20: return "customer_relationship_manager_update_customer", {"customer_id": pick(CUST_IDS), "field": pick(["status", "product_interest", "assigned_to_email", "notes", "zip"]), "new_value": pick(["Lost", "lost", "Software", "raj.patel@atlas.com", "note"])}
    if kind == 21: return "customer_relationship_manager_delete_customer", {"customer_id": pick(CUST_IDS)}
    if kind == 22 and R.random() < 0.5: return "customer_relationship_manager_search_customers", {"customer_email": pick(["d@t.com", "nanolabs"]), "follow_up_by_min": pick([None, "2023-12-01"]), "page": pick([1, 2])}
    if kind == 22: return "customer_relationship_manager_search_customers", {"customer_name": pick([None, "casey", "a"]), "status": pick([None, "Lead"]), "last_contact_date_max": pick([None, "2023-11-09"]), "page_size": pick([3, 50])}
    return "company_directory_find_email_address", {"name": pick(["nadia", "", "a", "zz"])}

def clean(args): return {k: v for k, v in args.items() if v is not None or R.random() < 0.3}

def run(seq):
    env = get_tools(KITS)
    outs = []
    for name, args in seq:
        try:
            outs.append({"output": plain(env["functions"][name](**args))})
        except Exception as e:
            outs.append({"raises": type(e).__name__})
    return outs

cases = []
for i in range(COUNT):
    seq = [(n, clean(a)) for n, a in (action() for _ in range(R.randint(1, LONGEST)))]
    cases.append({"actions": [{"name": n, "arguments": json.dumps(a)} for n, a in seq], "outputs": run(seq)})
pairs = []
for i in range(COUNT):
    a, b = R.randrange(len(cases)), R.randrange(len(cases))
    pred = cases[a]["actions"]
    gt = pred if R.random() < 0.4 else cases[b]["actions"]
    if R.random() < 0.3: gt = pred[:-1]
    pairs.append({"predicted": a, "ground_truth": gt, "reward": float(is_correct(pred, gt, None))})
json.dump({"cases": cases, "pairs": pairs}, open(sys.argv[4] if len(sys.argv) > 4 else "differential.json", "w"), indent=None)
