// The bare side of the crawl benchmark, in a process that never loads the audit engine (nothing
// from src/ is imported here, directly or not), so its time and peak memory are those of a plain
// crawl alone. It fetches the same pages breadth first with the engine's concurrency (4 requests in
// flight) and finds their links either with htmlparser2's tag events (`bare`: no tree, the floor) or
// with the HTML5 tree parse5 builds (`bare-tree`: the parser the audit reads facts from, and nothing
// else). Crawls twice, cold then warm, and prints the figures (support/crawl-timing.ts) and bytes.
import { Parser } from 'htmlparser2';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { Agent, request } from 'undici';
import { timeTwice } from './support/crawl-timing.ts';

const [mode, origin, budgetText] = process.argv.slice(2) as [string, string, string];
if (mode !== 'bare' && mode !== 'bare-tree') {
  process.stderr.write('usage: node bench/crawl-bare-worker.ts bare|bare-tree ORIGIN PAGES\n');
  process.exit(2);
}
const budget = Number(budgetText);
const CONCURRENCY = 4;

type Node = DefaultTreeAdapterMap['node'];

/** The hrefs of a page's links, from its HTML5 tree. */
function treeLinks(html: string, base: string, links: string[]): void {
  const stack: Node[] = [parse(html)];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if ('tagName' in node && node.tagName === 'a') {
      const href = node.attrs.find((a) => a.name === 'href')?.value;
      if (href) links.push(href);
    }
    if ('childNodes' in node) for (const child of node.childNodes) stack.push(child);
  }
  resolveLinks(links, base);
}

function eventLinks(html: string, base: string, links: string[]): void {
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name === 'a' && attrs.href) links.push(attrs.href);
    },
  });
  parser.write(html);
  parser.end();
  resolveLinks(links, base);
}

/** Absolute, without the fragment, in place; links that do not parse are dropped. */
function resolveLinks(links: string[], base: string): void {
  let kept = 0;
  for (const href of links) {
    try {
      const url = new URL(href, base);
      url.hash = '';
      links[kept++] = url.href;
    } catch {}
  }
  links.length = kept;
}

let bytes = 0;

async function crawl(findLinks: (html: string, base: string, links: string[]) => void): Promise<number> {
  const agent = new Agent({ connections: CONCURRENCY });
  const start = `${origin}/`;
  const seen = new Set<string>([start]);
  let level = [start];
  let visited = 0;
  bytes = 0;
  while (level.length > 0 && visited < budget) {
    const batch = level.slice(0, budget - visited);
    const found: string[][] = batch.map(() => []);
    let next = 0;
    const lane = async () => {
      while (next < batch.length) {
        const index = next++;
        const url = batch[index] as string;
        const response = await request(url, { dispatcher: agent });
        const html = await response.body.text();
        bytes += html.length;
        findLinks(html, url, found[index] as string[]);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    visited += batch.length;
    level = [];
    for (const links of found) {
      for (const link of links) {
        if (!seen.has(link) && link.startsWith(`${origin}/`)) {
          seen.add(link);
          level.push(link);
        }
      }
    }
  }
  await agent.close();
  return visited;
}

const { figures } = await timeTwice(async () => ({ pages: await crawl(mode === 'bare' ? eventLinks : treeLinks) }));
process.stdout.write(`${JSON.stringify({ ...figures, bytes })}\n`);
