// A site's source, listed once and read at most once: the files to search (files.ts) and their text,
// read asynchronously on first use and kept for the next locate call, within the byte bounds.
// An index is a snapshot: make a new one to see files that changed since.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULT_BOUNDS, type SourceBounds } from './bounds.ts';
import { listSourceFiles, type SourceFile } from './files.ts';

/** Bytes sniffed for a NUL: text files have none. */
const BINARY_SNIFF_BYTES = 8_192;
/** A file this long with fewer line breaks than one per MINIFIED_LINE_CHARS characters is minified output. */
const MINIFIED_MIN_CHARS = 20_000;
const MINIFIED_LINE_CHARS = 2_000;

export class SourceIndex {
  readonly root: string;
  readonly bounds: SourceBounds;
  /** The files searched, best first (templates, content, scripts, then generated output). */
  readonly files: readonly SourceFile[];
  /** How the files were listed: `git ls-files`, or the built-in walk with its own .gitignore matcher. */
  readonly via: 'git' | 'walk';
  /** A bound cut the listing short. */
  readonly truncated: boolean;
  #bytesRead = 0;
  readonly #texts = new Map<string, Promise<string | undefined>>();
  readonly #lineStarts = new Map<string, Uint32Array>();
  readonly #minified = new Set<string>();

  constructor(root: string, bounds: SourceBounds, listing: Awaited<ReturnType<typeof listSourceFiles>>) {
    this.root = root;
    this.bounds = bounds;
    this.files = listing.files;
    this.via = listing.via;
    this.truncated = listing.truncated;
  }

  /** Bytes read so far, never more than bounds.maxTotalBytes. */
  get bytesRead(): number {
    return this.#bytesRead;
  }

  /** A file's text, or undefined when it is binary, too large, past the byte budget, or gone. */
  text(file: SourceFile): Promise<string | undefined> {
    let text = this.#texts.get(file.path);
    if (!text) {
      text = this.#read(file);
      this.#texts.set(file.path, text);
    }
    return text;
  }

  /** Build output, by its place (dist/) or, once read, by its look (minified). */
  isGenerated(file: SourceFile): boolean {
    return file.generated || this.#minified.has(file.path);
  }

  /** The offset each line starts at, for a file already read. */
  lineStarts(file: SourceFile, text: string): Uint32Array {
    let starts = this.#lineStarts.get(file.path);
    if (!starts) {
      const found = [0];
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) found.push(at + 1);
      starts = Uint32Array.from(found);
      this.#lineStarts.set(file.path, starts);
    }
    return starts;
  }

  async #read(file: SourceFile): Promise<string | undefined> {
    const { maxFileBytes, maxTotalBytes } = this.bounds;
    if (this.#bytesRead >= maxTotalBytes) return undefined;
    // Not through a symbolic link: it could lead out of the root.
    const handle = await open(join(this.root, file.path), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(
      () => undefined,
    );
    if (!handle) return undefined;
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size > maxFileBytes || this.#bytesRead + info.size > maxTotalBytes) return undefined;
      this.#bytesRead += info.size;
      const buffer = Buffer.alloc(info.size);
      let filled = 0;
      while (filled < info.size) {
        const { bytesRead } = await handle.read(buffer, filled, info.size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const bytes = buffer.subarray(0, filled);
      if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
      const text = bytes.toString('utf8');
      if (text.length >= MINIFIED_MIN_CHARS && this.lineStarts(file, text).length < text.length / MINIFIED_LINE_CHARS)
        this.#minified.add(file.path);
      return text;
    } catch {
      return undefined;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
}

/**
 * Lists the candidate files of a source root once (git's view of ignored files where git is there,
 * the built-in .gitignore matcher otherwise), within the bounds; their text is read when searched.
 */
export async function createSourceIndex(root: string, bounds: Partial<SourceBounds> = {}): Promise<SourceIndex> {
  const full = { ...DEFAULT_BOUNDS, ...bounds };
  const absolute = resolve(root);
  return new SourceIndex(absolute, full, await listSourceFiles(absolute, full));
}
