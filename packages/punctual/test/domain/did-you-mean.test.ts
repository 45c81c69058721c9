// "Did you mean": edit distance and the closest likely name, with its thresholds.

import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/domain/did-you-mean.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['@evry', '@every', 1],
    ['kitten', 'sitting', 3],
    ['WEBHOOK', 'webhook', 0],
  ])('%s to %s is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closestName', () => {
  const kinds = ['handler', 'webhook', 'redis', 'nats', 'amqp', 'script'];
  it('suggests a name within two edits, the earlier one on a tie', () => {
    expect(closestName('webhok', kinds)).toBe('webhook');
    expect(closestName('scirpt', kinds)).toBe('script');
    expect(closestName('nat', kinds)).toBe('nats');
    expect(closestName('@in', ['@at', '@in'])).toBe('@in');
    expect(closestName('@an', ['@at', '@in'])).toBe('@at');
  });

  it('suggests nothing for a far or very short word', () => {
    expect(closestName('email', kinds)).toBeUndefined();
    expect(closestName('x', ['at', 'in'])).toBeUndefined();
    expect(closestName('ab', ['at'])).toBeUndefined();
  });
});
