import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { listDesktops } from '../../modules/desktops/service.ts'
import { JOB_METHODS } from '../../modules/jobs/router.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { htmlResponse, redirect } from '../http.ts'
import { JsonField } from '../ui/json-field.tsx'
import { Csrf, Layout } from '../ui/layout.tsx'
import { Notice, PageHead } from '../ui/parts.tsx'
import { type FormField, teachFromForm } from './teach-call.ts'

type Form = Record<string, string | undefined>

const EXAMPLE_INPUT = '{\n  "email": "ada@example.com",\n  "name": "Ada Lovelace"\n}'

function CreateJobPage(props: {
  signedIn: SignedIn
  workspace: string
  desktops: string[]
  values?: Form
  error?: { field: FormField | null; message: string }
}) {
  const v = props.values ?? {}
  const err = props.error
  const method = v.method ?? 'POST'
  return (
    <Layout title="Create a job" section="create" signedIn={props.signedIn} workspace={props.workspace}>
      <PageHead
        title="Create a job"
        sub="Describe the task and give one example input: deskhook learns it on a desktop and opens the build, where you can follow it and answer its questions."
      />
      <form method="post" action="/_/jobs/new" class="stack create-job">
        <Csrf signedIn={props.signedIn} />
        {err && err.field !== 'input' && err.field !== 'expect' && (
          <Notice kind="error">{err.message}</Notice>
        )}
        <label>
          What should the job do?
          <textarea
            name="prompt"
            rows={3}
            required
            maxLength={4000}
            aria-invalid={err?.field === 'prompt' ? 'true' : undefined}
          >
            {v.prompt ?? ''}
          </textarea>
          <span class="small muted">
            e.g. “Create a customer in the CRM from the input and return its customer number”
          </span>
        </label>
        <div class="route-fields">
          <label>
            Method
            <select name="method">
              {JOB_METHODS.map((m) => (
                <option value={m} key={m} selected={m === method}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label class="grow">
            Path
            <input
              name="path"
              required
              maxLength={1000}
              placeholder="/customers"
              value={v.path ?? ''}
              aria-invalid={err?.field === 'path' ? 'true' : undefined}
            />
          </label>
        </div>
        <p class="small muted">
          Callers will use this method and path. <code>:name</code> marks a parameter (
          <code>/customers/:id</code>
          ). Paths starting with <code>/_</code> and <code>/swagger.json</code> belong to deskhook. A path
          that already has a job adds this example to it.
        </p>
        <JsonField
          name="input"
          label="Example input (JSON)"
          value={v.input ?? EXAMPLE_INPUT}
          error={err?.field === 'input' ? err.message : undefined}
        />
        <details open={Boolean(v.expect?.trim()) || err?.field === 'expect'}>
          <summary>What it should return (optional)</summary>
          <JsonField
            name="expect"
            label={
              <span>
                Expected result (JSON; <code>{'{"$type": "string"}'}</code> for a value the app generates)
              </span>
            }
            value={v.expect ?? ''}
            optional
            rows={4}
            error={err?.field === 'expect' ? err.message : undefined}
          />
        </details>
        <label>
          Desktop <span class="muted">(optional: which connected desktop learns it)</span>
          <input
            name="desktop"
            list="desktop-names"
            maxLength={200}
            value={v.desktop ?? ''}
            autocomplete="off"
          />
          <datalist id="desktop-names">
            {props.desktops.map((d) => (
              <option value={d} key={d} />
            ))}
          </datalist>
        </label>
        <div>
          <button type="submit">Teach it</button>
        </div>
      </form>
    </Layout>
  )
}

/** Creating a job is a teaching call made from a form; members may do it. */
export const createJobPage = (ctx: AppContext) => {
  const page = (
    request: Request,
    extra: { values?: Form; error?: { field: FormField | null; message: string } } = {},
    status = 200,
  ) =>
    htmlResponse(
      <CreateJobPage
        signedIn={requestState(request).signedIn!}
        workspace={workspaceName(ctx)}
        desktops={listDesktops(ctx)
          .filter((d) => !d.revokedAt)
          .map((d) => d.name)}
        {...extra}
      />,
      { status },
    )
  return new Elysia({ name: 'dashboard.create-job' })
    .get('/_/jobs/new', ({ request }) => page(request))
    .post('/_/jobs/new', ({ request, body }) => {
      const form = (body ?? {}) as Form
      const method = (form.method ?? '').toUpperCase()
      if (!(JOB_METHODS as readonly string[]).includes(method))
        return page(
          request,
          { values: form, error: { field: 'method', message: `Choose one of ${JOB_METHODS.join(', ')}` } },
          400,
        )
      if (!form.prompt?.trim())
        return page(
          request,
          { values: form, error: { field: 'prompt', message: 'Describe what the job should do' } },
          400,
        )
      const outcome = teachFromForm(ctx, {
        method,
        path: form.path ?? '',
        prompt: form.prompt,
        desktop: form.desktop,
        input: form.input ?? '',
        expect: form.expect,
      })
      if (outcome.ok) return redirect(`/_/builds/${outcome.result.response.buildId}`)
      return page(request, { values: form, error: outcome }, outcome.status)
    })
}
