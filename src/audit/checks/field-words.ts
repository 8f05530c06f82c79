// A form field as findings name it: by its type and name attribute (`text field “email”`), and a
// field with no name as such (`a text field with no name`), never as empty quotes (`field “”`).
import { quote } from '../quote.ts';

/**
 * `text field “q”` (`unlabelled text field “q”`), or `a text field with no name` (`an unlabelled
 * text field with no name`): the article leads only a field with no name, which has none to lead.
 */
export function fieldWords(field: { type: string; name: string }, adjective = ''): string {
  const kind = `${adjective ? `${adjective} ` : ''}${field.type} field`;
  if (field.name.trim() !== '') return `${kind} ${quote(field.name)}`;
  // "an email field", "an unlabelled field", but "a url field" (said "you are el").
  return `${/^(?:[aeio]|u(?!rl))/.test(kind) ? 'an' : 'a'} ${kind} with no name`;
}
