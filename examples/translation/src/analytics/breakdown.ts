/** DeepL's usage breakdowns. Only text translation is metered here; the other products are always 0. */

export function usageBreakdown(textCharacters: number) {
  return {
    total_characters: textCharacters,
    text_translation_characters: textCharacters,
    document_translation_characters: 0,
    text_improvement_characters: 0,
    speech_to_text_minutes: 0,
    // Older name still read by deepl-cli.
    speech_to_text_milliseconds: 0,
  }
}

export function customTagBreakdown(textCharacters: number) {
  return {
    total_characters: textCharacters,
    text_translation_characters: textCharacters,
    text_improvement_characters: 0,
  }
}
