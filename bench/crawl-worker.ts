// The engine side of the crawl benchmark, in a process of its own so its peak memory is its own:
// `audit ORIGIN PAGES [PRODUCT]` runs a full scan of PRODUCT (ai_readiness unless told), as a
// service's worker runs one: not a local on-page scan, so robots.txt, the sitemap, llms.txt, the
// agents' user agents and documents, and every check of the product. The loopback target is admitted
// as the embedded default and the tests admit it (allowPrivate). The bare side is
// crawl-bare-worker.ts, which does not load the engine. Crawls twice, cold then warm, and prints the
// figures (support/crawl-timing.ts), the number of checks, and whether both were full scans.
import { ENGINE_PRODUCTS, type EngineProduct, runAudit } from '../src/audit/index.ts';
import { timeTwice } from './support/crawl-timing.ts';

const [mode, origin, budgetText, productText = 'ai_readiness'] = process.argv.slice(2) as [
  string,
  string,
  string,
  string?,
];
if (mode !== 'audit' || !(ENGINE_PRODUCTS as readonly string[]).includes(productText)) {
  process.stderr.write(`usage: node bench/crawl-worker.ts audit ORIGIN PAGES [${ENGINE_PRODUCTS.join('|')}]\n`);
  process.exit(2);
}
const product = productText as EngineProduct;
const budget = Number(budgetText);

async function audit() {
  const outcome = await runAudit(
    product,
    { url: `${origin}/`, local: false },
    { pageBudget: budget, allowPrivate: true },
  );
  return { pages: outcome.pagesCrawled, checks: outcome.checks.length, full: outcome.coverage === null };
}

const { figures, cold, warm } = await timeTwice(audit);
process.stdout.write(`${JSON.stringify({ ...figures, checks: cold.checks, full: cold.full && warm.full })}\n`);
// The engine's CPU threads are created with their stdout captured, and that keeps the process alive
// after the audit (reported, not fixed here): exit once the figures are out.
process.exit(0);
