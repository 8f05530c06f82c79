// White space as JavaScript's `\s` and `trim` take it, for the hand scans of site text (robots.txt
// lines, Link headers, markdown links) that replaced backtracking patterns: one definition, so each
// scan reads white space exactly as the pattern it replaced did.

/** Whether the UTF-16 code unit is white space or a line terminator (`\s`). */
export function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** The first index at or after `from` that is not white space (text.length when none is). */
export function skipWhiteSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isWhiteSpace(text.charCodeAt(i))) i++;
  return i;
}
