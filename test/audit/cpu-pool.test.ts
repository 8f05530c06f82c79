// The CPU pool (issue 22): site content parsed on worker threads answers what the calling thread
// would; a task past its deadline or a thread past its heap ceiling fails that task only, and the
// pool goes on with a new thread.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuPool, CpuTaskError, defaultPoolOptions } from '../../src/audit/cpu/pool.ts';
import { parseHtml } from '../../src/audit/html.ts';
import { html } from '../support/fixture-site.ts';
import { linksPage, nestedPage } from '../support/hostile-site.ts';

const page = html(
  '<title>Shop</title><meta name="description" content="Shoes">',
  '<main><h1>Shop</h1><nav><a href="/about">About</a></nav><img src="/a.png"></main>',
);

describe('CPU pool', () => {
  const pools: CpuPool[] = [];
  const pool = (options: Partial<ReturnType<typeof defaultPoolOptions>> = {}) => {
    const made = new CpuPool({ ...defaultPoolOptions(), threads: 1, ...options });
    pools.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('parses a page on a thread into the facts the calling thread would read', async () => {
    const facts = await pool().run('parseHtml', [page]);
    expect(facts).toEqual(parseHtml(page));
    expect(facts.landmarks).toBeInstanceOf(Set);
  });

  it('runs on the calling thread with no threads (SITEAUDIT_CPU_THREADS=0)', async () => {
    expect(defaultPoolOptions({ SITEAUDIT_CPU_THREADS: '0' }).threads).toBe(0);
    expect(defaultPoolOptions({ SITEAUDIT_CPU_THREADS: '3' }).threads).toBe(3);
    expect(defaultPoolOptions({ SITEAUDIT_CPU_THREADS: 'many' }).threads).toBeGreaterThanOrEqual(1);
    expect(await pool({ threads: 0 }).run('parseHtml', [page])).toEqual(parseHtml(page));
  });

  it('ends a task past its deadline, and the next task gets a new thread', async () => {
    const p = pool({ deadlineMs: 1 });
    const error = await p.run('parseHtml', [linksPage(50_000)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CpuTaskError);
    expect((error as CpuTaskError).code).toBe('timeout');
    expect((await p.run('parseHtml', [page], 30_000)).titles).toEqual(['Shop']);
  });

  it('a thread past its heap ceiling fails its task, not the process', async () => {
    const p = pool({ heapMb: 32 });
    const error = await p.run('parseHtml', [nestedPage(2_000_000)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CpuTaskError);
    expect((error as CpuTaskError).code).toBe('crashed');
    expect((await p.run('parseHtml', [page])).titles).toEqual(['Shop']);
  });

  it('queues tasks beyond its threads and answers each its own result', async () => {
    const p = pool({ threads: 2 });
    const pages = Array.from({ length: 6 }, (_, i) => html(`<title>Page ${i}</title>`, `<h1>${i}</h1>`));
    const titles = await Promise.all(pages.map((body) => p.run('parseHtml', [body]).then((f) => f.titles[0])));
    expect(titles).toEqual(pages.map((_, i) => `Page ${i}`));
  });

  it('lets a process that ran a task exit on its own, and nothing a thread prints reaches stdout', async () => {
    // A process that used the pool once (an audit) must not be held open by its idle threads.
    const script = [
      `const { CpuPool, defaultPoolOptions } = await import(${JSON.stringify(new URL('../../src/audit/cpu/pool.ts', import.meta.url).href)});`,
      'const pool = new CpuPool({ ...defaultPoolOptions(), threads: 1 });',
      `const facts = await pool.run('parseHtml', [${JSON.stringify(page)}]);`,
      "process.stderr.write('title ' + facts.titles[0]);",
    ].join('\n');
    // A file, not --eval: the threads would inherit --input-type.
    const file = join(mkdtempSync(join(tmpdir(), 'cpu-pool-')), 'audit-once.mjs');
    writeFileSync(file, script);
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', resolve)),
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000)),
    ]);
    child.kill('SIGKILL');
    expect(exited, stderr).toBe(0);
    expect(stderr).toContain('title Shop');
    expect(stdout).toBe('');
  });

  it('a task that throws fails with its message', async () => {
    const error = await pool()
      .run('parseSitemap', [null as unknown as string, 'https://example.com/sitemap.xml'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CpuTaskError);
    expect((error as CpuTaskError).code).toBe('failed');
  });
});
