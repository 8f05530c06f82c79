// A webhook receiver on loopback over HTTPS with the test CA's certificate for `names`: it records
// every request and answers as `answer` says (204 unless told otherwise).
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCa } from './secure-sites.ts';

export interface ReceivedHook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface HookReceiver {
  port: number;
  received: ReceivedHook[];
  close(): Promise<void>;
}

export async function startHookReceiver(
  ca: TestCa,
  names: string[],
  answer: (path: string, res: ServerResponse) => void = (_path, res) => res.writeHead(204).end(),
): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  const server = createServer(ca.issue(names, 30), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(path, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
