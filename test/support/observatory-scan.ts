// Runs the MDN HTTP Observatory's own scanner (@mdn/mdn-http-observatory, its scan() with its
// retriever, analyzers and grader) against the tests' loopback sites, in a child process:
//   node test/support/observatory-scan.ts '{"hosts":["a.test"],"loopback":["www.a.test"],"ports":{"http":1,"https":2}}'
// started with NODE_EXTRA_CA_CERTS naming the tests' CA. Two shims, and nothing of the scanner's
// logic changed: its connections to the test hosts go to 127.0.0.1 at the sites' ports (as the
// engine's own port map does; the TLS server name stays the host), and its HSTS preload list, which
// its install script downloads (refused in package.json allowScripts), reads as empty (no .test
// host is preloaded). Prints one JSON object: host -> {grade, score, tests: {name: {result, pass}}}.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const { hosts, loopback, ports } = JSON.parse(process.argv[2] ?? '{}') as {
  /** The sites to scan. */
  hosts: string[];
  /** Every name the sites answer to (redirect targets too). */
  loopback?: string[];
  ports: { http: number; https: number };
};
const ours = new Set([...hosts, ...(loopback ?? [])]);

type Connect = (options: Record<string, unknown>, ...rest: unknown[]) => unknown;
function redirect(agent: { prototype: { createConnection: Connect } }, port: number) {
  const original = agent.prototype.createConnection;
  agent.prototype.createConnection = function (this: unknown, options, ...rest) {
    if (typeof options.host === 'string' && ours.has(options.host)) {
      options.servername ??= options.host;
      options.host = '127.0.0.1';
      options.port = port;
    }
    return original.call(this, options, ...rest);
  };
}
redirect(http.Agent as never, ports.http);
redirect(https.Agent as never, ports.https);

const readFileSync = fs.readFileSync;
fs.readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) =>
  String(path).endsWith('hsts-preload.json') && !fs.existsSync(path as fs.PathLike)
    ? '{}'
    : (readFileSync as (...args: unknown[]) => unknown)(path, ...rest)) as typeof fs.readFileSync;

// The package has no exports map; its scanner module is the one its own CLI (src/scan.js) calls.
const { scan } = (await import('@mdn/mdn-http-observatory/src/scanner/index.js' as string)) as {
  scan: (host: string) => Promise<{
    scan: { grade: string; score: number };
    tests: Record<string, { result: string; pass: boolean }>;
  }>;
};

const out: Record<string, unknown> = {};
for (const host of hosts) {
  try {
    const result = await scan(host);
    out[host] = {
      grade: result.scan.grade,
      score: result.scan.score,
      tests: Object.fromEntries(
        Object.entries(result.tests).map(([name, test]) => [name, { result: test.result, pass: test.pass }]),
      ),
    };
  } catch (error) {
    out[host] = { error: (error as Error).message };
  }
}
process.stdout.write(JSON.stringify(out));
