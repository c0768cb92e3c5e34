// Bun imports these as strings (`with { type: 'text' }`) and embeds them in compiled binaries.
declare module '*.sql' {
  const text: string
  export default text
}
declare module '*.html' {
  const text: string
  export default text
}
