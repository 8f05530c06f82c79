// `siteaudit mcp` on the embedded default answers its host before the local service is up (issue 26):
// the service is found or started in the background and the first tool call waits for it. When it
// cannot start, tool calls say why, and the server keeps answering.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeLocalServices } from '../support/cli.ts';
import { connectStdio, errorOf, textOf } from '../support/mcp.ts';

describe('siteaudit mcp starts before its local service', () => {
  const dataDirs: string[] = [];
  afterAll(() => removeLocalServices(dataDirs));

  it('answers initialize and tools/list at once, and the first tool call once the service is up', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'siteaudit-lazy-'));
    dataDirs.push(dataDir);
    const mcp = await connectStdio({ SITEAUDIT_DATA_DIR: dataDir }, { era: '2025-11-25' });
    try {
      expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(5);
      const whoami = await mcp.client.callTool({ name: 'whoami', arguments: {} });
      expect(whoami.isError).toBeFalsy();
      expect(textOf(whoami)).toContain('credits');
    } finally {
      await mcp.close();
    }
  });

  it('says why in every tool call when the local service cannot start, and tries again at the next', async () => {
    // A data directory that cannot be made: a path under a regular file.
    const blocker = join(mkdtempSync(join(tmpdir(), 'siteaudit-lazy-')), 'file');
    writeFileSync(blocker, '');
    const mcp = await connectStdio({ SITEAUDIT_DATA_DIR: join(blocker, 'data') }, { era: '2025-11-25' });
    try {
      expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(5);
      for (let i = 0; i < 2; i++) {
        const result = await mcp.client.callTool({ name: 'whoami', arguments: {} });
        expect(errorOf(result).code).toBe('local_service_unavailable');
        expect(textOf(result)).toContain(join(blocker, 'data'));
      }
      // The person clears the way: the next call starts the service and goes through.
      rmSync(blocker);
      mkdirSync(blocker);
      dataDirs.push(join(blocker, 'data'));
      const result = await mcp.client.callTool({ name: 'whoami', arguments: {} });
      expect(result.isError, textOf(result)).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });
});
