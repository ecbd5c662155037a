/**
 * Column lists and suggestions: columns of the chosen files, distinct values most
 * frequent first (GET and POST forms), authors suggestions from AUTHOR files, several columns at
 * once, values across columns, file names; other accounts' files never contribute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { ColumnSuggestions, FileRecord, FileSuggestion, ValueSuggestion } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;
let people: FileRecord;
let places: FileRecord;
let papers: FileRecord;

const csv = (lines: string[]) => new TextEncoder().encode(`${lines.join('\n')}\n`);

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Sue', 'Gest');
  const uploaded = await user.upload([
    {
      name: 'people.csv',
      bytes: csv([
        'Name,City',
        'Müller,Berlin',
        'Müller,Bonn',
        'Müller,Berlin',
        'Mueller,Zürich',
        'Smith,London',
        'Smith,Berlin',
        '50%_off,Paris',
      ]),
    },
    { name: 'places.csv', bytes: csv(['City,Country', 'Berlin,Germany', 'Lyon,France']) },
    {
      name: 'papers.csv',
      bytes: csv([
        'Authors,Email Addresses,Article Title',
        '"Kim, J; Okafor, N",jkim@uni.edu,Graph methods',
        '"Kim, J",jkim@uni.edu,More graphs',
      ]),
    },
  ]);
  [people, places, papers] = (await Promise.all(uploaded.map((f) => user.waitForIngest(f.id)))) as [
    FileRecord,
    FileRecord,
    FileRecord,
  ];
});
afterAll(async () => {
  await sift?.close();
});

describe('columns', () => {
  it('lists the columns of all, chosen, or all-but-excluded GENERAL files', async () => {
    const all = await user.json<string[]>('/file/columns');
    expect(all.sort()).toEqual(['Article Title', 'Authors', 'City', 'Country', 'Email Addresses', 'Name']);
    expect(await user.json<string[]>('/file/columns/for-files', { fileIds: [places.id] })).toEqual([
      'City',
      'Country',
    ]);
    const excluding = await user.json<string[]>('/file/columns/excluding', {
      excludedFileIds: [people.id, papers.id],
    });
    expect(excluding).toEqual(['City', 'Country']);
  });

  it('refuses more than 25 file ids with the spec’s message', async () => {
    const res = await user.sendJson('/file/columns/for-files', {
      fileIds: Array.from({ length: 26 }, (_, i) => `f${i}`),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      'Maximum of 25 files can be selected at once. Please deselect some files first.',
    );
  });
});

describe('suggestions', () => {
  it('answers distinct values containing the query regardless of case and accents, most frequent first', async () => {
    expect(await user.json<string[]>('/file/autocomplete/regular/Name?query=MÜ')).toEqual([
      'Müller',
      'Mueller',
    ]);
    expect(await user.json<string[]>('/file/autocomplete/regular/City?query=')).toEqual([
      'Berlin',
      'Bonn',
      'London',
      'Lyon',
      'Paris',
      'Zürich',
    ]);
    expect(await user.json<string[]>('/file/autocomplete/regular/City?query=b&limit=1')).toEqual(['Berlin']);
    // % and _ are matched literally.
    expect(await user.json<string[]>('/file/autocomplete/regular/Name?query=%25_')).toEqual(['50%_off']);
    expect(await user.json<string[]>('/file/autocomplete/regular/Name?query=%25x')).toEqual([]);
    expect(await user.json<string[]>('/file/autocomplete/regular/Nope?query=a')).toEqual([]);
  });

  it('limits to the given files, by query string or JSON body', async () => {
    expect(await user.json<string[]>(`/file/autocomplete/regular/City?query=&fileIds=${places.id}`)).toEqual([
      'Berlin',
      'Lyon',
    ]);
    const many = [places.id, ...Array.from({ length: 60 }, (_, i) => `missing-${i}`)];
    expect(
      await user.json<string[]>('/file/autocomplete/regular/City', { query: 'l', fileIds: many }),
    ).toEqual(['Berlin', 'Lyon']);
    expect(
      await user.json<string[]>('/file/autocomplete/regular/City', {
        query: '',
        excludedFileIds: [people.id],
      }),
    ).toEqual(['Berlin', 'Lyon']);
  });

  it('suggests authors from AUTHOR files only', async () => {
    expect(await user.json<string[]>('/file/autocomplete/authors/Authors?query=k')).toEqual([
      'Kim, J',
      'Okafor, N',
    ]);
  });

  it('suggests single items of a multi-value column (Authors), not whole lists', async () => {
    expect(await user.json<string[]>('/file/autocomplete/regular/Authors?query=k')).toEqual([
      'Kim, J',
      'Okafor, N',
    ]);
    expect(await user.json<string[]>('/file/autocomplete/regular/Authors?query=oka')).toEqual(['Okafor, N']);
    // Other columns keep whole values.
    expect(await user.json<string[]>('/file/autocomplete/regular/Article%20Title?query=graph')).toEqual([
      'Graph methods',
      'More graphs',
    ]);
  });

  it('suggests for several columns at once, across columns, and file names', async () => {
    const multi = await user.json<ColumnSuggestions>(
      '/file/autocomplete/columns?columnNames=Name,City&query=l',
    );
    expect(multi).toEqual({ Name: ['Müller', 'Mueller'], City: ['Berlin', 'London', 'Lyon'] });
    const any = await user.json<ValueSuggestion[]>('/file/autocomplete/search?query=berl');
    expect(any).toEqual([{ column: 'City', value: 'Berlin' }]);
    const named = await user.json<FileSuggestion[]>('/file/files/autocomplete?query=PEO');
    expect(named).toEqual([{ id: people.id, originalFilename: 'people.csv', fileType: 'GENERAL' }]);
  });

  it('rejects a bad limit with 400 and shows nothing of another account', async () => {
    expect((await user.fetch('/file/autocomplete/regular/City?limit=0')).status).toBe(400);
    const stranger = await ApiClient.approved(sift, user, 'stranger@example.org', 'Stan', 'Stranger');
    expect(
      await stranger.json<string[]>(`/file/autocomplete/regular/City?query=&fileIds=${places.id}`),
    ).toEqual([]);
    expect(await stranger.json<string[]>('/file/columns')).toEqual([]);
    expect(await stranger.json<FileSuggestion[]>('/file/files/autocomplete?query=')).toEqual([]);
  });
});
