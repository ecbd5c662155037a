/** Pairing cases seen on real exports that went wrong (issue 32), each kept as a test. */
import { describe, expect, it } from 'vitest';
import { pairEmails } from './author-pairing.ts';

describe('pairEmails', () => {
  it('pairs an address that is a whole given name with that person, not a surname that starts alike', () => {
    const { byAuthor, method } = pairEmails(
      ['Biswas, SK', 'Purkayastha, B'],
      ['Biswas, Saroj Kr', 'Purkayastha, Biswajit'],
      ['biswajit@nits.ac.in'],
    );
    expect(byAuthor).toEqual(['', 'biswajit@nits.ac.in']);
    expect(method).toEqual(['', 'name']);
  });

  it('pairs German and Nordic names with their transliterated addresses', () => {
    const { byAuthor } = pairEmails(
      ['Schmidt, A', 'Müller, K', 'Sørensen, L'],
      ['Schmidt, Anna', 'Müller, Klaus', 'Sørensen, Lars'],
      ['lars.soerensen@ku.dk', 'k.mueller@tum.de'],
    );
    expect(byAuthor).toEqual(['', 'k.mueller@tum.de', 'lars.soerensen@ku.dk']);
  });

  it('gives an address listed twice to one author only; its second copy stays, unpaired', () => {
    const { byAuthor, method, unpaired } = pairEmails(
      ['Ghosh, P', 'Roy, A'],
      ['Ghosh, Pranab', 'Roy, Amit'],
      ['pghosh@iitkgp.ac.in', 'pghosh@iitkgp.ac.in'],
    );
    expect(byAuthor).toEqual(['pghosh@iitkgp.ac.in', '']);
    expect(method).toEqual(['name', '']);
    expect(unpaired).toEqual(['pghosh@iitkgp.ac.in']);
  });

  it('still pairs by position when the lists are aligned and no name says otherwise', () => {
    const { byAuthor, method } = pairEmails(['Ng, A', 'Ho, B'], [], ['x1@a.org', 'y2@b.org']);
    expect(byAuthor).toEqual(['x1@a.org', 'y2@b.org']);
    expect(method).toEqual(['position', 'position']);
  });
});
