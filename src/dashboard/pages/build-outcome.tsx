import { Fragment } from 'preact'
import { Badge, Notice, Time } from '../ui/parts.tsx'
import type { BuildPageData, LearnedVersion } from './build-data.ts'

/** What a succeeded build taught the job: the version it wrote, path by path. */
function Learned({ learned, job }: { learned: LearnedVersion; job: NonNullable<BuildPageData['job']> }) {
  const where = learned.isLive ? 'live calls run it' : learned.isDraft ? 'the job’s draft' : 'since replaced'
  return (
    <>
      <p>
        Saved as{' '}
        <a href={`/_/jobs/${job.id}`}>
          version {learned.version} of {job.method} {job.path}
        </a>{' '}
        ({where}), <Time at={learned.createdAt} />: {learned.totalSteps} step
        {learned.totalSteps === 1 ? '' : 's'} in all
        {learned.stabilityScore !== null && (
          <>; the job’s stability score is now {Math.round(learned.stabilityScore)}/100</>
        )}
        .
      </p>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Scenario</th>
              <th scope="col">Outcome</th>
              <th scope="col">Steps</th>
              <th scope="col">Outputs</th>
            </tr>
          </thead>
          <tbody>
            {learned.paths.map((p) => (
              <tr key={p.name}>
                <td>
                  {p.name} {p.thisBuild && <Badge value="passing" label="this build" />}
                </td>
                <td>{p.outcome}</td>
                <td>{p.steps}</td>
                <td>
                  {p.outputs.length ? (
                    p.outputs.map((o, i) => (
                      <Fragment key={o}>
                        {i > 0 && ', '}
                        <code>{o}</code>
                      </Fragment>
                    ))
                  ) : (
                    <span class="muted">none</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!learned.isLive && job.mode !== 'live' && (
        <p class="small muted">
          Live calls run a version only once it is promoted: use “Promote to live” on the{' '}
          <a href={`/_/jobs/${job.id}`}>job page</a>.
        </p>
      )}
    </>
  )
}

/** A finished build's result: what the job learned, or why it failed. */
export function Outcome({ data }: { data: BuildPageData }) {
  const { build, job, learned } = data
  if (build.status === 'failed')
    return (
      <Notice kind="error">
        <p>
          The build failed: <code>{build.error?.code ?? 'UNKNOWN'}</code> {build.error?.message}
        </p>
      </Notice>
    )
  return (
    <>
      <Notice kind="ok">
        <p>
          The build succeeded: the sample ends in scenario <strong>{build.scenario ?? 'main'}</strong>.
        </p>
      </Notice>
      {learned && job ? (
        <Learned learned={learned} job={job} />
      ) : (
        <p class="muted">The version this build wrote is gone (the job was changed since).</p>
      )}
    </>
  )
}
