/** example_session_state_mgmt: one counter per session (cookie), seeded by /seed_session, changed by tools, read by /verify. */
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";

type Counters = Map<string, number>;

export default defineResourcesServer<Record<string, unknown>, Counters>({
  name: "example_session_state_mgmt",
  className: "StatefulCounterResourcesServer",
  createState: () => new Map(),
  seedSession: {
    request: { fields: { initial_count: py.int() } },
    // setdefault: seeding a session that already has a counter leaves it alone.
    handler(body, { state, sessionId }) {
      if (!state.has(sessionId)) state.set(sessionId, body.initial_count as number);
    },
  },
  tools: {
    increment_counter: {
      request: { fields: { count: py.int() } },
      handler(body, { state, sessionId }) {
        state.set(sessionId, (state.get(sessionId) ?? 0) + (body.count as number));
        return { success: true };
      },
    },
    get_counter_value: {
      handler(_body, { state, sessionId }) {
        if (!state.has(sessionId)) state.set(sessionId, 0);
        return { count: state.get(sessionId)! };
      },
    },
  },
  verify: {
    request: { fields: { expected_count: py.int() } },
    // A session never seen by seed or tools scores 0, even when expected_count is 0.
    handler: (body, { state, sessionId }) => ({ reward: state.has(sessionId) && state.get(sessionId) === body.expected_count ? 1 : 0 }),
  },
});
