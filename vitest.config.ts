import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Local services that tests start take any free port, never the 8787 of a developer's own service.
    env: { SITEAUDIT_LOCAL_PORT: '0' },
    // node:sqlite is flagged experimental on Node 22; the notice is noise in test output.
    execArgv: ['--disable-warning=ExperimentalWarning'],
  },
});
