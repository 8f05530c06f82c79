// One real service, one fixture site and one in-process streamable HTTP MCP server shared by an MCP
// suite, with helpers to connect SDK clients over stdio (the real `siteaudit mcp`) or HTTP.
import type { Client } from '@modelcontextprotocol/client';
import type { McpHttpServer } from '../../src/mcp/http.ts';
import { startMcpHttpServer } from '../../src/mcp/http.ts';
import { testBackends } from '../support/backends.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';
import { type ClientOptions, connectHttp, connectStdio, type Era } from '../support/mcp.ts';
import { startTestService, type TestService } from '../support/service.ts';

export type Transport = 'stdio' | 'http';

export const CONNECTIONS: { name: string; transport: Transport; era: Era }[] = [
  { name: 'stdio, 2025-11-25', transport: 'stdio', era: '2025-11-25' },
  { name: 'stdio, 2026-07-28', transport: 'stdio', era: '2026-07-28' },
  { name: 'HTTP, 2025-11-25', transport: 'http', era: '2025-11-25' },
  { name: 'HTTP, 2026-07-28', transport: 'http', era: '2026-07-28' },
];

const page = (title: string, body: string) =>
  html(
    `<title>${title}</title>`,
    `<main><h1>${title}</h1><p>${'Words about the product. '.repeat(12)}</p>${body}</main>`,
  );

export interface McpWorld {
  service: TestService;
  site: FixtureSite;
  /** A site whose home page answers after a few seconds, so its runs stay in flight. */
  slowSite: FixtureSite;
  http: McpHttpServer;
  /** Tool polling in tests: fast, so waits are short. */
  env(key: string): Record<string, string>;
  connect(
    transport: Transport,
    key: string,
    options: ClientOptions,
  ): Promise<{ client: Client; close(): Promise<void> }>;
  close(): Promise<void>;
}

export const TEST_POLL_MS = 150;

export async function startMcpWorld(): Promise<McpWorld> {
  const backend = testBackends()[0];
  if (!backend) throw new Error('no SQLite backend');
  const service = await startTestService(backend, { allowLocalTargets: true });
  const site = await startFixtureSite({
    '/': { body: page('Home', '<a href="/about">About</a> <a href="/pricing">Pricing</a>') },
    '/about': { body: page('About', '') },
    // An image without alt: a finding whose evidence names the element (issue 10).
    '/pricing': { body: page('Pricing', '<img src="/chart.png" class="chart">') },
  });
  const slowSite = await startFixtureSite({
    '/': (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(page('Slow', ''));
      }, 4000);
    },
  });
  const http = await startMcpHttpServer({
    apiUrl: service.url,
    host: '127.0.0.1',
    port: 0,
    version: '9.9.9',
    settings: { pollIntervalMs: TEST_POLL_MS, defaultWaitSeconds: 20 },
    log: () => {},
  });
  const env = (key: string) => ({
    SITEAUDIT_API_URL: service.url,
    SITEAUDIT_API_KEY: key,
    SITEAUDIT_MCP_POLL_MS: String(TEST_POLL_MS),
    SITEAUDIT_MCP_WAIT_SECONDS: '20',
  });
  return {
    service,
    site,
    slowSite,
    http,
    env,
    async connect(transport, key, options) {
      if (transport === 'stdio') {
        const connection = await connectStdio(env(key), options);
        return { client: connection.client, close: connection.close };
      }
      const client = await connectHttp(http.url, key, options);
      return { client, close: () => client.close() };
    },
    async close() {
      await http.close();
      await site.close();
      await slowSite.close();
      await service.close();
    },
  };
}

/** The structuredContent of a tool result, typed loosely for assertions. */
export function structured<T = Record<string, unknown>>(result: { structuredContent?: unknown }): T {
  return result.structuredContent as T;
}
