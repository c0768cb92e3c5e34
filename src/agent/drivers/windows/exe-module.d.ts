// `import path from './x.exe' with { type: 'file' }`: Bun gives the file's path (inside a compiled
// executable, a path into it).
declare module '*.exe' {
  const path: string
  export default path
}
