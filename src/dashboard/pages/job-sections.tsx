import type { Job } from '../../modules/jobs/service.ts'
import { LIVE_WINDOW, type StabilityBreakdown } from '../../modules/jobs/stability.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { Csrf } from '../ui/layout.tsx'
import { Badge, Empty, Json, Time } from '../ui/parts.tsx'
import { isEmptyDiff, type VersionDiff } from '../ui/version-diff.ts'
import type { BuildRow, RunRow, SampleView, ScenarioDetail, VersionView } from './job-data.ts'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`

export function StabilitySection(props: {
  score: number
  b: StabilityBreakdown
  scenarios: ScenarioDetail[]
}) {
  const { b } = props
  return (
    <section class="card" aria-labelledby="stability-h">
      <h2 id="stability-h">
        Stability <span class="score">{props.score}</span>
        <span class="muted small"> / 100</span>
      </h2>
      <p class="small">
        Score = 100 × pass rate × (1 − 0.5<sup>S</sup> × 0.85<sup>N−S</sup>): each scenario with a passing
        sample halves the remaining doubt, each further passing sample of a known scenario removes 15% of it.
      </p>
      <ul class="small formula">
        <li>
          N = {plural(b.passing, 'passing sample')} of {b.samples} taught; S ={' '}
          {plural(b.scenariosPassing, 'scenario')} with a passing sample → {b.base} from the samples
        </li>
        <li>
          Pass rate {pct(b.passRate)} = ({b.passing} passing samples + {b.liveOk} good live runs) / (
          {b.samples} samples + {b.liveResults} live results, the last {LIVE_WINDOW} at most)
        </li>
        <li>
          {b.base} × {pct(b.passRate)} = <strong>{b.score}</strong>
          {b.score !== props.score && (
            <span class="muted"> (the stored score catches up after the next build or live run)</span>
          )}
        </li>
      </ul>
      {props.scenarios.length === 0 ? (
        <Empty>No samples yet: teach one below.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Scenario</th>
                <th scope="col">Samples</th>
                <th scope="col">Passing</th>
                <th scope="col">Last result</th>
              </tr>
            </thead>
            <tbody>
              {props.scenarios.map((s) => (
                <tr key={s.name}>
                  <td>{s.name}</td>
                  <td>{s.samples}</td>
                  <td>{s.passing}</td>
                  <td>
                    {s.last?.source === 'run' ? (
                      <a href={`/_/runs/${s.last.seq}`}>
                        <Badge value={s.last.status} /> live run #{s.last.seq}, <Time at={s.last.at} />
                      </a>
                    ) : s.last ? (
                      <span>
                        <Badge value={s.last.status} /> sample, <Time at={s.last.at} />
                      </span>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

function DiffSummary({ diff, first }: { diff: VersionDiff | null; first: boolean }) {
  if (first) return <span class="muted">First version</span>
  if (!diff) return <span class="muted">Not compared</span>
  if (isEmptyDiff(diff)) return <span class="muted">No step changes</span>
  const rows: [string, string, string[]][] = [
    ['diff-add', 'Added', diff.added],
    ['diff-del', 'Removed', diff.removed],
    ['diff-chg', 'Changed', diff.changed],
    ['diff-add', 'New scenario', diff.scenariosAdded],
    ['diff-del', 'Scenario gone', diff.scenariosRemoved],
  ]
  return (
    <ul class="diff small">
      {rows
        .filter(([, , names]) => names.length)
        .flatMap(([cls, what, names]) =>
          names.map((n) => (
            <li key={`${what}:${n}`} class={cls}>
              {what}: {n}
            </li>
          )),
        )}
      {diff.appChanged && <li class="diff-chg">The app it opens changed</li>}
      {diff.outputsChanged && <li class="diff-chg">Its outputs changed</li>}
    </ul>
  )
}

export function VersionsSection(props: {
  job: Job
  versions: VersionView[]
  count: number
  signedIn: SignedIn
}) {
  const { job } = props
  const liveNow = job.mode === 'live' ? job.liveVersion : null
  return (
    <section aria-labelledby="versions-h">
      <h2 id="versions-h">Versions</h2>
      {props.versions.length === 0 ? (
        <Empty>No versions yet: each successful build saves one.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Saved</th>
                <th scope="col">What changed</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {props.versions.map((v) => (
                <tr key={v.version}>
                  <td>
                    v{v.version} {liveNow === v.version && <Badge value="live" />}
                    {job.draftVersion === v.version && liveNow !== v.version && <Badge value="draft" />}
                  </td>
                  <td>
                    <Time at={v.createdAt} />
                    {v.buildId && (
                      <div class="small">
                        <a href={`/_/builds/${v.buildId}`}>its build</a>
                      </div>
                    )}
                  </td>
                  <td>
                    <DiffSummary diff={v.diff} first={v.version === 1} />
                  </td>
                  <td>
                    {liveNow !== v.version && (
                      <form
                        method="post"
                        action={`/_/jobs/${job.id}/rollback`}
                        data-confirm={`Live calls of ${job.method} ${job.path} will run version ${v.version}. Continue?`}
                      >
                        <Csrf signedIn={props.signedIn} />
                        <input type="hidden" name="version" value={String(v.version)} />
                        <button type="submit" class="secondary">
                          {liveNow !== null && v.version < liveNow
                            ? `Roll back to version ${v.version}`
                            : `Make version ${v.version} live`}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.count > props.versions.length && (
        <p class="small muted">
          Showing the newest {props.versions.length} of {props.count} versions.
        </p>
      )}
    </section>
  )
}

export function SamplesSection({ samples, count }: { samples: SampleView[]; count: number }) {
  return (
    <section aria-labelledby="samples-h">
      <h2 id="samples-h">Samples</h2>
      {samples.length === 0 ? (
        <Empty>No samples yet.</Empty>
      ) : (
        <ul class="samples">
          {samples.map((s) => (
            <li key={s.id} class="card">
              <div class="sample-head">
                <Badge value={s.status} /> <strong>{s.scenario ?? 'not placed yet'}</strong>{' '}
                <span class="muted small">
                  taught <Time at={s.createdAt} />
                </span>
              </div>
              {s.prompt && <p class="small muted">“{s.prompt}”</p>}
              <div class="grid2">
                <div>
                  <h3>Input</h3>
                  <Json value={s.body} />
                  {Object.keys(s.params).length > 0 && (
                    <p class="small">
                      Path parameters: <code>{JSON.stringify(s.params)}</code>
                    </p>
                  )}
                  {Object.keys(s.headers).length > 0 && (
                    <details>
                      <summary>Headers</summary>
                      <Json value={s.headers} />
                    </details>
                  )}
                </div>
                <div>
                  <h3>Expected</h3>
                  {s.expect ? <Json value={s.expect} /> : <p class="muted small">Nothing stated</p>}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {count > samples.length && (
        <p class="small muted">
          Showing the newest {samples.length} of {count} samples.
        </p>
      )}
    </section>
  )
}

export function RunsAndBuilds({ runs, builds }: { runs: RunRow[]; builds: BuildRow[] }) {
  return (
    <div class="grid2">
      <section aria-labelledby="runs-h">
        <h2 id="runs-h">Recent runs</h2>
        {runs.length === 0 ? (
          <Empty>No live runs yet.</Empty>
        ) : (
          <ul class="plain-list">
            {runs.map((r) => (
              <li key={r.seq}>
                <a href={`/_/runs/${r.seq}`}>
                  Run #{r.seq} <Badge value={r.status} />
                </a>{' '}
                <span class="muted small">
                  <Time at={r.finishedAt ?? r.queuedAt} /> · v{r.jobVersion}
                  {r.scenario ? ` · ${r.scenario}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="builds-h">
        <h2 id="builds-h">Recent builds</h2>
        {builds.length === 0 ? (
          <Empty>No builds yet.</Empty>
        ) : (
          <ul class="plain-list">
            {builds.map((b) => (
              <li key={b.id}>
                <a href={`/_/builds/${b.id}`}>
                  Build <Badge value={b.status} />
                </a>{' '}
                <span class="muted small">
                  <Time at={b.createdAt} />
                  {b.scenario ? ` · ${b.scenario}` : ''}
                  {b.error ? ` · ${b.error.message}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
