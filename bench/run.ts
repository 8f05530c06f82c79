// `npm run bench`: every benchmark of docs/benchmarks.md, side by side in one run.
import { runApiBenchmark } from './api.ts';

process.stdout.write(`${await runApiBenchmark()}\n`);
