export { BrowserDriver, type BrowserDriverOptions } from './browser-driver.ts'
export { defaultExecutablePath } from './launch-browser.ts'
