/** The email toolkit (NeMo Gym's EmailTool): search, read, send, delete, forward and reply over the seeded emails table. */
import { PyException } from "../../_python/errors.ts";
import { pySplit } from "../../_python/text.ts";
import { appendRow, columnHas, filterRows, lower, nextId, records, truthy, type Row } from "../table.ts";
import { paginate, pyStr } from "./results.ts";
import type { Toolkit, WorkplaceState } from "./types.ts";
import { day, timestamp } from "./timestamp.ts";

const NOW = "2023-11-30 23:59:00";

function emailIdIn(state: WorkplaceState, id: unknown): boolean {
  return columnHas(state.emails, "email_id", id);
}

function hasChar(text: unknown, ch: string): boolean {
  if (typeof text === "string") return text.includes(ch);
  if (Array.isArray(text)) return text.includes(ch);
  throw new PyException("TypeError", `argument of type '${typeof text === "number" ? "int" : "NoneType"}' is not iterable`);
}

function send(state: WorkplaceState, recipient: unknown, subject: unknown, body: unknown): string {
  if (!truthy(recipient) || !truthy(subject) || !truthy(body)) return "Recipient, subject, or body not provided.";
  if (!hasChar(recipient, "@") || !hasChar(recipient, ".")) return "Invalid recipient email address.";
  try {
    const row: Row = { email_id: nextId(state.emails, "email_id"), "inbox/outbox": "outbox", "sender/recipient": lower(recipient), subject, sent_datetime: NOW, body };
    state.emails = appendRow(state.emails, row, true);
    return "Email sent successfully.";
  } catch (e) {
    return `Error sending email: ${(e as Error).message}`;
  }
}

function findEmail(state: WorkplaceState, id: unknown): Row {
  return state.emails.rows.find((r) => r.email_id === id)!;
}

export const email: Toolkit = {
  email_get_email_information_by_id: {
    params: { email_id: null, field: null },
    run(state, { email_id, field }) {
      if (!truthy(email_id)) return "Email ID not provided.";
      if (!truthy(field)) return "Field not provided.";
      const found = state.emails.rows.find((r) => r.email_id === email_id);
      if (!found) return "Email not found.";
      if (typeof field === "string" && Object.hasOwn(found, field)) return records([{ [field]: found[field] }])[0];
      return `Field '${String(field)}' not found. Available fields: ${Object.keys(found).join(", ")}`;
    },
  },
  email_search_emails: {
    params: { query: "", date_min: null, date_max: null, page: 1, page_size: 5 },
    run(state, { query, date_min, date_max, page, page_size }) {
      try {
        const words = pySplit(lower(query));
        let rows = state.emails.rows.filter((r) => {
          const combined = `${pyStr(r.subject)} ${pyStr(r.body)} ${pyStr(r["sender/recipient"])}`.toLowerCase();
          return words.every((w) => combined.includes(w));
        });
        rows = rows
          .map((r) => ({ r, t: timestamp(r.sent_datetime) }))
          .sort((a, b) => b.t - a.t)
          .map((x) => x.r);
        if (truthy(date_min)) rows = rows.filter((r) => day(r.sent_datetime) >= day(date_min));
        if (truthy(date_max)) rows = rows.filter((r) => day(r.sent_datetime) <= day(date_max));
        if (rows.length === 0) return "No emails found.";
        return paginate(rows, page, page_size, "emails", "total_emails");
      } catch (e) {
        return `Error searching emails: ${(e as Error).message}`;
      }
    },
  },
  email_send_email: {
    params: { recipient: null, subject: null, body: null },
    run: (state, { recipient, subject, body }) => send(state, recipient, subject, body),
  },
  email_delete_email: {
    params: { email_id: null },
    run(state, { email_id }) {
      if (!truthy(email_id)) return "Email ID not provided.";
      if (!emailIdIn(state, email_id)) return "Email not found.";
      state.emails = filterRows(state.emails, (r) => r.email_id !== email_id);
      return "Email deleted successfully.";
    },
  },
  email_forward_email: {
    params: { email_id: null, recipient: null },
    run(state, { email_id, recipient }) {
      if (!truthy(email_id) || !truthy(recipient)) return "Email ID or recipient not provided.";
      if (!hasChar(recipient, "@") || !hasChar(recipient, ".")) return "Invalid recipient email address.";
      try {
        if (!emailIdIn(state, email_id)) return "Email not found.";
        const found = findEmail(state, email_id);
        const result = send(state, lower(recipient), `FW: ${pyStr(found.subject)}`, found.body);
        return result.includes("Error") || result.includes("Invalid") ? result : "Email forwarded successfully.";
      } catch (e) {
        return `Error forwarding email: ${(e as Error).message}`;
      }
    },
  },
  email_reply_email: {
    params: { email_id: null, body: null },
    run(state, { email_id, body }) {
      if (!truthy(email_id) || !truthy(body)) return "Email ID or body not provided.";
      try {
        if (!emailIdIn(state, email_id)) return "Email not found.";
        const found = findEmail(state, email_id);
        const result = send(state, found["sender/recipient"], `RE: ${pyStr(found.subject)}`, body);
        return result.includes("Error") || result.includes("Invalid") ? result : "Email replied successfully.";
      } catch (e) {
        return `Error replying to email: ${(e as Error).message}`;
      }
    },
  },
};
