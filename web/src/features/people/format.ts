/**
 * Years as a person's page shows them: `2018–2021`, `2021` for one year, '' when none is known
 * (0 stands for no year given).
 */
export function yearsText(first: number, last: number): string {
  if (!last) return '';
  return first && first !== last ? `${first}–${last}` : String(last);
}
