// The dashboard's islands: each one wakes up on the elements that ask for it (data attributes),
// so one small module serves every page. Bundled by scripts/build-dashboard.ts.
import { startApiDocs } from './api-docs.ts'
import { startBuildLive } from './build-live.ts'
import { startConfirm, startCopy } from './common.ts'
import { startDemonstrate } from './demonstrate.ts'
import { startJsonInput } from './json-input.ts'
import { startPoint } from './point.ts'
import { startPreview } from './preview.ts'
import { startReplay } from './replay.ts'

startCopy()
startConfirm()
startBuildLive()
startPreview()
startDemonstrate()
startPoint()
startReplay()
startJsonInput()
startApiDocs()
