/**
 * A streaming XML tokenizer for the parts of an xlsx workbook: start tags with their attributes,
 * end tags and text, nothing else (no namespaces, no DTD).
 *
 * Why not saxes, which read the parts before: it spends most of its time in character-by-character
 * states; this tokenizer finds markup with native `indexOf`, looks only at the characters of tags,
 * and reads a workbook in far less time (docs/benchmarks.md, "Reading xlsx"). saxes stays the reference in its
 * tests.
 *
 * What it keeps of XML 1.0: line ends normalised in text (CR LF and CR → LF) and in attribute values
 * (tab, CR, LF → space); the five predefined entities and character references (`&#…;`, `&#x…;`)
 * decoded; CDATA sections read as text; comments and processing instructions skipped; a single root
 * element; end tags matching their start tags. It throws (Error, with a short reason) on markup it
 * cannot read: a `<!DOCTYPE` or other declaration, an unknown entity, an `&` that starts none, `<` in
 * an attribute value, a mismatched or missing end tag, text outside the root element, or a single
 * tag, comment or CDATA section longer than MAX_MARKUP_CHARS (so a hostile part cannot make it
 * rescan without end).
 *
 * Text may reach `text` in several pieces (at chunk ends, around CDATA): handlers join them.
 */
export interface XmlHandlers {
  /**
   * A start tag: its name as written (with any prefix) and its attributes, to be read during the
   * call (the object is reused for the next tag). A self-closing tag is followed at once by its
   * `close`.
   */
  open?: (name: string, attributes: XmlAttributes) => void;
  /** Text (or part of it) inside the root element, entities decoded. */
  text?: (text: string) => void;
  /** An end tag (or the end of a self-closing tag), by name as written. */
  close?: (name: string) => void;
}

/** Longest tag, comment, processing instruction or CDATA section read, in UTF-16 code units. */
export const MAX_MARKUP_CHARS = 4 * 1024 * 1024;
/** Characters of a chunk joined to the end of the one before (see write). */
const JOIN_CHARS = 4096;

const LT = 60; // <
const GT = 62; // >
const SLASH = 47; // /
const EQ = 61; // =
const QUOT = 34; // "
const APOS = 39; // '
const CR = 13;
const AMP = 38; // &

/**
 * The attributes of the start tag being handled, read on demand: the scanner only notes where each
 * one lies, so the attributes nobody asks for (most of a worksheet's) cost no strings or objects.
 */
export class XmlAttributes {
  #s = '';
  /** Per attribute: name start, name end, value start, value end (in #s), value needs normalising (0/1). */
  readonly #spans: number[] = [];
  #count = 0;

  /** The value of the attribute written `name` (with any prefix), normalised; undefined if absent. */
  get(name: string): string | undefined {
    const spans = this.#spans;
    for (let a = 0; a < this.#count * 5; a += 5) {
      if (spans[a + 1]! - spans[a]! === name.length && this.#s.startsWith(name, spans[a]!))
        return this.#value(a);
    }
    return undefined;
  }

  /** Every attribute as [name, value], in document order. */
  entries(): [string, string][] {
    const out: [string, string][] = [];
    for (let a = 0; a < this.#count * 5; a += 5) {
      out.push([this.#s.slice(this.#spans[a], this.#spans[a + 1]), this.#value(a)]);
    }
    return out;
  }

  /** @internal The scanner starts a tag of `s`. */
  reset(s: string): void {
    this.#s = s;
    this.#count = 0;
  }

  /** @internal The scanner found an attribute. */
  add(nameStart: number, nameEnd: number, valueStart: number, valueEnd: number, special: boolean): void {
    const at = this.#count++ * 5;
    const spans = this.#spans;
    spans[at] = nameStart;
    spans[at + 1] = nameEnd;
    spans[at + 2] = valueStart;
    spans[at + 3] = valueEnd;
    spans[at + 4] = special ? 1 : 0;
  }

  #value(a: number): string {
    const raw = this.#s.slice(this.#spans[a + 2], this.#spans[a + 3]);
    if (!this.#spans[a + 4]) return raw;
    // XML 1.0 attribute-value normalisation: tab, CR LF, CR and LF → one space each.
    const v = raw.replace(/\r\n|[\t\n\r]/g, ' ');
    return v.includes('&') ? decodeEntities(v) : v;
  }
}

export class XmlScanner {
  /** Input not consumed yet: an incomplete construct at the end of the last chunk. */
  #rest = '';
  /** Names of the open elements, innermost last. */
  readonly #open: string[] = [];
  #rootSeen = false;
  readonly #attributes = new XmlAttributes();

  private readonly handlers: XmlHandlers;

  constructor(handlers: XmlHandlers) {
    this.handlers = handlers;
  }

  /** Reads the next piece of the document (pieces may split anything, even a tag's name). */
  write(chunk: string): void {
    let from = 0;
    const rest = this.#rest;
    if (rest) {
      // The construct cut at the end of the last chunk is completed from the head of this one, so
      // the chunk itself is scanned where it lies: joining the two whole would copy every chunk
      // once more (the scan needs a flat string).
      const head = rest + chunk.slice(0, JOIN_CHARS);
      const consumed = this.#scan(head, 0);
      if (consumed >= rest.length) from = consumed - rest.length;
      else if (chunk.length <= JOIN_CHARS) {
        this.#rest = head.slice(consumed);
        return;
      } else {
        const s = rest + chunk; // a construct longer than JOIN_CHARS: join them after all
        const all = this.#scan(s, consumed);
        this.#rest = all < s.length ? s.slice(all) : '';
        return;
      }
    }
    const consumed = this.#scan(chunk, from);
    this.#rest = consumed < chunk.length ? chunk.slice(consumed) : '';
  }

  /** Ends the document; throws when it is incomplete (an open element or unfinished markup). */
  close(): void {
    const rest = this.#rest;
    this.#rest = '';
    if (rest.trim()) {
      if (rest.charCodeAt(0) === LT || this.#open.length) throw new Error('the XML ends inside a tag');
      throw new Error('text after the root element');
    }
    if (this.#open.length) throw new Error(`the XML ends before </${this.#open.at(-1)}>`);
    if (!this.#rootSeen) throw new Error('the XML has no root element');
  }

  /** Scans `s` from `from`; returns the index up to which it was consumed. */
  #scan(s: string, from: number): number {
    const n = s.length;
    let i = from;
    while (i < n) {
      if (s.charCodeAt(i) !== LT) {
        const lt = s.indexOf('<', i);
        if (lt < 0) return this.#partialText(s, i);
        this.#text(s.slice(i, lt));
        i = lt;
      }
      if (i + 1 >= n) return i;
      const next = s.charCodeAt(i + 1);
      let end: number;
      if (next === SLASH) end = this.#endTag(s, i);
      else if (next === 63 /* ? */) end = skipPast(s, i, '?>');
      else if (next === 33 /* ! */) end = this.#declaration(s, i);
      else end = this.#startTag(s, i);
      if (end < 0) {
        if (n - i > MAX_MARKUP_CHARS) throw new Error('an XML tag is longer than 4 MB');
        return i;
      }
      i = end;
    }
    return n;
  }

  /**
   * Text running to the end of the chunk: passes on what is complete, keeping back an entity cut
   * in two and a final CR (it may be the first half of CR LF). Returns the consumed length.
   */
  #partialText(s: string, from: number): number {
    let to = s.length;
    // Only the tail can hold an entity cut in two (names are short); an earlier "&" without its
    // ";" fails in #text.
    let amp = -1;
    for (let at = s.indexOf('&', Math.max(from, to - 16)); at >= 0; at = s.indexOf('&', at + 1)) amp = at;
    if (amp >= 0 && s.indexOf(';', amp) < 0) to = amp;
    if (to > from && s.charCodeAt(to - 1) === CR) to--;
    if (to > from) this.#text(s.slice(from, to));
    return to;
  }

  #text(raw: string): void {
    if (!this.#open.length) {
      if (raw.trim())
        throw new Error(this.#rootSeen ? 'text after the root element' : 'text before the root element');
      return;
    }
    const t = lineEnds(raw);
    this.handlers.text?.(t.includes('&') ? decodeEntities(t) : t);
  }

  /** `</name>` at i; returns the index after it, or -1 when incomplete. */
  #endTag(s: string, i: number): number {
    const gt = s.indexOf('>', i + 2);
    if (gt < 0) return -1;
    const name = s.slice(i + 2, gt).trimEnd();
    const open = this.#open.pop();
    if (open !== name) {
      throw new Error(
        open === undefined ? `</${name}> closes nothing` : `</${name}> where </${open}> was expected`,
      );
    }
    this.handlers.close?.(name);
    return gt + 1;
  }

  /** `<!…` at i: a comment or CDATA section (anything else is refused); -1 when incomplete. */
  #declaration(s: string, i: number): number {
    if (s.startsWith('<!--', i)) return skipPast(s, i + 4, '-->');
    if (s.startsWith('<![CDATA[', i)) {
      const end = s.indexOf(']]>', i + 9);
      if (end < 0) return -1;
      if (!this.#open.length) throw new Error('CDATA outside the root element');
      this.handlers.text?.(lineEnds(s.slice(i + 9, end)));
      return end + 3;
    }
    // Not enough characters yet to tell a comment or CDATA from a declaration.
    if (s.length - i < 9 && ('<![CDATA['.startsWith(s.slice(i)) || '<!--'.startsWith(s.slice(i)))) return -1;
    throw new Error('the XML has a declaration (such as <!DOCTYPE) that a workbook part may not have');
  }

  /** `<name attr="v" …>` or `…/>` at i; returns the index after it, or -1 when incomplete. */
  #startTag(s: string, i: number): number {
    const n = s.length;
    let j = i + 1;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (c === GT || c === SLASH || c <= 32) break;
      j++;
    }
    if (j >= n) return -1;
    if (j === i + 1) throw new Error('a "<" in the XML starts no tag');
    const name = s.slice(i + 1, j);
    const attributes = this.#attributes;
    attributes.reset(s);
    let selfClosing = false;
    for (;;) {
      while (j < n && s.charCodeAt(j) <= 32) j++;
      if (j >= n) return -1;
      const c = s.charCodeAt(j);
      if (c === GT) {
        j++;
        break;
      }
      if (c === SLASH) {
        if (j + 1 >= n) return -1;
        if (s.charCodeAt(j + 1) !== GT) throw new Error(`a "/" inside <${name}>`);
        selfClosing = true;
        j += 2;
        break;
      }
      const nameStart = j;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (d === EQ || d <= 32 || d === GT || d === SLASH) break;
        j++;
      }
      const nameEnd = j;
      while (j < n && s.charCodeAt(j) <= 32) j++;
      if (j >= n) return -1;
      if (s.charCodeAt(j) !== EQ)
        throw new Error(`the attribute ${s.slice(nameStart, nameEnd)} of <${name}> has no value`);
      j++;
      while (j < n && s.charCodeAt(j) <= 32) j++;
      if (j >= n) return -1;
      const q = s.charCodeAt(j);
      if (q !== QUOT && q !== APOS)
        throw new Error(`the attribute ${s.slice(nameStart, nameEnd)} of <${name}> is not quoted`);
      let close = j + 1;
      let special = false;
      for (; close < n; close++) {
        const d = s.charCodeAt(close);
        if (d === q) break;
        if (d === LT) throw new Error(`the attribute ${s.slice(nameStart, nameEnd)} has a "<" in its value`);
        if (d === AMP || d === 9 || d === 10 || d === 13) special = true;
      }
      if (close >= n) return -1;
      attributes.add(nameStart, nameEnd, j + 1, close, special);
      j = close + 1;
    }
    if (!this.#open.length && this.#rootSeen) throw new Error('the XML has more than one root element');
    this.#rootSeen = true;
    this.handlers.open?.(name, attributes);
    if (selfClosing) this.handlers.close?.(name);
    else this.#open.push(name);
    return j;
  }
}

/** Text with XML 1.0's line ends: CR LF and a lone CR read as LF. */
function lineEnds(t: string): string {
  return t.includes('\r') ? t.replace(/\r\n?/g, '\n') : t;
}

/** Index after the first `terminator` at or after `from`, or -1. */
function skipPast(s: string, from: number, terminator: string): number {
  const at = s.indexOf(terminator, from);
  return at < 0 ? -1 : at + terminator.length;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes the predefined entities and character references; throws on anything else.
 *
 * @param t - text with entities
 * @returns the decoded text
 * @throws Error for an entity XML does not predefine
 */
export function decodeEntities(t: string): string {
  return t.replace(/&([^&;]*)(;?)/g, (_, name: string, semicolon: string) => {
    if (!semicolon) throw new Error('an "&" in the XML starts no entity');
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const code = /^#x[0-9a-fA-F]{1,6}$/.test(name)
      ? Number.parseInt(name.slice(2), 16)
      : /^#[0-9]{1,7}$/.test(name)
        ? Number.parseInt(name.slice(1), 10)
        : -1;
    if (code < 0) throw new Error(`the XML uses an unknown entity &${name};`);
    if (!isXmlChar(code)) throw new Error(`the XML refers to a character it may not hold (&${name};)`);
    return String.fromCodePoint(code);
  });
}

/** XML 1.0's Char production. */
function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}
