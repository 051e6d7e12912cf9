import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { escapeAttr, escapeText } from './xml.ts';

test('escapeText: & < > escaped, quotes and non-ASCII kept, characters XML cannot carry replaced', () => {
  assert.equal(
    escapeText('Müller & Söhne <GmbH> "x" \'y\''),
    'Müller &amp; Söhne &lt;GmbH&gt; "x" \'y\'',
  );
  assert.equal(escapeText('a>b'), 'a&gt;b', 'a lone > is escaped as the runtime does');
  assert.equal(escapeText('tab\tcr\rlf\n'), 'tab\tcr\rlf\n', 'the three allowed controls stay');
  assert.equal(escapeText('a\u0000b\u001Fc\uFFFEd\uFFFF'), 'a\uFFFDb\uFFFDc\uFFFDd\uFFFD');
  assert.equal(
    escapeText('pair 😀 high \uD83D alone, low \uDE00 alone'),
    'pair 😀 high \uFFFD alone, low \uFFFD alone',
  );
  const plain = '{"Text":"rob li","Options":[]}';
  assert.equal(escapeText(plain), plain);
});

test('escapeText and escapeAttr: any string comes back without a raw & or <, nor a character XML 1.0 cannot carry', () => {
  const cannot =
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  fc.assert(
    // Any string, and strings made of the characters that matter (a lone surrogate in wide text is rare in the first).
    fc.property(
      fc.oneof(
        fc.string({ unit: 'binary' }),
        fc
          .array(
            fc.constantFrom(
              'a',
              'é',
              'Ω',
              '😀',
              '\uD83D',
              '\uDE00',
              '\u0001',
              '\uFFFE',
              '\t',
              '&',
              '<',
              '>',
              '"',
            ),
            { maxLength: 12 },
          )
          .map((parts) => parts.join('')),
      ),
      (s) => {
        for (const out of [escapeText(s), escapeAttr(s)]) {
          assert.ok(!cannot.test(out), JSON.stringify(out));
          assert.ok(!out.includes('<'), JSON.stringify(out));
          assert.ok(!/&(?!amp;|lt;|gt;|quot;|#x9;|#xA;|#xD;)/.test(out), JSON.stringify(out));
        }
        const text = escapeText(s);
        assert.equal(text.includes('>'), false);
        // Nothing else changes: undoing the three escapes gives the input with its bad characters replaced.
        assert.equal(
          text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
          s.replace(new RegExp(cannot.source, 'g'), '\uFFFD'),
        );
      },
    ),
    { numRuns: 1000 },
  );
});
