import { Badge, Json, Notice, Time } from '../ui/parts.tsx'
import type { RunDetail, RunStep } from './run-data.ts'
import { formatDuration } from './runs-data.ts'

// The run page's replay: the step timeline and one panel per step (screenshot, outline, result).
// Without script the timeline's links open `?step=n`; islands/replay.ts selects steps in place.

export const Duration = ({ ms }: { ms: number | undefined }) =>
  ms === undefined ? <span class="muted">—</span> : <span>{formatDuration(ms)}</span>

export const stepHref = (seq: number, n: number) => `/_/runs/${seq}?step=${n}`

function StepPanel({ run, step, selected }: { run: RunDetail; step: RunStep; selected: boolean }) {
  const index = run.steps.indexOf(step)
  const prev = run.steps[index - 1]
  const next = run.steps[index + 1]
  return (
    <section
      class="step-detail"
      data-step-panel={step.n}
      hidden={!selected}
      aria-labelledby={`step-${step.n}`}
    >
      <h3 id={`step-${step.n}`}>
        Step {step.n}: {step.name}
      </h3>
      <p class="step-meta">
        <Badge value={step.status} /> <Duration ms={step.durationMs} /> · started <Time at={step.startedAt} />
      </p>
      {step.screenshotUrl ? (
        <figure class="shot">
          <img
            src={step.screenshotUrl}
            alt={`The window after step ${step.n}: ${step.name}`}
            loading={selected ? 'eager' : 'lazy'}
            decoding="async"
          />
          {step.target && (
            <div
              class="outline"
              hidden
              data-x={step.target.x}
              data-y={step.target.y}
              data-width={step.target.width}
              data-height={step.target.height}
            />
          )}
        </figure>
      ) : (
        <p class="muted">No screenshot of this step (none was taken, or it was removed).</p>
      )}
      {step.error && (
        <Notice kind="error">
          <p>
            <strong>{String(step.error.code ?? 'Error')}</strong>: {String(step.error.message ?? '')}
          </p>
        </Notice>
      )}
      <h4>Result</h4>
      {step.result === null ? <p class="muted">—</p> : <Json value={step.result} />}
      <nav class="step-nav" aria-label={`Around step ${step.n}`}>
        {prev ? (
          <a href={stepHref(run.seq, prev.n)} data-step={prev.n}>
            ← Step {prev.n}
          </a>
        ) : (
          <span />
        )}
        {next && (
          <a href={stepHref(run.seq, next.n)} data-step={next.n}>
            Step {next.n} →
          </a>
        )}
      </nav>
    </section>
  )
}

export function Replay({ run, selected }: { run: RunDetail; selected: number | undefined }) {
  return (
    <div class="replay" data-replay>
      <nav aria-label="Steps" class="timeline-nav">
        <ol class="timeline">
          {run.steps.map((s) => (
            <li key={s.n}>
              <a
                href={stepHref(run.seq, s.n)}
                data-step={s.n}
                aria-current={s.n === selected ? 'step' : undefined}
              >
                <span class="step-n">{s.n}</span>
                <span class="step-name">{s.name}</span>
                <Badge value={s.status} />
                <span class="small muted">
                  <Duration ms={s.durationMs} />
                </span>
              </a>
            </li>
          ))}
        </ol>
        <p class="small muted">Use the ← and → keys to move through the steps.</p>
      </nav>
      <div class="step-panels">
        {run.steps.map((s) => (
          <StepPanel run={run} step={s} selected={s.n === selected} key={s.n} />
        ))}
      </div>
    </div>
  )
}
