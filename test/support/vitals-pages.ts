// Fixture pages for the Core Web Vitals (issue 29), each with its defect and fixed: a fast page, a
// page whose late image without dimensions pushes its text down (CLS poor), a page whose script
// blocks the main thread after first paint (TBT poor), and a page whose LCP element is a large image
// its script asks for late (LCP poor under slow 4G, fast without throttling). Images are real PNGs
// (deterministic noise where their bytes must take time to cross the link), so Chromium decodes and
// paints them as it would a site's.
import { crc32, deflateSync } from 'node:zlib';
import type { FixtureRoute } from './fixture-site.ts';

export type VitalsRoutes = Record<string, FixtureRoute>;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * An RGB PNG: one colour, or noise (xorshift from `noise`, so the same bytes every run) that does not
 * compress, in its first `rows` rows (all by default) and grey below. Chromium leaves an image of one
 * colour out of LCP (under 0.05 bits per pixel: a placeholder), so an LCP image has some noise.
 */
export function png(
  width: number,
  height: number,
  fill: [number, number, number] | { noise: number; rows?: number },
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  let x = Array.isArray(fill) ? 0 : fill.noise | 1;
  for (let y = 0; y < height; y++)
    for (let i = 0; i < width * 3; i++) {
      if (Array.isArray(fill)) raw[y * row + 1 + i] = fill[i % 3] as number;
      else if (y >= (fill.rows ?? height)) raw[y * row + 1 + i] = 128;
      else {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        raw[y * row + 1 + i] = x & 0xff;
      }
    }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An image route, answered after `delayMs` (a slow image host). */
const image =
  (bytes: Buffer, delayMs = 0): FixtureRoute =>
  (_req, res) => {
    const send = () => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length });
      res.end(bytes);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  };

const script = (text: string): FixtureRoute => ({ headers: { 'content-type': 'text/javascript' }, body: text });

const TEXT = `<p>${'We forge garden tools by hand for small farms, and ship them across the country. '.repeat(6)}</p>`;

const doc = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forged garden tools for small farms</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>body{margin:0;font:18px/1.5 sans-serif}main{padding:0 16px}</style>${head}</head><body><main><h1>Forged garden tools for small farms</h1>${body}</main></body></html>`;

/** Text that fills the viewport below the image, so that pushing it down shifts most of the screen. */
const COLUMN = TEXT.repeat(6);

const LOGO = png(120, 60, [30, 90, 40]);
const BANNER = png(1200, 800, [200, 120, 40]);
/**
 * The banner's host answers after 1.5 s: the text has long been painted when the banner arrives,
 * however slowly a busy machine paints it (a banner there before the first paint shifts nothing).
 */
const BANNER_DELAY_MS = 1500;
/** About 470 KB: 2.5 s over slow 4G's 1.47 Mbps, after the latencies of the page and its script. */
const HERO_HEAVY = png(400, 390, { noise: 29 });
/** The same hero, light (about 24 KB): what a compressed image is to the link. */
const HERO_LIGHT = png(400, 390, { noise: 29, rows: 20 });

// Three 300 ms tasks after load: 3 x 250 ms of blocking time. Wall-clock loops, so the blocking
// time is the same on a fast machine and a slow one, throttled or not.
const BUSY = `function busy(ms){const t=performance.now();while(performance.now()-t<ms){}}
addEventListener('load',()=>{for(let i=0;i<3;i++)setTimeout(()=>busy(300),100*i)});`;
// The same 900 ms of work in 20 ms slices, each its own task: no long task, no blocking time (with
// room for a slice stretched by a busy machine before it counts).
const SLICED = `function busy(ms){const t=performance.now();while(performance.now()-t<ms){}}
addEventListener('load',()=>{for(let i=0;i<45;i++)setTimeout(()=>busy(20),10*i)});`;

// Into a box of the image's size, so that it shifts nothing: this page is slow, not unstable.
const HERO_LATE = `const img=new Image();img.src='/hero.png';img.alt='A forged spade';img.width=400;img.height=390;
document.getElementById('hero').append(img);`;

export interface VitalsFixture {
  name: string;
  /** Which metric the fixture is poor in (none for the fast page). */
  poor?: 'lcp' | 'cls' | 'tbt';
  before: VitalsRoutes;
  after: VitalsRoutes;
}

export const VITALS_FIXTURES: VitalsFixture[] = [
  {
    name: 'a fast page',
    before: {
      '/': { body: doc('', `<img src="/logo.png" alt="Forge logo" width="120" height="60">${TEXT}`) },
      '/logo.png': image(LOGO),
    },
    after: {
      '/': { body: doc('', `<img src="/logo.png" alt="Forge logo" width="120" height="60">${TEXT}`) },
      '/logo.png': image(LOGO),
    },
  },
  {
    name: 'a late banner without dimensions that pushes the text down',
    poor: 'cls',
    before: {
      '/': {
        body: doc('', `<img class="banner" src="/banner.png" alt="Summer sale" style="max-width:100%">${COLUMN}`),
      },
      '/banner.png': image(BANNER, BANNER_DELAY_MS),
    },
    after: {
      '/': {
        body: doc(
          '',
          `<img class="banner" src="/banner.png" alt="Summer sale" width="1200" height="800" style="max-width:100%;height:auto">${COLUMN}`,
        ),
      },
      '/banner.png': image(BANNER, BANNER_DELAY_MS),
    },
  },
  {
    name: 'a script that blocks the main thread after first paint',
    poor: 'tbt',
    before: { '/': { body: doc('', `${TEXT}<script src="/app.js"></script>`) }, '/app.js': script(BUSY) },
    after: { '/': { body: doc('', `${TEXT}<script src="/app.js"></script>`) }, '/app.js': script(SLICED) },
  },
  {
    name: 'a large hero image its script asks for late',
    poor: 'lcp',
    before: {
      '/': {
        body: doc(
          '',
          `<div id="hero" style="height:390px"></div><p>Spades and forks.</p><script src="/hero.js"></script>`,
        ),
      },
      '/hero.js': script(HERO_LATE),
      '/hero.png': image(HERO_HEAVY),
    },
    after: {
      '/': {
        body: doc(
          '<link rel="preload" as="image" href="/hero.png" fetchpriority="high">',
          '<div id="hero" style="height:390px"><img src="/hero.png" alt="A forged spade" width="400" height="390" fetchpriority="high"></div><p>Spades and forks.</p>',
        ),
      },
      '/hero.png': image(HERO_LIGHT),
    },
  },
];
