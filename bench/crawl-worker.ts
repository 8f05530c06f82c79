// One side of the crawl benchmark, in a process of its own so its peak memory is its own:
// `audit` runs the full ai_readiness audit; `bare` fetches and parses the same pages breadth first
// with the same concurrency and parser, and nothing else. Prints {pages, seconds, maxRssMb}.
import { Parser } from 'htmlparser2';
import { Agent, request } from 'undici';
import { runAudit } from '../src/audit/index.ts';

const [mode, origin, budgetText] = process.argv.slice(2) as [string, string, string];
const budget = Number(budgetText);
const CONCURRENCY = 4;

async function bare(): Promise<number> {
  const agent = new Agent({ connections: CONCURRENCY });
  const seen = new Set<string>([`${origin}/`]);
  let level = [`${origin}/`];
  let visited = 0;
  while (level.length > 0 && visited < budget) {
    const batch = level.slice(0, budget - visited);
    const found: string[][] = batch.map(() => []);
    let next = 0;
    const lane = async () => {
      while (next < batch.length) {
        const index = next++;
        const response = await request(batch[index] as string, { dispatcher: agent });
        const html = await response.body.text();
        const links = found[index] as string[];
        const parser = new Parser({
          onopentag(name, attrs) {
            if (name === 'a' && attrs.href) links.push(new URL(attrs.href, origin).href);
          },
        });
        parser.write(html);
        parser.end();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    visited += batch.length;
    level = [];
    for (const links of found) {
      for (const link of links) {
        if (!seen.has(link) && link.startsWith(origin)) {
          seen.add(link);
          level.push(link);
        }
      }
    }
  }
  await agent.close();
  return visited;
}

async function audit(): Promise<number> {
  const outcome = await runAudit('ai_readiness', { url: `${origin}/`, local: true }, { pageBudget: budget });
  return outcome.pagesCrawled;
}

const started = performance.now();
const pages = mode === 'bare' ? await bare() : await audit();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ pages, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
