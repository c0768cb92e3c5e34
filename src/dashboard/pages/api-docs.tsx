import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { assets } from '../assets.ts'
import { CSP, htmlResponse } from '../http.ts'
import { Layout } from '../ui/layout.tsx'
import { PageHead } from '../ui/parts.tsx'

/**
 * Swagger UI positions and sizes its parts with inline styles, so this page alone allows them.
 * Scripts stay as strict as everywhere else: no inline script, only this origin's files.
 */
export const API_DOCS_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
if (API_DOCS_CSP === CSP) throw new Error('the dashboard CSP has no style-src to widen for Swagger UI')

export function ApiDocsPage(props: { signedIn: SignedIn; workspace: string }) {
  return (
    <Layout
      title="API docs"
      section="api"
      signedIn={props.signedIn}
      workspace={props.workspace}
      styles={[assets.swaggerCss.url]}
    >
      <PageHead
        title="API docs"
        sub={
          <>
            Every job as an HTTP operation, from <a href="/swagger.json">/swagger.json</a> (OpenAPI 3.1).
            Every path needs an API key in the <code>x-api-key</code> header except /swagger.json and
            /_health: to try one here, choose Authorize and paste a key.
          </>
        }
      />
      {/* Filled by the api-docs island once the Swagger UI bundle below has loaded. */}
      <div id="swagger-ui" class="api-docs">
        <p class="muted">Loading the API document…</p>
      </div>
      <script src={assets.swaggerJs.url} data-swagger-ui />
    </Layout>
  )
}

export const apiDocsPage = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.api-docs' }).get('/_/api', ({ request }) =>
    htmlResponse(<ApiDocsPage signedIn={requestState(request).signedIn!} workspace={workspaceName(ctx)} />, {
      csp: API_DOCS_CSP,
    }),
  )
