import type { DesktopPort } from '../../builder/contract.ts'
import { BuildCancelled } from './build-io.ts'

/**
 * The builder's desktop for one build: once the build is cancelled every call, and any call still
 * waiting on the agent, throws BuildCancelled, so the builder stops at its next step and never
 * acts on a desktop it has given back.
 */
export function abortablePort(port: DesktopPort, signal: AbortSignal): DesktopPort {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (signal.aborted) return Promise.reject(new BuildCancelled('the build was cancelled'))
      return new Promise<R>((resolve, reject) => {
        const onAbort = () => reject(new BuildCancelled('the build was cancelled'))
        signal.addEventListener('abort', onAbort, { once: true })
        call(...args).then(
          (value) => {
            signal.removeEventListener('abort', onAbort)
            resolve(value)
          },
          (err) => {
            signal.removeEventListener('abort', onAbort)
            reject(err)
          },
        )
      })
    }
  return {
    name: port.name,
    listWindows: guard(port.listWindows.bind(port)),
    launch: guard(port.launch.bind(port)),
    navigate: guard(port.navigate.bind(port)),
    snapshot: guard(port.snapshot.bind(port)),
    act: guard(port.act.bind(port)),
    waitForChange: guard(port.waitForChange.bind(port)),
    ...(port.clearSession ? { clearSession: guard(port.clearSession.bind(port)) } : {}),
    run: guard(port.run.bind(port)),
  }
}
