// The UI Automation helper inside the agent: `bun build --compile --target=bun-windows-x64` embeds
// the file and this path then points into the executable. Imported only on Windows (see index.ts),
// so builds for other systems never need the exe. Built by `bun run build:uia-helper`.
import helperExe from './helper/bin/uia-helper.exe' with { type: 'file' }

export default helperExe
