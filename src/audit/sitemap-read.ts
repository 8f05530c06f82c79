// A sitemap's bytes as a CPU task (cpu/tasks.ts): plain XML, or gzip (told by its magic bytes, whatever
// the URL or content type says) decompressed as a stream into the parser, so no more than a chunk is
// held and no more than the 50 MB sitemaps.org allows is ever inflated, however small the gzip (a
// bomb of 1 MB inflates to 1 GB). zlib works on libuv's threads; the parser on the CPU thread.
import { createGunzip } from 'node:zlib';
import { type Sitemap, sitemapParser } from './foundation-files.ts';

/** sitemaps.org: "no larger than 50MB (52,428,800 bytes)" uncompressed. */
export const SITEMAP_MAX_BYTES = 52_428_800;

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * Reads `bytes` (the body as fetched) of the sitemap at `sitemapUrl`. `cut`: the fetch stopped at its
 * size cap, so gzip data that ends early was cut by us, not broken by the site.
 */
export async function readSitemap(
  bytes: Uint8Array,
  sitemapUrl: string,
  cut = false,
  maxBytes = SITEMAP_MAX_BYTES,
): Promise<Sitemap> {
  const parser = sitemapParser(sitemapUrl);
  const decoder = new TextDecoder('utf-8');
  if (!isGzip(bytes)) {
    parser.write(decoder.decode(bytes));
    return parser.end();
  }
  let inflated = 0;
  let tooLarge = false;
  let gzipError: string | undefined;
  await new Promise<void>((resolve) => {
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    const done = () => {
      gunzip.destroy();
      resolve();
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (tooLarge || parser.stopped) return;
      const room = maxBytes - inflated;
      if (chunk.length > room) {
        tooLarge = true;
        parser.write(decoder.decode(chunk.subarray(0, room), { stream: true }));
        inflated = maxBytes;
        done();
        return;
      }
      inflated += chunk.length;
      parser.write(decoder.decode(chunk, { stream: true }));
      if (parser.stopped) done();
    });
    gunzip.on('end', done);
    gunzip.on('error', (error: NodeJS.ErrnoException) => {
      const early = error.code === 'Z_BUF_ERROR' || /unexpected end/i.test(error.message);
      if (!(early && cut))
        gzipError = early ? 'the gzip data ends early' : `the gzip data is corrupt (${error.message})`;
      done();
    });
    gunzip.end(bytes);
  });
  parser.write(decoder.decode());
  return { ...parser.end(), gzip: true, ...(tooLarge ? { tooLarge } : {}), ...(gzipError ? { gzipError } : {}) };
}
