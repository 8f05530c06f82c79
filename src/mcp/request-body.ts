// A request's body read straight from Node's stream, bounded: the HTTP face reads each body once,
// here, and hands the text and its parse to whichever leg serves it (issue 28).
import type { IncomingMessage } from 'node:http';

/** The body as text, or undefined when more than `maxBytes` arrive (the rest is not read). */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    if (received > maxBytes) return undefined;
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks, received).toString('utf8');
  // A byte order mark is not JSON; web Request.text(), which the SDK reads with, drops it too.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The JSON value of a body, or undefined when it is empty or not JSON (the legs answer that themselves). */
export function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A web Request for the SDK's handler, with the body already read. */
export function webRequest(req: IncomingMessage, body: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && body.length > 0;
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(hasBody ? { body } : {}),
  });
}
