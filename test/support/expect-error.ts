// Asserts that a response is an error in the spec's envelope (2.1) with the given status and code.
import { expect } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/index.ts';
import type { ApiResponse } from './service.ts';

export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { error: { code } } });
  expect(ErrorEnvelope.safeParse(response.body).success, response.text).toBe(true);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
}
