// The two storage backends, each giving a fresh, empty store location per suite: a temporary data
// directory for SQLite, a new schema for PostgreSQL (dropped afterwards).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Backend, StoreLocation } from '../../src/service/store/index.ts';

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
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const scoped = new URL(url);
      scoped.searchParams.set('options', `-c search_path=${schema}`);
      const dataDir = tempDir();
      return {
        dataDir,
        databaseUrl: scoped.toString(),
        async cleanup() {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query(`drop schema if exists ${schema} cascade`);
          await client.end();
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
