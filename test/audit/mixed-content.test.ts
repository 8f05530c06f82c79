// Mixed content (issue 10): every URL an HTTPS page loads or submits to over http:// is found, not
// only img, script and stylesheet; https, relative and protocol-relative URLs are not.
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/audit/html.ts';

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

describe('mixed content candidates', () => {
  it.each([
    ['an iframe', '<iframe src="http://a.example/frame"></iframe>', 'http://a.example/frame'],
    ['a script', '<script src="http://a.example/s.js"></script>', 'http://a.example/s.js'],
    ['a stylesheet', '<link rel="stylesheet" href="http://a.example/s.css">', 'http://a.example/s.css'],
    ['an image', '<img src="HTTP://a.example/i.png" alt="">', 'HTTP://a.example/i.png'],
    [
      'an image srcset',
      '<img src="/i.png" srcset="/i2.png 2x, http://a.example/i3.png 3x" alt="">',
      'http://a.example/i3.png',
    ],
    ['a picture source', '<picture><source srcset="http://a.example/p.webp"></picture>', 'http://a.example/p.webp'],
    ['a video source', '<video><source src="http://a.example/v.mp4"></video>', 'http://a.example/v.mp4'],
    ['a video poster', '<video poster="http://a.example/poster.jpg"></video>', 'http://a.example/poster.jpg'],
    ['audio', '<audio src="http://a.example/a.mp3"></audio>', 'http://a.example/a.mp3'],
    ['a track', '<video><track src="http://a.example/t.vtt"></video>', 'http://a.example/t.vtt'],
    ['an object', '<object data="http://a.example/o.swf"></object>', 'http://a.example/o.swf'],
    ['an embed', '<embed src="http://a.example/e.swf">', 'http://a.example/e.swf'],
    ['a form action', '<form action="http://a.example/login"><input name="q"></form>', 'http://a.example/login'],
    ['a formaction', '<form><button formaction="http://a.example/go">Go</button></form>', 'http://a.example/go'],
    [
      'an image input',
      '<form><input type="image" src="http://a.example/b.png" alt="Go"></form>',
      'http://a.example/b.png',
    ],
  ])('finds %s', (_what, body, url) => {
    expect(parseHtml(page(body)).mixedContent.map((m) => m.url)).toContain(url);
  });

  it('finds a frame of a frameset document, where the HTML5 parser keeps frames', () => {
    const facts = parseHtml(
      '<!doctype html><html><head><title>t</title></head><frameset><frame src="http://a.example/f"></frameset></html>',
    );
    expect(facts.mixedContent).toEqual([
      {
        url: 'http://a.example/f',
        element: { selector: 'html > frameset > frame', snippet: '<frame src="http://a.example/f">' },
      },
    ]);
  });

  it('leaves https, relative and protocol-relative URLs and plain links alone', () => {
    const facts = parseHtml(
      page(
        '<link rel="canonical" href="http://a.example/"><iframe src="https://a.example/"></iframe><img src="//a.example/i.png" alt=""><img srcset="/a.png 1x, https://a.example/b.png 2x" alt=""><form action="/search"></form><a href="http://a.example/">a link is not loaded</a>',
      ),
    );
    expect(facts.mixedContent).toEqual([]);
  });
});
