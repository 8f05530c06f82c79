// The files `--output` names, made ready before any audit starts (a path that cannot be written is
// a mistake in the arguments: told at once, not after the audit spent its credits) and written whole.
import { constants } from 'node:fs';
import { access, lstat, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliError } from '../options.ts';

const cannot = (file: string, why: string) => new CliError('invalid_argument', `--output ${file}: ${why}`);

/**
 * Makes the file's missing directories one level at a time (a recursive mkdir under /proc never
 * returns on some kernels) and checks the file can be written there.
 */
export async function prepareOutput(file: string): Promise<void> {
  const path = resolve(file);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw cannot(file, 'is a directory');
  // A device, a pipe or a link is written in place (see writeOutput): it must be writable itself.
  if (existing && !(await isPlainFile(path))) {
    await access(path, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
      throw cannot(file, `is not writable (${error.code})`);
    });
    return;
  }
  const missing: string[] = [];
  let dir = dirname(path);
  for (;;) {
    const info = await stat(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : error));
    if (info instanceof Error) throw cannot(file, `${dir} cannot be read (${info.code})`);
    if (info) {
      if (!info.isDirectory()) throw cannot(file, `${dir} is not a directory`);
      break;
    }
    missing.unshift(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const make of missing)
    await mkdir(make).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw cannot(file, `cannot make ${make} (${error.code})`);
    });
  await access(dirname(path), constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw cannot(file, `${dirname(path)} is not writable (${error.code})`);
  });
}

/** A regular file or nothing there: what may be replaced by a rename. */
const isPlainFile = async (path: string) => {
  const info = await lstat(path).catch(() => undefined);
  return info === undefined || info.isFile();
};

/**
 * Writes the text whole or not at all (a CI step never reads half a report) by renaming a finished
 * file over the path; a device (/dev/stdout), a pipe or a symbolic link is written in place instead,
 * never replaced by a file of its own.
 */
export async function writeOutput(file: string, text: string): Promise<void> {
  const path = resolve(file);
  if (!(await isPlainFile(path))) {
    await writeFile(path, text).catch((error: NodeJS.ErrnoException) => {
      throw new CliError('output_failed', `could not write ${file} (${error.code ?? error})`);
    });
    return;
  }
  const partial = `${path}.${process.pid}.partial`;
  // A file replaced keeps its permissions (a report kept private stays private).
  const mode = (await stat(path).catch(() => undefined))?.mode;
  try {
    await writeFile(partial, text, mode === undefined ? {} : { mode: mode & 0o777 });
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw new CliError('output_failed', `could not write ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}
