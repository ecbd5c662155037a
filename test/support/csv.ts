import { parseString } from 'fast-csv';

/** The records of CSV `text` (a leading BOM dropped), each as its fields. */
export function parseCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text.replace(/^\uFEFF/, ''))
      .on('data', (r: string[]) => rows.push(r))
      .on('end', () => resolve(rows))
      .on('error', reject);
  });
}
