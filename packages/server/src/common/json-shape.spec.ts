import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from './json-shape.interceptor';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('jsonShapeProblem', () => {
  it('accepts ordinary bodies and bodies at the limits', () => {
    expect(jsonShapeProblem({ transferData: { address: 'x', amount: 10 } })).toBeUndefined();
    expect(jsonShapeProblem(nested(32))).toBeUndefined();
    expect(jsonShapeProblem(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])))).toBeUndefined();
    expect(jsonShapeProblem('text')).toBeUndefined();
    expect(jsonShapeProblem(undefined)).toBeUndefined();
  });

  it('refuses depth past 32 without recursing (100,000 levels)', () => {
    expect(jsonShapeProblem(nested(33))).toBe('The request body is nested too deeply (at most 32 levels).');
    expect(jsonShapeProblem({ a: { b: nested(100_000) } })).toMatch(/nested too deeply/);
  });

  it('refuses more than 1,000 members in all', () => {
    expect(jsonShapeProblem(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])))).toBe(
      'The request body has too many fields (at most 1000).',
    );
    expect(jsonShapeProblem({ a: Array.from({ length: 600 }, () => 1), b: Array.from({ length: 600 }, () => 1) })).toMatch(/too many fields/);
  });
});
