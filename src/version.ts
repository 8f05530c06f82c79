// This package's version, read from its package.json (found from src/ and from dist/src/ alike).
import { readFileSync } from 'node:fs';

function readVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'siteaudit' && pkg.version) return pkg.version;
    } catch {
      // try the next place
    }
  }
  return '0.0.0';
}

export const VERSION = readVersion();
