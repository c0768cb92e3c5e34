import { type Latency, summarize } from './stats.ts'

/** A WebSocket client (Bun's, the one FakeAgent uses) that sends a message and awaits its echo. */
class EchoClient {
  #ws: WebSocket
  #pending?: () => void
  readonly opened: Promise<void>

  constructor(url: string) {
    this.#ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`)
    this.opened = new Promise((resolve, reject) => {
      this.#ws.onopen = () => resolve()
      this.#ws.onerror = () => reject(new Error(`WebSocket to ${url} failed`))
    })
    this.#ws.onmessage = () => this.#pending?.()
  }

  roundTrip(payload: string): Promise<void> {
    return new Promise((resolve) => {
      this.#pending = resolve
      this.#ws.send(payload)
    })
  }

  close(): void {
    this.#ws.close()
  }
}

// About the size of a `run` message for a three-step automation.
const PAYLOAD = JSON.stringify({ type: 'run', runId: crypto.randomUUID(), pad: 'x'.repeat(400) })

/** Strict ping-pong on one connection: the transport's own round-trip time. */
export async function echoLatency(url: string, iterations: number, warmup: number): Promise<Latency> {
  const client = new EchoClient(url)
  await client.opened
  const samples: number[] = []
  for (let i = 0; i < warmup + iterations; i++) {
    const t0 = performance.now()
    await client.roundTrip(PAYLOAD)
    if (i >= warmup) samples.push(performance.now() - t0)
  }
  client.close()
  return summarize(samples)
}

/** `clients` connections ping-ponging at once for a fixed time: round trips per second. */
export async function echoThroughput(url: string, clients: number, durationMs: number): Promise<number> {
  const all = Array.from({ length: clients }, () => new EchoClient(url))
  await Promise.all(all.map((c) => c.opened))
  let trips = 0
  const t0 = performance.now()
  const end = t0 + durationMs
  await Promise.all(
    all.map(async (c) => {
      while (performance.now() < end) {
        await c.roundTrip(PAYLOAD)
        trips++
      }
    }),
  )
  const elapsedS = (performance.now() - t0) / 1000
  for (const c of all) c.close()
  return trips / elapsedS
}
