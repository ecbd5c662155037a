import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { MAX_MARKUP_CHARS, XmlScanner } from './xml-scanner.ts';

/** Events as a flat list; consecutive text pieces are joined (either reader may split text). */
type Event = ['open', string, Record<string, string>] | ['text', string] | ['close', string];

function collector(): { events: Event[]; text: (t: string) => void } {
  const events: Event[] = [];
  return {
    events,
    text(t: string) {
      const last = events.at(-1);
      if (last?.[0] === 'text') last[1] += t;
      else events.push(['text', t]);
    },
  };
}

/**
 * The reference: saxes, a conforming XML parser (CDATA counted as text; the whitespace it passes on
 * from outside the root element left out: the scanner checks it and drops it).
 */
function saxesEvents(xml: string): Event[] {
  const c = collector();
  const parser = new SaxesParser({ xmlns: false, position: false });
  let depth = 0;
  parser.on('opentag', (tag) => {
    depth++;
    c.events.push(['open', tag.name, { ...tag.attributes }]);
  });
  parser.on('text', (t) => {
    if (depth) c.text(t);
  });
  parser.on('cdata', c.text);
  parser.on('closetag', (tag) => {
    depth--;
    c.events.push(['close', tag.name]);
  });
  parser.write(xml);
  parser.close();
  return c.events;
}

/** XmlScanner fed `xml` in the given pieces. */
function scannerEvents(pieces: string[]): Event[] {
  const c = collector();
  const scanner = new XmlScanner({
    open: (name, attributes) => c.events.push(['open', name, Object.fromEntries(attributes.entries())]),
    text: c.text,
    close: (name) => c.events.push(['close', name]),
  });
  for (const p of pieces) scanner.write(p);
  scanner.close();
  return c.events;
}

/** Every way of cutting `xml` in two, and one character at a time. */
function cuts(xml: string): string[][] {
  const all = [[xml], [...xml]];
  for (let i = 1; i < xml.length; i++) all.push([xml.slice(0, i), xml.slice(i)]);
  return all;
}

const DOCUMENTS = {
  worksheet:
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="urn:x"><sheetData>' +
    '<row r="1" spans="1:3"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Tom &amp; Jerry</t></is></c>' +
    '<c r="C1"/></row></sheetData></worksheet>',
  prefixesAndSpacing: `<x:a xmlns:x="urn:x"  x:b = 'single "quoted"'  c="a > b" ><x:d/><x:e  /></x:a >`,
  entities:
    '<a t="&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;">&lt;tag&gt; &#233;t&#xE9; &#128512; &quot;q&quot; &apos;</a>',
  cdataCommentsAndInstructions:
    '<!-- before --><a><![CDATA[<b>&amp;</b>]]> and <!-- a - comment? --> text<?pi data?><![CDATA[]]></a><!-- after -->',
  lineEnds: '<a v="one\r\ntwo\rthree\nfour\tfive">line\r\nline\rline\nend &#13;kept</a>',
  unicode: '<a name="Müller">García — 日本語 😀</a>',
  whitespaceAroundRoot: '\n  <a>\n  <b> x </b>\n</a>\n  ',
};

describe('XmlScanner', () => {
  for (const [name, xml] of Object.entries(DOCUMENTS)) {
    it(`reads ${name} as saxes does, however the input is cut`, () => {
      const expected = saxesEvents(xml);
      expect(expected.length).toBeGreaterThan(2);
      for (const pieces of cuts(xml)) expect(scannerEvents(pieces)).toEqual(expected);
    });
  }

  it('reads markup and text longer than the piece it joins across a cut, as saxes does', () => {
    const long = 'ä'.repeat(5_000);
    const xml =
      `<root><a note="${long}" r="A1"><v>${long}&amp;${long}</v></a>` +
      `<b>${'<c r="B2"><v>1</v></c>'.repeat(500)}</b><!--${long}--><![CDATA[${long}]]></root>`;
    const expected = saxesEvents(xml);
    for (let cut = 1; cut < xml.length; cut += 211) {
      expect(scannerEvents([xml.slice(0, cut), xml.slice(cut)])).toEqual(expected);
      expect(scannerEvents([xml.slice(0, cut), xml.slice(cut, cut + 6_000), xml.slice(cut + 6_000)])).toEqual(
        expected,
      );
    }
  });

  const MALFORMED: Record<string, [string, RegExp]> = {
    doctype: ['<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', /declaration/],
    unknownEntity: ['<a>&nbsp;</a>', /unknown entity &nbsp;/],
    bareAmpersand: ['<a>Tom & Jerry</a>', /starts no entity/],
    mismatchedEnd: ['<a><b></a></b>', /<\/a> where <\/b> was expected/],
    unclosed: ['<a><b></b>', /ends before <\/a>/],
    textOutsideRoot: ['<a/>trailing', /text after the root element/],
    twoRoots: ['<a/><b/>', /more than one root element/],
    ltInAttribute: ['<a b="<"/>', /"<" in its value/],
    unquotedAttribute: ['<a b=1/>', /not quoted/],
    noRoot: ['<!-- only a comment -->', /no root element/],
    forbiddenCharacter: ['<a>&#0;</a>', /may not hold/],
  };
  for (const [name, [xml, message]] of Object.entries(MALFORMED)) {
    it(`refuses ${name} (as saxes does)`, () => {
      expect(() => saxesEvents(xml)).toThrow();
      for (const pieces of cuts(xml)) expect(() => scannerEvents(pieces)).toThrow(message);
    });
  }

  it('passes long text on as it arrives, and refuses a tag without end instead of rereading it', () => {
    const c = collector();
    const scanner = new XmlScanner({ text: c.text });
    scanner.write('<a>');
    const piece = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 200; i++) scanner.write(piece);
    // Passed on already (nothing of it is held back to be scanned again).
    expect(c.events).toEqual([['text', piece.repeat(200)]]);
    scanner.write('</a>');
    scanner.close();

    const hostile = new XmlScanner({});
    hostile.write('<a><b c="');
    expect(() => {
      for (let i = 0; i <= MAX_MARKUP_CHARS / piece.length; i++) hostile.write(piece);
    }).toThrow(/longer than 4 MB/);
  });

  it('reads attributes by name, prototype names included, without touching any object', () => {
    const seen: [string | undefined, string | undefined, [string, string][]][] = [];
    new XmlScanner({
      open: (_, a) => seen.push([a.get('r'), a.get('missing'), a.entries()]),
    }).write('<a __proto__="x" constructor="y" r="A&amp;1" polluted="z"/>');
    expect(seen).toEqual([
      [
        'A&1',
        undefined,
        [
          ['__proto__', 'x'],
          ['constructor', 'y'],
          ['r', 'A&1'],
          ['polluted', 'z'],
        ],
      ],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
