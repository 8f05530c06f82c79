// The shape of one MCP prompt module under prompts/: a name, typed arguments, and the text it renders.
import type { z } from 'zod';

export interface PromptDefinition<Args extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  argsSchema: Args;
  render: (args: z.infer<Args>) => string;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds prompts of every argument type.
export type AnyPrompt = PromptDefinition<any>;

export function definePrompt<Args extends z.ZodObject>(prompt: PromptDefinition<Args>): PromptDefinition<Args> {
  return prompt;
}
