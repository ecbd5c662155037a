import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FileType } from '@sift/shared/contracts';
import { NO_FILE_FILTER } from './fileFilter';
import { SEARCH_PAGE_SIZE } from './search';
import { searchFromUrl, searchToUrl, type UrlSearchState } from './searchUrl';
import { useScreenSearchState } from './store';

/** The state of a bare URL reached with Back: the first search, nothing hidden or filtered. */
const FIRST_SEARCH: UrlSearchState = {
  request: { searchCriteria: {}, page: 0, size: SEARCH_PAGE_SIZE },
  hidden: [],
  filter: NO_FILE_FILTER,
};

/**
 * Keeps a search screen's state and its URL in step (see searchUrl.ts). Opening the screen at a URL
 * with a search (a reload, a shared link) runs that search; opening it bare keeps the search the
 * screen had and writes it to the URL. Afterwards each new search or page adds a history entry, so
 * Back returns to the one before; other changes (hidden columns, the file filter) replace the entry.
 */
export function useSearchUrl(fileType: FileType): void {
  const location = useLocation();
  const navigate = useNavigate();
  const [state, update] = useScreenSearchState(fileType);
  const wanted = searchToUrl(state);
  const current = location.search.replace(/^\?/, '');
  const requestKey = JSON.stringify(state.request);
  const last = useRef<{ url: string; requestKey: string } | null>(null);
  /** The query string this hook last navigated to: when it lands, it is not someone else's change. */
  const asked = useRef<string | null>(null);

  useEffect(() => {
    const prev = last.current;
    last.current = { url: current, requestKey };
    const ours = current === asked.current;
    if (ours) asked.current = null;
    if (wanted === current) return;
    // The URL changed (or the screen just opened), or the screen has no search yet while the URL
    // holds one (a screen that lost its state must not wipe the URL of the entry it is on).
    if (((!prev || prev.url !== current) && !ours) || (state.request === null && current)) {
      // The screen follows the URL.
      const fromUrl = searchFromUrl(current) ?? (prev ? FIRST_SEARCH : null);
      if (fromUrl) {
        update({ ...fromUrl, values: { ...fromUrl.request?.searchCriteria }, autoSearched: true });
        return;
      }
    }
    // The screen's search changed (perhaps while an earlier navigation of ours was on its way): the
    // URL follows.
    const newSearch = prev !== null && prev.requestKey !== requestKey;
    asked.current = wanted;
    void navigate({ search: wanted ? `?${wanted}` : '' }, { replace: !newSearch });
  }, [current, wanted, requestKey, navigate, update]);
}
