// The standards a check cites and the builders of its verify line (docs/scoring.md, "Verify lines").
// Each check's citation sits in its spec, beside the check (issue 25); docs/scoring.md's catalogue is
// generated from the specs. `{url}`, `{origin}`, `{host}` and `{domain}` (the mail domain) are filled
// in per finding (citations.ts).
export interface Reference {
  title: string;
  url: string;
}

/** The tools the catalogue is measured against. */
export type Anchor = 'Lighthouse' | 'axe' | 'Cloudflare' | 'internet.nl' | 'Observatory';

export interface Citation {
  references: Reference[];
  verify: string;
  anchors: Anchor[];
}

export const WCAG = (sc: string, slug: string, name: string): Reference => ({
  title: `WCAG 2.2 SC ${sc} ${name}`,
  url: `https://www.w3.org/WAI/WCAG22/Understanding/${slug}.html`,
});
export const RFC = (n: number, section: string, name: string): Reference => ({
  title: `RFC ${n}${section ? ` §${section}` : ''}: ${name}`,
  url: `https://www.rfc-editor.org/rfc/rfc${n}${section ? `#section-${section}` : ''}`,
});
export const MDN = (path: string, name: string): Reference => ({
  title: `MDN: ${name}`,
  url: `https://developer.mozilla.org/en-US/docs/${path}`,
});
export const ref = (title: string, url: string): Reference => ({ title, url });
// Verify lines (docs/scoring.md, "Verify lines"): each prints what the check judged, so that it shows
// the defect before the fix and passes after it. Every one is proven so on fixture pages by
// test/audit/verify-lines.test.ts. Patterns over markup are grep -E (a DFA in GNU grep: linear, no
// backtracking) in a double-quoted shell word, and accept double-quoted, single-quoted and unquoted
// attribute values in any order, over the page joined into one line (a tag may span lines).
export const axe = (rules: string) => `npx @axe-core/cli {url} --rules ${rules}`;
// Lighthouse's JSON holds each audit as "id", "title", "description", then "score" (below 1 fails).
export const lighthouse = (audit: string) =>
  `npx lighthouse {url} --only-audits=${audit} --chrome-flags=--headless --quiet --output=json | grep -A3 '"id": "${audit}"'`;
export const header = (name: string) => `curl -sSI {url} | grep -i '^${name}:'`;
export const dig = (type: string, name: string) => `dig +short ${type} ${name}`;
/** The page's markup on one line, for grep -o over its tags. */
export const MARKUP = `curl -sS {url} | tr '\\n\\r' '  '`;
/** An ERE in a double-quoted shell word: `\\"` is a `"` to grep, `'` is itself; no `$name`, no `!`. */
export const grepMarkup = (ere: string) => `${MARKUP} | grep -ioE "${ere}"`;
/**
 * A text as a grep -E literal inside a double-quoted shell word: ERE's special characters each in a
 * bracket (`[.]`), so no backslash meets the shell. Undefined for a text holding a character the
 * double quotes would still read (`"`, `\\`, `$`, a backquote, `!`) or that a bracket cannot hold.
 */
export function ereLiteral(text: string): string | undefined {
  let out = '';
  for (const c of text) {
    if ('"\\$`!^]'.includes(c)) return undefined;
    out += '.[()*+?{}|'.includes(c) ? `[${c}]` : c;
  }
  return out;
}
/** An attribute value's opening quote, if any. */
export const Q = `[\\"']?`;
/** The rest of a value and its tag once a value matched: a quote, a space or `/`, then up to `>`. */
export const REST = `([\\"'[:space:]/][^>]*)?>`;
/** A value's characters, quoted or not. */
export const V = `[^\\"' >]*`;
/** A <meta> whose name (or property, as Open Graph writes it) matches `key`. */
export const metaTag = (key: string) => `<meta[^>]*[[:space:]](name|property)=${Q}${key}${REST}`;
/** The X-Robots-Tag header and the robots meta tags, kept when they say noindex (or none). */
export const NOINDEX = `{ curl -sSI {url} | grep -i "^x-robots-tag:"; ${grepMarkup(metaTag('(robots|googlebot)'))}; } | grep -iwE "noindex|none"`;
/** A link whose address or text holds one of `words` (as the checks read links: href or text). */
export const linkTo = (words: string) =>
  `href=${Q}${V}(${words})${V}|<a([[:space:]][^>]*)?>([[:space:]]*<[^>]*>)*[^<]*(${words})[^<]*`;
export const SET_COOKIE = `curl -sSI {url} | grep -i "^set-cookie:"`;
/** A cookie attribute as its own `;`-separated token, at the end of the line or before the next. */
export const cookieFlag = (flag: string) => `;[[:space:]]*${flag}([[:space:];]|$)`;
// Every JSON-LD block of the page, parsed as a search engine does: a line per block that does not
// parse, and per schema.org node (top level and @graph) its type and properties. Node is there
// wherever npx is; the script has no single quote and no backtracking pattern over the page.
export const JSON_LD_SCRIPT = String.raw`let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let n=0;for(const p of s.split(/<script/i).slice(1)){const e=p.indexOf(">");if(e<0||!/ld\+json/i.test(p.slice(0,e)))continue;n++;const t=p.slice(e+1).split(/<\/script/i)[0];let v;try{v=JSON.parse(t)}catch(x){console.log("block "+n+": does not parse: "+x.message);continue}const w=o=>{if(Array.isArray(o))o.forEach(w);else if(o&&typeof o==="object"){if(o["@type"])console.log("block "+n+": "+[].concat(o["@type"]).join("/")+": "+Object.keys(o).filter(k=>k[0]!=="@").join(" "));if(o["@graph"])w(o["@graph"])}};w(v)}if(!n)console.log("no JSON-LD block")})`;
export const JSON_LD = `curl -sS {url} | node -e '${JSON_LD_SCRIPT}'`;
// The page as the marketing checks read its words (checks/marketing-words.ts): percent-escapes
// decoded (a path as /お問い合わせ/, not /%E3%81%8A...), lowercased, accents and other marks removed
// (Contáctenos is contactenos, ダウンロード is タウンロート, as `fold` has them), on one line. The
// word lists are folded the same way, so a grep of their literal words finds what the checks find
// in any language, whatever the shell's locale: no `-i`, no bracket holding a multibyte character.
export const FOLD_SCRIPT = String.raw`let s="";process.stdin.setEncoding("utf8").on("data",d=>s+=d).on("end",()=>console.log(s.replace(/(%[0-9a-f]{2})+/gi,m=>{try{return decodeURIComponent(m)}catch(e){return m}}).toLowerCase().normalize("NFD").replace(/\p{M}/gu,"").replace(/[\n\r]/g," ")))`;
export const FOLDED = `curl -sS {url} | node -e '${FOLD_SCRIPT}'`;
// The fields a placeholder alone names, as placeholder-only-label judges them (html.ts): an <input>
// (not hidden or a button) or <textarea> with a non-blank placeholder, no aria-label, aria-labelledby
// or title, not inside a <label> and named by no <label for>. One start tag a line; nothing once
// every such field has a label. A linear scan of the tags (quotes respected, comments and the content
// of script, style and textarea skipped); no single quote, no backtracking pattern over the page.
export const PLACEHOLDER_ONLY_SCRIPT = String.raw`const s=require("fs").readFileSync(0,"utf8"),A=/\s*([^\s\/>=]+)(?:\s*=\s*("[^"]*"|\x27[^\x27]*\x27|[^\s>]*))?/y,T=/[a-z][\w-]*/iy,F=new Set,O=[];let i=0,L=0;while((i=s.indexOf("<",i))>=0){if(s.startsWith("<!--",i)){i=s.indexOf("-->",i);if(i<0)break;continue}const c=s[i+1]=="/";T.lastIndex=i+1+c;const n=(T.exec(s)||[""])[0].toLowerCase();if(!n){i++;continue}let j=T.lastIndex,a={},m;for(;;){while(/[\s\/]/.test(s[j]))j++;if(!s[j]||s[j]==">")break;A.lastIndex=j;m=A.exec(s);if(!m){j++;continue}j=A.lastIndex;a[m[1].toLowerCase()]=(m[2]||"").replace(/^(["\x27])(.*)\1$/s,"$2")}const g=k=>(a[k]||"").trim();if(n=="label")c?L&&L--:(L++,a.for&&F.add(a.for));if(!c&&!L&&(n=="textarea"||n=="input"&&!/^(hidden|submit|button|image|reset)$/i.test(a.type))&&g("placeholder")&&!["aria-label","aria-labelledby","title"].some(g)&&!("hidden"in a)&&!/display\s*:\s*none/i.test(a.style))O.push([a.id,s.slice(i,j+1).replace(/\s+/g," ")]);i=j+1;if(!c&&/^(script|style|textarea)$/.test(n)){const E=RegExp("</"+n,"ig");E.lastIndex=i;i=(m=E.exec(s))?m.index:s.length}}for(const[d,t]of O)if(!d||!F.has(d))console.log(t)`;
export const PLACEHOLDER_ONLY = `curl -sS {url} | node -e '${PLACEHOLDER_ONLY_SCRIPT}'`;

export const ROBOTS = RFC(9309, '', 'Robots Exclusion Protocol');
export const SCHEMA_ORG = (type: string) => ref(`schema.org ${type}`, `https://schema.org/${type}`);
export const EPRIVACY = ref(
  'ePrivacy Directive 2002/58/EC, Art. 5(3) (consent before storing or reading cookies)',
  'https://eur-lex.europa.eu/eli/dir/2002/58/oj',
);

// Citations of checks that several products make of the same thing (one standard, one verify line).
export const INDEXABLE_CITE: Citation = {
  references: [
    ref(
      'Google: Robots meta tag and X-Robots-Tag',
      'https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag',
    ),
  ],
  verify: NOINDEX,
  anchors: ['Lighthouse'],
};
export const IMAGE_DIMENSIONS_CITE: Citation = {
  references: [
    ref(
      'web.dev: Optimize Cumulative Layout Shift (images without dimensions)',
      'https://web.dev/articles/optimize-cls#images-without-dimensions',
    ),
  ],
  verify: lighthouse('unsized-images'),
  anchors: ['Lighthouse'],
};
export const HTTPS_CITE: Citation = {
  references: [RFC(9110, '4.2.2', 'https URI Scheme')],
  verify: 'curl -sSI https://{host}/ | head -1',
  anchors: ['Lighthouse', 'internet.nl', 'Observatory'],
};
export const MIXED_CONTENT_CITE: Citation = {
  references: [ref('W3C Mixed Content Level 2', 'https://www.w3.org/TR/mixed-content/')],
  verify: grepMarkup(
    `([[:space:]](src|srcset|poster|data|action|formaction)=|<link[^>]*[[:space:]]href=)${Q}http://${V}`,
  ),
  anchors: ['Lighthouse'],
};
