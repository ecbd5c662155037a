/**
 * Field tags of RIS and PubMed MEDLINE records and the names Sift gives their columns, so a sheet
 * read from tags reads as a spreadsheet export of the same records would: authors in `Authors` (and
 * MEDLINE's full names in `Author Full Names`, as Web of Science names them) for the Authors search
 * and the AUTHOR file, the rest by the names the formats' own specifications give. The import report
 * keeps each tag beside its name.
 */
import { namedWosTags } from './wos-tags.ts';

/** RIS tags (the RIS specification's field names; `AU`, `A1` → `Authors`). */
export const RIS_TAG_NAMES: Readonly<Record<string, string>> = {
  TY: 'Type',
  AU: 'Authors',
  A1: 'Primary Authors',
  A2: 'Secondary Authors',
  A3: 'Tertiary Authors',
  A4: 'Subsidiary Authors',
  TI: 'Title',
  T1: 'Primary Title',
  T2: 'Secondary Title',
  T3: 'Tertiary Title',
  ST: 'Short Title',
  TT: 'Translated Title',
  BT: 'Book Title',
  JO: 'Journal',
  JF: 'Journal Full Name',
  JA: 'Journal Abbreviation',
  J1: 'Journal Abbreviation (J1)',
  J2: 'Alternate Title',
  PY: 'Year',
  Y1: 'Primary Date',
  Y2: 'Access Date',
  DA: 'Date',
  VL: 'Volume',
  IS: 'Issue',
  SP: 'Start Page',
  EP: 'End Page',
  SN: 'ISSN/ISBN',
  DO: 'DOI',
  UR: 'URL',
  L1: 'File Attachments',
  L2: 'Figure',
  L4: 'Figure (L4)',
  AB: 'Abstract',
  N2: 'Abstract (N2)',
  N1: 'Notes',
  KW: 'Keywords',
  AD: 'Author Address',
  PB: 'Publisher',
  CY: 'Place Published',
  PP: 'Place Published (PP)',
  LA: 'Language',
  M1: 'Number',
  M2: 'Miscellaneous 2',
  M3: 'Type of Work',
  DB: 'Database',
  DP: 'Database Provider',
  AN: 'Accession Number',
  CN: 'Call Number',
  ET: 'Edition',
  NV: 'Number of Volumes',
  OP: 'Original Publication',
  RP: 'Reprint Edition',
  SE: 'Section',
  C1: 'Custom 1',
  C2: 'Custom 2',
  C3: 'Custom 3',
  C4: 'Custom 4',
  C5: 'Custom 5',
  C6: 'Custom 6',
  C7: 'Custom 7',
  C8: 'Custom 8',
  CA: 'Caption',
  ID: 'Reference ID',
  LB: 'Label',
  RN: 'Research Notes',
  U1: 'User Definable 1',
  U2: 'User Definable 2',
  U3: 'User Definable 3',
  U4: 'User Definable 4',
  U5: 'User Definable 5',
  ER: 'End of Reference',
};

/** MEDLINE tags (NLM's "MEDLINE/PubMed Data Element (Field) Descriptions"). */
export const MEDLINE_TAG_NAMES: Readonly<Record<string, string>> = {
  PMID: 'PMID',
  OWN: 'Owner',
  STAT: 'Status',
  DCOM: 'Date Completed',
  LR: 'Date Last Revised',
  IS: 'ISSN',
  VI: 'Volume',
  IP: 'Issue',
  DP: 'Date of Publication',
  TI: 'Title',
  BTI: 'Book Title',
  CTI: 'Collection Title',
  VTI: 'Volume Title',
  TT: 'Transliterated Title',
  PG: 'Pagination',
  LID: 'Location Identifier',
  AB: 'Abstract',
  OAB: 'Other Abstract',
  CI: 'Copyright Information',
  FAU: 'Author Full Names',
  AU: 'Authors',
  AUID: 'Author Identifier',
  AD: 'Affiliation',
  CN: 'Corporate Author',
  FED: 'Full Editor Name',
  ED: 'Editor',
  FIR: 'Full Investigator Name',
  IR: 'Investigator Name',
  IRAD: 'Investigator Affiliation',
  LA: 'Language',
  GR: 'Grant Number',
  PT: 'Publication Type',
  DEP: 'Date of Electronic Publication',
  PL: 'Place of Publication',
  TA: 'Journal Title Abbreviation',
  JT: 'Journal Title',
  JID: 'NLM Unique ID',
  RN: 'Registry Number/EC Number',
  SB: 'Subset',
  MH: 'MeSH Terms',
  OTO: 'Other Term Owner',
  OT: 'Other Term',
  COIS: 'Conflict of Interest Statement',
  GN: 'General Note',
  EDAT: 'Entrez Date',
  MHDA: 'MeSH Date',
  CRDT: 'Create Date',
  PHST: 'Publication History Status',
  AID: 'Article Identifier',
  PST: 'Publication Status',
  SO: 'Source',
  PMC: 'PubMed Central Identifier',
  PMCR: 'PubMed Central Release',
  MID: 'Manuscript Identifier',
  OID: 'Other ID',
  SI: 'Secondary Source ID',
  RF: 'Number of References',
  CIN: 'Comment in',
  CON: 'Comment on',
  EIN: 'Erratum in',
  EFR: 'Erratum for',
  RIN: 'Retraction in',
  ROF: 'Retraction of',
  UIN: 'Update in',
  UOF: 'Update of',
  SPIN: 'Summary for Patients in',
  ORI: 'Original Report in',
  PB: 'Publisher',
  ISBN: 'ISBN',
  FPS: 'Full Personal Name as Subject',
  PS: 'Personal Name as Subject',
  GS: 'Gene Symbol',
  SFM: 'Space Flight Mission',
  OCI: 'Other Copyright Information',
};

/** Whether three in four of a row's non-blank cells are keys of `names`, and it has each of `needed`. */
function isTagRow(raw: string[], names: Readonly<Record<string, string>>, needed: string[]): boolean {
  const cells = raw.map((c) => c.trim());
  const present = new Set(cells);
  if (!needed.every((t) => present.has(t))) return false;
  const filled = cells.filter(Boolean);
  return filled.filter((c) => Object.hasOwn(names, c)).length >= 0.75 * filled.length;
}

/**
 * A header row of tags named as its source names them: MEDLINE (it has `PMID`), RIS (it has `TY`),
 * or Web of Science (namedWosTags); tags a dictionary does not hold are kept. Any other row is left
 * as it is.
 *
 * @param raw - the header row's cells
 * @returns the cells, tags replaced by their names
 */
export function namedTags(raw: string[]): string[] {
  const names = isTagRow(raw, MEDLINE_TAG_NAMES, ['PMID'])
    ? MEDLINE_TAG_NAMES
    : isTagRow(raw, RIS_TAG_NAMES, ['TY'])
      ? RIS_TAG_NAMES
      : null;
  if (!names) return namedWosTags(raw);
  // Older RIS (EndNote, Zotero) gives the authors as A1 only: they are the Authors then.
  const a1IsAuthors = names === RIS_TAG_NAMES && !raw.some((c) => c.trim() === 'AU');
  return raw.map((c) => {
    const tag = c.trim();
    if (a1IsAuthors && tag === 'A1') return 'Authors';
    return Object.hasOwn(names, tag) ? names[tag]! : c;
  });
}
