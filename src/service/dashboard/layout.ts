// The page shell of the dashboard: plain server-rendered HTML, no scripts, one small stylesheet.
// Everything interpolated is escaped by hono/html; text from audited pages is shown, never run.
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

type Content = HtmlEscapedString | Promise<HtmlEscapedString>;

// The stylesheet's hash goes into the CSP, so no inline style but this one can apply.
export const STYLES = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#5b6470;--bg:#fff;--card:#f6f8fa;--line:#d8dee4;--accent:#0b5fff}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9aa5b1;--bg:#0d1117;--card:#161b22;--line:#30363d;--accent:#4c8dff}}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:960px;margin:0 auto;padding:24px 20px 64px}a{color:var(--accent)}h1{font-size:1.6rem;margin:.2em 0}h2{font-size:1.2rem;margin:1.8em 0 .6em}
.muted{color:var(--muted)}.crumb{font-size:.9rem}.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 18px;margin:12px 0}
.hero{display:flex;gap:24px;align-items:center;flex-wrap:wrap}.score{font-size:3rem;font-weight:700;line-height:1}.score small{font-size:1rem;font-weight:400;color:var(--muted)}
.badge{display:inline-block;border-radius:999px;padding:1px 10px;font-size:.8rem;font-weight:600;border:1px solid transparent;white-space:nowrap}
.critical{background:#8e1519;color:#fff}.high{background:#d1242f;color:#fff}.medium{background:#bf8700;color:#fff}.low{background:#0969da;color:#fff}.info{background:#6e7781;color:#fff}
.pass{background:#1a7f37;color:#fff}.fail{background:#d1242f;color:#fff}.unverified{background:#8250df;color:#fff}
.counts{display:flex;gap:8px;flex-wrap:wrap}table{width:100%;border-collapse:collapse;font-size:.95rem}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
ul.urls{padding-left:18px;margin:.3em 0}ul.urls li{word-break:break-all}.finding h3{margin:.2em 0 .4em;font-size:1.05rem}pre{white-space:pre-wrap;word-break:break-word;margin:0}
.notice{border-left:4px solid #8250df;padding:8px 12px;background:var(--card)}progress{width:100%;height:12px;accent-color:var(--accent)}
.bar{display:flex;gap:14px;align-items:center;flex-wrap:wrap}.inline{display:inline-flex;gap:6px;align-items:center;margin:0}
.form{display:grid;gap:10px;max-width:520px}.form label{display:grid;gap:4px}.form .check{display:flex;gap:6px}fieldset{border:1px solid var(--line);border-radius:8px}
input,select,button{font:inherit;padding:5px 8px;border-radius:6px;border:1px solid var(--line);background:var(--bg);color:var(--fg)}button{cursor:pointer;background:var(--card)}
.secret{width:100%;max-width:640px;font-family:ui-monospace,monospace}
h1,p,li,td,th{overflow-wrap:break-word}code,td a[rel~=nofollow]{overflow-wrap:anywhere}select{max-width:100%}.scroll{overflow-x:auto;max-width:100%}
@media (max-width:640px){table.reflow,table.reflow tbody,table.reflow tr,table.reflow td{display:block;width:100%}table.reflow thead{display:none}
table.reflow tr{border-bottom:1px solid var(--line);padding:6px 0}table.reflow td{border:0;padding:2px 0}table.reflow td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}table.reflow td:first-child{font-weight:600}}
.topnav{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:baseline;padding-bottom:8px;margin-bottom:8px;border-bottom:1px solid var(--line)}
.topnav .brand{font-weight:700;text-decoration:none;color:var(--fg)}.topnav [aria-current]{color:var(--fg);font-weight:600;text-decoration:none}
.filters{display:flex;flex-wrap:wrap;gap:6px 8px;align-items:center;margin:.4em 0}.chip{border:1px solid var(--line);border-radius:999px;padding:1px 10px;font-size:.9rem;text-decoration:none;white-space:nowrap}
.chip[aria-current]{background:var(--accent);border-color:var(--accent);color:#fff}.partial{font-size:.75rem;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.trend{display:block;width:100%;max-width:640px;height:auto}.trend .grid{stroke:var(--line);stroke-width:1}.trend .line{fill:none;stroke:var(--accent);stroke-width:2.5}
.trend .dot{fill:var(--accent)}.trend .dot.part{fill:var(--bg);stroke:var(--accent);stroke-width:2}.trend text{fill:var(--muted);font:15px system-ui,sans-serif}
.latest{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px}.latest .card{margin:0}.latest .score{font-size:2rem}
`;

/**
 * The pages run no script and load nothing: only the stylesheet above (by its hash) may apply.
 * A meta refresh still works under this policy, for pages of runs in flight.
 */
export function contentSecurityPolicy(options: { formAction?: string[]; script?: boolean } = {}): string {
  return [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLES).digest('base64')}'`,
    // The dashboard's scripts (the keys page's copy button, the passkey buttons) come from this service, and
    // talk only to it.
    ...(options.script ? ["script-src 'self'", "connect-src 'self'"] : []),
    "base-uri 'none'",
    `form-action ${options.formAction?.join(' ') ?? "'none'"}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** A link of the navigation bar; `current` marks the page it is on. */
export interface NavLink {
  href: string;
  label: string;
  current?: boolean;
}

/**
 * The bar at the top of every page of a signed-in person: siteaudit's home, then the pages of what
 * this page belongs to (a project, its monitoring). Pages opened by a share link get none: the link
 * opens one report, nothing of the workspace.
 */
function navBar(links: readonly NavLink[]): Content {
  return html`<nav class="topnav" aria-label="Dashboard">
      <a class="brand" href="/">siteaudit</a>
      ${links.map((l) => (l.current ? html`<a href="${l.href}" aria-current="page">${l.label}</a>` : html`<a href="${l.href}">${l.label}</a>`))}
    </nav>`;
}

export function page(
  title: string,
  body: Content,
  options: { refreshSeconds?: number; nav?: readonly NavLink[] } = {},
): Content {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex, nofollow">
    ${options.refreshSeconds ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}">` : ''}
    <title>${title} · siteaudit</title>
    <style>${raw(STYLES)}</style>
  </head>
  <body>
    <main>${options.nav ? navBar(options.nav) : ''}${body}</main>
  </body>
</html>`;
}
