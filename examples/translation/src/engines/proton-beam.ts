/**
 * deepl-mock's test phrase, "proton beam", in every target language this server lists (DeepL's codes). The
 * `proton-beam` engine answers it whatever the input; client test suites written against deepl-mock expect exactly
 * these strings.
 */
const BY_CODE: Record<string, string> = {
  AR: 'شعاع البروتون',
  BG: 'протонен лъч',
  CS: 'protonový paprsek',
  DA: 'protonstråle',
  DE: 'Protonenstrahl',
  EL: 'δέσμη πρωτονίων',
  EN: 'proton beam',
  ES: 'haz de protones',
  ET: 'prootonikiirgus',
  FI: 'protonisäde',
  FR: 'faisceau de protons',
  HE: 'קרן פרוטונים',
  HU: 'protonnyaláb',
  ID: 'berkas proton',
  IT: 'fascio di protoni',
  JA: '陽子ビーム',
  KO: '양성자 빔',
  LT: 'protonų spindulys',
  LV: 'protonu staru kūlis',
  NB: 'protonstråle',
  NL: 'protonenbundel',
  PL: 'wiązka protonów',
  PT: 'feixe de prótons',
  RO: 'fascicul de protoni',
  RU: 'протонный луч',
  SK: 'protónový lúč',
  SL: 'protonski žarek',
  SV: 'protonstråle',
  TH: 'ลำแสงโปรตอน',
  TR: 'proton ışını',
  UK: 'протонний пучок',
  VI: 'chùm proton',
  ZH: '质子束',
  'ZH-HANS': '质子束',
  'ZH-HANT': '質子束',
}

/** The phrase in a target code (`EN-US`, `zh-hant`, `DE`): the variant's own, else its base language's. */
export function protonBeam(code: string): string {
  const upper = code.trim().toUpperCase()
  return BY_CODE[upper] ?? BY_CODE[upper.split('-')[0]!] ?? BY_CODE.EN!
}

const LANGUAGE_OF = new Map<string, string>()
for (const [code, phrase] of Object.entries(BY_CODE)) {
  const key = phrase.toLowerCase()
  if (!code.includes('-') && !LANGUAGE_OF.has(key)) LANGUAGE_OF.set(key, code)
}

/** The base code whose phrase `text` is (`faisceau de protons` → `FR`), or undefined. */
export function protonBeamLanguage(text: string): string | undefined {
  return LANGUAGE_OF.get(text.trim().toLowerCase())
}
