import { describe, expect, test } from "bun:test";
import { fullResponse, post, promptKey, readJsonlFile } from "../_common/testing.ts";
import createWorkplace, { callTool, freshWorkplace, sameFinalState } from "./index.ts";

const dir = import.meta.dir;
const examples = readJsonlFile(dir, "data/example.jsonl");
const published = readJsonlFile(dir, "data/example_rollouts.jsonl");
const calls = (...list: [string, Record<string, unknown>][]) => list.map(([name, args]) => ({ type: "function_call", name, arguments: JSON.stringify(args) }));
const verifyBody = (row: any, output: unknown[]) => ({ ...row, response: fullResponse({ output }) });

describe("workplace_assistant: NeMo Gym's published rollouts", () => {
  test("each recorded tool output (NeMo Gym's server) is what our tools answer, replayed in one seeded session per rollout", async () => {
    const app = createWorkplace();
    let compared = 0;
    for (const rollout of published as any[]) {
      let cookie = (await post(app, "/seed_session", {})).cookie;
      const output = rollout.response.output as any[];
      for (const item of output) {
        if (item.type !== "function_call") continue;
        const reply = await post(app, `/${item.name}`, JSON.parse(item.arguments), cookie);
        cookie = reply.cookie ?? cookie;
        const recorded = output.find((o) => o.type === "function_call_output" && o.call_id === item.call_id);
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual(JSON.parse(recorded.output));
        compared++;
      }
    }
    expect(compared).toBe(8);
  });

  test("their ground truth is not published (the prompts are not in example.jsonl), so their rewards are not re-derived here", () => {
    const prompts = new Set(examples.map((r) => promptKey(r.responses_create_params as any)));
    expect(published.filter((r) => prompts.has(promptKey(r.responses_create_params as any)))).toHaveLength(0);
    expect(published.map((r) => r.reward)).toEqual([0, 1, 1, 1, 1]);
  });
});

describe("workplace_assistant: verification by final state", () => {
  test("every example row's ground truth scores 1 as a response and 0 with no calls (NeMo Gym's test_verify: row 0 scores 1.0)", async () => {
    const app = createWorkplace();
    for (const row of examples as any[]) {
      const gt = row.ground_truth.map((g: any) => ({ type: "function_call", ...g }));
      expect((await post(app, "/verify", verifyBody(row, gt))).body.reward).toBe(1);
      expect((await post(app, "/verify", verifyBody(row, []))).body.reward).toBe(0);
    }
  });

  test("the verify response carries only the base fields", async () => {
    const reply = await post(createWorkplace(), "/verify", verifyBody(examples[0], []));
    expect(Object.keys(reply.body)).toEqual(["responses_create_params", "response", "reward"]);
  });

  test("strings compare case-insensitively except status, list_name and board; a tool's refusal changes nothing", async () => {
    const reply = (body: string) => calls(["email_reply_email", { email_id: "00000057", body }]);
    expect(await sameFinalState(reply("HELLO"), reply("hello"))).toBe(true);
    expect(await sameFinalState(reply("hello"), reply("hello!"))).toBe(false);
    const task = (list_name: string) => calls(["project_management_update_task", { task_id: "00000149", field: "list_name", new_value: list_name }]);
    expect(await sameFinalState(task("Completed"), task("Completed"))).toBe(true);
    // "completed" is refused by the tool, so that state is the seeded one.
    expect(await sameFinalState(task("completed"), [])).toBe(true);
    expect(await sameFinalState(task("Completed"), task("In Review"))).toBe(false);
  });

  test("row labels count, as in DataFrame.equals: send-then-delete differs from delete-then-send", async () => {
    const send = ["email_send_email", { recipient: "a@b.com", subject: "s", body: "b" }] as [string, Record<string, unknown>];
    const del = ["email_delete_email", { email_id: "00000057" }] as [string, Record<string, unknown>];
    expect(await sameFinalState(calls(send, del), calls(send, del))).toBe(true);
    expect(await sameFinalState(calls(send, del), calls(del, send))).toBe(false);
  });

  test("a number stored where a string was expected lowercases to NaN: duration 30 and '30' differ, 30 and 45 do not", async () => {
    const create = (duration: unknown) => calls(["calendar_create_event", { event_name: "x", participant_email: "a@b.com", event_start: "2023-12-01 10:00:00", duration }]);
    expect(await sameFinalState(create("30"), create(30))).toBe(false);
    expect(await sameFinalState(create(30), create(45))).toBe(true);
  });

  test("replay skips what raises: bad JSON, unknown tools, unknown keywords; an explicit null is passed on", async () => {
    const bad = [
      { type: "function_call", name: "email_delete_email", arguments: "{not json" },
      { type: "function_call", name: "no_such_tool", arguments: "{}" },
      ...calls(["email_delete_email", { email_id: "00000057", extra: 1 }]),
    ];
    expect(await sameFinalState(bad, [])).toBe(true);
    const add = (extra: Record<string, unknown>) => calls(["customer_relationship_manager_add_customer", { customer_name: "A", assigned_to_email: "x@atlas.com", status: "Lead", ...extra }]);
    expect(await sameFinalState(add({ notes: null }), add({}))).toBe(false);
    expect(await sameFinalState(add({ notes: "" }), add({}))).toBe(true);
    // A ground truth given as a string has no actions.
    expect(await sameFinalState([], "email_delete_email")).toBe(true);
  });
});

describe("workplace_assistant: tools and sessions", () => {
  test("a tool before /seed_session is NeMo Gym's 400; each session has its own workplace; re-seeding resets it", async () => {
    const app = createWorkplace();
    const early = await post(app, "/email_delete_email", { email_id: "00000057" });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ detail: "Session not initialized. Please call seed_session first." });
    const a = (await post(app, "/seed_session", {})).cookie;
    const b = (await post(app, "/seed_session", {})).cookie;
    expect((await post(app, "/email_delete_email", { email_id: "00000057" }, a)).body).toEqual({ output: "Email deleted successfully." });
    expect((await post(app, "/email_delete_email", { email_id: "00000057" }, a)).body).toEqual({ output: "Email not found." });
    expect((await post(app, "/email_delete_email", { email_id: "00000057" }, b)).body).toEqual({ output: "Email deleted successfully." });
    await post(app, "/seed_session", {}, a);
    expect((await post(app, "/email_get_email_information_by_id", { email_id: "00000057", field: "subject" }, a)).body).toEqual({
      output: { subject: "Task Update on Develop prototype for report generation" },
    });
  });

  test("errors go back to the model as text: unknown keywords name Python's method; null arguments are dropped", async () => {
    const app = createWorkplace();
    const cookie = (await post(app, "/seed_session", {})).cookie;
    expect((await post(app, "/email_send_email", { recipient: "a@b.com", subject: "s", body: "b", cc: "x" }, cookie)).body).toEqual({
      output: "Error executing tool 'email_send_email': EmailTool.send_email() got an unexpected keyword argument 'cc'",
    });
    expect((await post(app, "/company_directory_find_email_address", { name: null }, cookie)).body).toEqual({ output: "Name not provided." });
    expect((await post(app, "/company_directory_find_email_address", { name: "nadia" }, cookie)).body).toEqual({ output: ["nadia.moreau@atlas.com"] });
  });

  test("ids: new emails take max+1 unpadded, events, tasks and customers 8 digits", async () => {
    const w = await freshWorkplace();
    callTool(w, "email_send_email", { recipient: "a@b.com", subject: "s", body: "b" });
    expect(w.emails.rows.at(-1)!.email_id).toMatch(/^[1-9]\d*$/);
    expect(callTool(w, "calendar_create_event", { event_name: "x", participant_email: "A@B.com", event_start: "2023-12-01 10:00:00", duration: "30" })).toMatch(/^\d{8}$/);
    expect(w.calendar.labels.at(-1)).toBe(0);
    expect(w.calendar.rows.at(-1)!.participant_email).toBe("a@b.com");
    expect(callTool(w, "calendar_create_event", { event_name: "x", participant_email: "a@b.com", event_start: "soon", duration: "30" })).toBe(
      "Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.",
    );
    expect(callTool(w, "customer_relationship_manager_add_customer", { customer_name: "A", assigned_to_email: "x@atlas.com", status: "Lead" })).toBe("00000200");
  });

  test("searches: newest first, paged; analytics per day, sorted by date", async () => {
    const w = await freshWorkplace();
    const page = callTool(w, "calendar_search_events", { query: "", page_size: 3 }) as any;
    const starts = page.events.map((e: any) => e.event_start);
    expect([...starts].sort().reverse()).toEqual(starts);
    expect(page.pagination.page_size).toBe(3);
    const visits = callTool(w, "analytics_total_visits_count", { time_min: "2023-11-01", time_max: "2023-11-03" }) as Record<string, number>;
    expect(Object.keys(visits)).toEqual([...Object.keys(visits)].sort());
    expect(Object.keys(visits).every((d) => d >= "2023-11-01" && d <= "2023-11-03")).toBe(true);
    expect(callTool(w, "project_management_search_tasks", {})).toBe("No search parameters provided.");
  });

  test("GET /reverify_mode is unsupported (the state lives in the session)", async () => {
    const res = await createWorkplace().request("http://localhost/reverify_mode");
    expect(await res.json()).toBe("unsupported");
  });
});
