import type { Job } from '../../modules/jobs/service.ts'
import type { AppSpec, Automation, Step } from '../../protocol/automation.ts'
import { Badge, Empty } from '../ui/parts.tsx'
import { appInWords, conditionInWords, stepInWords } from '../ui/steps-in-words.ts'
import type { VersionView } from './job-data.ts'

const StepList = ({ steps, app }: { steps: Step[]; app: AppSpec }) =>
  steps.length === 0 ? (
    <p class="muted small">No steps.</p>
  ) : (
    <ol class="steps">
      {steps.map((step, i) => (
        <li key={i} title={step.name}>
          {stepInWords(step, app)}
        </li>
      ))}
    </ol>
  )

const outputsLine = (outputs: Record<string, string> | undefined, reads: Step[]) => {
  const keys = [
    ...new Set([...reads.flatMap((s) => (s.kind === 'read' ? [s.into] : [])), ...Object.keys(outputs ?? {})]),
  ]
  return keys.length ? `Returns ${keys.join(', ')}` : 'Returns nothing'
}

export function StepsSection(props: { version: VersionView | undefined; job: Job }) {
  const { version, job } = props
  const a = version?.automation
  return (
    <section class="card" aria-labelledby="steps-h">
      <h2 id="steps-h">
        Steps
        {version && (
          <span class="muted small">
            {' '}
            (version {version.version}
            {job.mode === 'live' && job.liveVersion === version.version ? ', live' : ', draft'})
          </span>
        )}
      </h2>
      {!version ? (
        <Empty>No automation yet: the first successful build writes one.</Empty>
      ) : !a ? (
        <UnreadableAutomation problems={version.problems} />
      ) : (
        <AutomationInWords a={a} />
      )}
      {job.mode === 'live' && job.draftVersion !== null && job.draftVersion !== job.liveVersion && (
        <p class="small muted">
          Draft version {job.draftVersion} is newer than the live one: promote it to make live calls use it.
        </p>
      )}
    </section>
  )
}

function AutomationInWords({ a }: { a: Automation }) {
  return (
    <div>
      <p class="small muted">App: {appInWords(a.app)}</p>
      {a.signIn && (
        <div class="scenario-steps">
          <h3>Sign-in</h3>
          <p class="small muted">
            Whenever the app shows its sign-in form ({conditionInWords(a.signIn.when)}), before the steps or
            during them, with the job’s secrets:
          </p>
          <StepList steps={a.signIn.steps} app={a.app} />
        </div>
      )}
      <StepList steps={a.steps} app={a.app} />
      <p class="small">{outputsLine(a.outputs, a.steps)}</p>
      {a.scenarios.map((s) => (
        <div key={s.name} class="scenario-steps">
          <h3>
            Scenario “{s.name}”{' '}
            <Badge value={s.outcome === 'failure' ? 'failed' : s.outcome} label={s.outcome} />
          </h3>
          {s.when && <p class="small muted">When {conditionInWords(s.when)}</p>}
          <StepList steps={s.steps} app={a.app} />
          <p class="small">{outputsLine(s.outputs, s.steps)}</p>
        </div>
      ))}
    </div>
  )
}

const UnreadableAutomation = ({ problems }: { problems: string[] }) => (
  <div class="notice notice-error" role="status">
    <p>This version's automation does not read as one this server knows:</p>
    <ul class="small">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  </div>
)
