/**
 * Web of Science field tags (`PT`, `AU`, `EM`, …), which its tab-delimited and plain-text exports
 * use as column names, and the names its own Excel export gives the same columns. Sift names the
 * columns of a tag header row as WoS's Excel export does, so the Authors search, the AUTHOR file and
 * saved searches treat both exports alike; the import report keeps each tag beside its name.
 */
export const WOS_TAG_NAMES: Readonly<Record<string, string>> = {
  PT: 'Publication Type',
  AU: 'Authors',
  BA: 'Book Authors',
  BE: 'Book Editors',
  GP: 'Book Group Authors',
  AF: 'Author Full Names',
  BF: 'Book Author Full Names',
  CA: 'Group Authors',
  TI: 'Article Title',
  SO: 'Source Title',
  SE: 'Book Series Title',
  BS: 'Book Series Subtitle',
  LA: 'Language',
  DT: 'Document Type',
  CT: 'Conference Title',
  CY: 'Conference Date',
  CL: 'Conference Location',
  SP: 'Conference Sponsor',
  HO: 'Conference Host',
  DE: 'Author Keywords',
  ID: 'Keywords Plus',
  AB: 'Abstract',
  C1: 'Addresses',
  C3: 'Affiliations',
  RP: 'Reprint Addresses',
  EM: 'Email Addresses',
  RI: 'Researcher Ids',
  OI: 'ORCIDs',
  FU: 'Funding Orgs',
  FP: 'Funding Name Preferred',
  FX: 'Funding Text',
  CR: 'Cited References',
  NR: 'Cited Reference Count',
  TC: 'Times Cited, WoS Core',
  Z9: 'Times Cited, All Databases',
  U1: '180 Day Usage Count',
  U2: 'Since 2013 Usage Count',
  PU: 'Publisher',
  PI: 'Publisher City',
  PA: 'Publisher Address',
  SN: 'ISSN',
  EI: 'eISSN',
  BN: 'ISBN',
  J9: 'Journal Abbreviation',
  JI: 'Journal ISO Abbreviation',
  PD: 'Publication Date',
  PY: 'Publication Year',
  VL: 'Volume',
  IS: 'Issue',
  PN: 'Part Number',
  SU: 'Supplement',
  SI: 'Special Issue',
  MA: 'Meeting Abstract',
  BP: 'Start Page',
  EP: 'End Page',
  AR: 'Article Number',
  DI: 'DOI',
  DL: 'DOI Link',
  D2: 'Book DOI',
  EA: 'Early Access Date',
  PG: 'Number of Pages',
  WC: 'WoS Categories',
  WE: 'Web of Science Index',
  SC: 'Research Areas',
  GA: 'IDS Number',
  PM: 'Pubmed Id',
  OA: 'Open Access Designations',
  HC: 'Highly Cited Status',
  HP: 'Hot Paper Status',
  DA: 'Date of Export',
  UT: 'UT (Unique WOS ID)',
};

/**
 * Whether a header row is Web of Science tags: it has `PT`, `AU` and `TI`, and three in four of its
 * non-blank cells are known tags (WoS adds tags of its own now and then: `Z8`, `ZB`…).
 *
 * @param raw - the header row's cells
 * @returns whether the row is WoS tags
 */
export function isWosTagRow(raw: string[]): boolean {
  const cells = raw.map((c) => c.trim());
  const present = new Set(cells);
  if (!present.has('PT') || !present.has('AU') || !present.has('TI')) return false;
  const filled = cells.filter(Boolean);
  return filled.filter((c) => Object.hasOwn(WOS_TAG_NAMES, c)).length >= 0.75 * filled.length;
}

/**
 * A header row with WoS tags named as WoS's Excel export names them, when it is a WoS tag row
 * (isWosTagRow); tags WoS's Excel export does not have are kept as they are. Any other row is left
 * as it is.
 *
 * @param raw - the header row's cells
 * @returns the cells, tags replaced by their names
 */
export function namedWosTags(raw: string[]): string[] {
  if (!isWosTagRow(raw)) return raw;
  return raw.map((c) => WOS_TAG_NAMES[c.trim()] ?? c);
}
