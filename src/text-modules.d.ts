// Bun imports these as strings (`with { type: 'text' }`) and embeds them in compiled binaries.
declare module '*.sql' {
  const text: string
  export default text
}
declare module '*.html' {
  const text: string
  export default text
}
declare module '*.css' {
  const text: string
  export default text
}
declare module '*.svg' {
  const text: string
  export default text
}
declare module '*/dist/dashboard.js' {
  const text: string
  export default text
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string
  export default text
}
declare module '*.py' {
  const text: string
  export default text
}
