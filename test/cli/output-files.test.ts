// `--output` files (issue 27): written whole by a rename when they are plain files, written in place
// when they are a device, a pipe or a link (never replaced by a file), refused early when they
// cannot be written.
import { spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareOutput, writeOutput } from '../../src/cli/ci/output-files.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'siteaudit-out-'));

describe('--output files', () => {
  it('replaces a plain file whole and makes missing directories', async () => {
    const file = join(dir(), 'a', 'b', 'report.sarif');
    await prepareOutput(file);
    await writeOutput(file, 'one');
    await writeOutput(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
  });

  it('writes through a symbolic link, keeping the link', async () => {
    const base = dir();
    const target = join(base, 'target.md');
    writeFileSync(target, 'old');
    const link = join(base, 'link.md');
    symlinkSync(target, link);
    await prepareOutput(link);
    await writeOutput(link, 'new');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('writes into a named pipe, which its reader gets', async () => {
    const fifo = join(dir(), 'pipe');
    await new Promise((resolve) => spawn('mkfifo', [fifo]).on('close', resolve));
    const reader = new Promise<string>((resolve) => {
      let text = '';
      const cat = spawn('cat', [fifo]);
      cat.stdout.on('data', (chunk) => (text += chunk));
      cat.on('close', () => resolve(text));
    });
    await prepareOutput(fifo);
    await writeOutput(fifo, 'through the pipe');
    expect(await reader).toBe('through the pipe');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('refuses a directory and a path under a file before anything runs', async () => {
    const base = dir();
    await expect(prepareOutput(base)).rejects.toThrow('is a directory');
    writeFileSync(join(base, 'file'), '');
    await expect(prepareOutput(join(base, 'file', 'x.sarif'))).rejects.toThrow('is not a directory');
  });
});
