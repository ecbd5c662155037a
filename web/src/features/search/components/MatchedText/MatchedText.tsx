import { Highlight, Text, type TextProps } from '@mantine/core';
import { matchedParts } from '@sift/shared/contracts';

export interface MatchedTextProps extends TextProps {
  text: string;
  /** The searched text of this cell's column, if any: what it matched is marked. */
  term?: string | undefined;
  /** Accents must match too (see `matchedParts`). */
  matchAccents?: boolean | undefined;
  /** The element drawn (a `p` unless told). */
  component?: 'p' | 'span' | 'div';
  /**
   * With it, a text with nothing marked is a plain `span` of this class rather than a Mantine
   * `Text`: far cheaper where hundreds are drawn each frame (the results grid).
   */
  plainClassName?: string | undefined;
}

/**
 * A cell's text with what the search matched in it marked, as the engine matched it (regardless of
 * case and, unless `matchAccents`, accents). The whole text is the element's title (read on hover).
 */
export function MatchedText({
  text,
  term,
  matchAccents = false,
  plainClassName,
  ...props
}: MatchedTextProps) {
  const parts = term ? matchedParts(text, term, matchAccents) : [];
  // The grid's cells: plain spans and marks (a Mantine Highlight each costs a frame on a wide page).
  if (parts.length && plainClassName !== undefined)
    return (
      <span className={plainClassName} title={text}>
        {markedSegments(text, parts).map((segment, i) =>
          segment.marked ? <mark key={i}>{segment.text}</mark> : segment.text,
        )}
      </span>
    );
  if (parts.length)
    return (
      // The parts are what matched, as written: Mantine's own accent folding would add more.
      <Highlight size="sm" title={text} highlight={parts} accentInsensitive={false} {...props}>
        {text}
      </Highlight>
    );
  return plainClassName !== undefined ? (
    <span className={plainClassName} title={text}>
      {text}
    </span>
  ) : (
    <Text size="sm" title={text} {...props}>
      {text}
    </Text>
  );
}

/** `text` cut into the runs that are one of `parts` (marked) and the runs between them. */
export function markedSegments(text: string, parts: readonly string[]): { text: string; marked: boolean }[] {
  const escaped = [...parts]
    .sort((a, b) => b.length - a.length)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(${escaped.join('|')})`, 'g');
  const wanted = new Set(parts);
  return text
    .split(pattern)
    .filter((piece) => piece !== '')
    .map((piece) => ({ text: piece, marked: wanted.has(piece) }));
}
