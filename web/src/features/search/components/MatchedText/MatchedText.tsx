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
