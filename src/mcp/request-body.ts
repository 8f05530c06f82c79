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

/**
 * The request as the SDK's handler reads it. Its 2026-07-28 path reads the method, a few headers and
 * the signal, which come straight off Node's request; anything else (the 2025-era fallback reads the
 * URL and the body) builds the whole web Request on first use. Building one for every call cost
 * about a tenth of the MCP process's young collections on a 2026-07-28 call: undici keeps each one's
 * signal in a FinalizationRegistry, so they outlived those collections (issue 28).
 */
export function webRequest(req: IncomingMessage, body: string, signal: AbortSignal): Request {
  const method = req.method ?? 'GET';
  let whole: Request | undefined;
  const full = () => {
    whole ??= wholeRequest(req, method, body, signal);
    return whole;
  };
  const headers = new Proxy(Object.create(Headers.prototype) as Headers, {
    get(_target, property) {
      if (property === 'get') return (name: string) => headerValue(req, name);
      if (property === 'has') return (name: string) => headerValue(req, name) !== null;
      return forward(full().headers, property);
    },
  });
  return new Proxy(Object.create(Request.prototype) as Request, {
    get(_target, property) {
      if (property === 'method') return method;
      if (property === 'signal') return signal;
      if (property === 'headers') return headers;
      return forward(full(), property);
    },
  });
}

/** A property of the real object, its methods bound to it (undici checks what `this` is). */
function forward(real: object, property: string | symbol): unknown {
  const value = Reflect.get(real, property, real);
  return typeof value === 'function' ? value.bind(real) : value;
}

/** A header as web Headers gives it: null when absent, repeated values joined with ", ". */
export function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function wholeRequest(req: IncomingMessage, method: string, body: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const hasBody = method !== 'GET' && method !== 'HEAD' && body.length > 0;
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(hasBody ? { body } : {}),
  });
}
