// What one answer gives a reader, in words and tokens (issue 29, "What each agent gets"): an HTML
// answer's visible text as parseHtml reads it for a browser (page-text.ts), or a markdown answer's
// words, and what the whole answer costs a model to read. Run on a CPU thread (cpu/tasks.ts): the
// answer is the site's text, read once, linearly.
//
// Tokens are an estimate, never a tokenizer's count: characters ÷ 4, the rule of thumb OpenAI
// gives for English text (help.openai.com, "What are tokens and how to count them"). Markup and
// non-English text take more tokens per character, so the estimate of an HTML page's cost errs low.
import { shellScripts } from './app-shell.ts';
import { parseHtml } from './html.ts';
import { countWords } from './page-text.ts';

/** Characters per token of the estimate. */
export const CHARS_PER_TOKEN = 4;
/** How the token counts are made, said wherever they are shown. */
export const TOKEN_ESTIMATE = 'estimated as characters ÷ 4 (no tokenizer is run)';

export const tokenEstimate = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/** An answer measured: its text's words and characters, and the whole answer's characters. */
export interface TextMeasure {
  words: number;
  /** Characters of the text a reader gets (white space collapsed). */
  textChars: number;
  /** Characters of the whole answer (markup, scripts and styles included): what a model reads. */
  bodyChars: number;
  /** An app shell: little text, and scripts that would build the page in a browser (app-shell.ts). */
  shell?: true;
}

/** An HTML answer: its visible text as a browser without scripts shows it, and whether it waits for scripts. */
export function measureHtml(html: string, url: string): TextMeasure {
  const facts = parseHtml(html);
  return {
    words: facts.textWords,
    textChars: facts.textLength,
    bodyChars: html.length,
    ...(shellScripts(facts, url) > 0 ? { shell: true as const } : {}),
  };
}

/** A markdown (or plain text) answer: all of it is text. */
export function measureMarkdown(text: string): TextMeasure {
  return { words: countWords(text), textChars: text.length, bodyChars: text.length };
}
