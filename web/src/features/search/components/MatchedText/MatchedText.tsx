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
}

/**
 * A cell's text with what the search matched in it marked, as the engine matched it (regardless of
 * case and, unless `matchAccents`, accents). The whole text is the element's title (read on hover).
 */
export function MatchedText({ text, term, matchAccents = false, ...props }: MatchedTextProps) {
  const parts = term ? matchedParts(text, term, matchAccents) : [];
  return parts.length ? (
    // The parts are what matched, as written: Mantine's own accent folding would add more.
    <Highlight size="sm" title={text} highlight={parts} accentInsensitive={false} {...props}>
      {text}
    </Highlight>
  ) : (
    <Text size="sm" title={text} {...props}>
      {text}
    </Text>
  );
}
