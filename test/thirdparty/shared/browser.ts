// A cookie-keeping HTTP client for the third-party apps' smoke scripts: signs in over plain HTTP
// as a browser would (form posts, redirects followed by GET, cookies kept and expired).
export class Browser {
  cookies = new Map<string, string>()
  async get(url: string): Promise<{ status: number; text: string; location: string | null }> {
    return this.send(url, { method: 'GET' })
  }
  async post(url: string, form: Record<string, string>) {
    return this.send(url, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
  }
  async send(url: string, init: RequestInit) {
    for (let hops = 0; ; hops++) {
      const res = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: this.header() },
      })
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';')
        const eq = pair!.indexOf('=')
        const name = pair!.slice(0, eq).trim()
        const value = pair!.slice(eq + 1).trim()
        if (value === 'deleted' || /expires=Thu, 01[- ]Jan[- ]1970/i.test(c)) this.cookies.delete(name)
        else this.cookies.set(name, value)
      }
      const location = res.headers.get('location')
      if (location && res.status >= 300 && res.status < 400 && hops < 5) {
        url = new URL(location, url).toString()
        init = { method: 'GET' }
        continue
      }
      return { status: res.status, text: await res.text(), location }
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}
