// `siteaudit audit URL`: audit a site in one command, on the embedded default or any deployment.
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { type Finding, PRODUCTS, type Product, TERMINAL_RUN_STATUSES } from '../../contract/index.ts';
import { connect, withServiceErrors } from '../connect.ts';
import { CliError } from '../options.ts';
import { renderReport, runEndedInWords } from '../render.ts';

const SCAN_MODES: Record<Product, string | undefined> = {
  ai_readiness: undefined,
  marketing_signal: 'paid_marketing_signal',
  website_security: 'paid_website_security',
};
const POLL_MS = 1000;

/** The host (with port) a URL or bare host names. */
export function domainOf(target: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1]?.toLowerCase();
  // Audits are of web sites: another scheme is a mistake to point out, not one to mend silently.
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
    throw new CliError('invalid_argument', `only http and https sites are audited, not ${scheme}: ${target}`);
  const withScheme = scheme ? target : `https://${target}`;
  try {
    return new URL(withScheme).host;
  } catch {
    throw new CliError('invalid_argument', `not a URL or host name: ${target}`);
  }
}

export function auditCommand(program: Command): void {
  program
    .command('audit')
    .description('audit a site and print the report (uses the local service unless SITEAUDIT_API_URL is set)')
    .argument('<url>', 'the site, e.g. https://example.com or localhost:3000')
    .option('--product <product>', `one of ${PRODUCTS.join(', ')}`, 'ai_readiness')
    .option('--data-dir <dir>', 'data directory of the local service (env SITEAUDIT_DATA_DIR)')
    .option('--api-key <key>', 'the API key to use (else SITEAUDIT_API_KEY, the saved login, or the local service)')
    .option('--json', 'print one JSON object {run, report, findings} on stdout')
    .action(async (target: string, flags: { product: string; dataDir?: string; apiKey?: string; json?: boolean }) => {
      if (!(PRODUCTS as readonly string[]).includes(flags.product)) {
        throw new CliError('invalid_argument', `--product must be one of ${PRODUCTS.join(', ')}`);
      }
      const product = flags.product as Product;
      const log = (line: string) => process.stderr.write(`${line}\n`);
      const { client } = await connect(flags, log);
      await withServiceErrors(async () => {
        const project = await client.projects.create({ domain: domainOf(target) });
        const scanMode = SCAN_MODES[product];
        let run = await client.runs.start(
          { projectId: project.projectId, ...(scanMode ? { scanMode } : {}) },
          randomUUID(),
        );
        log(`auditing ${run.url} (${product}), run ${run.runId}`);
        let lastLine = '';
        while (!TERMINAL_RUN_STATUSES.includes(run.status)) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          run = await client.runs.get(run.runId);
          const line = `  ${run.progressPct}% ${run.currentStep ?? run.status}`;
          if (line !== lastLine) log(line);
          lastLine = line;
        }
        if (run.status !== 'completed') throw new CliError('run_failed', runEndedInWords(run));
        const report = await client.runs.report(run.runId);
        const findings: Finding[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.runs.findings(run.runId, { limit: 100, ...(cursor ? { cursor } : {}) });
          findings.push(...page.findings);
          cursor = page.pagination.nextCursor ?? undefined;
        } while (cursor);
        process.stdout.write(
          flags.json ? `${JSON.stringify({ run, report, findings })}\n` : `${renderReport(run, report, findings)}\n`,
        );
      });
    });
}
