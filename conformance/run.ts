// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance) against
// the real streamable HTTP MCP server. It starts `siteaudit serve` on a fresh data directory, then
// `siteaudit mcp --http` against it, and puts a loopback proxy in front that adds the local key as
// `Authorization: Bearer svc_...` (the suite cannot send headers; /mcp refuses requests without a key).
// Scenarios that need test fixtures the product does not have are listed in conformance/baseline.yml.
// Extra arguments go to the suite (`npm run conformance -- --scenario ping --verbose`); with
// SITEAUDIT_CONFORMANCE_RESULTS=DIR the results (one checks.json per scenario) are kept in DIR.
// Needs the build output (`npm run build`). Exits with the suite's exit status.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  request,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SITEAUDIT = join(ROOT, 'bin', 'siteaudit.js');
const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const BASELINE = join(ROOT, 'conformance', 'baseline.yml');
const STARTUP_TIMEOUT_MS = 30_000;
/** The whole suite takes seconds; this only keeps a hung scenario from holding CI forever. */
const SUITE_TIMEOUT_MS = 10 * 60_000;
/** Headers that belong to one connection and are never forwarded by a proxy (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const say = (line: string) => process.stderr.write(`conformance: ${line}\n`);

interface Started {
  child: ChildProcess;
  match: RegExpMatchArray;
}

/** The children's output, kept out of the way and printed only when something fails. */
const logs: string[] = [];
const children: ChildProcess[] = [];

/** Spawns `siteaudit ARGS` on this Node and waits for a stderr line matching `ready`. */
function startSiteaudit(name: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Started> {
  const child = spawn(process.execPath, [SITEAUDIT, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolvePromise, reject) => {
    let pending = '';
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${STARTUP_TIMEOUT_MS / 1000} s`)),
      STARTUP_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        logs.push(`[${name}] ${line}`);
        const match = ready.exec(line);
        if (match) {
          clearTimeout(timer);
          resolvePromise({ child, match });
        }
        newline = pending.indexOf('\n');
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (pending) logs.push(`[${name}] ${pending}`);
      logs.push(`[${name}] exited (${signal ?? code})`);
      reject(new Error(`${name} exited (${signal ?? code}) before it was ready`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/**
 * A loopback reverse proxy to `target` that sets `Authorization: Bearer KEY` on every request. Host,
 * Origin and every other end-to-end header pass unchanged (the DNS rebinding scenario depends on it);
 * bodies stream both ways chunk by chunk, so SSE events arrive as the server sends them.
 */
async function startProxy(target: URL, key: string): Promise<{ url: string; close: () => Promise<void> }> {
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...forwardable(req.headers), authorization: `Bearer ${key}` },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.headers));
        res.flushHeaders();
        answer.pipe(res);
        answer.once('error', () => res.destroy());
      },
    );
    upstream.once('error', (error) => {
      logs.push(`[proxy] ${req.method} ${req.url}: ${error.message}`);
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`conformance proxy: ${error.message}\n`);
      }
    });
    // A client that goes away (an SSE stream it is done with) ends the upstream exchange too.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolvePromise());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
      agent.destroy();
    },
  };
}

function runSuite(args: string[]): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const suite = spawn(process.execPath, [SUITE, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(suite);
    const timer = setTimeout(() => {
      say(`the suite did not finish within ${SUITE_TIMEOUT_MS / 60_000} minutes: stopping it`);
      suite.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    suite.once('error', reject);
    suite.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolvePromise(code ?? (signal ? 1 : 0));
    });
  });
}

async function main(): Promise<number> {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) {
    say('no build output in dist/: run `npm run build` first');
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), 'siteaudit-conformance-'));
  const dataDir = join(work, 'data');
  const kept = process.env.SITEAUDIT_CONFORMANCE_RESULTS;
  const resultsDir = kept ? resolve(kept) : join(work, 'results');
  mkdirSync(dataDir);
  mkdirSync(resultsDir, { recursive: true });
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let status = 1;
  const stopAll = async () => {
    await proxy?.close();
    // The MCP server first, so it does not log the service going away under it.
    for (const child of [...children].reverse()) await stopChild(child);
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    say(`${signal}: stopping`);
    void stopAll().then(() => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // A clean environment for the children: no key, URL or data directory of the person running this.
    const env: NodeJS.ProcessEnv = { ...process.env, SITEAUDIT_DATA_DIR: dataDir };
    for (const name of ['SITEAUDIT_API_URL', 'SITEAUDIT_API_KEY', 'SITEAUDIT_DATABASE_URL'] as const) delete env[name];
    const service = await startSiteaudit(
      'serve',
      ['serve', '--port', '0', '--data-dir', dataDir, '--allow-local-targets'],
      env,
      /serving API v1 at (\S+)/,
    );
    const serviceUrl = service.match[1] as string;
    const key = readFileSync(join(dataDir, 'local-key'), 'utf8').trim();
    if (!key.startsWith('svc_')) throw new Error(`no local key in ${join(dataDir, 'local-key')}`);
    const mcp = await startSiteaudit(
      'mcp',
      ['mcp', '--http', '--port', '0'],
      { ...env, SITEAUDIT_API_URL: serviceUrl },
      /serving MCP \(streamable HTTP\) at (\S+)/,
    );
    const mcpUrl = new URL(mcp.match[1] as string);
    proxy = await startProxy(mcpUrl, key);
    say(`service ${serviceUrl}, MCP ${mcpUrl.href}, suite -> ${proxy.url}${mcpUrl.pathname}`);
    status = await runSuite([
      'server',
      '--url',
      `${proxy.url}${mcpUrl.pathname}`,
      '--expected-failures',
      BASELINE,
      '-o',
      resultsDir,
      ...process.argv.slice(2),
    ]);
    if (kept) say(`results kept in ${resultsDir}`);
  } catch (error) {
    say((error as Error).message);
    status = 1;
  } finally {
    await stopAll();
  }
  if (status !== 0 && logs.length > 0) {
    say(`exit status ${status}; logs of the service, the MCP server and the proxy:`);
    process.stderr.write(`${logs.join('\n')}\n`);
  }
  return status;
}

process.exitCode = await main();
