/** The analytics toolkit (NeMo Gym's AnalyticsTool): per-day counts over the visits table; `create_plot` records a plot path (the state that is verified). */
import { pyFloat } from "../../../../metrics/pyjson.ts";
import { compareMask, filterRows, records, truthy, type Row, type Table } from "../table.ts";
import { pyStr } from "./results.ts";
import type { Toolkit, WorkplaceState } from "./types.ts";

const VALUES = ["total_visits", "session_duration_seconds", "user_engaged", "visits_direct", "visits_referral", "visits_search_engine", "visits_social_media"];
const PLOTS = ["bar", "line", "scatter", "histogram"];

function inRange(state: WorkplaceState, timeMin: unknown, timeMax: unknown): Table {
  let data = state.analytics;
  if (truthy(timeMin)) data = filterRows(data, compareMask("date_of_visit", ">=", timeMin));
  if (truthy(timeMax)) data = filterRows(data, compareMask("date_of_visit", "<=", timeMax));
  return data;
}

/** `groupby("date_of_visit")` then a per-group value, keys sorted. */
function perDay(data: Table, value: (rows: Row[]) => number): Record<string, unknown> {
  const groups = new Map<string, Row[]>();
  for (const r of data.rows) {
    const key = r.date_of_visit as string;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(r);
  }
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, value(groups.get(k)!)]));
}

export const analytics: Toolkit = {
  analytics_get_visitor_information_by_id: {
    params: { visitor_id: null },
    run(state, { visitor_id }) {
      if (!truthy(visitor_id)) return "Visitor ID not provided.";
      const found = state.analytics.rows.filter((r) => r.visitor_id === visitor_id);
      return found.length > 0 ? records(found) : "Visitor not found.";
    },
  },
  analytics_create_plot: {
    params: { time_min: null, time_max: null, value_to_plot: null, plot_type: null },
    run(state, { time_min, time_max, value_to_plot, plot_type }) {
      if (!truthy(time_min)) return "Start date not provided.";
      if (!truthy(time_max)) return "End date not provided.";
      if (!VALUES.includes(value_to_plot as string)) {
        return "Value to plot must be one of 'total_visits', 'session_duration_seconds', 'user_engaged', 'visits_direct', 'visits_referral', 'visits_search_engine', 'visits_social_media'";
      }
      if (!PLOTS.includes(plot_type as string)) return "Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'";
      const file_path = `plots/${pyStr(time_min)}_${pyStr(time_max)}_${value_to_plot}_${plot_type}.png`;
      // `df.loc[len(df)] = [path]`: the new row's label is the row count.
      state.plots = { columns: state.plots.columns, rows: [...state.plots.rows, { file_path }], labels: [...state.plots.labels, state.plots.rows.length] };
      return file_path;
    },
  },
  analytics_total_visits_count: {
    params: { time_min: null, time_max: null },
    run: (state, { time_min, time_max }) => perDay(inRange(state, time_min, time_max), (rows) => rows.length),
  },
  analytics_engaged_users_count: {
    params: { time_min: null, time_max: null },
    run: (state, { time_min, time_max }) => perDay(inRange(state, time_min, time_max), (rows) => rows.filter((r) => truthy(r.user_engaged)).length),
  },
  analytics_traffic_source_count: {
    params: { time_min: null, time_max: null, traffic_source: null },
    run(state, { time_min, time_max, traffic_source }) {
      const data = inRange(state, time_min, time_max);
      if (!truthy(traffic_source)) return perDay(data, (rows) => rows.length);
      return perDay(data, (rows) => rows.filter((r) => r.traffic_source === traffic_source).length);
    },
  },
  analytics_get_average_session_duration: {
    params: { time_min: null, time_max: null },
    run(state, { time_min, time_max }) {
      const data = inRange(state, time_min, time_max);
      const seconds = (r: Row) => Number(r.session_duration_seconds);
      const means = perDay(data, (rows) => rows.reduce((sum, r) => sum + seconds(r), 0) / rows.length);
      // Unfiltered, pandas converts the shared table's column in place: later visitor lookups show floats.
      if (data === state.analytics) for (const r of state.analytics.rows) r.session_duration_seconds = pyFloat(seconds(r));
      return Object.fromEntries(Object.entries(means).map(([k, v]) => [k, pyFloat(v as number)]));
    },
  },
};
