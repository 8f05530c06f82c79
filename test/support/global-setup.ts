// Probes PostgreSQL once for the whole run. When SITEAUDIT_TEST_DATABASE_URL is set (CI sets it) an
// unreachable server fails the run; otherwise the default local server is tried and, if absent, the
// PostgreSQL suites skip and say so.
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

async function reachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

export default async function setup(project: TestProject) {
  // The CLI tests spawn bin/siteaudit.js, which runs dist/: build it so it matches the sources.
  // SITEAUDIT_TEST_SKIP_BUILD=1 leaves dist/ as it is (several people editing one checkout at once).
  if (process.env.SITEAUDIT_TEST_SKIP_BUILD !== '1')
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
      stdio: 'inherit',
    });
  const explicit = process.env.SITEAUDIT_TEST_DATABASE_URL;
  const url = explicit || DEFAULT_TEST_DATABASE_URL;
  const problem = await reachable(url);
  if (problem && explicit)
    throw new Error(`SITEAUDIT_TEST_DATABASE_URL is set but PostgreSQL is not reachable: ${problem}`);
  if (problem) {
    process.stderr.write(
      `\nPostgreSQL at ${url} is not reachable (${problem}): the PostgreSQL storage tests are skipped.\n\n`,
    );
  }
  project.provide('postgresUrl', problem ? null : url);
}
