import { describe, expect, it } from 'vitest';
import { useSearchStore } from './store';

describe('search store', () => {
  it('keeps each screen’s state apart and merges patches', () => {
    const { update } = useSearchStore.getState();
    update('GENERAL', { values: { Authors: 'smith' } });
    update('GENERAL', (s) => ({ values: { ...s.values, Title: 'snakes' } }));
    update('AUTHOR', { hidden: ['Email Match'] });
    const { screens } = useSearchStore.getState();
    expect(screens.GENERAL.values).toEqual({ Authors: 'smith', Title: 'snakes' });
    expect(screens.GENERAL.hidden).toEqual([]);
    expect(screens.AUTHOR.values).toEqual({});
    expect(screens.AUTHOR.hidden).toEqual(['Email Match']);
    expect(screens.GENERAL.filter).toEqual({ mode: 'include', fileIds: [] });
  });
});
