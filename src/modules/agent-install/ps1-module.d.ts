// The installer templates are imported as strings (`with { type: 'text' }`), so the compiled
// server embeds them (as src/text-modules.d.ts does for the other text files).
declare module '*.ps1' {
  const text: string
  export default text
}
