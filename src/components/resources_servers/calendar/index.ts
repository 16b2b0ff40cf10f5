/**
 * calendar: multi-turn calendar scheduling (NeMo Gym's `calendar`). The last output text's first JSON list of events
 * must match the row's `exp_cal_state` (count, no overlaps, durations, windows, constraints): reward 1 or 0. No
 * metrics of its own (NeMo Gym's baseline means); reverify mode unknown, as NeMo Gym's.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { lastOutputText } from "../_instructions/response-text.ts";
import { gradeCalendar } from "./grade.ts";

export default defineResourcesServer({
  name: "calendar",
  className: "CalendarResourcesServer",
  verify: {
    request: { fields: { exp_cal_state: py.dict() } },
    handler(body) {
      const reply = lastOutputText(body.response as JsonObject);
      if (reply === "") return { reward: 0 };
      return { reward: gradeCalendar(reply, body.exp_cal_state as JsonObject)[0] };
    },
  },
});
