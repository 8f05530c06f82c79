// One local service per data directory. The lock is an exclusive SQLite lock on a file of its own,
// held for the life of the process: the kernel drops it when the process ends in any way (kill -9
// included), so a crashed service never leaves a stale lock behind, and two `serve` processes
// started at the same moment cannot both win. node:sqlite is built in, so this needs no native code.

import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export const INSTANCE_LOCK_FILE = 'service.lock.db';

export interface InstanceLock {
  release(): void;
}

/** Takes the data directory's lock, or answers undefined when another live process holds it. */
export function tryInstanceLock(dataDir: string): InstanceLock | undefined {
  const database = new DatabaseSync(join(dataDir, INSTANCE_LOCK_FILE), { timeout: 0 });
  try {
    // In exclusive locking mode the lock taken by the first write is kept until the connection closes.
    database.exec('PRAGMA locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE');
    database.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER)');
    database.exec('COMMIT');
  } catch (error) {
    database.close();
    if (/locked|busy/i.test((error as Error).message)) return undefined;
    throw error;
  }
  return {
    release() {
      if (database.isOpen) database.close();
    },
  };
}
