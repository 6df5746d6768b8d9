/**
 * The translator page: one server-rendered HTML form (text, source and target pickers, formality, API key), posted
 * back to `/`. No JavaScript at all, so it works in any browser; translations are billed to the key like API calls.
 */
import { SOURCE_LANGUAGES, TARGET_LANGUAGES } from '../languages/catalogue.ts'
import { escapeHtml } from '../markup/escape-html.ts'

export interface PageState {
  text?: string
  sourceLang?: string
  targetLang?: string
  formality?: string
  authKey?: string
  translation?: { text: string; detectedSourceLang: string; billedCharacters: number }
  error?: string
}

const FORMALITY_CHOICES: Array<[string, string]> = [
  ['default', 'Default'],
  ['prefer_more', 'More formal'],
  ['prefer_less', 'Less formal'],
]

function options(choices: Array<[string, string]>, selected: string | undefined): string {
  return choices
    .map(
      ([value, label]) =>
        `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(label)}</option>`,
    )
    .join('')
}

export function renderTranslatorPage(state: PageState, engineName: string): string {
  const sources: Array<[string, string]> = [
    ['', 'Detect language'],
    ...SOURCE_LANGUAGES.map((l): [string, string] => [l.language, l.name]),
  ]
  const targets = TARGET_LANGUAGES.map((l): [string, string] => [l.language, l.name])
  const result = state.translation
    ? `<section aria-live="polite"><h2>Translation</h2><output id="translation" for="text">${escapeHtml(state.translation.text)}</output>
<p class="meta">Detected source language: <span id="detected">${escapeHtml(state.translation.detectedSourceLang)}</span> · billed characters: <span id="billed">${state.translation.billedCharacters}</span></p></section>`
    : ''
  const error = state.error ? `<p id="error" role="alert">${escapeHtml(state.error)}</p>` : ''
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Translator</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
textarea, output { display: block; width: 100%; box-sizing: border-box; min-height: 8rem; padding: .5rem; border: 1px solid #999; border-radius: 4px; font: inherit; white-space: pre-wrap; }
.row { display: flex; gap: 1rem; flex-wrap: wrap; margin: .75rem 0; } label { display: flex; flex-direction: column; }
button { padding: .5rem 1.5rem; font: inherit; } #error { color: #a00; } .meta, footer { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<h1>Translator</h1>
<form method="post" action="/">
<label for="text">Text</label>
<textarea id="text" name="text" required>${escapeHtml(state.text ?? '')}</textarea>
<div class="row">
<label>From <select id="source_lang" name="source_lang">${options(sources, state.sourceLang ?? '')}</select></label>
<label>To <select id="target_lang" name="target_lang">${options(targets, state.targetLang ?? 'DE')}</select></label>
<label>Formality <select id="formality" name="formality">${options(FORMALITY_CHOICES, state.formality ?? 'default')}</select></label>
<label>API key <input id="auth_key" name="auth_key" type="password" autocomplete="off" required value="${escapeHtml(state.authKey ?? '')}"></label>
</div>
<button type="submit">Translate</button>
</form>
${error}${result}
<footer><p>Engine: ${escapeHtml(engineName)}${engineName === 'phrase-table' ? ' — a demo engine: it knows a bundled phrase table for a few languages and passes other text through unchanged.' : ''}</p></footer>
</body>
</html>
`
}
