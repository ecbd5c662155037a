import { describe, expect, it } from 'vitest';
import { suggestionUsesPost } from './api';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);

describe('suggestion requests (spec section 7)', () => {
  it('posts regular suggestions above 50 file ids or with any excluded id', () => {
    expect(suggestionUsesPost({ kind: 'regular' })).toBe(false);
    expect(suggestionUsesPost({ kind: 'regular', fileIds: ids(50) })).toBe(false);
    expect(suggestionUsesPost({ kind: 'regular', fileIds: ids(51) })).toBe(true);
    expect(suggestionUsesPost({ kind: 'regular', excludedFileIds: ids(1) })).toBe(true);
  });

  it('posts authors suggestions only above 50 file ids and with no excluded id', () => {
    expect(suggestionUsesPost({ kind: 'authors', fileIds: ids(51) })).toBe(true);
    expect(suggestionUsesPost({ kind: 'authors', fileIds: ids(51), excludedFileIds: ids(1) })).toBe(false);
    expect(suggestionUsesPost({ kind: 'authors', excludedFileIds: ids(1) })).toBe(false);
    expect(suggestionUsesPost({ kind: 'authors', fileIds: ids(50) })).toBe(false);
  });
});
