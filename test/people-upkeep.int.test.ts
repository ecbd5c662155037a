/**
 * People kept up to date by the ingest (issue 35): a row joining two others through two
 * identifiers makes one person of them across files; deleting its file splits them again;
 * homonyms with different emails stay two people, offered as the same name; a reindex gives the
 * same people under the same ids; one account never sees another's people; an administrator
 * reviews and decides about another account's people.
 */
import { expect, it } from 'vitest';
import type {
  Account,
  AuditEntry,
  Page,
  PeopleSearchResponse,
  PersonDecisionResponse,
  PersonPageResponse,
  SameNamePairsResponse,
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

it("lets an administrator review and decide about another account's people, audited", async () => {
  const { admin, other } = accounts;
  const { id: otherId } = await other.json<Account>('/accounts/me');
  // Jan by his ORCID, Jan by his email, and another Jan: three people of one name, three pairs.
  await uploaded(other, [others]);
  const [byEmail, byOrcid, homonym] = [
    (await find(other, 'jan.k@uw.edu.pl')).people,
    (await find(other, orcid)).people,
    (await find(other, 'j.kowalski@pw.edu.pl')).people,
  ].map((found) => {
    expect(found).toHaveLength(1);
    return found[0]!;
  });
  const pairsOf = (r: SameNamePairsResponse) =>
    r.pairs.map((p) => [p.person.id, p.other.id].sort().join(' '));
  const mine = await other.json<SameNamePairsResponse>('/file/people/same-name');
  expect(mine.totalPairs).toBe(3);
  expect(pairsOf(mine).sort()).toEqual(
    [
      [byEmail!.id, byOrcid!.id],
      [byEmail!.id, homonym!.id],
      [byOrcid!.id, homonym!.id],
    ]
      .map((p) => p.sort().join(' '))
      .sort(),
  );
  // The evidence: Jan's two halves share his address and country; the other Jan only the country.
  const evidence = (a: string, b: string) =>
    mine.pairs.find((p) => [p.person.id, p.other.id].sort().join(' ') === [a, b].sort().join(' '))!.inCommon;
  expect(evidence(byEmail!.id, byOrcid!.id)).toMatchObject({
    affiliations: ['Univ Warsaw, Fac Phys, Warsaw, Poland'],
    countries: ['Poland'],
  });
  expect(evidence(byEmail!.id, homonym!.id)).toMatchObject({ affiliations: [], countries: ['Poland'] });

  // Only an administrator reviews another account's people: the owner is refused.
  const review = `/admin/accounts/${otherId}/people`;
  expect((await other.fetch(`${review}/same-name`)).status).toBe(403);
  expect((await admin.fetch('/admin/accounts/no-such-account/people/same-name')).status).toBe(404);
  const seen = await admin.json<SameNamePairsResponse>(`${review}/same-name`);
  expect(seen).toEqual(mine);

  // The administrator joins Jan's halves: the owner sees one Jan of two entries, decided by them.
  const { personId } = await admin.json<PersonDecisionResponse>(`${review}/decisions`, {
    personId: byEmail!.id,
    otherPersonId: byOrcid!.id,
    decision: 'same',
  });
  expect((await find(other, 'kowalski')).people.map((p) => [p.id, p.rows])).toEqual([
    [personId, 2],
    [homonym!.id, 1],
  ]);
  const page = await other.json<PersonPageResponse>(`/file/people/${personId}`);
  expect(page.decisions).toMatchObject([{ decision: 'same', decidedBy: 'admin@example.com' }]);
  expect((await admin.json<SameNamePairsResponse>(`${review}/same-name`)).totalPairs).toBe(1);
  // Decided apart, the last pair is no longer offered; taken back, it is again.
  await admin.json<PersonDecisionResponse>(`${review}/decisions`, {
    personId,
    otherPersonId: homonym!.id,
    decision: 'apart',
  });
  expect((await other.json<SameNamePairsResponse>('/file/people/same-name')).pairs).toEqual([]);
  const apart = (await other.json<PersonPageResponse>(`/file/people/${personId}`)).decisions.find(
    (d) => d.decision === 'apart',
  )!;
  const undo = await admin.sendJson(`${review}/decisions/undo`, { aKey: apart.aKey, bKey: apart.bKey });
  expect(undo.status).toBe(204);
  expect((await other.json<SameNamePairsResponse>('/file/people/same-name')).totalPairs).toBe(1);
  // An administrator's decision names only the account's own people.
  const mixed = await admin.sendJson(`${review}/decisions`, {
    personId,
    otherPersonId: (await find(admin, 'kowalski')).people[0]!.id,
    decision: 'same',
  });
  expect(mixed.status).toBe(404);

  const audit = await admin.json<Page<AuditEntry>>('/admin/audit?size=50');
  expect(
    audit.content
      .filter((e) => e.action.startsWith('people.'))
      .map((e) => [e.action, e.target, e.actorEmail])
      .reverse(),
  ).toEqual([
    ['people.same', otherId, 'admin@example.com'],
    ['people.apart', otherId, 'admin@example.com'],
    ['people.undo', otherId, 'admin@example.com'],
  ]);

  // Co-authors are evidence too: a Jan with no email or identifier wrote with Anna Nowak, as the
  // joined Jan did; the other Jan never did.
  await uploaded(other, [
    csv('coauthored.csv', [
      `"Kowalski, J; Nowak, A","Kowalski, Jan; Nowak, Anna",,"Kowalski, Jan/${orcid}; Nowak, Anna/0000-0001-5109-3700",Joint Paper,J Phys,2019,`,
      '"Kowalski, J; Nowak, A","Kowalski, Jan; Nowak, Anna",,"Nowak, Anna/0000-0001-5109-3700",Second Joint Paper,Acta Phys,2022,',
    ]),
  ]);
  const alone = (await find(other, 'kowalski')).people.find(
    (p) => p.id !== personId && p.id !== homonym!.id,
  )!;
  const withCoauthors = await other.json<SameNamePairsResponse>('/file/people/same-name');
  expect(withCoauthors.totalPairs).toBe(3);
  const coauthorsOf = (a: string, b: string) =>
    withCoauthors.pairs.find((p) => [p.person.id, p.other.id].sort().join(' ') === [a, b].sort().join(' '))!
      .inCommon.coauthors;
  expect(coauthorsOf(personId, alone.id)).toEqual(['Nowak, Anna']);
  expect(coauthorsOf(homonym!.id, alone.id)).toEqual([]);
  expect(coauthorsOf(personId, homonym!.id)).toEqual([]);
});
