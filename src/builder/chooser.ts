// Controls that open a chooser: the submit never is one, and exploring never opens one (docs/builder.md).
/**
 * A button that opens a chooser (a colour, a font, a file, a date) sets one value of the form; it
 * never sends it, whatever else its name says ("Pick a Color", "Select File…", "Browse…").
 */
export function opensChooser(name: string): boolean {
  const text = name.trim().replace(/[.…]+$/, '')
  return (
    /^(browse|colou?rs?|fonts?|icon|image|picture|photo|avatar)$/i.test(text) ||
    /\b(pick|choose|select|browse|change|set)\b.*\b(colou?rs?|fonts?|files?|folders?|directory|date|time|icons?|image|picture|photo|avatar)\b/i.test(
      text,
    )
  )
}
