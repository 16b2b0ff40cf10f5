/** Server-sent events as the model APIs send them: `event:`/`data:` lines, blank-line separated, `[DONE]` ignored. */

export interface SseEvent {
  event: string | null;
  data: unknown;
}

/** Parses a whole SSE body; a data line that is not JSON is skipped (as clients do with keep-alives). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.replace(/\r\n/g, "\n").split("\n\n")) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (!data.length || data.join("\n") === "[DONE]") continue;
    try {
      events.push({ event, data: JSON.parse(data.join("\n")) });
    } catch {
      // not JSON: nothing to capture
    }
  }
  return events;
}

/** true when a response body is an event stream. */
export const isEventStream = (contentType: string | null) => (contentType ?? "").includes("text/event-stream");
