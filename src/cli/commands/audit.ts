// `siteaudit audit URL`: audit a site in one command, on the embedded default or any deployment;
// in CI a gate (issue 27): `--fail-on` expressions, a baseline, and SARIF, Markdown and JUnit
// outputs. Exit codes: 0 the audit ran and the gate passed, 2 the gate tripped, 1 the audit could
// not run (unreachable site, bad key, bad arguments).
import type { Command } from 'commander';
import { PRODUCTS, type Product } from '../../contract/index.ts';
import { VERSION } from '../../version.ts';
import type { AuditResult } from '../ci/audit-result.ts';
import { auditProducts } from '../ci/audit-runs.ts';
import { baselineRequest } from '../ci/baselines.ts';
import { checkAgainstCall, type GateExpression, judgeGate, parseFailOn } from '../ci/fail-on.ts';
import { render } from '../ci/formats.ts';
import { prepareOutput, writeOutput } from '../ci/output-files.ts';
import { type Output, OutputPlan } from '../ci/outputs.ts';
import { sourceLocator } from '../ci/source-places.ts';
import { connect, withServiceErrors } from '../connect.ts';
import { CliError } from '../options.ts';

export { domainOf } from '../ci/audit-runs.ts';

/** Exit codes, documented in docs/ci.md: distinct in every case. */
export const EXIT = { passed: 0, couldNotRun: 1, gateTripped: 2 } as const;

const INFORMATION_URI = 'https://github.com/siteaudit/siteaudit';

interface AuditFlags {
  product?: string[];
  failOn?: GateExpression[];
  baseline?: string[];
  sourceDir?: string;
  dataDir?: string;
  apiKey?: string;
  json?: boolean;
}

function products(flags: AuditFlags): Product[] {
  const named = flags.product?.length ? flags.product : ['ai_readiness'];
  const chosen = [...new Set(named.flatMap((value) => value.split(',')).map((value) => value.trim()))];
  for (const product of chosen)
    if (!(PRODUCTS as readonly string[]).includes(product))
      throw new CliError(
        'invalid_argument',
        `--product must be one of ${PRODUCTS.join(', ')}, not ${JSON.stringify(product)}`,
      );
  return chosen as Product[];
}

function onLoopback(baseUrl: string): boolean {
  if (!URL.canParse(baseUrl)) return false;
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

export function auditCommand(program: Command): void {
  const plan = new OutputPlan();
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  program
    .command('audit')
    .description('audit a site and print the report (uses the local service unless SITEAUDIT_API_URL is set)')
    .argument('<url>', 'the site, e.g. https://example.com or localhost:3000')
    .option('--product <product>', `${PRODUCTS.join(', ')} (repeat for several; default ai_readiness)`, collect)
    .option(
      '--fail-on <expr>',
      'exit 2 when this holds: score<90, score:PRODUCT<80, severity>=high, new>0, new:severity>=medium, findings>20, category:accessibility>0 (repeatable)',
      (value: string, previous: GateExpression[] = []) => [...previous, parseFailOn(value)],
    )
    .option(
      '--baseline <run>',
      'compare with "latest" (the last completed audit of the site), a run id, or the JSON of an earlier audit (--format json)',
      collect,
    )
    .option(
      '--format <format>',
      'text, json, markdown, sarif or junit; repeat, each with its own --output',
      (value: string) => plan.addFormat(value),
    )
    .option('--output <file>', 'write the --format just before it to this file', (value: string) =>
      plan.addOutput(value),
    )
    .option('--source-dir <dir>', "the site's source: SARIF and JSON say where each element is written")
    .option('--data-dir <dir>', 'data directory of the local service (env SITEAUDIT_DATA_DIR)')
    .option('--api-key <key>', 'the API key to use (else SITEAUDIT_API_KEY, the saved login, or the local service)')
    .option('--json', 'print one JSON object on stdout (the same as --format json)')
    .addHelpText(
      'after',
      '\nExit codes: 0 the audit ran and no --fail-on expression held; 2 a --fail-on expression held;\n1 the audit could not run (bad arguments, an unreachable site, a refused key). See docs/ci.md.',
    )
    .action(async (target: string, flags: AuditFlags) => {
      // Every mistake in the arguments is told before an audit starts (and spends credits).
      const chosen = products(flags);
      const baseline = baselineRequest(flags.baseline ?? []);
      const failOn = flags.failOn ?? [];
      checkAgainstCall(failOn, chosen, baseline !== undefined);
      const outputs: Output[] = plan.resolve(flags.json === true);
      for (const output of outputs) if (output.file !== undefined) await prepareOutput(output.file);
      const locate = flags.sourceDir === undefined ? undefined : await sourceLocator(flags.sourceDir);
      const log = (line: string) => process.stderr.write(`${line}\n`);
      const connection = await connect(flags, log);
      const audits = await withServiceErrors(
        () => auditProducts(connection.client, { target, products: chosen, baseline, log }),
        connection.baseUrl,
      );
      const result: AuditResult = {
        target,
        audits,
        gate: judgeGate(failOn, audits),
        // Links to this machine's service (the embedded default, or a service on loopback) carry
        // a token for its browser and work nowhere else: no comment or upload may carry them.
        localLinks: connection.embedded || onLoopback(connection.baseUrl),
        tool: { name: 'siteaudit', version: VERSION, informationUri: INFORMATION_URI },
        ...(locate ? { locate: await locate(audits) } : {}),
      };
      for (const output of outputs) {
        const text = render(output.format, result);
        if (output.file === undefined) process.stdout.write(text);
        else {
          await writeOutput(output.file, text);
          log(`wrote ${output.format} to ${output.file}`);
        }
      }
      if (!result.gate.passed) {
        for (const check of result.gate.checks.filter((c) => c.tripped))
          log(`gate tripped: ${check.expression}: ${check.detail}`);
        process.exitCode = EXIT.gateTripped;
      }
    });
}
