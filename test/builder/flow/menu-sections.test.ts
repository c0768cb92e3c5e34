// A control named only by an action ("Add New") is read with the name of the menu entry it sits
// in ("Posts › Add New"), as a person reads a menu; a control whose name says more is read as it is.
import { describe, expect, test } from 'bun:test'
import { indexTree } from '../../../src/automation/index.ts'
import { moveScore, sectionName } from '../../../src/builder/explore/explore-moves.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { el } from '../../helpers/elements.ts'

const menu = el('list', '', [
  el('listitem', '', [
    el('link', 'Posts'),
    el('list', '', [
      el('listitem', '', [el('link', 'All Posts')]),
      el('listitem', '', [el('link', 'Add New')]),
    ]),
  ]),
  el('listitem', '', [el('link', 'Pages'), el('list', '', [el('listitem', '', [el('link', 'Add New')])])]),
  el('listitem', '', [el('link', 'New')]),
])
const index = indexTree(menu)
const links = index.all.filter((e) => e.role === 'link')
const [, allPosts, addPost, , addPage, lone] = links

describe('menu sections', () => {
  test('“Add New” under “Posts” is the posts’ Add New; under “Pages”, the pages’', () => {
    expect(sectionName(index, addPost!)).toBe('Posts')
    expect(sectionName(index, addPage!)).toBe('Pages')
    const reading = readPrompt('Write a blog post with the given title and text')
    const scored = (e: typeof addPost) => moveScore(reading, `${sectionName(index, e!) ?? ''} ${e!.name}`)
    expect(scored(addPost)).toBeGreaterThan(moveScore(reading, 'Posts'))
    expect(scored(addPost)).toBeGreaterThan(scored(addPage))
  })

  test('a name that says more, or no section around it, is read as it is', () => {
    expect(sectionName(index, allPosts!)).toBeUndefined()
    expect(sectionName(index, lone!)).toBeUndefined()
  })
})
