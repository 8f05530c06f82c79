// stdio: one connection for the life of the process, acting with one configured API client.
// stdout carries protocol messages only; everything else goes to stderr.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { SiteAuditClient } from '../client/index.ts';
import { createServerFactory } from './server.ts';
import type { McpSettings } from './settings.ts';
import { TaskStore } from './tasks/task-store.ts';

export function startMcpStdio(options: {
  client: SiteAuditClient;
  version: string;
  settings: McpSettings;
  log: (line: string) => void;
}): { closed: Promise<void> } {
  const tasks = new TaskStore();
  const factory = createServerFactory({
    version: options.version,
    settings: options.settings,
    log: options.log,
    clientFor: () => options.client,
    tasks,
  });
  const handle = serveStdio(factory, { onerror: (error) => options.log(`siteaudit mcp: ${error.message}`) });
  // The host ends the session by closing our stdin.
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', () => {
      tasks.close();
      void handle.close().finally(resolve);
    });
  });
  return { closed };
}
