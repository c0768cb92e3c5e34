// The masking itself is framework-free (the agent masks its own journal with it): it lives in lib.
export { MASK, type ScrubMode, scrubSecrets, templateSecrets } from '../../lib/scrub-secrets.ts'
