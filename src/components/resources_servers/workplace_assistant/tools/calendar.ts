/** The calendar toolkit (NeMo Gym's CalendarTool): events looked up, searched, created, deleted and updated. */
import { pyInt } from "../../_python/number.ts";
import { PyException } from "../../_python/errors.ts";
import { appendRow, columnHas, containsMaskAllowingNa, filterRows, lower, nextId, records, truthy, type Row } from "../table.ts";
import { paginate } from "./results.ts";
import { timestamp } from "./timestamp.ts";
import type { Toolkit } from "./types.ts";

const FIELDS = ["event_id", "event_name", "participant_email", "event_start", "duration"];
const UPDATABLE = ["event_name", "participant_email", "event_start", "duration"];
const BAD_ID = "Invalid event ID format. Expected 8-digit ID.";

const isEventId = (id: unknown) => typeof id === "string" && /^\d{8}$/.test(id);

/** pd.Timestamp's ValueError becomes the tool's message; any other error propagates, as in Python. */
function badStart(value: unknown, what: string): string | undefined {
  try {
    timestamp(value);
    return undefined;
  } catch (e) {
    if (e instanceof PyException && e.pyType === "ValueError") return `Invalid ${what} format. Expected YYYY-MM-DD HH:MM:SS.`;
    throw e;
  }
}

function badDuration(value: unknown): string | undefined {
  try {
    return pyInt(value) <= 0 ? "Duration must be a positive number of minutes." : undefined;
  } catch (e) {
    if (e instanceof PyException && e.pyType === "ValueError") return "Invalid duration format. Expected a number of minutes.";
    throw e;
  }
}

export const calendar: Toolkit = {
  calendar_get_event_information_by_id: {
    params: { event_id: null, field: null },
    run(state, { event_id, field }) {
      if (!truthy(event_id)) return "Event ID not provided.";
      if (!truthy(field)) return "Field not provided.";
      if (!isEventId(event_id)) return BAD_ID;
      if (typeof field !== "string" || !FIELDS.includes(field)) return `Invalid field. Available fields are: ${FIELDS.join(", ")}`;
      const found = state.calendar.rows.find((r) => r.event_id === event_id);
      return found ? records([{ [field]: found[field] }])[0] : "Event not found.";
    },
  },
  calendar_search_events: {
    params: { query: "", time_min: null, time_max: null, page: 1, page_size: 5 },
    run(state, { query, time_min, time_max, page, page_size }) {
      let min: number | undefined;
      let max: number | undefined;
      if (truthy(time_min)) {
        const bad = badStart(time_min, "time_min");
        if (bad) return bad;
        min = timestamp(time_min);
      }
      if (truthy(time_max)) {
        const bad = badStart(time_max, "time_max");
        if (bad) return bad;
        max = timestamp(time_max);
      }
      const byName = containsMaskAllowingNa("event_name", query);
      const byEmail = containsMaskAllowingNa("participant_email", query);
      let events: Row[] = state.calendar.rows.filter((r) => byName(r) || byEmail(r));
      if (min !== undefined) events = events.filter((e) => timestamp(e.event_start) >= min!);
      if (max !== undefined) events = events.filter((e) => timestamp(e.event_start) <= max!);
      if (events.length === 0) return "No events found.";
      events = events
        .map((r) => ({ r, t: timestamp(r.event_start) }))
        .sort((a, b) => b.t - a.t)
        .map((x) => x.r);
      return paginate(events, page, page_size, "events", "total_events");
    },
  },
  calendar_create_event: {
    params: { event_name: null, participant_email: null, event_start: null, duration: null },
    run(state, { event_name, participant_email, event_start, duration }) {
      if (!truthy(event_name)) return "Event name not provided.";
      if (!truthy(participant_email)) return "Participant email not provided.";
      if (!truthy(event_start)) return "Event start not provided.";
      if (!truthy(duration)) return "Event duration not provided.";
      const bad = badStart(event_start, "event_start") ?? badDuration(duration);
      if (bad) return bad;
      const event_id = nextId(state.calendar, "event_id", 8);
      // pd.concat without ignore_index: the new row keeps the label 0 of its one-row frame.
      state.calendar = appendRow(state.calendar, { event_id, event_name, participant_email: lower(participant_email), event_start, duration }, false);
      return event_id;
    },
  },
  calendar_delete_event: {
    params: { event_id: null },
    run(state, { event_id }) {
      if (!truthy(event_id)) return "Event ID not provided.";
      if (!isEventId(event_id)) return BAD_ID;
      if (!columnHas(state.calendar, "event_id", event_id)) return "Event not found.";
      state.calendar = filterRows(state.calendar, (r) => r.event_id !== event_id);
      return "Event deleted successfully.";
    },
  },
  calendar_update_event: {
    params: { event_id: null, field: null, new_value: null },
    run(state, { event_id, field, new_value }) {
      if (!truthy(event_id) || !truthy(field) || !truthy(new_value)) return "Event ID, field, or new value not provided.";
      if (!isEventId(event_id)) return BAD_ID;
      if (typeof field !== "string" || !UPDATABLE.includes(field)) return `Invalid field. Available fields are: ${UPDATABLE.join(", ")}`;
      const bad = field === "event_start" ? badStart(new_value, "event_start") : field === "duration" ? badDuration(new_value) : undefined;
      if (bad) return bad;
      if (!columnHas(state.calendar, "event_id", event_id)) return "Event not found.";
      const value = field === "participant_email" ? lower(new_value) : new_value;
      for (const r of state.calendar.rows) if (r.event_id === event_id) r[field] = value;
      return "Event updated successfully.";
    },
  },
};
