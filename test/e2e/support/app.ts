/**
 * Page objects for the browser tests: one class a screen of the SPA, each knowing how a person
 * finds and uses what is on it (roles and accessible names, as a screen reader would), so a test
 * reads as the steps a user takes. Every wait has Playwright's default deadline (set per context).
 */
import path from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';

/** The toast of an upload whose every file was processed (spec section 2). */
const UPLOAD_COMPLETE = 'Upload complete! All files processed successfully.';

/** The main navigation's links. */
export type MainLink = 'Upload' | 'Files' | 'Search' | 'Authors' | 'People' | 'Exports';

/** The page's local storage (this tsconfig has no DOM types; the callbacks run in the browser). */
export interface PageStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Sift in one browser tab, signed in or not. */
export class SiftApp {
  constructor(
    readonly page: Page,
    /** The app's origin, e.g. `http://localhost:41234`. */
    readonly url: string,
    /** Where screenshots for a person to look at are written. */
    private readonly screenshots: string,
  ) {}

  readonly profileSetup = new ProfileSetupScreen(this);
  readonly upload = new UploadScreen(this);
  readonly files = new FilesScreen(this);
  readonly search = new SearchScreen(this);
  readonly exports = new ExportsScreen(this);
  readonly adminAccounts = new AdminAccountsScreen(this);
  readonly adminSystem = new AdminSystemScreen(this);

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: path.join(this.screenshots, `${name}.png`), fullPage: true });
  }

  /** Waits for a text to show (a toast, a summary line). */
  async sees(text: string | RegExp, options: { exact?: boolean; timeout?: number } = {}): Promise<void> {
    await this.page.getByText(text, { exact: options.exact }).waitFor({ timeout: options.timeout });
  }

  /** Waits until the app shows `pathname` (whatever its query string: a search keeps its state there). */
  async at(pathname: string): Promise<void> {
    await this.page.waitForURL((url) => url.origin === this.url && url.pathname === pathname);
  }

  /** Follows a link of the main navigation. */
  async open(link: MainLink): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    await this.at(`/${link.toLowerCase()}`);
  }

  /** Opens an entry of the header's Admin menu. */
  async openAdmin(entry: 'Accounts' | 'System Admin'): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin' }).click();
    await this.page.getByRole('menuitem', { name: entry }).click();
    await this.at(entry === 'Accounts' ? '/admin' : '/admin/system');
  }

  /** Signs in from /login through the dev identity provider's form (api/src/auth/dev-idp.ts). */
  async signIn(email: string, name: string): Promise<void> {
    await this.page.goto(`${this.url}/login`);
    await this.continueSignIn(email, name);
  }

  /**
   * Signs in a new account that the server makes active at once (an administrator's email) and
   * completes its profile setup with the first and last words of `name`; ends on /files.
   */
  async signInNew(email: string, name: string): Promise<void> {
    await this.signIn(email, name);
    await this.profileSetup.shown();
    const words = name.split(' ');
    await this.profileSetup.complete(words[0] ?? '', words.at(-1) ?? '');
    await this.at('/files');
  }

  /** From the sign-in screen: Sign In, then the dev identity provider's form. */
  async continueSignIn(email: string, name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Sign In' }).click();
    await this.page.waitForURL(/\/idp\/interaction\//);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Full name').fill(name);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  /**
   * Signs out through the account menu: the identity provider ends the session without asking
   * (Sift's own request) and the app's origin takes over, which shows the sign-in screen.
   */
  async signOut(): Promise<void> {
    await this.page.getByRole('button', { name: 'Account menu' }).click();
    await this.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await this.at('/login');
  }

  /** The SPA's persisted auth state (`persist:root`). */
  async persistedAuth(): Promise<{ token: string | null; permissions: string[] } | undefined> {
    const raw = await this.page.evaluate<string | null>("localStorage.getItem('persist:root')");
    return (JSON.parse(raw ?? '{}') as { state?: { token: string | null; permissions: string[] } }).state;
  }

  /** Uploads one file from the Upload screen and waits until its upload session is complete. */
  async uploadFile(file: string, timeoutMs: number): Promise<void> {
    await this.open('Upload');
    // The last upload's toast gone first: the one awaited below is this upload's.
    await this.page.getByText(UPLOAD_COMPLETE).first().waitFor({ state: 'hidden' });
    await this.upload.choose(file);
    await this.upload.waitUntilComplete(timeoutMs);
  }

  /** A dialog by its title. */
  dialog(title: string): Locator {
    return this.page.getByRole('dialog', { name: title });
  }
}

/** Profile setup ('Let's get you set up'), shown to a signed-in account not yet onboarded. */
export class ProfileSetupScreen {
  constructor(private readonly app: SiftApp) {}

  async shown(): Promise<void> {
    await this.app.sees("Let's get you set up");
  }

  async fill(firstName: string, lastName: string): Promise<void> {
    await this.app.page.getByLabel('First Name').fill(firstName);
    await this.app.page.getByLabel('Last Name').fill(lastName);
  }

  async submit(): Promise<void> {
    await this.app.page.getByRole('button', { name: 'Complete Setup' }).click();
  }

  async complete(firstName: string, lastName: string): Promise<void> {
    await this.fill(firstName, lastName);
    await this.submit();
  }
}

/** /upload: the drop zone and the upload sessions. */
export class UploadScreen {
  constructor(private readonly app: SiftApp) {}

  /** Chooses files in the drop zone's file input (its label), which uploads them at once. */
  async choose(files: string | string[]): Promise<void> {
    await this.app.page.getByLabel('Drag files here or click to browse').setInputFiles(files);
  }

  /** Waits until every file of the upload is processed. */
  async waitUntilComplete(timeout: number): Promise<void> {
    await this.app.sees(UPLOAD_COMPLETE, { timeout });
  }

  async activeSessions(count: number): Promise<void> {
    await this.app.page.getByRole('heading', { name: `Active Upload Sessions (${count})` }).waitFor();
  }

  completedSessions(): Locator {
    return this.app.page.getByRole('region', { name: 'Completed Upload Sessions' });
  }
}

/** /files: the account's files, with single and bulk delete. */
export class FilesScreen {
  constructor(private readonly app: SiftApp) {}

  /** Waits for the title 'All Files (N total)'. */
  async total(count: number): Promise<void> {
    await this.app.page.getByRole('heading', { name: `All Files (${count} total)` }).waitFor();
  }

  /** The table rows mentioning `text`. */
  rows(text: string): Locator {
    return this.app.page.getByRole('row').filter({ hasText: text });
  }

  pageCheckbox(): Locator {
    return this.app.page.getByRole('checkbox', { name: 'Select all files on this page' });
  }

  async select(fileName: string): Promise<void> {
    await this.app.page.getByRole('checkbox', { name: `Select ${fileName}` }).check();
  }

  deleteSelectedButton(): Locator {
    return this.app.page.getByRole('button', { name: 'Delete Selected' });
  }

  /** Delete Selected, and confirm with `message` shown. */
  async deleteSelected(message: string): Promise<void> {
    await this.deleteSelectedButton().click();
    const dialog = this.app.dialog('Delete selected files');
    await dialog.getByText(message).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
  }
}

/** /search and /authors: column inputs, results, Column Settings and the export dialog. */
export class SearchScreen {
  constructor(private readonly app: SiftApp) {}

  /** A column's search input (an input with suggestions, labelled with the column's name). */
  columnInput(column: string): Locator {
    const { page } = this.app;
    return page
      .getByRole('combobox', { name: column, exact: true })
      .or(page.getByRole('textbox', { name: column, exact: true }));
  }

  async run(): Promise<void> {
    await this.app.page.getByRole('button', { name: 'Search', exact: true }).click();
  }

  async clearAll(): Promise<void> {
    await this.app.page.getByRole('button', { name: 'Clear All' }).click();
  }

  /**
   * In the export dialog: turns pre-processing on and sets its first rule's source and target
   * columns; answers the rule's fieldset.
   */
  async splitRule(dialog: Locator, source: string, target: string): Promise<Locator> {
    const { page } = this.app;
    await dialog.getByLabel('Enable pre-processing').check();
    const rule = dialog.getByRole('group', { name: 'Rule 1' });
    await rule.getByLabel('Source column', { exact: true }).first().click();
    await page.getByRole('option', { name: source, exact: true }).click();
    await rule.getByLabel('Target column', { exact: true }).first().click();
    await page.getByRole('option', { name: target, exact: true }).click();
    return rule;
  }

  /**
   * Adds `column`'s input to the compact criteria bar (wide files): types its name in "Add a
   * column" and picks it.
   */
  async addColumn(column: string): Promise<void> {
    const { page } = this.app;
    const picker = page
      .getByRole('combobox', { name: 'Add a column', exact: true })
      .or(page.getByRole('textbox', { name: 'Add a column', exact: true }));
    await picker.fill(column);
    await page.getByRole('option', { name: column, exact: true }).click();
    await this.columnInput(column).waitFor();
  }

  /**
   * Clear All, then a search for `text` in `column` alone (its input added first if the criteria
   * bar does not show it; its suggestions closed: they cover Search).
   */
  async searchFor(column: string, text: string): Promise<void> {
    await this.clearAll();
    // The form drawn first: the column's input, or the criteria bar's picker.
    const picker = this.app.page.getByText('Add a column', { exact: true });
    await this.columnInput(column).or(picker).first().waitFor();
    if ((await this.columnInput(column).count()) === 0) await this.addColumn(column);
    await this.columnInput(column).fill(text);
    await this.columnInput(column).press('Escape');
    await this.run();
  }

  /** The results table's rows, its header row first. */
  resultRows(): Locator {
    return this.app.page.getByRole('grid').getByRole('row');
  }

  /** Offered suggestions of the focused column input. */
  options(): Locator {
    // In the suggestions' listbox: the rows-per-page select has options of its own.
    return this.app.page.getByRole('listbox').getByRole('option');
  }

  /** The 'N of M columns' chip that opens Column Settings. */
  columnsChip(label: string | RegExp = /^\d+ of \d+ columns$/): Locator {
    return this.app.page.getByRole('button', { name: label });
  }

  columnSettings(): Locator {
    return this.app.dialog('Column Settings');
  }

  /**
   * Exports the current results through the export dialog: `prepare` may set the dialog up first
   * (pre-processing); then the format and filename are chosen and the download awaited.
   */
  async exportResults(
    format: 'CSV' | 'Excel (XLSX)',
    filename: string,
    prepare?: (dialog: Locator) => Promise<void>,
  ): Promise<Download> {
    const { page } = this.app;
    await page.getByRole('button', { name: 'Export Results' }).click();
    const dialog = this.app.dialog('Export Results');
    await prepare?.(dialog);
    await dialog.getByLabel(format).check();
    await dialog.getByLabel('Filename (optional)').fill(filename);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    return download;
  }

  /** Opens the file filter and ticks one file in the list for `mode`, then closes it. */
  async filterFile(mode: 'include' | 'exclude', fileName: string): Promise<void> {
    const { page } = this.app;
    await page.getByRole('button', { name: 'All files' }).click();
    const group = mode === 'include' ? 'Files to include' : 'Files to exclude';
    await page.getByRole('group', { name: group }).getByLabel(fileName).check();
    await page.keyboard.press('Escape');
  }
}

/** /exports: the export history. */
export class ExportsScreen {
  constructor(private readonly app: SiftApp) {}

  entry(name: string): Locator {
    return this.app.page.getByRole('listitem', { name });
  }

  async download(name: string): Promise<Download> {
    const [download] = await Promise.all([
      this.app.page.waitForEvent('download'),
      this.entry(name)
        .getByRole('button', { name: `Download ${name}` })
        .click(),
    ]);
    return download;
  }

  async delete(name: string): Promise<void> {
    await this.app.page.getByRole('button', { name: `Delete ${name}` }).click();
    await this.app.dialog('Delete export').getByRole('button', { name: 'Delete' }).click();
  }
}

/** /admin: the accounts list. */
export class AdminAccountsScreen {
  constructor(private readonly app: SiftApp) {}

  row(email: string): Locator {
    return this.app.page.getByRole('row').filter({ hasText: email });
  }

  async filter(label: 'All Accounts' | 'Active Only' | 'Inactive Only'): Promise<void> {
    await this.app.page.getByText(label, { exact: true }).click();
  }

  /** Deletes the account of `email`; the confirmation names it. */
  async delete(email: string): Promise<void> {
    await this.row(email)
      .getByRole('button', { name: /^Delete / })
      .click();
    const confirm = this.app.dialog('Delete account');
    await confirm.getByText(email).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
  }
}

/** /admin/system: maintenance cards and the mass delete. */
export class AdminSystemScreen {
  constructor(private readonly app: SiftApp) {}

  /** DELETE ALL FILES AND DATA, both confirmations, then `phrase` typed and submitted. */
  async massDelete(phrase: string): Promise<void> {
    const { page } = this.app;
    await page.getByRole('button', { name: 'DELETE ALL FILES AND DATA' }).click();
    await this.app.dialog('Delete all files and data?').getByRole('button', { name: 'Continue' }).click();
    await this.app.dialog('Are you absolutely sure?').getByRole('button', { name: 'Yes, continue' }).click();
    const typed = this.app.dialog('Type to confirm');
    await typed.getByLabel('Type DELETE ALL to confirm').fill(phrase);
    await typed.getByRole('button', { name: 'Delete Everything' }).click();
  }

  massDeleteResult(): Locator {
    return this.app.page.getByRole('status', { name: 'Mass deletion result' });
  }
}
