/**
 * One browser test file's world: an isolated Sift (its own data directory, ClickHouse database and
 * queue prefix, serving the built web app) and Debian's Chromium driven by playwright-core, with
 * every uncaught page error collected. Needs the built web app (`npm run build -w web`) and Redis.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSift, type Config, type RunningSift } from '@sift/api';
import { SiftApp } from './app.ts';

const CHROMIUM = '/usr/bin/chromium';
const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));
/** Screenshots of each main screen, for a person to look at (not committed). */
export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));
/** Generous: the first ingest also creates the ClickHouse tables. */
export const INGEST_TIMEOUT_MS = 90_000;
const VIEWPORT = { width: 1400, height: 900 };

export interface BrowserSession {
  sift: RunningSift;
  browser: Browser;
  /** The main tab's context (1400 × 900, downloads accepted). */
  context: BrowserContext;
  page: Page;
  app: SiftApp;
  /** Uncaught errors of every page opened with `track`. */
  pageErrors: string[];
  /** Collects a page's uncaught errors into `pageErrors`. */
  track(page: Page): void;
  /**
   * A second browser context (another person: its own storage and sign-in) with one tracked page
   * on this Sift; 1400 × 900 unless told. The caller closes `context`.
   */
  newTab(viewport?: {
    width: number;
    height: number;
  }): Promise<{ context: BrowserContext; page: Page; app: SiftApp }>;
  close(): Promise<void>;
}

/**
 * Starts Sift (with `overrides` of its configuration) and Chromium for one test file; `close`
 * stops both and removes the data.
 */
export async function openBrowserSession(overrides: Partial<Config> = {}): Promise<BrowserSession> {
  if (!existsSync(path.join(WEB_DIST, 'index.html')))
    throw new Error(`The web app is not built (${WEB_DIST}): run \`npm run build -w web\` first.`);
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  mkdirSync(SCREENSHOTS, { recursive: true });

  const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-'));
  const id = randomUUID().replaceAll('-', '');
  const sift = await startSift({
    port: 0,
    dataDir,
    clickhouseDatabase: `e2e_${id}`,
    queuePrefix: `sift-e2e-${id}`,
    webDir: WEB_DIST,
    publicUrl: undefined,
    oidcIssuer: undefined,
    ...overrides,
  });
  // Without the background-networking flags Chromium tries hosts this closed network refuses.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ acceptDownloads: true, viewport: VIEWPORT });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  const track = (p: Page) => p.on('pageerror', (error) => pageErrors.push(error.message));
  track(page);
  return {
    sift,
    browser,
    context,
    page,
    app: new SiftApp(page, sift.url, SCREENSHOTS),
    pageErrors,
    track,
    async newTab(viewport = VIEWPORT) {
      const other = await browser.newContext({ viewport });
      const tab = await other.newPage();
      track(tab);
      return { context: other, page: tab, app: new SiftApp(tab, sift.url, SCREENSHOTS) };
    },
    async close() {
      await context.close();
      await browser.close();
      await sift.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
