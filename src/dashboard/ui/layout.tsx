import type { ComponentChildren } from 'preact'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { assets } from '../assets.ts'

export type Section = 'jobs' | 'runs' | 'desktops' | 'create' | 'settings' | 'api' | 'none'

const NAV: { section: Section; href: string; label: string; admin?: boolean }[] = [
  { section: 'jobs', href: '/_/', label: 'Jobs' },
  { section: 'runs', href: '/_/runs', label: 'Runs' },
  { section: 'desktops', href: '/_/desktops', label: 'Desktops' },
  { section: 'create', href: '/_/jobs/new', label: 'Create a job' },
  { section: 'settings', href: '/_/settings', label: 'Settings', admin: true },
  { section: 'api', href: '/_/api', label: 'API docs' },
]

/** The page frame: header with navigation and the person's menu, then the page's content. */
export function Layout(props: {
  title: string
  section?: Section
  signedIn?: SignedIn
  workspace?: string
  /** Extra stylesheets (the API docs page). */
  styles?: string[]
  children: ComponentChildren
}) {
  const { signedIn } = props
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · deskhook`}</title>
        <link rel="icon" href={assets.icon.url} type="image/svg+xml" />
        <link rel="stylesheet" href={assets.css.url} />
        {props.styles?.map((href) => (
          <link rel="stylesheet" href={href} key={href} />
        ))}
        {signedIn && <meta name="csrf-token" content={signedIn.csrf} />}
        <script type="module" src={assets.js.url} />
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/_/">
            <img src={assets.icon.url} alt="" width={24} height={24} />
            <span>{props.workspace || 'deskhook'}</span>
          </a>
          {signedIn && (
            <nav aria-label="Main">
              {NAV.filter((n) => !n.admin || signedIn.user.role === 'admin').map((n) => (
                <a href={n.href} key={n.href} aria-current={props.section === n.section ? 'page' : undefined}>
                  {n.label}
                </a>
              ))}
            </nav>
          )}
          {signedIn && (
            <form method="post" action="/_/sign-out" class="who">
              <input type="hidden" name="_csrf" value={signedIn.csrf} />
              <span title={signedIn.user.role}>{signedIn.user.email}</span>
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          )}
        </header>
        <main id="main">{props.children}</main>
      </body>
    </html>
  )
}

/** A hidden CSRF field for forms of signed-in pages. */
export const Csrf = ({ signedIn }: { signedIn: SignedIn }) => (
  <input type="hidden" name="_csrf" value={signedIn.csrf} />
)
