// The two storage backends, each giving a fresh, empty store location per suite: a temporary data
// directory for SQLite, a new schema for PostgreSQL (dropped afterwards).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Backend, StoreLocation } from '../../src/service/store/index.ts';
import { createPostgresSchema } from './postgres-schema.ts';

export interface TestLocation extends StoreLocation {
  cleanup(): Promise<void>;
}

export interface TestBackend {
  name: Backend;
  available: boolean;
  create(): Promise<TestLocation>;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'siteaudit-test-'));
}

const sqlite: TestBackend = {
  name: 'sqlite',
  available: true,
  async create() {
    const dataDir = tempDir();
    return { dataDir, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  },
};

function postgres(url: string | null): TestBackend {
  return {
    name: 'postgres',
    available: url !== null,
    async create() {
      if (!url) throw new Error('PostgreSQL is not available');
      const { databaseUrl, drop } = await createPostgresSchema(url);
      const dataDir = tempDir();
      return {
        dataDir,
        databaseUrl,
        async cleanup() {
          await drop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** Both backends; PostgreSQL's `available` is false where the server is not reachable. */
export function testBackends(): TestBackend[] {
  return [sqlite, postgres(inject('postgresUrl'))];
}
