// `siteaudit serve --render` (issue 14): the service renders app shells in the system's Chromium, its
// reports say which pages were rendered, and a mode it does not know is refused before it starts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiReadinessReport } from '../../src/contract/index.ts';
import { readLocalKey } from '../../src/service/local-key.ts';
import { hasChromium } from '../support/browser.ts';
import { runCli, serveApi, startServe } from '../support/cli.ts';
import { type FixtureSite, html, startFixtureSite } from '../support/fixture-site.ts';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({
    '/': { body: html('<title>App</title>', '<div id="root"></div><script src="/main.js"></script>') },
    '/main.js': {
      headers: { 'content-type': 'text/javascript' },
      body: `document.getElementById('root').innerHTML = '<main><h1>Acme</h1><p>${'Hand-forged tools for the garden, made to last. '.repeat(10)}</p></main>';`,
    },
  });
});
afterAll(async () => {
  await site.close();
});

describe('serve --render', () => {
  it('refuses a mode it does not know', async () => {
    const result = await runCli([
      'serve',
      '--data-dir',
      mkdtempSync(join(tmpdir(), 'siteaudit-render-')),
      '--render',
      'sometimes',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--render must be auto, always or never, not "sometimes"');
  });

  it.skipIf(!hasChromium)(
    'renders an app shell and reports it, with a real score',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-render-'));
      const serve = await startServe(['--data-dir', dataDir, '--allow-local-targets', '--render', 'auto']);
      try {
        expect(serve.stderr()).toMatch(
          /rendering \(auto\) in \/usr\/bin\/chromium, started at the first run that renders/,
        );
        const key = readLocalKey(dataDir) as string;
        const api = serveApi(serve, key);
        const { projectId } = await api('/api/v1/projects', { domain: site.host });
        const { runId } = await api('/api/v1/runs', { projectId });
        let status = '';
        for (let i = 0; i < 300 && status !== 'completed' && status !== 'failed'; i++) {
          status = String((await api(`/api/v1/runs/${runId}`)).status);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(status).toBe('completed');
        const report = AiReadinessReport.parse(await api(`/api/v1/runs/${runId}/report`));
        expect(report.scoreStatus).toBeUndefined();
        expect(report.rendering).toMatchObject({ mode: 'auto', available: true });
        expect(report.rendering?.pages.map((p) => p.url)).toEqual([`${site.origin}/`]);
        expect(report.execSummary).toContain('Rendered in Chromium: 1 page(s).');
      } finally {
        await serve.stop();
      }
    },
    60_000,
  );
});
