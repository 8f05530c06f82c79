// What an element is made of, as texts to search a source for: its id, classes, distinctive attribute
// values (in the forms a template may write them: `/img/mug.jpg`, `img/mug.jpg`, `mug.jpg`) and text.
// Snippets and selectors come from hostile sites: they are read by hand in one pass, bounded in
// length and count, and become plain strings (searched with indexOf), never patterns.
import {
  CLASS_CONTEXT_CHARS,
  CONTEXT_CHARS,
  MAX_ATTRIBUTES,
  MAX_FORM_CHARS,
  MAX_GROUPS,
  MAX_SELECTOR_CHARS,
  MAX_SNIPPET_CHARS,
  MIN_FORM_CHARS,
} from './bounds.ts';

/** One way a template may write a token; a hit needs no word character right before or after it. */
export interface Form {
  text: string;
  weight: number;
  /** Whether the text may continue in the source (a value cut to its start). */
  open: boolean;
}

/** One part of the element: its forms, strongest first; a place scores the best form it holds. */
export interface TokenGroup {
  /** How `matched` names it: `#id`, `.class`, `src`, `text`. */
  label: string;
  forms: Form[];
  /** Attribute names that, found just before a hit, confirm it (`class=`, `className={`). */
  context: readonly string[];
  /** What a hit without that context counts for (1 when no context is needed, 0 when required). */
  contextless: number;
  /** How far before a hit its context may be, in characters. */
  reach: number;
}

export interface ElementTokens {
  /** The tag name, lower case, when the snippet has one. */
  tag: string | undefined;
  groups: TokenGroup[];
}

interface Attribute {
  name: string;
  value: string;
  /** The snippet was cut inside this value. */
  cut: boolean;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f';
export const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 45 || code === 95;

// Maps, not objects: a name from the page (`&constructor;`, an attribute `__proto__`) must find nothing.
const ENTITIES = new Map(Object.entries({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: ' ' }));

/** HTML character references decoded in one pass (the ones serializers write). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const amp = text.indexOf('&', i);
    const semi = amp < 0 ? -1 : text.indexOf(';', amp);
    if (amp < 0 || semi < 0) break;
    out += text.slice(i, amp);
    const name = semi - amp <= 10 ? text.slice(amp + 1, semi) : '';
    let char = ENTITIES.get(name);
    if (char === undefined && name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (Number.isInteger(code) && code > 0 && code <= 0x10ffff) char = String.fromCodePoint(code);
    }
    out += char ?? text.slice(amp, semi + 1);
    i = semi + 1;
  }
  return out + text.slice(i);
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The start tag's name, attributes and any text after it, read in one pass. */
export function readStartTag(snippet: string): { tag: string | undefined; attributes: Attribute[]; text: string } {
  const s = snippet.slice(0, MAX_SNIPPET_CHARS);
  const open = s.indexOf('<');
  if (open < 0) return { tag: undefined, attributes: [], text: s };
  let i = open + 1;
  const nameStart = i;
  while (i < s.length && !isSpace(s[i]) && s[i] !== '>' && s[i] !== '/') i++;
  const tag = s.slice(nameStart, i).toLowerCase() || undefined;
  const attributes: Attribute[] = [];
  while (i < s.length && attributes.length < MAX_ATTRIBUTES) {
    while (i < s.length && (isSpace(s[i]) || s[i] === '/')) i++;
    if (i >= s.length || s[i] === '>') break;
    const start = i;
    while (i < s.length && !isSpace(s[i]) && s[i] !== '=' && s[i] !== '>' && s[i] !== '/') i++;
    const name = s.slice(start, Math.max(i, start + 1)).toLowerCase();
    if (i === start) i++;
    while (isSpace(s[i])) i++;
    if (s[i] !== '=') {
      attributes.push({ name, value: '', cut: false });
      continue;
    }
    i++;
    while (isSpace(s[i])) i++;
    const quote = s[i] === '"' || s[i] === "'" ? s[i] : undefined;
    let end: number;
    if (quote) {
      end = s.indexOf(quote, i + 1);
      const cut = end < 0;
      const raw = s.slice(i + 1, cut ? s.length : end);
      attributes.push({ name, value: decodeEntities(cut && raw.endsWith('…') ? raw.slice(0, -1) : raw), cut });
      i = cut ? s.length : end + 1;
    } else {
      end = i;
      while (end < s.length && !isSpace(s[end]) && s[end] !== '>') end++;
      attributes.push({ name, value: decodeEntities(s.slice(i, end)), cut: end >= s.length });
      i = end;
    }
  }
  const close = s.indexOf('>', i);
  const after = close < 0 ? '' : s.slice(close + 1);
  const lt = after.indexOf('<');
  return { tag, attributes, text: decodeEntities(lt < 0 ? after : after.slice(0, lt)) };
}

/** The id, classes and `[name=value]` pairs of a selector's last compound (the element itself). */
export function readSelector(selector: string): { id?: string; classes: string[]; attributes: Attribute[] } {
  const s = selector.slice(0, MAX_SELECTOR_CHARS);
  // The last compound starts after the last combinator outside brackets and parentheses.
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '[' || c === '(') depth++;
    else if ((c === ']' || c === ')') && depth > 0) depth--;
    else if (depth === 0 && (isSpace(c) || c === '>' || c === '+' || c === '~')) start = i + 1;
  }
  const result: { id?: string; classes: string[]; attributes: Attribute[] } = { classes: [], attributes: [] };
  let i = start;
  const ident = () => {
    let out = '';
    while (i < s.length && !isSpace(s[i]) && !'#.[]:()>+~,='.includes(s[i] as string)) {
      if (s[i] === '\\' && i + 1 < s.length) {
        let hex = '';
        while (
          hex.length < 6 &&
          i + 1 + hex.length < s.length &&
          '0123456789abcdefABCDEF'.includes(s[i + 1 + hex.length] as string)
        )
          hex += s[i + 1 + hex.length];
        if (hex) {
          out += String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff) || 0xfffd);
          i += 1 + hex.length + (isSpace(s[i + 1 + hex.length]) ? 1 : 0);
        } else {
          out += s[i + 1];
          i += 2;
        }
      } else out += s[i++];
    }
    return out;
  };
  while (i < s.length) {
    const c = s[i++];
    if (c === '#') result.id = ident();
    else if (c === '.') result.classes.push(ident());
    else if (c === '[') {
      const name = ident().toLowerCase();
      while (i < s.length && '~|^$*'.includes(s[i] as string)) i++;
      let value = '';
      if (s[i] === '=') {
        const quote = s[++i];
        if (quote === '"' || quote === "'") {
          const end = s.indexOf(quote, i + 1);
          value = s.slice(i + 1, end < 0 ? s.length : end);
          i = end < 0 ? s.length : end + 1;
        } else value = ident();
      }
      const close = s.indexOf(']', i);
      i = close < 0 ? s.length : close + 1;
      if (name && value) result.attributes.push({ name, value, cut: false });
    } else if (c === '(') {
      const close = s.indexOf(')', i);
      i = close < 0 ? s.length : close + 1;
    }
  }
  return result;
}

/** A form, cut to its start when long (then open at the end). */
function form(text: string, weight: number, open = false): Form | undefined {
  const clean = text.trim();
  if (clean.length < MIN_FORM_CHARS) return undefined;
  if (clean.length <= MAX_FORM_CHARS) return { text: clean, weight, open };
  const cut = clean.slice(0, MAX_FORM_CHARS);
  const space = cut.lastIndexOf(' ');
  return { text: space > MAX_FORM_CHARS / 2 ? cut.slice(0, space) : cut, weight, open: true };
}

function group(
  label: string,
  forms: Array<Form | undefined>,
  context: readonly string[] = [],
  contextless = 1,
  reach = CONTEXT_CHARS,
): TokenGroup | undefined {
  const kept: Form[] = [];
  for (const f of forms) if (f && !kept.some((k) => k.text === f.text)) kept.push(f);
  return kept.length > 0 ? { label, forms: kept.slice(0, 4), context, contextless, reach } : undefined;
}

const CLASS_CONTEXT = ['class', 'className', 'classList', 'classes', 'ngClass', 'styleClass'];
/** Classes frameworks add at build or run time: never in a template as written. */
const GENERATED_CLASS_PREFIXES = ['svelte-', 'astro-', 'jsx-', 'ng-', 'sc-', 'css-', '__className_', '__variable_'];
const GENERATED_ATTRIBUTE_PREFIXES =
  'data-v- data-astro- data-react data-n- data-hk data-svelte data-styled data-emotion data-next data-rh _ng ng-'.split(
    ' ',
  );

/** Looks like a content hash: 5 to 32 letters and digits with a digit or mixed case. */
function isHashLike(text: string): boolean {
  if (text.length < 5 || text.length > 32) return false;
  let digit = false;
  let upper = false;
  let lower = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isWordCode(code) || code === 45) return false;
    if (code >= 48 && code <= 57) digit = true;
    else if (code >= 65 && code <= 90) upper = true;
    else if (code >= 97 && code <= 122) lower = true;
  }
  return digit || (upper && lower);
}

function classGroup(name: string): TokenGroup | undefined {
  if (GENERATED_CLASS_PREFIXES.some((prefix) => name.startsWith(prefix))) return undefined;
  // CSS modules serve `Header_menu__x1Y2z` (or `Header-module__menu___x1Y2z`) for `styles.menu`.
  const hashAt = name.lastIndexOf('__');
  let local: string | undefined;
  if (hashAt > 0 && isHashLike(name.slice(hashAt + 2).replace(/^_/, ''))) {
    const base = name.slice(0, hashAt).replace(/_$/, '');
    const split = base.includes('__') ? base.indexOf('__') + 2 : base.indexOf('_') + 1;
    if (split > 0) local = base.slice(split);
  }
  return group(
    `.${name}`,
    [form(name, 4), local ? form(`.${local}`, 2.5) : undefined],
    CLASS_CONTEXT,
    0.5,
    CLASS_CONTEXT_CHARS,
  );
}

/** The hash a bundler put in a file name taken out: `mug.B3xk9a.jpg` and `mug-B3xk9a2.jpg` are `mug.jpg`. */
function withoutHash(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return name;
  const stem = name.slice(0, dot);
  const cut = Math.max(stem.lastIndexOf('.'), stem.lastIndexOf('-'));
  return cut > 0 && isHashLike(stem.slice(cut + 1)) ? stem.slice(0, cut) + name.slice(dot) : name;
}

function urlForms(value: string, depth = 0): Array<Form | undefined> {
  const v = value.trim();
  if (v === '' || v === '/' || v === '#' || v.startsWith('data:') || v.startsWith('javascript:')) return [];
  // Image services wrap the source's own path (/_next/image?url=%2Fimg%2Fmug.jpg, /_image?href=...): that one counts.
  for (const key of ['url=', 'href=', 'src=']) {
    const at = v.indexOf(key);
    if (depth === 0 && at > 0 && (v[at - 1] === '?' || v[at - 1] === '&')) {
      const end = v.indexOf('&', at);
      let inner = v.slice(at + key.length, end < 0 ? v.length : end);
      try {
        inner = decodeURIComponent(inner);
      } catch {}
      const forms = urlForms(inner, 1);
      if (forms.length > 0) return [form(v, 6), ...forms];
    }
  }
  const scheme = v.indexOf('://');
  const slash = scheme > 0 ? v.indexOf('/', scheme + 3) : -1;
  const local = scheme > 0 ? (slash < 0 ? '' : v.slice(slash)) : v;
  let end = local.length;
  for (const mark of ['?', '#']) if (local.indexOf(mark) >= 0) end = Math.min(end, local.indexOf(mark));
  const path = local.slice(0, end);
  const forms: Array<Form | undefined> = [form(v, 6)];
  if (path.length > 1) forms.push(form(path, 5));
  if (path.startsWith('/') && path.length >= 5) forms.push(form(path.slice(1), 4));
  const base = withoutHash(path.slice(path.lastIndexOf('/') + 1));
  if (base.length >= 5 && base.includes('.')) forms.push(form(base, 3));
  return forms;
}

function phraseGroup(label: string, value: string): TokenGroup | undefined {
  const phrase = value.split(/\s+/).filter(Boolean).join(' ');
  const weight = phrase.length >= 12 ? 6 : phrase.length >= 6 ? 4 : 2;
  const escaped = escapeHtml(phrase);
  // Markdown and long JSX text wrap: the first words alone still find a long phrase.
  const head =
    phrase.length > 30 ? phrase.slice(0, phrase.lastIndexOf(' ', 24) > 8 ? phrase.lastIndexOf(' ', 24) : 24) : '';
  return group(label, [
    form(phrase, weight),
    escaped !== phrase ? form(escaped, weight) : undefined,
    head ? form(head, weight * 0.7, true) : undefined,
  ]);
}

const URL_ATTRIBUTES = new Set(
  'src href action formaction poster data-src data-href srcset data-srcset cite'.split(' '),
);
const PHRASE_ATTRIBUTES = new Set(
  'placeholder aria-label alt title value label content aria-description aria-placeholder aria-roledescription'.split(
    ' ',
  ),
);
const KEY_ATTRIBUTES = new Map(
  Object.entries({ name: 5, for: 5, form: 4, list: 4, 'data-testid': 8, 'data-test': 8, 'data-cy': 8, 'data-qa': 8 }),
);
/** Values from a short list (`type="submit"`): they count only beside their attribute's name, and little. */
const ENUMERATED = new Set(
  'type role rel target method autocomplete inputmode enctype accept lang width height'.split(' '),
);

function attributeGroup({ name, value, cut }: Attribute): TokenGroup | undefined {
  if (value === '' || GENERATED_ATTRIBUTE_PREFIXES.some((prefix) => name.startsWith(prefix))) return undefined;
  if (name === 'id') return group(`#${value}`, [form(value, 10, cut)], ['id'], 0.5);
  if (name === 'srcset' || name === 'data-srcset') return group(name, urlForms(value.trim().split(/[\s,]/)[0] ?? ''));
  if (URL_ATTRIBUTES.has(name) || (name === 'content' && (value.startsWith('/') || value.startsWith('http'))))
    return group(name, cut ? [form(value, 6, true)] : urlForms(value));
  if (PHRASE_ATTRIBUTES.has(name)) return cut ? group(name, [form(value, 4, true)]) : phraseGroup(name, value);
  const key = KEY_ATTRIBUTES.get(name) ?? (name.startsWith('data-') ? 4 : undefined);
  if (key !== undefined) return group(name, [form(value, key, cut)], name === 'for' ? ['for', 'htmlFor'] : [name], 0.6);
  if (ENUMERATED.has(name) && value.length <= 40) return group(name, [form(value, 1)], [name], 0);
  return undefined;
}

/** The groups to search for an element, most telling first, at most MAX_GROUPS. */
export function readElement(element: { selector: string; snippet: string }): ElementTokens {
  const tag = readStartTag(element.snippet);
  const selector = readSelector(element.selector);
  const attributes = [...tag.attributes];
  if (selector.id && !attributes.some((a) => a.name === 'id'))
    attributes.push({ name: 'id', value: selector.id, cut: false });
  for (const a of selector.attributes) if (!attributes.some((b) => b.name === a.name)) attributes.push(a);
  const groups: TokenGroup[] = [];
  const add = (g: TokenGroup | undefined) => {
    if (g && !groups.some((h) => h.label === g.label && h.forms[0]?.text === g.forms[0]?.text)) groups.push(g);
  };
  // Custom elements name themselves: `<site-header` in a template, `'site-header'` in its definition.
  if (tag.tag?.includes('-')) add(group(`<${tag.tag}>`, [form(tag.tag, 4)]));
  for (const a of attributes) if (a.name !== 'class') add(attributeGroup(a));
  const classes = attributes.find((a) => a.name === 'class');
  const classNames = classes ? classes.value.split(/\s+/).filter(Boolean) : [];
  if (classes?.cut) classNames.pop(); // the last may be cut short
  // A utility-class soup can hold hundreds: the first ones are enough, and the bound keeps add() small.
  for (const name of [...classNames.slice(0, MAX_GROUPS * 2), ...selector.classes])
    if (name.length >= 2) add(classGroup(name));
  if (tag.text.trim()) add(phraseGroup('text', tag.text));
  const strength = (g: TokenGroup) => (g.forms[0]?.weight ?? 0) * (g.contextless === 0 ? 0.1 : 1);
  groups.sort((a, b) => strength(b) - strength(a));
  return { tag: tag.tag, groups: groups.slice(0, MAX_GROUPS) };
}
