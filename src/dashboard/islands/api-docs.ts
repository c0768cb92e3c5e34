/** What the vendored Swagger UI bundle puts on window (only what this island uses). */
interface SwaggerRequest {
  url: string
}
type SwaggerUIBundle = (options: {
  url: string
  dom_id: string
  deepLinking?: boolean
  validatorUrl?: string | null
  requestInterceptor?: (request: SwaggerRequest) => SwaggerRequest
  plugins?: { wrapComponents: Record<string, () => () => null> }[]
}) => unknown

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUIBundle
  }
}

/**
 * The API docs page: `#swagger-ui` is filled by the vendored Swagger UI, started once its bundle
 * (`<script data-swagger-ui>`) has run.
 */
export function startApiDocs(): void {
  const root = document.getElementById('swagger-ui')
  if (!root) return
  new MutationObserver(() => fixControls(root)).observe(root, { childList: true, subtree: true })
  if (window.SwaggerUIBundle) return show(window.SwaggerUIBundle)
  document
    .querySelector('script[data-swagger-ui]')
    ?.addEventListener('load', () => window.SwaggerUIBundle && show(window.SwaggerUIBundle))
}

const hidden = () => () => null

/**
 * Accessibility repairs to Swagger UI's markup (axe-core findings): names it leaves out or
 * contradicts (its dialog's close icon has none; "Authorize" buttons are labelled "Apply
 * credentials"), scrolling response boxes the keyboard cannot reach, a second main landmark.
 */
const LABELS: [selector: string, label: string][] = [
  ['button.close-modal:not([aria-label])', 'Close'],
  ['button[aria-label="Apply credentials"]', 'Authorize (apply credentials)'],
  ['button[aria-label="Remove authorization"]', 'Logout (remove authorization)'],
]

function fixControls(root: HTMLElement): void {
  for (const [selector, label] of LABELS)
    root.querySelectorAll(selector).forEach((el) => {
      el.setAttribute('aria-label', label)
    })
  root.querySelectorAll('.highlight-code > pre:not([tabindex])').forEach((el) => {
    el.setAttribute('tabindex', '0')
  })
  // Its operations list is a <main> inside the page's own <main>.
  root.querySelectorAll('main:not([role])').forEach((el) => {
    el.setAttribute('role', 'region')
    el.setAttribute('aria-label', 'Operations')
  })
}

function show(swaggerUI: SwaggerUIBundle): void {
  swaggerUI({
    url: '/swagger.json',
    dom_id: '#swagger-ui',
    // Deep links put a link inside each operation's expand button (nested controls).
    deepLinking: false,
    // The default validator is a public web service: nothing leaves this network.
    validatorUrl: null,
    // The page has its own title (one h1) and says what the document's info block says; the
    // server choice is moot, since every call goes to this origin (see requestInterceptor).
    plugins: [{ wrapComponents: { InfoContainer: hidden, ServersContainer: hidden } }],
    // The document names the server's public URL; the page may only call its own origin (CSP),
    // which is the same server reached by another name.
    requestInterceptor: (request) => {
      const url = new URL(request.url, location.href)
      if (url.origin !== location.origin) request.url = `${location.origin}${url.pathname}${url.search}`
      return request
    },
  })
}
