// `npm run bench`: every benchmark of docs/benchmarks.md, side by side in one run.
// `npm run bench -- api`, `-- crawl`, `-- mcp`, `-- wait`, `-- mcp-soak`, `-- webhooks`, `-- render`, `-- hostile` or
// `-- startup` or `-- store` runs one of them; `-- scale` (issue 28: many processes on one PostgreSQL)
// runs only when named.
import { runApiBenchmark } from './api.ts';
import { runCrawlBenchmark } from './crawl.ts';
import { runHostileBenchmark } from './hostile.ts';
import { runMcpBenchmark } from './mcp.ts';
import { runMcpSoakBenchmark } from './mcp-soak.ts';
import { runRenderBenchmark } from './render.ts';
import { runScaleBenchmark } from './scale.ts';
import { runStartupBenchmark } from './startup.ts';
import { runStoreBenchmark } from './store.ts';
import { runWaitBenchmark } from './wait.ts';
import { runWebhookBenchmark } from './webhooks.ts';

const only = process.argv[2];
if (!only || only === 'api') process.stdout.write(`${await runApiBenchmark()}\n\n`);
if (!only || only === 'crawl') process.stdout.write(`${await runCrawlBenchmark()}\n\n`);
if (!only || only === 'mcp') process.stdout.write(`${await runMcpBenchmark()}\n\n`);
if (!only || only === 'wait') process.stdout.write(`${await runWaitBenchmark()}\n\n`);
if (!only || only === 'webhooks') process.stdout.write(`${await runWebhookBenchmark()}\n\n`);
if (!only || only === 'render') process.stdout.write(`${await runRenderBenchmark()}\n\n`);
if (!only || only === 'hostile') process.stdout.write(`${await runHostileBenchmark()}\n\n`);
if (!only || only === 'startup') process.stdout.write(`${await runStartupBenchmark()}\n\n`);
if (!only || only === 'store') process.stdout.write(`${await runStoreBenchmark()}\n\n`);
// The scale benchmark takes minutes and 20 processes: only when asked for.
if (only === 'scale') process.stdout.write(`${await runScaleBenchmark()}\n`);
if (!only || only === 'mcp-soak') process.stdout.write(`${await runMcpSoakBenchmark()}\n`);
