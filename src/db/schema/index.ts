export * from './api-keys.ts'
export * from './builds.ts'
export * from './jobs.ts'
export * from './settings.ts'
