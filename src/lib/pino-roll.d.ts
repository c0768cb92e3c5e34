// pino-roll ships no types: the part of its API src/lib/log-file.ts uses (a SonicBoom stream).
declare module 'pino-roll' {
  import type SonicBoom from 'sonic-boom'
  export default function pinoRoll(options: {
    file: string
    extension?: string
    size?: string | number
    frequency?: string | number
    limit?: { count?: number; removeOtherLogFiles?: boolean }
    mkdir?: boolean
    /** SonicBoom's: each line written before the call returns. */
    sync?: boolean
  }): Promise<SonicBoom>
}
