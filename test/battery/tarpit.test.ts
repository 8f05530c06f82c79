// The tarpit battery: sites that drip, stall, never answer, or never stop sending, audited at once by
// a worker of concurrency 2 with short deadlines. Every run must end in bounded time, no more runs may
// be running at once than the worker's concurrency, and no run may be attempted more often than the
// worker allows.
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../support/backends.ts';
import { startTestService, type TestService } from '../support/service.ts';

const CONCURRENCY = 2;
const MAX_ATTEMPTS = 2;
const TERMINAL = new Set(['completed', 'failed', 'failed_auto_credit', 'refunded']);

type Listener = Server | TcpServer;

/** Tarpits by name, each a listener on loopback. */
function tarpits(sockets: Set<Socket>): Record<string, Listener> {
  const dripEvery = (res: NodeJS.WritableStream, ms: number, chunk: string) => {
    const timer = setInterval(() => res.write(chunk), ms);
    res.on('close', () => clearInterval(timer));
    res.on('error', () => clearInterval(timer));
  };
  const track = (server: Listener) => {
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    });
    return server;
  };
  return {
    // Headers at once, then a byte of body every 500 ms, for ever.
    drip: track(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!doctype html><title>Drip</title><p>');
        dripEvery(res, 500, 'x');
      }),
    ),
    // Accepts the connection and says nothing.
    silent: track(createTcpServer(() => {})),
    // The status line, then a header byte every 500 ms.
    slowHeaders: track(
      createTcpServer((socket) => {
        socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
        dripEvery(socket, 500, 'a');
      }),
    ),
    // A body that never ends, as fast as the socket takes it.
    endless: track(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = `<p>${'endless '.repeat(1000)}</p>`;
        const pump = () => {
          while (res.write(chunk)) {
            /* until the socket is full */
          }
        };
        res.on('drain', pump);
        pump();
      }),
    ),
    // A home page at once, linking to fifty pages that each drip.
    manyDrips: track(
      createHttpServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        if (req.url === '/') {
          const links = Array.from({ length: 50 }, (_, n) => `<a href="/p${n}">page ${n}</a>`).join(' ');
          res.end(`<!doctype html><title>Links</title><main><h1>Links</h1>${links}</main>`);
          return;
        }
        res.write('<!doctype html><title>Drip</title><p>');
        dripEvery(res, 500, 'y');
      }),
    ),
  };
}

describe.each(testBackends())('tarpit battery on $name', (backend) => {
  const test = it.skipIf(!backend.available);
  let s: TestService;
  const sockets = new Set<Socket>();
  const listeners = tarpits(sockets);
  const hosts: Record<string, string> = {};

  beforeAll(async () => {
    if (!backend.available) return;
    for (const [name, listener] of Object.entries(listeners)) {
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      hosts[name] = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
    }
    s = await startTestService(backend, {
      allowLocalTargets: true,
      worker: {
        pollMs: 50,
        concurrency: CONCURRENCY,
        maxAttempts: MAX_ATTEMPTS,
        attemptTimeoutMs: 15_000,
        engine: { timeoutMs: 1000, fetchDeadlineMs: 2000, pageBudget: 10 },
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    for (const socket of sockets) socket.destroy();
    for (const listener of Object.values(listeners)) await new Promise((resolve) => listener.close(resolve));
  });

  test('ends every run in bounded time, never more running than the concurrency, never an extra attempt', async () => {
    const { key } = await s.tenant('pro', 100);
    const runs = new Map<string, string>();
    for (const [name, host] of Object.entries(hosts)) {
      const projectId = await s.createProject(key, host);
      const run = await s.request<{ runId: string }>('/api/v1/runs', { key, method: 'POST', json: { projectId } });
      expect(run.status).toBe(202);
      runs.set(run.body.runId, name);
    }
    const began = Date.now();
    let mostRunning = 0;
    const ended = new Map<string, { status: string; seconds: number }>();
    while (ended.size < runs.size && Date.now() - began < 120_000) {
      // One statement, so one snapshot: rows read one by one could catch a run that ended and the
      // one claimed after it both as running.
      const rows = await s.store.db
        .selectFrom('runs')
        .select(['id', 'status'])
        .where('id', 'in', [...runs.keys()])
        .execute();
      mostRunning = Math.max(mostRunning, rows.filter((row) => row.status === 'running').length);
      for (const row of rows) {
        if (row && TERMINAL.has(row.status) && !ended.has(row.id))
          ended.set(row.id, { status: row.status, seconds: (Date.now() - began) / 1000 });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const rows = await Promise.all([...runs.keys()].map((id) => s.store.runs.getById(id)));
    const summary = [...runs.entries()]
      .map(([id, name]) => {
        const end = ended.get(id);
        const row = rows.find((r) => r?.id === id);
        return `${name} ${end?.status ?? 'still running'} after ${end?.seconds.toFixed(1) ?? '-'} s in ${row?.attempts} attempt(s)`;
      })
      .join('; ');
    console.log(
      `battery: tarpits on ${backend.name}: ${summary}; at most ${mostRunning} running at once (concurrency ${CONCURRENCY})`,
    );
    expect(ended.size).toBe(runs.size);
    expect(mostRunning).toBeLessThanOrEqual(CONCURRENCY);
    for (const row of rows) expect(row?.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS);
  }, 150_000);
});
