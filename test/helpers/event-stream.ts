import { request, type IncomingMessage } from 'node:http';

/** One server-sent event as read: its id, type and data (comments and `retry:` kept apart). */
export interface ReadEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * A server-sent event stream read over node:http, as a browser's EventSource reads one: its
 * answer, and the events and comment lines as they come.
 *
 * @example
 * const stream = await openStream(`${url}/api/v1/changes?since=now`);
 * const [event] = await stream.next(1);
 * stream.close();
 */
export interface EventStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** The whole body when the answer is not a stream (an error). */
  body(): Promise<string>;
  events: ReadEvent[];
  comments: string[];
  /** Waits until `count` events have come in all (or `timeoutMs` passes: then throws, naming what came). */
  next(count: number, timeoutMs?: number): Promise<ReadEvent[]>;
  /** Waits for the stream to end (by the server). */
  ended(timeoutMs?: number): Promise<void>;
  close(): void;
}

export function openStream(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const asked = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
      response.setEncoding('utf8');
      const events: ReadEvent[] = [];
      const comments: string[] = [];
      let text = '';
      let pending = '';
      let done = false;
      const waiters = new Set<() => void>();
      const wake = () => waiters.forEach((waiter) => waiter());
      response.on('data', (chunk: string) => {
        text += chunk;
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const event: ReadEvent = { data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) [event.id, isEvent] = [line.slice(4), true];
            else if (line.startsWith('event: ')) [event.event, isEvent] = [line.slice(7), true];
            else if (line.startsWith('data: ')) [event.data, isEvent] = [event.data + line.slice(6), true];
          }
          if (isEvent) events.push(event);
        }
        wake();
      });
      response.on('close', () => {
        done = true;
        wake();
      });
      const until = (ready: () => boolean, timeoutMs: number, what: string) =>
        new Promise<void>((resolveWait, rejectWait) => {
          if (ready()) return resolveWait();
          const timer = setTimeout(() => {
            waiters.delete(check);
            rejectWait(new Error(`${what} within ${timeoutMs} ms; came: ${text.slice(-1500)}`));
          }, timeoutMs);
          const check = () => {
            if (!ready()) return;
            clearTimeout(timer);
            waiters.delete(check);
            resolveWait();
          };
          waiters.add(check);
        });
      resolve({
        status: response.statusCode!,
        headers: response.headers,
        body: async () => {
          await until(() => done, 5000, 'no end of the answer');
          return text;
        },
        events,
        comments,
        next: async (count, timeoutMs = 5000) => {
          await until(() => events.length >= count || done, timeoutMs, `not ${count} events`);
          if (events.length < count)
            throw new Error(`the stream ended after ${events.length} of ${count} events: ${text.slice(-1500)}`);
          return events.slice(0, count);
        },
        ended: (timeoutMs = 5000) => until(() => done, timeoutMs, 'the stream did not end'),
        close: () => asked.destroy(),
      });
    });
    asked.on('error', reject);
    asked.end();
  });
}
