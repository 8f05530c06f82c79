#!/usr/bin/env node
// Launcher of the `siteaudit` command. It runs on whatever `node` is first on PATH; when that one is
// older than the project's runtime (engines >=22.19), it hands over to the Node 22 the package pins
// for development (node_modules/node) so a direct call of node_modules/.bin/siteaudit still works.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
const supported = major > 22 || (major === 22 && minor >= 19);

if (!supported) {
  const pinned = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(`siteaudit needs Node.js 22.19 or newer; this is ${process.version}\n`);
    process.exit(1);
  }
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
  // node:sqlite is stable in use but still flagged experimental on Node 22: keep that one notice off stderr.
  const emitWarning = process.emitWarning.bind(process);
  process.emitWarning = (warning, ...rest) => {
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (typeof text === 'string' && text.includes('SQLite is an experimental feature')) return;
    return emitWarning(warning, ...rest);
  };
  const { main } = await import(pathToFileURL(join(root, 'dist', 'src', 'cli', 'main.js')).href);
  await main();
}
