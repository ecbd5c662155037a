/**
 * People kept up to date by the ingest (issue 35): a row joining two others through two
 * identifiers makes one person of them across files; deleting its file splits them again;
 * homonyms with different emails stay two people, offered as the same name; a reindex gives the
 * same people under the same ids; one account never sees another's people.
 */
import { expect, it } from 'vitest';
import type {
  PeopleSearchResponse,
  PersonDecisionResponse,
  PersonPageResponse,
} from '@sift/shared/contracts';
import { useTwoAccounts, type ApiClient } from './support/sift.ts';

const accounts = useTwoAccounts(['Pia', 'People']);

const header =
  'Authors,Author Full Names,Email Addresses,ORCIDs,Article Title,Source Title,Publication Year,Addresses';
const csv = (name: string, rows: string[]) => ({
  name,
  bytes: new TextEncoder().encode(`${header}\n${rows.join('\n')}\n`),
});
const orcid = '0000-0002-1825-0097';
const addr = '"[Kowalski, Jan] Univ Warsaw, Fac Phys, Warsaw, Poland"';
/** The bridge: Jan's email and his ORCID on one row. */
const bridge = csv('bridge.csv', [
  `"Kowalski, J","Kowalski, Jan",jan.k@uw.edu.pl,"Kowalski, Jan/${orcid}",Bridge Paper,J Phys,2018,${addr}`,
]);
/** Jan by his ORCID alone (2019), by his email in capitals (2021), and another J. Kowalski. */
const others = csv('others.csv', [
  `"Kowalski, J","Kowalski, Jan",,"Kowalski, Jan/${orcid}",Orcid Paper,J Phys,2019,${addr}`,
  `"Kowalski, J","Kowalski, Jan",JAN.K@UW.EDU.PL,,Email Paper,Phys Rev,2021,${addr}`,
  `"Kowalski, J","Kowalski, Jan",j.kowalski@pw.edu.pl,,Other Paper,Chem Rev,2020,"[Kowalski, Jan] Warsaw Univ Technol, Warsaw, Poland"`,
]);

async function find(client: ApiClient, query: string): Promise<PeopleSearchResponse> {
  return client.json<PeopleSearchResponse>('/file/people/search', { query, size: 100 });
}

async function uploaded(client: ApiClient, files: ReturnType<typeof csv>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const f of await client.upload(files)) {
    expect((await client.waitForIngest(f.id)).status).toBe('PROCESSED');
    ids.push(f.id);
  }
  return ids;
}

it('joins rows across files through a row giving two identifiers, and splits them when that file goes', async () => {
  const { admin, other } = accounts;
  const [bridgeId] = await uploaded(admin, [bridge]);
  await uploaded(admin, [others]);

  const jan = await find(admin, 'kowalski');
  expect(jan.totalPeople).toBe(2);
  const [one, two] = jan.people;
  // Jan: three entries (the bridge, his ORCID alone, his email in capitals); his email once.
  expect(one!.rows).toBe(3);
  expect(one!.emails).toEqual([{ email: 'jan.k@uw.edu.pl', entries: 2, firstYear: 2018, lastYear: 2021 }]);
  expect(one!.orcids).toEqual([orcid]);
  expect(one!.firstYear).toBe(2018);
  expect(one!.lastYear).toBe(2021);
  expect(one!.affiliations).toEqual(['Univ Warsaw, Fac Phys, Warsaw, Poland']);
  expect(one!.countries).toEqual(['Poland']);
  expect(one!.files.map((f) => f.name).sort()).toEqual(['bridge.csv', 'others.csv']);
  // The homonym: a person of his own, offered on Jan's page as the same name.
  expect(two!.rows).toBe(1);
  expect(two!.emails.map((e) => e.email)).toEqual(['j.kowalski@pw.edu.pl']);
  const page = await admin.json<PersonPageResponse>(`/file/people/${one!.id}`);
  expect(page.sameName.map((p) => p.id)).toEqual([two!.id]);
  expect(page.entries.map((e) => [e.year, e.title, e.fileName])).toEqual([
    [2021, 'Email Paper', 'others.csv'],
    [2019, 'Orcid Paper', 'others.csv'],
    [2018, 'Bridge Paper', 'bridge.csv'],
  ]);
  // Found by ORCID, affiliation, country and journal too; the other account finds none of them.
  expect((await find(admin, orcid)).people.map((p) => p.id)).toEqual([one!.id]);
  expect((await find(admin, 'fac phys')).people.map((p) => p.id)).toEqual([one!.id]);
  expect((await find(admin, 'POLAND')).totalPeople).toBe(2);
  expect((await find(admin, 'chem rev')).people.map((p) => p.id)).toEqual([two!.id]);
  expect((await find(other, 'kowalski')).totalPeople).toBe(0);
  // Suggested while typed: a name by any word's start, an email by its start.
  const suggest = async (client: ApiClient, prefix: string) =>
    (
      await client.json<{ suggestions: string[] }>(
        `/file/people/suggest?prefix=${encodeURIComponent(prefix)}`,
      )
    ).suggestions;
  expect(await suggest(admin, 'KOWAL')).toEqual(['Kowalski, Jan']);
  expect(await suggest(admin, 'jan')).toEqual(['Kowalski, Jan', 'jan.k@uw.edu.pl']);
  expect(await suggest(other, 'kowal')).toEqual([]);

  // The bridge deleted: his ORCID row and his email row no longer share anything.
  expect((await admin.fetch(`/file/files/${bridgeId}`, { method: 'DELETE' })).status).toBe(204);
  const split = await find(admin, 'kowalski');
  expect(split.totalPeople).toBe(3);
  expect(split.people.map((p) => [p.rows, p.emails.map((e) => e.email), p.orcids])).toEqual(
    expect.arrayContaining([
      [1, ['jan.k@uw.edu.pl'], []],
      [1, [], [orcid]],
      [1, ['j.kowalski@pw.edu.pl'], []],
    ]),
  );
  // The homonym was not touched: same id.
  expect(split.people.map((p) => p.id)).toContain(two!.id);

  // Uploaded again: one Jan again, under the id he had.
  await uploaded(admin, [bridge]);
  const again = await find(admin, 'kowalski');
  expect(again.totalPeople).toBe(2);
  expect(again.people[0]!.id).toBe(one!.id);
  expect(again.people[0]!.rows).toBe(3);
});

it('keeps a confirmed pair one person through a reindex, and splits it again when taken back', async () => {
  const { admin } = accounts;
  const [jan, homonym] = (await find(admin, 'kowalski')).people;
  expect([jan!.rows, homonym!.rows]).toEqual([3, 1]);
  const decide = (decision: 'same' | 'apart') =>
    admin.json<PersonDecisionResponse>('/file/people/decisions', {
      personId: jan!.id,
      otherPersonId: homonym!.id,
      decision,
    });

  // Confirmed the same: one person of four entries and both emails.
  const { personId } = await decide('same');
  const joined = await find(admin, 'kowalski');
  expect(joined.people.map((p) => [p.id, p.rows])).toEqual([[personId, 4]]);
  expect(joined.people[0]!.emails.map((e) => e.email).sort()).toEqual([
    'j.kowalski@pw.edu.pl',
    'jan.k@uw.edu.pl',
  ]);
  const page = await admin.json<PersonPageResponse>(`/file/people/${personId}`);
  expect(page.decisions).toMatchObject([{ decision: 'same', decidedBy: 'admin@example.com' }]);

  // A reindex reads every file again: the decision holds, the people are as they were.
  const before = await find(admin, '');
  const res = await admin.fetch('/admin/reindex-clickhouse', { method: 'POST' });
  expect(res.status).toBe(200);
  await admin.waitForReindex();
  expect((await find(admin, '')).people).toEqual(before.people);

  // Taken back: two people again, under their ids of before.
  const { aKey, bKey } = page.decisions[0]!;
  expect((await admin.sendJson('/file/people/decisions/undo', { aKey, bKey })).status).toBe(204);
  expect((await find(admin, 'kowalski')).people.map((p) => [p.id, p.rows])).toEqual([
    [jan!.id, 3],
    [homonym!.id, 1],
  ]);
  // Decided apart: no longer offered as the same name.
  expect((await admin.json<PersonPageResponse>(`/file/people/${jan!.id}`)).sameName).toHaveLength(1);
  expect((await decide('apart')).personId).toBe(jan!.id);
  const apart = await admin.json<PersonPageResponse>(`/file/people/${jan!.id}`);
  expect(apart.sameName).toEqual([]);
  expect(apart.decisions).toMatchObject([{ decision: 'apart', otherPersonId: homonym!.id }]);
  // Another account cannot decide about them.
  const theirs = await accounts.other.sendJson('/file/people/decisions', {
    personId: jan!.id,
    otherPersonId: homonym!.id,
    decision: 'same',
  });
  expect(theirs.status).toBe(404);
});
