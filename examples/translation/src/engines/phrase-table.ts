/**
 * The demo engine's bundled phrase table: a few dozen everyday phrases and words in eight languages. A string is the
 * same in every formality; `{ formal, informal }` gives both forms (the formal one is the default).
 * "proton beam" is deepl-mock's test phrase, so client test suites written against deepl-mock find their strings.
 */

export type Phrase = string | { formal: string; informal: string }
export type PhraseEntry = Record<PhraseLanguage, Phrase>

export const PHRASE_LANGUAGES = ['EN', 'DE', 'FR', 'ES', 'IT', 'NL', 'PT', 'JA'] as const
export type PhraseLanguage = (typeof PHRASE_LANGUAGES)[number]

export const PHRASE_TABLE: readonly PhraseEntry[] = [
  { EN: 'Hello, world!', DE: 'Hallo, Welt!', FR: 'Bonjour le monde !', ES: '¡Hola, mundo!', IT: 'Ciao, mondo!', NL: 'Hallo, wereld!', PT: 'Olá, mundo!', JA: 'こんにちは、世界！' },
  {
    EN: 'How are you?',
    DE: { formal: 'Wie geht es Ihnen?', informal: 'Wie geht es dir?' },
    FR: { formal: 'Comment allez-vous ?', informal: 'Comment vas-tu ?' },
    ES: { formal: '¿Cómo está usted?', informal: '¿Cómo estás?' },
    IT: { formal: 'Come sta?', informal: 'Come stai?' },
    NL: { formal: 'Hoe gaat het met u?', informal: 'Hoe gaat het met je?' },
    PT: { formal: 'Como está?', informal: 'Como estás?' },
    JA: { formal: 'お元気ですか？', informal: '元気？' },
  },
  {
    EN: 'Can you help me?',
    DE: { formal: 'Können Sie mir helfen?', informal: 'Kannst du mir helfen?' },
    FR: { formal: "Pouvez-vous m'aider ?", informal: "Peux-tu m'aider ?" },
    ES: { formal: '¿Puede ayudarme?', informal: '¿Puedes ayudarme?' },
    IT: { formal: 'Può aiutarmi?', informal: 'Puoi aiutarmi?' },
    NL: { formal: 'Kunt u mij helpen?', informal: 'Kun je me helpen?' },
    PT: { formal: 'Pode ajudar-me?', informal: 'Podes ajudar-me?' },
    JA: { formal: '手伝っていただけますか？', informal: '手伝ってくれる？' },
  },
  { EN: 'Where is the station?', DE: 'Wo ist der Bahnhof?', FR: 'Où est la gare ?', ES: '¿Dónde está la estación?', IT: "Dov'è la stazione?", NL: 'Waar is het station?', PT: 'Onde fica a estação?', JA: '駅はどこですか？' },
  { EN: 'The weather is nice today.', DE: 'Das Wetter ist heute schön.', FR: "Il fait beau aujourd'hui.", ES: 'Hace buen tiempo hoy.', IT: 'Oggi il tempo è bello.', NL: 'Het weer is mooi vandaag.', PT: 'O tempo está bom hoje.', JA: '今日はいい天気です。' },
  { EN: 'The title', DE: 'Der Titel', FR: 'Le titre', ES: 'El título', IT: 'Il titolo', NL: 'De titel', PT: 'O título', JA: 'タイトル' },
  { EN: 'Good morning', DE: 'Guten Morgen', FR: 'Bonjour', ES: 'Buenos días', IT: 'Buongiorno', NL: 'Goedemorgen', PT: 'Bom dia', JA: 'おはようございます' },
  { EN: 'Good night', DE: 'Gute Nacht', FR: 'Bonne nuit', ES: 'Buenas noches', IT: 'Buona notte', NL: 'Goedenacht', PT: 'Boa noite', JA: 'おやすみなさい' },
  { EN: 'Goodbye', DE: 'Auf Wiedersehen', FR: 'Au revoir', ES: 'Adiós', IT: 'Arrivederci', NL: 'Tot ziens', PT: 'Adeus', JA: 'さようなら' },
  { EN: 'Thank you', DE: 'Danke', FR: 'Merci', ES: 'Gracias', IT: 'Grazie', NL: { formal: 'Dank u', informal: 'Dank je' }, PT: 'Obrigado', JA: 'ありがとう' },
  {
    EN: 'Please', DE: 'Bitte', FR: { formal: "S'il vous plaît", informal: "S'il te plaît" }, ES: 'Por favor', IT: 'Per favore',
    NL: { formal: 'Alstublieft', informal: 'Alsjeblieft' }, PT: 'Por favor', JA: 'お願いします',
  },
  { EN: 'Welcome', DE: 'Willkommen', FR: 'Bienvenue', ES: 'Bienvenido', IT: 'Benvenuto', NL: 'Welkom', PT: 'Bem-vindo', JA: 'ようこそ' },
  { EN: 'proton beam', DE: 'Protonenstrahl', FR: 'faisceau de protons', ES: 'haz de protones', IT: 'fascio di protoni', NL: 'protonenbundel', PT: 'feixe de protões', JA: '陽子線' },
  { EN: 'Hello', DE: 'Hallo', FR: 'Bonjour', ES: 'Hola', IT: 'Ciao', NL: 'Hallo', PT: 'Olá', JA: 'こんにちは' },
  { EN: 'world', DE: 'Welt', FR: 'monde', ES: 'mundo', IT: 'mondo', NL: 'wereld', PT: 'mundo', JA: '世界' },
  { EN: 'yes', DE: 'ja', FR: 'oui', ES: 'sí', IT: 'sì', NL: 'ja', PT: 'sim', JA: 'はい' },
  { EN: 'no', DE: 'nein', FR: 'non', ES: 'no', IT: 'no', NL: 'nee', PT: 'não', JA: 'いいえ' },
  { EN: 'cat', DE: 'Katze', FR: 'chat', ES: 'gato', IT: 'gatto', NL: 'kat', PT: 'gato', JA: '猫' },
  { EN: 'dog', DE: 'Hund', FR: 'chien', ES: 'perro', IT: 'cane', NL: 'hond', PT: 'cão', JA: '犬' },
  { EN: 'house', DE: 'Haus', FR: 'maison', ES: 'casa', IT: 'casa', NL: 'huis', PT: 'casa', JA: '家' },
  { EN: 'water', DE: 'Wasser', FR: 'eau', ES: 'agua', IT: 'acqua', NL: 'water', PT: 'água', JA: '水' },
  { EN: 'book', DE: 'Buch', FR: 'livre', ES: 'libro', IT: 'libro', NL: 'boek', PT: 'livro', JA: '本' },
  { EN: 'friend', DE: 'Freund', FR: 'ami', ES: 'amigo', IT: 'amico', NL: 'vriend', PT: 'amigo', JA: '友達' },
  { EN: 'translation', DE: 'Übersetzung', FR: 'traduction', ES: 'traducción', IT: 'traduzione', NL: 'vertaling', PT: 'tradução', JA: '翻訳' },
  { EN: 'language', DE: 'Sprache', FR: 'langue', ES: 'idioma', IT: 'lingua', NL: 'taal', PT: 'língua', JA: '言語' },
]
