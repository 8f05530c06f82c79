// HTTP at the socket: connections that drip a request for as long as the server keeps them, and
// requests sent from a chosen loopback address (127.0.0.2 and the rest of 127/8 are this machine
// too), for tests of what one client address may hold or spend.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface Drip {
  /** Milliseconds from connecting to the server closing the connection. */
  closed: Promise<number>;
  isOpen(): boolean;
  received(): string;
  hangUp(): void;
}

/**
 * Connects (from `localAddress`, if given), sends `head`, then a byte every `everyMs` for as long as
 * the server keeps the connection. Half-open is allowed: a server that has stopped writing but still
 * reads is still holding the connection.
 */
export function drip(url: string, head: string, options: { everyMs?: number; localAddress?: string } = {}): Drip {
  const { hostname, port } = new URL(url);
  const socket = connect({
    host: hostname,
    port: Number(port),
    allowHalfOpen: true,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  const opened = Date.now();
  let received = '';
  let open = true;
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => {
      open = false;
      resolve(Date.now() - opened);
    }),
  );
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.on('error', () => {});
  socket.write(head);
  const timer = setInterval(() => socket.write('x'), options.everyMs ?? 100);
  socket.on('close', () => clearInterval(timer));
  return { closed, isOpen: () => open, received: () => received, hangUp: () => socket.destroy() };
}

/** The head of a POST whose declared body of `length` bytes has not been sent. */
export function postHead(
  path: string,
  headers: Record<string, string>,
  length = 60_000,
  type = 'application/json',
): string {
  const lines = Object.entries({
    host: '127.0.0.1',
    'content-type': type,
    ...headers,
    'content-length': String(length),
  });
  return `POST ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n{`;
}

/** Milliseconds until the connection closed, or Infinity when it is still open after `ms`. */
export function closedWithin(closed: Promise<number>, ms: number): Promise<number> {
  return Promise.race([
    closed,
    new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), ms)),
  ]);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request on a connection of its own from `localAddress` (default 127.0.0.1). */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'GET', headers: init.headers ?? {}, localAddress, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
