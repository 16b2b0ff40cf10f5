/** Server-sent events as the OpenAI and Anthropic APIs frame them (`event:` and `data:` lines), and reading them back. */

/** One event as read back: its `event:` name (if any) and its `data:` text. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** The headers of an SSE answer. */
export const SSE_HEADERS: Record<string, string> = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

/** One frame: `event: <name>` (when named) and `data: <JSON>`, ended by a blank line. */
export function sseFrame(data: unknown, event?: string): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return event === undefined ? `data: ${text}\n\n` : `event: ${event}\ndata: ${text}\n\n`;
}

/** A byte stream of frames, sent one by one (a client reads each as it arrives). */
export function sseBody(frames: Iterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = frames[Symbol.iterator]();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

/** The events of an SSE text (lines split on LF or CRLF; `:` comments and `id:`/`retry:` fields ignored). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event: string | undefined;
  let data: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === "") {
      if (data.length) events.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
      event = undefined;
      data = [];
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length) events.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  return events;
}
