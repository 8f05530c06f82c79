// One side of the crawl benchmark, in a process of its own so its peak memory is its own:
// `audit` runs the full ai_readiness audit; `bare` fetches the same pages breadth first with the
// same concurrency and finds their links with htmlparser2's tag events (no tree: the floor);
// `bare-tree` does the same with the HTML5 tree parse5 builds, the parser the audit reads facts
// from, and nothing else. Prints {pages, seconds, warmSeconds, maxRssMb}.
import { Parser } from 'htmlparser2';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { Agent, request } from 'undici';
import { runAudit } from '../src/audit/index.ts';

const [mode, origin, budgetText] = process.argv.slice(2) as [string, string, string];
const budget = Number(budgetText);
const CONCURRENCY = 4;

type Node = DefaultTreeAdapterMap['node'];

/** The hrefs of a page's links, from its HTML5 tree. */
function treeLinks(html: string, links: string[]): void {
  const stack: Node[] = [parse(html)];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if ('tagName' in node && node.tagName === 'a') {
      const href = node.attrs.find((a) => a.name === 'href')?.value;
      if (href) links.push(new URL(href, origin).href);
    }
    if ('childNodes' in node) stack.push(...node.childNodes);
  }
}

function eventLinks(html: string, links: string[]): void {
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name === 'a' && attrs.href) links.push(new URL(attrs.href, origin).href);
    },
  });
  parser.write(html);
  parser.end();
}

async function bare(findLinks: (html: string, links: string[]) => void): Promise<number> {
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
        findLinks(html, found[index] as string[]);
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

// The first crawl of a fresh process pays for compiling the code it runs (cold); a service's worker
// is long-lived, so a second crawl in the same process is the steady state (warm). Both are timed.
const job = () => (mode === 'bare' ? bare(eventLinks) : mode === 'bare-tree' ? bare(treeLinks) : audit());
const timed = async () => {
  const started = performance.now();
  const pages = await job();
  return { pages, seconds: (performance.now() - started) / 1000 };
};
const cold = await timed();
const warm = await timed();
process.stdout.write(
  `${JSON.stringify({ pages: cold.pages, seconds: cold.seconds, warmSeconds: warm.seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
