/** The pieces under the demo engine: tokenizer round trip, skeletons, sentence splitting, language detection. */
import { describe, expect, it } from 'vitest'
import { LanguageDetector } from '../src/engines/language-detector.ts'
import { buildSkeleton, fillSkeleton, units, type SkeletonOptions } from '../src/markup/skeleton.ts'
import { tokenize } from '../src/markup/tokenize.ts'

const xml: SkeletonOptions = {
  tagHandling: 'xml',
  splitSentences: '1',
  outlineDetection: true,
  splittingTags: [],
  nonSplittingTags: [],
  ignoreTags: [],
}

describe('tokenize', () => {
  const samples = [
    '<a href="x>y">t</a>',
    'a < b and c > d',
    '<!-- <p>not a tag</p> -->x',
    '<![CDATA[<b>]]>',
    '<?xml version="1.0"?><r/>',
    '<p>unclosed',
    '</stray> text',
    '<script>if (a < b) { x = "</p>" }</script>',
    '<img src=\'a.png\' alt="<">',
    '',
  ]
  it.each(samples)('gives the input back: %s', (sample) => {
    expect(
      tokenize(sample, true)
        .map((t) => t.raw)
        .join(''),
    ).toBe(sample)
    expect(
      tokenize(sample, false)
        .map((t) => t.raw)
        .join(''),
    ).toBe(sample)
  })

  it('reads a < that starts no tag as text', () => {
    expect(tokenize('a < b', false)).toEqual([{ kind: 'text', raw: 'a < b' }])
  })
})

describe('skeleton', () => {
  it('round-trips any text when units come back unchanged', () => {
    for (const text of [
      '<r><a>One. Two</a>\n<b x="1">Three</b></r>',
      '  padded  ',
      'Line one\n\nLine two',
      '<p><x/></p>',
    ]) {
      const skeleton = buildSkeleton(text, xml)
      expect(fillSkeleton(skeleton, units(skeleton))).toBe(text)
    }
  })

  it('replaces ignored elements inside sentences by placeholders and restores them even if an engine drops one', () => {
    const skeleton = buildSkeleton('<p>Press <k>Ctrl</k> now</p>', {
      ...xml,
      ignoreTags: ['k'],
      nonSplittingTags: ['p'],
    })
    expect(units(skeleton)).toEqual(['Press <rl-keep i="0"/> now'])
    expect(fillSkeleton(skeleton, ['Drücke <rl-keep i="0"/> jetzt'])).toBe('<p>Drücke <k>Ctrl</k> jetzt</p>')
    expect(fillSkeleton(skeleton, ['Drücke jetzt'])).toBe('<p>Drücke jetzt</p><k>Ctrl</k>')
  })

  it('splits Japanese sentences on full-width punctuation without spaces', () => {
    const skeleton = buildSkeleton('こんにちは。ありがとう', { ...xml, tagHandling: undefined })
    expect(units(skeleton)).toEqual(['こんにちは。', 'ありがとう'])
  })
})

describe('language detector', () => {
  const detector = new LanguageDetector()
  it.each([
    ['The cat is on the table', 'EN'],
    ['Der Hund ist nicht hier', 'DE'],
    ['Où est la gare ?', 'FR'],
    ['¿Dónde está?', 'ES'],
    ['Il gatto è sul tavolo, non qui', 'IT'],
    ['Het weer is mooi vandaag', 'NL'],
    ['Não sei', 'PT'],
    ['Dzień dobry, jak się masz?', 'PL'],
    ['Привет, как дела?', 'RU'],
    ['Привіт, як справи? Їжак', 'UK'],
    ['今日はいい天気です', 'JA'],
    ['你好世界', 'ZH'],
    ['안녕하세요', 'KO'],
    ['Καλημέρα', 'EL'],
    ['12345', 'EN'],
    ['<b>Hallo</b> <i>Welt</i>', 'DE'],
  ])('%s → %s', (text, lang) => {
    expect(detector.detect(text)).toBe(lang)
  })
})
