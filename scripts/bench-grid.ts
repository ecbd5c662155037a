/**
 * `npm run bench:grid`: the search screen with a wide page, in Debian's Chromium (issue 34). Uploads
 * one CSV of 3,000 rows × 122 columns (text of Web of Science-like lengths, a quarter of the
 * columns blank), opens 1,000-row pages of it and prints, beside their goals:
 *
 * - time to first draw: from the search request's start to the page's rows painted (the frame
 *   after they are in the DOM), against the API's answer (the request's end); goal ≤ 1.5×;
 * - sideways and downward scroll frame time (median and p95 of the intervals between frames while
 *   the grid scrolls a step each frame); goal ≤ 20 ms;
 * - where the results start in a 1400 × 900 window, and how many Tab presses reach Search and the
 *   grid from the top of the page.
 *
 * Options (env): BENCH_GRID_RUNS (pages opened, default 6).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { INGEST_TIMEOUT_MS, openBrowserSession } from '../test/e2e/support/session.ts';

const ROWS = 3_000;
const COLUMNS = 122;
const PAGE_SIZE = 1_000;
const RUNS = Number(process.env.BENCH_GRID_RUNS ?? 6);
const GOALS = { drawRatio: 1.5, frameMs: 20 };

const WORDS = 'graph network model protein soil river climate urban neural quantum cell signal'.split(' ');

/** A cell of column `c` on row `r`: blank in a quarter of the columns, else 1–12 words. */
function cell(r: number, c: number): string {
  if (c % 4 === 3) return '';
  const words = 1 + ((r * 7 + c * 13) % 12);
  return Array.from({ length: words }, (_, i) => WORDS[(r + c + i) % WORDS.length]).join(' ');
}

/*
 * What runs in the page, as source text (this project's TypeScript has no DOM types).
 *
 * MEASURE_DRAW(firstKey): resolves, once the grid's first row holds `firstKey` and the next frame
 * is painted, to { api, dom, draw } ms from the last search request's start: its response's end,
 * the rows in the DOM, the rows painted.
 */
const MEASURE_DRAW = `(key) => new Promise((resolve, reject) => {
  const deadline = setTimeout(() => reject(new Error('the page was not drawn in 60 s')), 60000);
  const check = () => {
    const row = document.querySelector('[role="grid"] [role="row"][aria-rowindex="2"]');
    if (!row || !row.textContent.includes(key)) return false;
    const domAt = performance.now();
    requestAnimationFrame(() => setTimeout(() => {
      const drawnAt = performance.now();
      const request = performance.getEntriesByType('resource')
        .filter((e) => /\\/api\\/file\\/search$/.test(e.name)).at(-1);
      clearTimeout(deadline);
      if (!request) reject(new Error('no search request seen'));
      else resolve({
        api: request.responseEnd - request.startTime,
        dom: domAt - request.startTime,
        draw: drawnAt - request.startTime,
      });
    }, 0));
    return true;
  };
  if (check()) return;
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
})`;

/** SCROLL_FRAMES(axis, step): scrolls the grid `step` px a frame for 120 frames; the frame intervals (ms). */
const SCROLL_FRAMES = `(axis, step) => new Promise((resolve) => {
  const grid = document.querySelector('[role="grid"]');
  grid.scrollTo({ left: 0, top: 0 });
  const times = [];
  let last = 0;
  let n = 0;
  const tick = (now) => {
    if (last) times.push(now - last);
    last = now;
    const max = axis === 'left' ? grid.scrollWidth - grid.clientWidth : grid.scrollHeight - grid.clientHeight;
    const at = ((n++ * step) % Math.max(1, max)) + 1;
    if (axis === 'left') grid.scrollLeft = at;
    else grid.scrollTop = at;
    if (times.length < 120) requestAnimationFrame(tick);
    else resolve(times);
  };
  requestAnimationFrame(tick);
})`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? NaN;
}

const fmt = (n: number) => n.toFixed(1);

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-grid-'));
  const session = await openBrowserSession();
  try {
    const { app, page } = session;
    await app.signInNew('admin@example.com', 'Ada Lovelace');
    const file = path.join(dir, 'grid-wide.csv');
    const headers = ['Grid Key', ...Array.from({ length: COLUMNS - 1 }, (_, i) => `Field ${i + 1}`)];
    const lines = Array.from({ length: ROWS }, (_, r) =>
      [`grid-${String(r + 1).padStart(5, '0')}`, ...headers.slice(1).map((_, c) => cell(r, c + 1))].join(','),
    );
    writeFileSync(file, `${headers.join(',')}\n${lines.join('\n')}\n`);
    await app.uploadFile(file, INGEST_TIMEOUT_MS * 2);

    const draws: { api: number; dom: number; draw: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const pageNumber = (run % 3) + 1;
      // A fresh document each time: nothing cached, the request and the drawing measured alone.
      await page.goto(`${app.url}/search?q.Grid+Key=grid-&size=${PAGE_SIZE}&page=${pageNumber}`);
      const firstKey = `grid-${String((pageNumber - 1) * PAGE_SIZE + 1).padStart(5, '0')}`;
      const measured = await page.evaluate<{ api: number; dom: number; draw: number }>(
        `(${MEASURE_DRAW})(${JSON.stringify(firstKey)})`,
      );
      draws.push(measured);
    }

    // Scrolling: a step a frame, the intervals between frames measured.
    const frames = (axis: 'left' | 'top', step: number) =>
      page.evaluate<number[]>(`(${SCROLL_FRAMES})(${JSON.stringify(axis)}, ${step})`);
    const sideways = await frames('left', 240);
    const down = await frames('top', 330);

    // Where the results start, and the Tab presses to Search and to the grid.
    await page.evaluate('window.scrollTo(0, 0)');
    const gridTop = await page.locator('[role="grid"]').evaluate((el) => el.getBoundingClientRect().top);
    if (process.env.BENCH_GRID_SCREENSHOT) await page.screenshot({ path: process.env.BENCH_GRID_SCREENSHOT });
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    let toSearch = 0;
    let toGrid = 0;
    for (let i = 1; i <= 400 && !toGrid; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<{ role?: string; text?: string; tag?: string }>(
        `(() => { const el = document.activeElement;
          return { role: el?.getAttribute('role'), text: el?.textContent?.trim(), tag: el?.tagName }; })()`,
      );
      if (!toSearch && focused.tag === 'BUTTON' && focused.text === 'Search') toSearch = i;
      if (focused.role === 'grid') toGrid = i;
    }

    const api = median(draws.map((d) => d.api));
    const draw = median(draws.map((d) => d.draw));
    const ratio = median(draws.map((d) => d.draw / d.api));
    const pass = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log(
      `\nSearch screen, ${PAGE_SIZE.toLocaleString('en-US')} rows × ${COLUMNS} columns a page (${RUNS} pages opened, medians)`,
    );
    console.log(`| figure | value | goal | |`);
    console.log(`|---|---|---|---|`);
    console.log(`| API answer (request start → end) | ${fmt(api)} ms | | |`);
    console.log(
      `| rows in the DOM (request start → React's commit) | ${fmt(median(draws.map((d) => d.dom)))} ms | | |`,
    );
    console.log(`| first draw (request start → rows painted) | ${fmt(draw)} ms | | |`);
    console.log(
      `| first draw / API | ${ratio.toFixed(2)}× | ≤ ${GOALS.drawRatio}× | ${pass(ratio <= GOALS.drawRatio)} |`,
    );
    console.log(
      `| sideways scroll, frame time p50 / p95 | ${fmt(median(sideways))} / ${fmt(p95(sideways))} ms | ≤ ${GOALS.frameMs} ms | ${pass(median(sideways) <= GOALS.frameMs)} |`,
    );
    console.log(
      `| downward scroll, frame time p50 / p95 | ${fmt(median(down))} / ${fmt(p95(down))} ms | ≤ ${GOALS.frameMs} ms | ${pass(median(down) <= GOALS.frameMs)} |`,
    );
    console.log(
      `| results start at (1400 × 900 window) | y = ${Math.round(gridTop)} px | < 900 px | ${pass(gridTop < 900)} |`,
    );
    console.log(`| Tab presses to Search / to the grid | ${toSearch} / ${toGrid} | | |`);
    console.log(
      `runs (api / dom / draw ms): ${draws.map((d) => `${fmt(d.api)}/${fmt(d.dom)}/${fmt(d.draw)}`).join(', ')}`,
    );
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
