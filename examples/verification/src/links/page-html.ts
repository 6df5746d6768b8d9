/** The HTML of the hosted verification pages: one small, mobile-first layout, everything escaped, no scripts needed. */
import type { Job } from '../jobs/job-store.ts'
import type { HostedLink } from './hosted-link-store.ts'

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

const METHOD_LABELS: Record<string, string> = {
  biometric_kyc: 'ID number and selfie',
  doc_verification: 'Document and selfie',
  enhanced_document_verification: 'Document, ID number and selfie',
  enhanced_kyc: 'ID number',
}

function layout(title: string, body: string, link?: HostedLink, head = ''): string {
  const color = link?.themeColor ?? '#1f4e79'
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${head}
<style>
  :root { --accent: ${escapeHtml(color)}; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f4f6f8; color: #1b1f24; }
  main { max-width: 32rem; margin: 0 auto; padding: 1.25rem; }
  .card { background: #fff; border-radius: 12px; padding: 1.25rem; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 1.35rem; margin: 0 0 .5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input[type=text], input[type=email], input[type=tel], select { width: 100%; padding: .7rem; font-size: 1rem; border: 1px solid #b8c0c8; border-radius: 8px; }
  input[type=file] { width: 100%; font-size: 1rem; }
  .hint { color: #5b6570; font-size: .9rem; margin: .25rem 0 0; }
  .consent { display: flex; gap: .6rem; align-items: flex-start; margin-top: 1.25rem; font-weight: 400; }
  .consent input { margin-top: .35rem; width: 1.2rem; height: 1.2rem; }
  button, .button { display: block; width: 100%; margin-top: 1.5rem; padding: .9rem; font-size: 1.05rem; font-weight: 600; color: #fff;
    background: var(--accent); border: 0; border-radius: 8px; text-align: center; text-decoration: none; cursor: pointer; }
  .error { background: #fdecea; color: #8a1c12; border-radius: 8px; padding: .75rem; margin: .75rem 0; }
  .logo { max-height: 48px; margin-bottom: .75rem; }
  .outcome { font-size: 1.1rem; }
  .status-clear { color: #17612c; } .status-block, .status-error { color: #8a1c12; } .status-attention { color: #7a5200; }
</style>
</head>
<body><main><div class="card">
${link?.logoUrl ? `<img class="logo" src="${escapeHtml(link.logoUrl)}" alt="">` : ''}${body}
</div></main></body>
</html>`
}

export interface FormValues {
  choice?: string
  given_names?: string
  last_name?: string
  email?: string
  phone_number?: string
  id_number?: string
}

export function formPage(link: HostedLink, action: string, values: FormValues = {}, error?: string): string {
  const options = link.idTypes
    .map(
      (t, i) =>
        `<option value="${i}"${String(i) === (values.choice ?? '0') ? ' selected' : ''}>${escapeHtml(`${t.country} · ${t.id_type.replaceAll('_', ' ')} · ${METHOD_LABELS[t.verification_method] ?? t.verification_method}`)}</option>`,
    )
    .join('')
  const field = (name: keyof FormValues, label: string, type: string, extra = '') =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" value="${escapeHtml(values[name])}" ${extra}>`
  return layout(
    link.name,
    `
<h1>${escapeHtml(link.name)}</h1>
${link.description ? `<p>${escapeHtml(link.description)}</p>` : ''}
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}" enctype="multipart/form-data">
  <label for="choice">Document</label>
  <select id="choice" name="choice">${options}</select>
  ${field('given_names', 'Given names', 'text', 'required autocomplete="given-name"')}
  ${field('last_name', 'Last name', 'text', 'required autocomplete="family-name"')}
  ${field('email', 'Email', 'email', 'autocomplete="email"')}
  ${field('phone_number', 'Phone number', 'tel', 'autocomplete="tel" placeholder="+234…"')}
  <p class="hint">Give an email address or a phone number.</p>
  ${field('id_number', 'ID number', 'text', 'autocomplete="off"')}
  <p class="hint">Needed unless you chose "Document and selfie".</p>
  <label for="selfie_image">Selfie</label>
  <input id="selfie_image" name="selfie_image" type="file" accept="image/jpeg,image/png" capture="user" required>
  <label for="document">Photo of your document</label>
  <input id="document" name="document" type="file" accept="image/jpeg,image/png" capture="environment" required>
  <label class="consent"><input type="checkbox" name="consent" value="granted" required>
    <span>I agree that my details and images are used to verify my identity, as described in the
    <a href="${escapeHtml(link.noticePrivacyPolicyUrl)}" target="_blank" rel="noopener">privacy notice</a>.</span></label>
  <button type="submit">Verify me</button>
</form>`,
    link,
  )
}

const OUTCOMES: Record<string, { title: string; text: string }> = {
  clear: { title: 'You are verified', text: 'Thank you. Your identity has been verified.' },
  attention: {
    title: 'Verification under review',
    text: 'Your details were received and need a manual review. You will hear back soon.',
  },
  block: { title: 'We could not verify you', text: 'Your identity could not be verified with the details given.' },
  error: {
    title: 'Something went wrong',
    text: 'We could not complete the verification right now. Please try again later.',
  },
}

export function resultPage(link: HostedLink, job: Job): string {
  if (job.status === 'processing') {
    return layout(
      'Checking your details',
      `
<h1>Checking your details…</h1>
<p class="outcome" data-status="processing">This takes a few seconds. The page refreshes by itself.</p>`,
      link,
      '\n<meta http-equiv="refresh" content="1">',
    )
  }
  const outcome = OUTCOMES[job.status]!
  const next = link.redirectUrl
    ? `${link.redirectUrl}${link.redirectUrl.includes('?') ? '&' : '?'}job_id=${job.id}&status=${job.status}`
    : undefined
  return layout(
    outcome.title,
    `
<h1 class="status-${job.status}">${escapeHtml(outcome.title)}</h1>
<p class="outcome" data-status="${escapeHtml(job.status)}">${escapeHtml(outcome.text)}</p>
<p class="hint">Reference: <code>${escapeHtml(job.id)}</code></p>
${next ? `<a class="button" href="${escapeHtml(next)}">Continue</a>` : ''}`,
    link,
  )
}

export function messagePage(title: string, text: string, link?: HostedLink): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p class="outcome">${escapeHtml(text)}</p>`, link)
}
