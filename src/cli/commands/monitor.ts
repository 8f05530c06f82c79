// `siteaudit monitor ...`: switch monitoring of a site on or off and read what it saw
// (docs/decisions.md, "Monitoring"). A site is named by its domain (or URL) or by its project id.
import type { Command } from 'commander';
import type { SiteAuditClient } from '../../client/index.ts';
import { dateText, type MonitorCheck, type Monitoring, Uuid } from '../../contract/index.ts';
import { type ConnectionFlags, connect, withConnectionOptions, withServiceErrors } from '../connect.ts';
import { CliError, parsePositiveInt } from '../options.ts';
import { domainOf } from './audit.ts';

const out = (text: string) => process.stdout.write(`${text}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The project a target names; `create` makes one for a new domain (switching monitoring on does). */
async function projectIdOf(client: SiteAuditClient, target: string, create: boolean): Promise<string> {
  if (Uuid.safeParse(target).success) return target;
  const domain = domainOf(target);
  if (create) return (await client.projects.create({ domain })).projectId;
  let cursor: string | undefined;
  do {
    const page = await client.projects.list({ limit: 100, status: 'all', ...(cursor ? { cursor } : {}) });
    const found = page.projects.find((p) => p.domain === domain);
    if (found) return found.projectId;
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor);
  throw new CliError(
    'not_found',
    `no project for ${domain}; switch monitoring on with: siteaudit monitor on ${domain}`,
  );
}

function monitoringLines(m: Monitoring): string {
  const head = m.enabled
    ? `monitoring on: every ${m.effectiveIntervalMinutes} min${m.intervalMinutes === null ? " (the service's default)" : ''}, next check ${m.nextCheckAt ? dateText(m.nextCheckAt) : 'when the project is active'}`
    : 'monitoring off';
  const pages = m.pages.map(
    (p) =>
      `  ${p.state.padEnd(7)} ${String(p.httpStatus ?? '-').padEnd(4)} ${p.url}${p.since ? `  since ${dateText(p.since)}` : ''}`,
  );
  return [head, ...pages, `history: ${m.humanUrl}`].join('\n');
}

const checkLine = (c: MonitorCheck) =>
  `${dateText(c.checkedAt)}  ${String(c.httpStatus ?? '-').padEnd(4)} ${(c.kind ?? (c.up ? 'ok' : 'down')).padEnd(9)} ${c.url}${
    c.changes.length > 0 && c.kind ? `  (${c.changes.join(', ')})` : ''
  }${c.error ? `  ${c.error}` : ''}`;

export function monitorCommand(program: Command): void {
  const monitor = program
    .command('monitor')
    .description("watch a site's home page and key pages on a schedule; changes go to monitoring.changed webhooks");
  const print = (flags: ConnectionFlags, m: Monitoring) => out(flags.json ? JSON.stringify(m) : monitoringLines(m));

  withConnectionOptions(
    monitor
      .command('on <site>')
      .description('monitor a site (its project is created if needed)')
      .option('--every <minutes>', "minutes between checks (default: the service's)"),
  ).action(async (site: string, flags: ConnectionFlags & { every?: string }) => {
    const every = flags.every === undefined ? null : parsePositiveInt('--every', flags.every, 1);
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      const projectId = await projectIdOf(client, site, true);
      print(flags, await client.monitoring.set(projectId, { enabled: true, intervalMinutes: every }));
    });
  });

  withConnectionOptions(
    monitor.command('off <site>').description('stop monitoring a site (its history is kept)'),
  ).action(async (site: string, flags: ConnectionFlags) => {
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      const projectId = await projectIdOf(client, site, false);
      print(flags, await client.monitoring.set(projectId, { enabled: false }));
    });
  });

  withConnectionOptions(
    monitor.command('status <site>').description("the setting and each watched page's state"),
  ).action(async (site: string, flags: ConnectionFlags) => {
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      print(flags, await client.monitoring.get(await projectIdOf(client, site, false)));
    });
  });

  withConnectionOptions(
    monitor
      .command('history <site>')
      .description('the checks, newest first')
      .option('--changes', 'only the checks that emitted monitoring.changed')
      .option('--limit <n>', 'how many', '20'),
  ).action(async (site: string, flags: ConnectionFlags & { changes?: boolean; limit: string }) => {
    const limit = parsePositiveInt('--limit', flags.limit, 1);
    if (limit > 100) throw new CliError('invalid_argument', '--limit must be at most 100');
    const { client } = await connect(flags, log);
    await withServiceErrors(async () => {
      const projectId = await projectIdOf(client, site, false);
      const page = await client.monitoring.checks(projectId, { limit, changesOnly: flags.changes ?? false });
      if (flags.json) out(JSON.stringify(page));
      else out(page.checks.length === 0 ? 'no checks yet' : page.checks.map(checkLine).join('\n'));
    });
  });
}
